"""Newton started from the fit on a sample of the rows (logistic/sample_start.py) stops at the optimum the
readable fit reaches from zero (the steps view's formulas), in fewer steps over all the rows: binary and
softmax, with and without one-hot columns, class weights, strong and weak penalties, n < p, separable
classes, and a sample that would mislead."""

import warnings

import numpy as np
import pytest

from pellucid.learners.logistic import logistic, sample_start as logistic_sample_start
from pellucid.learners.logistic.sample_start import loss_at_zero, sample_rows, sample_start


@pytest.fixture
def small_samples(monkeypatch):
    """Samples of 400 rows or more (from 6,400), so the tests' readable fits stay quick."""
    monkeypatch.setattr(logistic_sample_start, "MIN_SAMPLE_ROWS", 400)


def _table(seed, n, n_classes, n_numeric=4, one_hot=0, spread=1.0):
    """Overlapping classes: Gaussian centres `spread` apart, plus one-hot columns of 4 categories that
    lean towards the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    X = rng.normal(0, spread, (n_classes, n_numeric))[y] + rng.normal(size=(n, n_numeric))
    words = [np.eye(4)[(y + rng.integers(0, 3, n)) % 4] for _ in range(one_hot)]
    return np.hstack([X] + words), y


def _fits(X, y, **params):
    """(fast fit, readable fit): the same parameters, without and with the trace."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", logistic.ConvergenceWarning)
        return (logistic.LogisticRegression(**params).fit(X, y),
                logistic.LogisticRegression(trace=True, **params).fit(X, y))


CASES = [  # (n_classes, one-hot columns, l2, class_weight, well conditioned)
    (2, 0, 1e-3, None, True),
    (2, 3, 1e-5, "balanced", False),
    (3, 0, 1e-2, None, True),
    (3, 2, 1e-5, None, False),
    (4, 3, 1.0, "balanced", True),
    (5, 0, 0.0, None, False),
]

@pytest.mark.parametrize("n_classes, one_hot, l2, class_weight, well_conditioned", CASES)
def test_the_sampled_start_reaches_the_readable_fits_optimum_in_fewer_steps(
        n_classes, one_hot, l2, class_weight, well_conditioned, small_samples):
    n_params = (1 if n_classes == 2 else n_classes) * (5 + 4 * one_hot)
    n = 16 * max(400, 10 * n_params)  # enough rows for a sample of 400 rows and ten a weight
    X, y = _table(n_classes * 10 + one_hot, n, n_classes, one_hot=one_hot)
    fast, readable = _fits(X, y, l2=l2, class_weight=class_weight, tol=1e-8)
    assert fast.converged_ and readable.converged_
    # Full steps (the sample's are a sixteenth as dear) against the steps from zero: 4 and 7, 8 and 10, 5
    # and 6, 9 and 11, 3 and 3 (the strong penalty: the loss is nearly quadratic), 7 and 7, some of them
    # with a kept Hessian. A sample of m rows is about P / (2 m) above the optimum in loss for P weights,
    # so the fewer rows a weight the less it saves; it never costs full steps.
    assert fast.n_iter_ <= readable.n_iter_, (fast.n_iter_, readable.n_iter_)
    assert fast.loss_curve_[-1] == pytest.approx(readable.loss_curve_[-1], rel=1e-9)
    assert np.mean(fast.predict(X) == readable.predict(X)) >= 0.999
    if well_conditioned:  # weakly penalised, the gradient's tol leaves the weights free along flat
        # directions (nearly separated rows; one-hot groups adding up to the bias column)
        np.testing.assert_allclose(fast.predict_proba(X), readable.predict_proba(X), atol=1e-6)
        np.testing.assert_allclose(fast.coef_, readable.coef_, atol=1e-5)
        np.testing.assert_allclose(fast.intercept_, readable.intercept_, atol=1e-5)


