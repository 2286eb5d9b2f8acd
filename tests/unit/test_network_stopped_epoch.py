"""What Cancel relies on to keep a network at the last epoch the page heard of (web/js/lifecycle.js): with
the same seed, a fit of max_iter = e ends with the weights and loss curve a longer fit had after epoch e."""

import warnings

import numpy as np
import pytest

from pellucid import MLPClassifier, MLPRegressor


@pytest.mark.parametrize("solver", ["adam", "sgd"])
@pytest.mark.parametrize("model", [MLPClassifier, MLPRegressor])
def test_training_again_to_an_epoch_makes_the_network_of_that_epoch(solver, model):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] * X[:, 1] > 0).astype(int) if model is MLPClassifier else X[:, 0] * X[:, 1]
    settings = {"hidden_layer_sizes": [8], "solver": solver, "tol": 0.0, "n_iter_no_change": 100, "random_state": 5}
    seen = {}
    longer = model(max_iter=40, **settings)
    longer.on_epoch = lambda epoch, flat: seen.setdefault(epoch, flat.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # neither fit converges: that is the point
        longer.fit(X, y)
        shorter = model(max_iter=17, **settings).fit(X, y)
    flat = np.concatenate([p.ravel() for p in shorter.coefs_ + shorter.intercepts_])
    np.testing.assert_array_equal(flat, seen[17])
    assert shorter.loss_curve_ == longer.loss_curve_[:17]
    assert not np.array_equal(flat, seen[40])  # the longer fit went on from there


def test_each_epoch_tells_the_page_its_number_and_the_loss_the_model_records(monkeypatch):
    """The live loss under the progress bar (web/js/live-loss.js) is the model's own loss_curve_, and the
    status line's "epoch e of m" is what Cancel reads to keep the network of epoch e."""
    import json
    from pellucid.host import progress
    said = []
    monkeypatch.setattr(progress, "_host_progress", lambda fraction, label, detail=None: said.append(
        (fraction, label, json.loads(detail) if detail else None)))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MLPClassifier(hidden_layer_sizes=[4], max_iter=12, tol=0.0, n_iter_no_change=50).fit(X, X[:, 0] > 0)
    assert [label for _, label, _ in said] == [f"epoch {e} of 12" for e in range(1, 13)]
    assert [d["loss"] for _, _, d in said] == model.loss_curve_
    assert [d["epoch"] for _, _, d in said] == list(range(1, 13))
    assert [f for f, _, _ in said] == pytest.approx([e / 12 for e in range(1, 13)])
