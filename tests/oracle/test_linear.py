"""LinearRegression: the notes' normal equation vs gradient descent, and scikit-learn as the oracle."""

import json

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import linear_model as sk
from sklearn.datasets import load_diabetes

from pellucid.core.base import from_dict
from pellucid.core.errors import ConvergenceWarning, DataError, NotFittedError
from pellucid.learners.linear.linear_regression import LinearRegression, normal_equation


@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True)


def small_problem(seed=0, n=30):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = 1.5 + 2.0 * X[:, 0] - 3.0 * X[:, 1] + 0.1 * rng.normal(size=n)
    return X, y


# --- notes 000: "confirm that the closed form solution is the same as the converged gradient descent" ---

def test_gradient_descent_converges_to_the_normal_equation():
    X, y = small_problem()
    closed = LinearRegression().fit(X, y)
    descent = LinearRegression(solver="gd", learning_rate=0.1, max_iter=100_000, tol=1e-14).fit(X, y)
    assert descent.converged_
    np.testing.assert_allclose(descent.coef_, closed.coef_, atol=1e-4)
    assert abs(descent.intercept_ - closed.intercept_) < 1e-4
    # the fitted line recovers the generating weights (noise sd 0.1)
    np.testing.assert_allclose(closed.coef_, [2.0, -3.0], atol=0.1)


def test_normal_equation_on_an_exact_line():
    # y = 1 + 2 x exactly: the least-squares weights are [1, 2] and the loss is zero.
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([1.0, 3.0, 5.0, 7.0])
    np.testing.assert_allclose(normal_equation(X, y), [1.0, 2.0], atol=1e-12)
    model = LinearRegression(solver="gd", learning_rate=0.1, max_iter=20_000, tol=1e-16).fit(X, y)
    np.testing.assert_allclose([model.intercept_, *model.coef_], [1.0, 2.0], atol=1e-6)


def test_gd_loss_is_the_averaged_half_squared_error_and_decreases():
    X, y = small_problem()
    model = LinearRegression(solver="gd", learning_rate=0.05, max_iter=50, tol=0.0)
    with pytest.warns(ConvergenceWarning):
        model.fit(X, y)
    assert len(model.loss_curve_) == model.n_iter_ == 50
    assert np.all(np.diff(model.loss_curve_) <= 0)
    # recompute the last loss from the final weights: J = 1/(2n) sum (y - h(x))^2
    residual = y - model.predict(X)
    assert model.loss_curve_[-1] == pytest.approx(0.5 * np.mean(residual ** 2), rel=1e-12)
    assert not model.converged_ and "max_iter" in model.warnings_[0]


# --- scikit-learn oracle -----------------------------------------------------------------------------

def test_normal_equation_equals_sklearn_on_diabetes(diabetes):
    X, y = diabetes
    ours, theirs = LinearRegression().fit(X, y), sk.LinearRegression().fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
    assert ours.intercept_ == pytest.approx(theirs.intercept_, abs=1e-6)
    assert ours.score(X, y) == pytest.approx(theirs.score(X, y), abs=1e-12)


@pytest.mark.parametrize("l2", [1e-4, 1e-2, 1.0])
def test_l2_equals_sklearn_ridge_with_alpha_n_l2(diabetes, l2):
    # (1/2n)||y - Xw||^2 + (l2/2)||w||^2, times 2n, is ||y - Xw||^2 + (n l2)||w||^2: Ridge's alpha = n l2.
    X, y = diabetes
    ours = LinearRegression(l2=l2).fit(X, y)
    theirs = sk.Ridge(alpha=len(y) * l2).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
    assert ours.intercept_ == pytest.approx(theirs.intercept_, abs=1e-6)


def test_gd_with_l2_and_standardize_equals_sklearn_ridge(diabetes):
    X, y = diabetes
    l2 = 0.1
    ours = LinearRegression(solver="gd", l2=l2, standardize=True, learning_rate=0.1, max_iter=100_000,
                            tol=1e-15).fit(X, y)
    Xs = (X - X.mean(axis=0)) / X.std(axis=0)
    theirs = sk.Ridge(alpha=len(y) * l2).fit(Xs, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-4)
    assert ours.intercept_ == pytest.approx(theirs.intercept_, abs=1e-4)


def test_collinear_columns_give_the_minimum_norm_solution_like_sklearn(diabetes):
    X, y = diabetes
    X = np.column_stack([X, X[:, 0] + X[:, 1]])  # exactly dependent column: X^T X is singular
    ours, theirs = LinearRegression().fit(X, y), sk.LinearRegression().fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-6)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n, d", [(3, 40), (10, 500), (12, 12), (6, 7)])
