"""The neural networks: multi-layer perceptrons for classes and for a quantity, and their scikit-learn twins."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..network import MLPClassifier, MLPRegressor

# The parameters both libraries name and mean alike; pellucid's `trace` only records.
SHARED = ("activation", "solver", "alpha", "batch_size", "learning_rate", "learning_rate_init", "power_t",
          "max_iter", "shuffle", "random_state", "tol", "warm_start", "momentum", "nesterovs_momentum",
          "early_stopping", "validation_fraction", "beta_1", "beta_2", "epsilon", "n_iter_no_change")


def _settings(p):
    sizes = p["hidden_layer_sizes"]
    sizes = [int(sizes)] if isinstance(sizes, (int, float)) else [int(v) for v in sizes]  # a list: a script writes one
    return {"hidden_layer_sizes": sizes, **{name: p[name] for name in SHARED}}


def _classifier(sk, p, ctx):
    return sk.neural_network.MLPClassifier(**_settings(p))


def _regressor(sk, p, ctx):
    return sk.neural_network.MLPRegressor(**_settings(p))


def _trained(est):
    """The page's weights, to replace the ones scikit-learn's own fit reaches (same shapes, same order)."""
    return {"coefs_": [W.tolist() for W in est.coefs_], "intercepts_": [b.tolist() for b in est.intercepts_]}


def _notes(p):
    notes = ["The same network, loss (log-loss or half the squared error, plus alpha/(2n) times the sum of the "
             "squared weights), solver and stopping rules, with every parameter passed on: from the same "
             "starting weights the two take the same steps (tests/oracle/test_mlp_vs_sklearn.py).",
             "The starting weights are drawn from the same Glorot uniform range by different random "
             "generators (numpy's in pellucid, scikit-learn's RandomState), and so are the shuffled order "
             "and early stopping's held-out rows: the two fitted networks differ, and agree on average.",
             "So a script of a split (or of every row) then sets the page's trained weights on scikit-learn's "
             "network (USE_PAGE_STATE) and predicts as the page does; under k-fold each fold's network is "
             "scikit-learn's own."]
    if p["early_stopping"]:
        notes.append("scikit-learn stratifies the held-out rows only for two classes; pellucid does the same.")
    return notes


# Tune starts on the network's size against its penalty: a larger network fits more and alpha holds it back.
_TUNE = (("hidden_layer_sizes", ((8,), (32,), (32, 16))), ("alpha", (0.0001, 0.01, 1.0)))

# The page's form starts on 32 hidden units rather than scikit-learn's 100: 200 epochs of adam on a 5,000-row
# table of 4 features took 7.5 s with 100 units and 3.5 s with 32 (CPython; Pyodide is slower still), and 32
# units draw as a network one can read. A script or a call keeps scikit-learn's (100,).
_FORM = (("hidden_layer_sizes", (32,)),)

_SHARED = dict(group="Neural networks", scale_sensitive=True, steps="network", exercise="network_unit", tune=_TUNE,
               form_defaults=_FORM)

LEARNERS = (
    Learner(MLPClassifier, "Neural network (MLP)", task=Task.CLASSIFICATION,
            capabilities={"probabilities", "boundary", "network", "steps", "exercises"},
            sklearn=SklearnTwin(_classifier, _notes, trained=_trained),
            **_SHARED),
    Learner(MLPRegressor, "Neural network (regression)", task=Task.REGRESSION,
            capabilities={"boundary", "regression_fit", "network", "steps", "exercises"},
            sklearn=SklearnTwin(_regressor, _notes, trained=_trained),
            **_SHARED),
)