def test_on_a_flat_nearly_separable_optimum_the_objective_is_as_low_and_the_predictions_the_same():
    # The suite's workflow table, at the default sample size: the weakly penalised optimum is so flat that
    # tol = 1e-6 on the gradient leaves the coefficients 0.01-0.1 apart however one gets there; what tol
    # promises is the objective within |g|^2 / (2 l2) of the optimum, and the same classes.
    rng = np.random.default_rng(0)
    n = 20_000
    y = rng.integers(0, 3, n)
    X = (rng.normal(0, 1.5, (3, 12))[y] + rng.normal(0, 1, (n, 12))) * np.logspace(-2, 4, 12)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    X = np.hstack([X] + [np.eye(5)[(y + rng.integers(0, 3, n)) % 5] for _ in range(2)])
    fast, readable = _fits(X, y, l2=1.0 / n)
    assert fast.converged_ and readable.converged_ and fast.n_iter_ < readable.n_iter_
    gap = (X.shape[1] + 1) * 3 * 1e-6 ** 2 / (2 / n)  # |g|^2 / (2 l2), the largest gradient tol allows
    assert abs(fast.loss_curve_[-1] - readable.loss_curve_[-1]) <= gap
    assert np.mean(fast.predict(X) == readable.predict(X)) >= 0.999


def test_too_few_rows_for_the_weights_start_from_zero_as_the_notes_do(small_samples):
    # n < p (and any n under ten rows a weight): no sample, the very steps of the readable fit.
    X, y = _table(3, 150, 3, n_numeric=200)
    assert sample_rows(len(X), 3 * 201) is None
    fast, readable = _fits(X, y, l2=0.1)
    assert fast.n_iter_ == readable.n_iter_
    np.testing.assert_allclose(fast.coef_, readable.coef_, rtol=1e-6, atol=1e-9)


def test_separable_classes_without_a_penalty_are_still_reported(small_samples):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 3000)
    X = np.array([[0.0, 0.0], [20.0, 0.0], [0.0, 20.0]])[y] + rng.uniform(-1, 1, (3000, 2))
    with pytest.warns(logistic.ConvergenceWarning, match="separable"):
        fast = logistic.LogisticRegression().fit(X, y)
    assert not fast.converged_ and np.all(fast.predict(X) == y)


def test_a_sample_that_would_mislead_is_not_used(small_samples):
    # The sampled rows (one in sixteen) are separable, the rest are not: without a penalty the sample's
    # weights grow without bound, so the full fit must start from zero and reach the readable optimum.
    rng = np.random.default_rng(5)
    n = 6400
    X = rng.normal(size=(n, 3))
    y = rng.integers(0, 2, n)
    rows = sample_rows(n, 4)
    y[rows] = (X[rows, 0] > 0).astype(int)
    fast, readable = _fits(X, y, tol=1e-8)
    assert fast.n_iter_ == readable.n_iter_ and fast.converged_
    np.testing.assert_allclose(fast.coef_, readable.coef_, rtol=1e-6, atol=1e-8)


def test_no_sample_without_every_class():
    y = np.zeros(32_000, dtype=int)
    y[1::16] = 1  # never an evenly spaced sampled row (they are the multiples of 16)
    XbT = np.ones((1, 32_000))
    assert sample_start(None, XbT, y, 2, None, None, 1, 1e-6) is None


@pytest.mark.parametrize("n_classes", [2, 4])
@pytest.mark.parametrize("weighted", [False, True])
def test_loss_at_zero_is_the_formulas_loss_there(n_classes, weighted):
    rng = np.random.default_rng(n_classes)
    Xb = np.column_stack([np.ones(200), rng.normal(size=(200, 3))])
    y = rng.integers(0, n_classes, 200)
    weights = rng.uniform(0.5, 2, n_classes)[y] if weighted else None
    if n_classes == 2:
        value_grad, _ = logistic.binary_log_loss(Xb, y, 0.3, weights)
        zero = np.zeros(4)
    else:
        value_grad, _ = logistic.softmax_log_loss(Xb, y, n_classes, 0.3, weights)
        zero = np.zeros(4 * n_classes)
    assert loss_at_zero(n_classes, weights) == pytest.approx(value_grad(zero)[0], rel=1e-12)


def test_sample_rows_are_evenly_spaced_and_a_sixteenth():
    rows = sample_rows(32_000, 30)
    assert len(rows) == 2_000 and rows[0] == 0 and np.all(np.diff(rows) == 16)
    assert sample_rows(15_000, 30) is None  # under 16 x 1,000 rows
    assert sample_rows(32_000, 400) is None  # ten rows a weight would be more than a sixteenth