@pytest.mark.parametrize("weighted", [False, True])
def test_wide_tables_give_the_minimum_norm_answer_without_the_feature_gram(seed, n, d, weighted, monkeypatch):
    """No more rows than columns: X^T X is singular, and the answer goes straight to the minimum-norm
    least-squares one (the d x d matrix is never built), which is the one the normal-equation attempt
    falls back to, numpy's lstsq on the centred data, and scikit-learn's."""
    from pellucid.learners.linear import linear_regression as module
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.1, 10, size=d)
    y = X[:, :3] @ [1.0, -2.0, 0.5] + rng.normal(size=n)
    weights = rng.uniform(0.5, 2.0, size=n) if weighted else None
    ours = LinearRegression().fit(X, y, sample_weight=weights)
    root = np.ones(n) if weights is None else np.sqrt(weights)
    x_mean, y_mean = np.average(X, axis=0, weights=weights), np.average(y, weights=weights)
    expected = np.linalg.lstsq((X - x_mean) * root[:, None], (y - y_mean) * root, rcond=None)[0]
    np.testing.assert_allclose(ours.coef_, expected, rtol=1e-7, atol=1e-9 * np.abs(expected).max())
    theirs = sk.LinearRegression().fit(X, y, sample_weight=weights)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-7, atol=1e-7)
    built = []
    monkeypatch.setattr(module, "gram", lambda M: built.append(M.shape) or M.T @ M)
    LinearRegression().fit(X, y, sample_weight=weights)
    assert built == []
    ridge = LinearRegression(l2=1e-3).fit(X, y)  # a penalty makes it regular: the d x d system
    assert built == [(n, d)] and np.all(np.isfinite(ridge.coef_))


def test_categorical_columns_are_one_hot_encoded():
    rng = np.random.default_rng(1)
    colour = rng.choice(["red", "green", "blue"], size=60)
    size = rng.normal(size=60)
    effect = {"red": 1.0, "green": -2.0, "blue": 0.5}
    y = np.array([effect[c] for c in colour]) + 3.0 * size + 0.01 * rng.normal(size=60)
    X = np.empty((60, 2), dtype=object)
    X[:, 0], X[:, 1] = colour, size
    model = LinearRegression().fit(X, y, feature_names=["colour", "size"])
    assert model.feature_names_out_ == ["colour=blue", "colour=green", "colour=red", "size"]
    onehot = np.column_stack([colour == "blue", colour == "green", colour == "red", size]).astype(float)
    theirs = sk.LinearRegression().fit(onehot, y)
    np.testing.assert_allclose(model.predict(X), theirs.predict(onehot), atol=1e-8)
    # differences between categories are identified even though the dummies sum to the intercept
    blue, green, red = model.coef_[:3]
    assert red - green == pytest.approx(3.0, abs=0.05)
    assert model.coef_[3] == pytest.approx(3.0, abs=0.05)


# --- trace, serialisation ----------------------------------------------------------------------------

def test_gd_trace_is_thinned_json_and_ends_with_the_normal_equation():
    X, y = small_problem()
    model = LinearRegression(solver="gd", learning_rate=0.01, max_iter=5000, tol=1e-12, trace=True).fit(X, y)
    rows, final = model.trace_[:-1], model.trace_[-1]
    assert 2 <= len(rows) <= 201
    assert rows[0] == {"iter": 0, "loss": pytest.approx(0.5 * np.mean(y ** 2)), "weights": [0.0, 0.0, 0.0]}
    assert rows[-1]["iter"] == model.n_iter_
    assert rows[-1]["weights"] == pytest.approx([model.intercept_, *model.coef_])
    iters = [r["iter"] for r in rows]
    assert iters == sorted(set(iters))
    closed = LinearRegression().fit(X, y)
    assert final["normal_equation"] == pytest.approx([closed.intercept_, *closed.coef_], abs=1e-10)
    json.dumps(model.trace_)


def test_round_trip_predicts_identically():
    X, y = small_problem()
    for model in (LinearRegression(standardize=True), LinearRegression(solver="gd", learning_rate=0.1)):
        model.fit(X, y)
        copy = from_dict(json.loads(json.dumps(model.to_dict())))
        np.testing.assert_array_equal(copy.predict(X), model.predict(X))


# --- errors -----------------------------------------------------------------------------------------

def test_diverging_gradient_descent_names_the_learning_rate(diabetes):
    X, y = diabetes
    with pytest.raises(DataError, match="learning rate 50.0 is too large.*standardize=True"):
        LinearRegression(solver="gd", learning_rate=50.0, standardize=True).fit(X, y)


@pytest.mark.parametrize("params, word", [
    ({"solver": "sgd"}, "solver"), ({"learning_rate": 0.0}, "learning_rate"), ({"l2": -1.0}, "l2"),
    ({"max_iter": 0}, "max_iter"), ({"tol": -1e-3}, "tol"), ({"standardize": "yes"}, "standardize"),
])
def test_bad_parameters(params, word):
    X, y = small_problem()
    with pytest.raises(DataError, match=word):
        LinearRegression(**params).fit(X, y)


def test_bad_data():
    X, y = small_problem()
    X_nan = X.copy()
    X_nan[3, 1] = np.nan
    with pytest.raises(DataError, match="x1.*missing"):
        LinearRegression().fit(X_nan, y)
    with pytest.raises(DataError, match="inconsistent numbers of samples"):
        LinearRegression().fit(X, y[:-1])
    with pytest.raises(DataError, match="numeric"):
        LinearRegression().fit(X, ["a"] * len(X))
    y_nan = y.copy()
    y_nan[0] = np.nan
    with pytest.raises(DataError, match="missing"):
        LinearRegression().fit(X, y_nan)
    with pytest.raises(NotFittedError):
        LinearRegression().predict(X)
    model = LinearRegression().fit(X, y)
    with pytest.raises(DataError, match="2 features|fitted on 2"):
        model.predict(X[:, :1])
    X_before, y_before = X.copy(), y.copy()
    LinearRegression(standardize=True, solver="gd", learning_rate=0.1).fit(X, y)
    np.testing.assert_array_equal(X, X_before)  # the caller's arrays are not touched
    np.testing.assert_array_equal(y, y_before)
