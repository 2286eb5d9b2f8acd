"""What a network's model file holds, field by field (core.file_fields), and the checks that tie the
layers together: each layer's weights take the previous layer's units, the first the encoded columns,
the last gives the outputs the task needs."""

from ...core.file_fields import (Array, Bool, Curve, Each, Int, Labels, Optional, Real, Text, Texts, damaged)
from ...tabular.features import NUMERIC_STATE

MAX_LAYERS = 5  # the input, up to three hidden layers and the output

_NETWORK = {
    "n_layers_": Int(3, MAX_LAYERS, dim="n_layers"), "n_outputs_": Int(1, dim="n_outputs"),
    "coefs_": Each(Array("f", (None, None))), "intercepts_": Each(Array("f", (None,))),
    "n_iter_": Int(0), "t_": Int(0), "loss_": Optional(Real()), "loss_curve_": Curve(),
    "best_loss_": Optional(Real(finite=False)), "validation_scores_": Optional(Curve()),
    "best_validation_score_": Optional(Real(finite=False)), "converged_": Bool(), "warnings_": Texts(),
}
CLASSIFIER_STATE = {**NUMERIC_STATE, "classes_": Labels(), "out_activation_": Text("logistic", "softmax"),
                    **_NETWORK}
REGRESSOR_STATE = {**NUMERIC_STATE, "out_activation_": Text("identity"), **_NETWORK}


def check_network(model):
    """The layers chain: n_layers_ - 1 weight matrices, each (units before, units after) with a bias per
    unit after, from the encoded columns to n_outputs_ (1 for two classes or a regression, K for K > 2)."""
    L = model.n_layers_ - 1
    if len(model.coefs_) != L or len(model.intercepts_) != L:
        raise damaged("state.coefs_", f"must hold n_layers_ - 1 = {L} weight matrices and as many bias vectors; "
                                      f"got {len(model.coefs_)} and {len(model.intercepts_)}")
    units = len(model.feature_names_out_)
    for layer, (W, b) in enumerate(zip(model.coefs_, model.intercepts_)):
        if W.shape[0] != units or b.shape[0] != W.shape[1] or W.shape[1] < 1:
            raise damaged(f"state.coefs_[{layer}]", f"must be ({units}, k) with intercepts_[{layer}] of length k; "
                                                    f"got {W.shape} and {b.shape}")
        units = W.shape[1]
    classes = getattr(model, "classes_", None)
    needed = 1 if classes is None or len(classes) == 2 else len(classes)
    if units != model.n_outputs_ or units != needed:
        raise damaged("state.n_outputs_", f"must be the last layer's {units} units and {needed} for this task")
    if classes is not None and model.out_activation_ != ("logistic" if needed == 1 else "softmax"):
        raise damaged("state.out_activation_", f"must be {'logistic' if needed == 1 else 'softmax'} for "
                                               f"{len(classes)} classes")
    model.coefs_ = [W.astype(float) for W in model.coefs_]
    model.intercepts_ = [b.astype(float) for b in model.intercepts_]
