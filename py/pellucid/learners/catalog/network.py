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


def _notes(p):
    notes = ["The same network, loss (log-loss or half the squared error, plus alpha/(2n) times the sum of the "
             "squared weights), solver and stopping rules, with every parameter passed on: from the same "
             "starting weights the two take the same steps (tests/oracle/test_mlp_vs_sklearn.py).",
             "The starting weights are drawn from the same Glorot uniform range by different random "
             "generators (numpy's in pellucid, scikit-learn's RandomState), and so are the shuffled order "
             "and early stopping's held-out rows: the two fitted networks differ, and agree on average."]
    if p["early_stopping"]:
        notes.append("scikit-learn stratifies the held-out rows only for two classes; pellucid does the same.")
    return notes


LEARNERS = (
    Learner(MLPClassifier, "Neural network (MLP)", "Neural networks", Task.CLASSIFICATION,
            {"probabilities", "boundary"}, scale_sensitive=True, sklearn=SklearnTwin(_classifier, _notes)),
    Learner(MLPRegressor, "Neural network (regression)", "Neural networks", Task.REGRESSION,
            {"boundary", "regression_fit"}, scale_sensitive=True, sklearn=SklearnTwin(_regressor, _notes)),
)
