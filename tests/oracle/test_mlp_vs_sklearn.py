"""The networks against scikit-learn's MLPClassifier/MLPRegressor: from the same starting weights, the same
weights after each step and the same loss curve, for sgd (plain, momentum, Nesterov, the schedules) and
Adam, with L2 on; warm_start and partial_fit as scikit-learn's."""

import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
from sklearn.neural_network import MLPClassifier as SkMLPClassifier
from sklearn.neural_network import MLPRegressor as SkMLPRegressor

from pellucid import MLPClassifier, MLPRegressor
from pellucid.core.errors import ConvergenceWarning

RTOL = 1e-9


def data(kind, n=60, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if kind == "binary":
        return X, (X[:, 0] + X[:, 1] ** 2 > 0.5).astype(int)
    if kind == "three":
        return X, np.digitize(X[:, 0] - X[:, 2], [-0.6, 0.6])
    return X, np.sin(X[:, 0]) + X[:, 1] * X[:, 2]


def pair(kind, **params):
    """Both libraries' estimators with the same parameters and no early stop from tol."""
    params = {"tol": 0.0, "n_iter_no_change": 1000, "random_state": 0, **params}
    if kind == "regression":
        return SkMLPRegressor(**params), MLPRegressor(**params)
    return SkMLPClassifier(**params), MLPClassifier(**params)


def same_start(sk, ours, X, y):
    """Fit both once (to set them up), then give ours scikit-learn's weights and clear both records, so
    the next calls run from the same network with a new solver."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk.fit(X, y)
        ours.fit(X, y)
    ours.coefs_ = [W.copy() for W in sk.coefs_]
    ours.intercepts_ = [b.copy() for b in sk.intercepts_]
    for model in (sk, ours):
        model.loss_curve_, model.t_, model.best_loss_, model._no_improvement_count = [], 0, np.inf, 0
        if hasattr(model, "_optimizer"):
            del model._optimizer


def assert_same_network(sk, ours):
    for a, b in zip(sk.coefs_ + sk.intercepts_, ours.coefs_ + ours.intercepts_):
        np.testing.assert_allclose(b, a, rtol=RTOL, atol=1e-12)


SOLVERS = [
    {"solver": "sgd", "momentum": 0.0, "learning_rate_init": 0.1},
    {"solver": "sgd", "momentum": 0.9, "nesterovs_momentum": False, "learning_rate_init": 0.05},
    {"solver": "sgd", "momentum": 0.9, "nesterovs_momentum": True, "learning_rate_init": 0.05},
    {"solver": "sgd", "momentum": 0.5, "learning_rate": "invscaling", "learning_rate_init": 0.2},
    {"solver": "adam", "learning_rate_init": 0.01},
]
NETWORKS = [("binary", {"hidden_layer_sizes": (5,), "activation": "tanh"}),
            ("three", {"hidden_layer_sizes": (6, 4), "activation": "relu"}),
            ("three", {"hidden_layer_sizes": (3,), "activation": "logistic"}),
            ("regression", {"hidden_layer_sizes": (5, 3, 4), "activation": "tanh"}),
            ("regression", {"hidden_layer_sizes": (4,), "activation": "identity"})]


@pytest.mark.parametrize("trace", [False, True], ids=["fast", "readable"])
@pytest.mark.parametrize("solver", SOLVERS, ids=lambda s: f"{s['solver']}-{s.get('momentum')}-{s.get('learning_rate')}")
@pytest.mark.parametrize("kind, network", NETWORKS, ids=lambda v: v if isinstance(v, str) else v["activation"])
def test_full_batch_steps_match_step_by_step(kind, network, solver, trace):
    """Full-batch steps (batch_size = n, shuffle off): one partial_fit is one step of the solver; both the
    fast path and the readable one a trace runs."""
    X, y = data(kind)
    sk, ours = pair(kind, alpha=0.01, batch_size=len(X), shuffle=False, max_iter=1, **network, **solver)
    ours.set_params(trace=trace)
    same_start(sk, ours, X, y)
    for _ in range(20):
        sk.partial_fit(X, y)
        ours.partial_fit(X, y)
        assert_same_network(sk, ours)
    np.testing.assert_allclose(ours.loss_curve_, sk.loss_curve_, rtol=RTOL)
    assert ours.t_ == sk.t_ == 20 * len(X)


@pytest.mark.parametrize("kind", ["binary", "three", "regression"])
@pytest.mark.parametrize("solver", [SOLVERS[2], SOLVERS[4]], ids=["nesterov", "adam"])
def test_warm_start_mini_batches_match(kind, solver):
    """fit with warm_start from the same weights: mini-batches in order, 20 epochs, the same loss curve,
    weights and counters; the solver starts anew on each fit, as scikit-learn's does."""
    X, y = data(kind, n=90)
    sk, ours = pair(kind, alpha=0.001, batch_size=32, shuffle=False, max_iter=20, warm_start=True,
                    hidden_layer_sizes=(7, 3), **solver)
    same_start(sk, ours, X, y)
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SkConvergenceWarning)
            sk.fit(X, y)
        with pytest.warns(ConvergenceWarning, match="max_iter=20"):
            ours.fit(X, y)
        assert_same_network(sk, ours)
        np.testing.assert_allclose(ours.loss_curve_, sk.loss_curve_, rtol=RTOL)
        assert (ours.n_iter_, ours.t_) == (sk.n_iter_, sk.t_)
        np.testing.assert_allclose(ours.best_loss_, sk.best_loss_, rtol=RTOL)


