"""The normal equation made in place (linear_regression.normal_equation) against the way it was made before,
with a second (n, d) array for the scaled columns: the same weights, bit for bit."""

import numpy as np
import pytest

from pellucid.learners.linear.linear_regression import (_column_extremes, _lstsq, _solve_normal, _unit_scales,
                                                        normal_equation)



def normal_equation_with_copies(X, y, l2=0.0, weights=None):
    """The previous normal_equation, kept word for word but its docstring."""
    n, d = X.shape
    if weights is None:
        total = n
        x_mean, y_mean = np.ones(n) @ X / n, y.mean()  # (d,), scalar (X.mean(axis=0) is slower on (n, d))
        Xc, yc = X - x_mean, y - y_mean  # (n, d), (n,)
    else:
        total = float(weights.sum())
        x_mean, y_mean = weights @ X / total, weights @ y / total  # (d,), scalar: the weighted means
        root = np.sqrt(weights)  # (n,)
        Xc, yc = (X - x_mean) * root[:, None], (y - y_mean) * root  # (n, d), (n,)
    alpha = total * float(l2)  # a float: a whole l2 such as 10**30 given as a Python int has no numpy sqrt
    x_scale = _unit_scales(np.maximum(np.maximum(Xc.max(axis=0), -Xc.min(axis=0)), np.sqrt(alpha)))  # (d,)
    y_scale = float(_unit_scales(np.abs(yc).max()))
    Z, t = Xc / x_scale, yc / y_scale  # (n, d), (n,)
    penalty = alpha / x_scale ** 2 if alpha > 0 else np.zeros(d)  # (d,) the penalty on v = w * x_scale / y_scale
    # Without a penalty and with no more rows than columns, the centred X^T X (d, d) has rank at most
    # n - 1 < d: it is singular, and building it (d^2 numbers) only to find that out costs the most.
    singular = alpha == 0 and n <= d
    v = None if singular else _solve_normal(Z, t, penalty)
    if v is None and alpha == 0:
        # Collinear columns: the minimum-norm answer in the data's own units, as scikit-learn's, which a
        # scale per column would change; one power of two for every column keeps it.
        common = x_scale.max()
        v = _lstsq(Xc / common, t, penalty) * x_scale / common
    elif v is None:
        v = _lstsq(Z, t, penalty)  # with a penalty the answer is unique: no norm to keep
    w = v / x_scale * y_scale  # (d,)
    return np.concatenate([[y_mean - x_mean @ w], w])  # (d + 1,)



def _tables():
    """(name, X, y): plain rows, and the cases that take the other ways through normal_equation."""
    rng = np.random.default_rng(31)
    X = rng.normal(size=(300, 6))
    y = X @ rng.normal(size=6) + 0.1 * rng.normal(size=300)
    collinear = np.column_stack([X[:, :3], X[:, 0] + X[:, 1], X[:, 2]])  # X^T X singular: lstsq
    scales = X * np.array([1e-157, 1e140, 1.0, 3e-9, 7e5, 1.0])  # squares that underflow or near overflow
    subnormal = np.column_stack([X[:, :2], 1e-310 * rng.normal(size=300)])  # a reciprocal scale beyond float64
    return [("plain", X, y), ("collinear", collinear, y), ("scales", scales, y), ("subnormal", subnormal, y),
            ("wide", X[:5], y[:5]), ("one row", X[:1], y[:1]),
            ("constant column", np.column_stack([X, np.ones(300)]), y),
            ("large target", X, 1e120 * y), ("whole numbers", np.round(10 * X), np.round(y))]


@pytest.mark.parametrize("l2", [0.0, 1e-3, 10.0])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name,X,y", _tables(), ids=[t[0] for t in _tables()])
def test_in_place_normal_equation_gives_the_same_weights(name, X, y, l2, weighted):
    weights = np.random.default_rng(2).uniform(0.1, 3.0, len(y)) if weighted else None
    before = X.copy()
    expected = normal_equation_with_copies(X, y, l2, weights)
    np.testing.assert_array_equal(normal_equation(X, y, l2, weights), expected)
    np.testing.assert_array_equal(X, before)  # the caller's rows are only read


@pytest.mark.parametrize("n,d", [(1, 1), (1, 20), (50, 20), (51, 20), (5000, 3), (3000, 7), (4, 2000)])
def test_column_extremes_are_the_axis_reductions(n, d):
    M = np.random.default_rng(n * d).normal(size=(n, d)) * np.geomspace(1e-9, 1e9, d)
    for layout in (M, np.asfortranarray(M), M[::-1, ::2]):
        top, bottom = _column_extremes(layout)
        np.testing.assert_array_equal(top, layout.max(axis=0))
        np.testing.assert_array_equal(bottom, layout.min(axis=0))
