"""The losses Newton's method runs on (logistic_fast.binary_log_loss and softmax_log_loss) give the loss,
gradient and Hessian of the formulas in logistic.py, with numpy's BLAS and without it (Pyodide's case,
where the sums go through einsum), at Newton's start and away from it, with and without class weights."""

import warnings

import numpy as np
import pytest

from pellucid.learners.logistic import logistic, logistic_fast

SEEDS = range(6)


def _problem(seed, weighted, binary=False):
    rng = np.random.default_rng(seed)
    n, d, K = int(rng.integers(20, 300)), int(rng.integers(1, 6)), 2 if binary else int(rng.integers(3, 6))
    Xb = np.column_stack([np.ones(n), rng.normal(size=(n, d)) * rng.uniform(0.5, 4, d)])  # (n, d + 1)
    y = rng.integers(0, K, n)
    y[:K] = np.arange(K)  # every class present
    row_weights = rng.uniform(0.2, 3.0, K)[y] if weighted else None
    return rng, Xb, y, K, row_weights


def _both(Xb, y, K, l2, row_weights):
    """(value_grad, hessian) of logistic.py's loss and of logistic_fast's: sigmoid for K = 2, else softmax."""
    XbT = np.ascontiguousarray(Xb.T)
    if K == 2:
        return logistic.binary_log_loss(Xb, y, l2, row_weights), logistic_fast.binary_log_loss(XbT, y, l2, row_weights)
    return (logistic.softmax_log_loss(Xb, y, K, l2, row_weights),
            logistic_fast.softmax_log_loss(XbT, y, K, l2, row_weights))


@pytest.fixture(params=[True, False], ids=["blas", "no-blas"])
def blas(request, monkeypatch):
    monkeypatch.setattr(logistic_fast, "HAS_BLAS", request.param)
    return request.param


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "class-weighted"])
@pytest.mark.parametrize("binary", [False, True], ids=["softmax", "sigmoid"])
def test_loss_gradient_and_hessian_equal_the_formulas(seed, weighted, binary, blas, monkeypatch):
    monkeypatch.setattr(logistic_fast, "MAX_PRODUCTS", 500)  # the Hessian's products in several chunks
    rng, Xb, y, K, row_weights = _problem(seed, weighted, binary)
    (value_grad, hessian), (fast_value_grad, fast_hessian) = _both(Xb, y, K, 0.05, row_weights)
    size = (1 if binary else K) * Xb.shape[1]
    for w in (np.zeros(size), rng.normal(size=size), 8 * rng.normal(size=size)):  # large scores too
        loss, grad = value_grad(w)
        fast_loss, fast_grad = fast_value_grad(w)
        assert fast_loss == pytest.approx(loss, rel=1e-12, abs=1e-12)
        np.testing.assert_allclose(fast_grad, grad, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(fast_hessian(w), hessian(w), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "class-weighted"])