def test_stopping_and_adaptive_schedule_match():
    """tol and n_iter_no_change stop both at the same epoch; the adaptive schedule divides the rate by 5
    the same way."""
    X, y = data("binary", n=80)
    params = {"solver": "sgd", "learning_rate": "adaptive", "learning_rate_init": 0.5, "momentum": 0.0,
              "batch_size": 80, "shuffle": False, "max_iter": 300, "hidden_layer_sizes": (4,), "alpha": 0.01,
              "warm_start": True}
    sk, ours = SkMLPClassifier(tol=1e-3, n_iter_no_change=3, **params), MLPClassifier(tol=1e-3, n_iter_no_change=3,
                                                                                      **params)
    same_start(sk, ours, X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk.fit(X, y)
        ours.fit(X, y)
    assert ours.n_iter_ == sk.n_iter_ < 300
    np.testing.assert_allclose(ours._optimizer.learning_rate, sk._optimizer.learning_rate, rtol=RTOL)
    np.testing.assert_allclose(ours.loss_curve_, sk.loss_curve_, rtol=RTOL)
    assert_same_network(sk, ours)


def test_sample_weight_matches():
    if not hasattr(SkMLPClassifier, "set_fit_request"):
        pytest.skip("this scikit-learn's MLP takes no sample_weight")
    X, y = data("three", n=50)
    w = np.random.default_rng(3).uniform(0, 3, size=len(X))
    sk, ours = pair("three", alpha=0.01, batch_size=20, shuffle=False, max_iter=1, solver="adam",
                    learning_rate_init=0.01, hidden_layer_sizes=(5,))
    same_start(sk, ours, X, y)
    for _ in range(10):
        sk.partial_fit(X, y, sample_weight=w)
        ours.partial_fit(X, y, sample_weight=w)
    assert_same_network(sk, ours)
    np.testing.assert_allclose(ours.loss_curve_, sk.loss_curve_, rtol=RTOL)


def test_predictions_of_the_same_network_match():
    """Given scikit-learn's fitted weights, predict, predict_proba and score agree."""
    for kind in ("binary", "three", "regression"):
        X, y = data(kind, n=120)
        sk, ours = pair(kind, hidden_layer_sizes=(8,), max_iter=50, learning_rate_init=0.01)
        same_start(sk, ours, X, y)
        np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
        if kind != "regression":
            np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), rtol=1e-12)
            np.testing.assert_allclose(ours.predict_log_proba(X), sk.predict_log_proba(X), rtol=1e-12)
        assert ours.score(X, y) == pytest.approx(sk.score(X, y), rel=1e-12)


def test_fitted_attributes_as_scikit_learns():
    X, y = data("three", n=100)
    sk, ours = pair("three", hidden_layer_sizes=(6, 5), max_iter=30, learning_rate_init=0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk.fit(X, y)
        ours.fit(X, y)
    for name in ("n_layers_", "n_outputs_", "out_activation_", "n_iter_", "t_", "n_features_in_"):
        assert getattr(ours, name) == getattr(sk, name), name
    assert [W.shape for W in ours.coefs_] == [W.shape for W in sk.coefs_]
    assert ours.validation_scores_ is sk.validation_scores_ is None
    np.testing.assert_array_equal(ours.classes_, sk.classes_)
    # Glorot's bound on the start: the first step cannot move the weights far past it
    assert len(ours.loss_curve_) == 30
