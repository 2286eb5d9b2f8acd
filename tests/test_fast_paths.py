"""Every speed-up gives what the readable algorithm gives: on random inputs with ties (repeated values,
duplicate rows) the fast modules (*_fast.py) and the readable ones beside them agree."""

import numpy as np
import pytest

from pellucid.learners.tree import growth, growth_fast
from pellucid.learners.tree.criteria import Classes, Values

SEEDS = range(6)


def _tied_matrix(rng, n, d, levels):
    """(n, d) values drawn from a few levels (many repeated values), with some rows duplicated."""
    X = rng.integers(0, levels, size=(n, d)).astype(float) / 2.0
    copies = rng.integers(0, n, size=n // 5)
    X[rng.integers(0, n, size=n // 5)] = X[copies]
    return X


def _tree_inputs(seed, kind):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 300))
    X = _tied_matrix(rng, n, 4, levels=int(rng.integers(2, 12)))
    is_categorical = np.array([False, False, True, False])
    X[:, 2] = rng.integers(0, 4, size=n)  # a categorical column: value codes 0..3
    n_values = [0, 0, 4, 0]
    if kind == "regression":
        target = Values(np.round(X[:, 0] * 2 + rng.normal(size=n), 1))
    else:
        k = int(rng.integers(2, 5))
        labels = (2 * X[:, 0] + X[:, 2] + rng.integers(0, 2, size=n)).astype(int) % k  # learnable, with noise
        target = Classes(labels, k, kind)
    return X, is_categorical, n_values, target


def _assert_same_tree(a, b, regression):
    for name in ("feature", "child_start", "n_children", "parent", "branch", "depth", "reason"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.threshold, b.threshold, equal_nan=True)  # the same midpoints
    if regression:
        np.testing.assert_allclose(a.stats, b.stats, rtol=1e-9, atol=1e-9)
    else:
        assert np.array_equal(a.stats, b.stats)
    np.testing.assert_allclose(a.gain, b.gain, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(a.candidates, b.candidates, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["entropy", "gini", "regression"])
@pytest.mark.parametrize("limits", [{}, {"max_depth": 3, "min_samples_split": 5, "min_gain": 0.01}])
def test_tree_growth_readable_equals_fast(seed, kind, limits):
    X, is_categorical, n_values, target = _tree_inputs(seed, kind)
    readable = growth.grow(X, is_categorical, n_values, target, **limits)
    fast = growth_fast.grow(X, is_categorical, n_values, target, **limits)
    assert readable.node_count > 1
    _assert_same_tree(readable, fast, kind == "regression")
    assert np.array_equal(readable.apply(X, is_categorical), fast.apply(X, is_categorical))