def test_hessian_where_only_the_biases_are_set_equals_the_formula(seed, weighted, blas):
    # Every row then has the same probabilities, and the fast Hessian is one Gram matrix times them.
    rng, Xb, y, K, row_weights = _problem(seed, weighted)
    (_, hessian), (_, fast_hessian) = _both(Xb, y, K, 0.3, row_weights)
    for biases in (np.zeros(K), rng.normal(size=K)):
        w = np.zeros((K, Xb.shape[1]))
        w[:, 0] = biases
        np.testing.assert_allclose(fast_hessian(w.ravel()), hessian(w.ravel()), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_gradient_and_hessian_match_finite_differences(seed, blas):
    rng, Xb, y, K, row_weights = _problem(seed, weighted=seed % 2 == 1)
    value_grad, hessian = logistic_fast.softmax_log_loss(np.ascontiguousarray(Xb.T), y, K, 0.1, row_weights)
    w = rng.normal(size=K * Xb.shape[1])
    eps, unit = 1e-6, np.eye(len(w))
    numeric_grad = [(value_grad(w + eps * e)[0] - value_grad(w - eps * e)[0]) / (2 * eps) for e in unit]
    numeric_hessian = [(value_grad(w + eps * e)[1] - value_grad(w - eps * e)[1]) / (2 * eps) for e in unit]
    np.testing.assert_allclose(value_grad(w)[1], numeric_grad, atol=1e-7)
    np.testing.assert_allclose(hessian(w), np.array(numeric_hessian), atol=1e-6)


@pytest.mark.parametrize("seed", SEEDS)
def test_newton_fit_without_blas_equals_the_traced_fit(seed, monkeypatch):
    monkeypatch.setattr(logistic_fast, "HAS_BLAS", False)
    monkeypatch.setattr(logistic_fast, "MAX_PRODUCTS", 700)  # the Hessian's products in several chunks
    rng, Xb, y, K, _ = _problem(seed, weighted=False)
    assert_fast_fit_is_the_traced_fit(Xb[:, 1:], y, "balanced" if seed % 2 else None)


def assert_fast_fit_is_the_traced_fit(X, y, class_weight):
    """The fast Newton fit (l2 = 0.02) takes the traced fit's steps to the same coefficients."""
    fast = logistic.LogisticRegression(l2=0.02, class_weight=class_weight).fit(X, y)
    readable = logistic.LogisticRegression(l2=0.02, class_weight=class_weight, trace=True).fit(X, y)
    assert fast.n_iter_ == readable.n_iter_ and fast.converged_
    np.testing.assert_allclose(fast.coef_, readable.coef_, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(fast.intercept_, readable.intercept_, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("seed", SEEDS)
def test_separable_classes_without_penalty_stop_where_the_traced_fit_stops(seed, blas):
    # The loss falls towards 0 while the scores grow: the fast loss must still see each step's decrease.
    rng = np.random.default_rng(seed + 50)
    centres = np.array([[0.0, 0.0], [20.0, 0.0], [0.0, 20.0]]) + rng.normal(size=(3, 2))
    y = np.repeat(np.arange(3), 60)
    X = centres[y] + rng.uniform(-1.0, 1.0, size=(180, 2))  # boxes far apart: separable
    with pytest.warns(logistic.ConvergenceWarning):
        fast = logistic.LogisticRegression().fit(X, y)
    with pytest.warns(logistic.ConvergenceWarning):
        readable = logistic.LogisticRegression(trace=True).fit(X, y)
    assert fast.n_iter_ == readable.n_iter_ and not fast.converged_
    np.testing.assert_allclose(fast.coef_, readable.coef_, rtol=1e-6)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("l2", [0.0, 0.01])
def test_binary_newton_fit_without_blas_equals_the_traced_fit(seed, l2, monkeypatch):
    monkeypatch.setattr(logistic_fast, "HAS_BLAS", False)
    rng = np.random.default_rng(seed + 70)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] - X[:, 1] + (rng.normal(size=300) if seed % 2 else 0) > 0).astype(int)  # odd seeds overlap
    class_weight = "balanced" if seed % 3 == 0 else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", logistic.ConvergenceWarning)  # even seeds without l2: separable
        fast = logistic.LogisticRegression(l2=l2, class_weight=class_weight).fit(X, y)
        readable = logistic.LogisticRegression(l2=l2, class_weight=class_weight, trace=True).fit(X, y)
    assert fast.n_iter_ == readable.n_iter_ and fast.converged_ == readable.converged_
    np.testing.assert_allclose(fast.coef_, readable.coef_, rtol=1e-6)
    np.testing.assert_allclose(fast.intercept_, readable.intercept_, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("budget", [50, 10 ** 9])  # the products table holds a few rows, or all of them
def test_gram_maker_gives_the_weighted_gram_matrices(seed, budget, blas, monkeypatch):
    """With BLAS, a budget of 50 also sums the Gram matrix over blocks of a few rows, as on a large table."""
    monkeypatch.setattr(logistic_fast, "MAX_PRODUCTS", budget)
    monkeypatch.setattr(logistic_fast, "GRAM_BLOCK_CELLS", budget)
    rng = np.random.default_rng(seed + 90)
    n, D = int(rng.integers(5, 200)), int(rng.integers(1, 8))
    XT = rng.normal(size=(D, n))
    C = rng.normal(size=(int(rng.integers(1, 5)), n))
    for weights in (C, np.abs(C)):  # any weights; the Hessian's, never negative (BLAS: a symmetric product)
        np.testing.assert_allclose(logistic_fast.gram_maker(XT)(weights), logistic.weighted_gram(XT, weights),
                                   rtol=1e-12, atol=1e-13)
