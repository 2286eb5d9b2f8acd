"""k-NN's memory-bounded steps (building the KD-tree through an index array, the score arrays made a
block of rows at a time, the copy ranks checked in blocks, the probe of a tree a few queries at a time)
give what they give at once: the budgets are made tiny here, so that small data cross many block
borders, and the neighbours are compared with the definition (neighbors.k_nearest)."""

import numpy as np
import pytest

from pellucid import KNeighborsClassifier, KNeighborsRegressor
from pellucid.learners.neighbors import distance_scores, kd_tree, neighbors, neighbors_fast

METRICS = ["euclidean", "manhattan", "cosine"]


def _rows(rng, n, d):
    """(n, d) rows from a few levels with some rows copied: many equal distances and identical rows."""
    X = rng.integers(0, 5, size=(n, d)).astype(float) / 2.0 + rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.5)
    X[rng.integers(0, n, size=n // 5)] = X[rng.integers(0, n, size=n // 5)]
    return X


@pytest.fixture
def tiny_budgets(monkeypatch):
    """Blocks of a few values, samples of a few rows: every loop over blocks runs many times."""
    monkeypatch.setattr(kd_tree, "_BLOCK_CELLS", 7)
    monkeypatch.setattr(kd_tree, "_SPREAD_SAMPLE", 3)
    monkeypatch.setattr(kd_tree, "_PROBE_PAIRS", 5)
    monkeypatch.setattr(distance_scores, "_BLOCK_CELLS", 5)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("search", ["tree", "brute", "auto"])
def test_search_with_tiny_blocks_finds_the_neighbours_of_the_definition(seed, metric, search, tiny_budgets):
    rng = np.random.default_rng(seed)
    n, d, k = int(rng.integers(1100, 2600)), int(rng.integers(2, 5)), int(rng.integers(1, 12))
    X = _rows(rng, n, d)
    Q = np.vstack([_rows(rng, 50, d), X[:10]])
    prepared = neighbors_fast.prepare(X, metric, tree=search != "brute")
    fast = neighbors_fast.nearest_neighbors(Q, prepared, metric, k, search=search)
    readable = neighbors.k_nearest(Q, X, k, metric)
    assert np.array_equal(fast[1], readable[1])
    assert np.array_equal(fast[0], readable[0])


@pytest.mark.parametrize("seed", range(3))
def test_tree_with_tiny_blocks_keeps_every_node_a_true_box(seed, tiny_budgets):
    rng = np.random.default_rng(seed)
    P = _rows(rng, int(rng.integers(700, 1500)), 3)
    tree = kd_tree.build_tree(P)
    n, depth = len(P), tree["depth"]
    assert np.array_equal(np.sort(tree["perm"]), np.arange(n)) and tree["perm"].dtype == np.intp
    for level in range(kd_tree._level_holding(tree, kd_tree._SCAN_ROWS) + 1):
        bounds = kd_tree._bounds(n, level)
        for i in range(2 ** level):
            rows = P[tree["perm"][bounds[i]:bounds[i + 1]]]
            assert np.array_equal(tree["loT"][:, 2 ** level - 1 + i], rows.min(axis=0))
            assert np.array_equal(tree["hiT"][:, 2 ** level - 1 + i], rows.max(axis=0))
    for node in range(2 ** depth - 1):  # every inner node splits its rows along its feature
        level = int(np.log2(node + 1))
        bounds = kd_tree._bounds(n, level + 1)
        left = 2 * node + 1 - (2 ** (level + 1) - 1)
        j = tree["dims"][node]
        below = P[tree["perm"][bounds[left]:bounds[left + 1]], j]
        above = P[tree["perm"][bounds[left + 1]:bounds[left + 2]], j]
        assert below.max() <= above.min() and tree["split"][node] == below.max()
    assert np.array_equal(tree["copy_rank"], np.minimum(kd_tree._exact_copy_ranks(P), 255)[tree["perm"]])


@pytest.mark.parametrize("metric", METRICS)
def test_score_arrays_made_in_tree_order_are_those_of_training_order_reordered(metric, tiny_budgets):
    rng = np.random.default_rng(7)
    X = _rows(rng, 3000, 4) * 1e3 + 5e3  # far from 0: the centring and the power of two both matter
    order = rng.permutation(len(X)).astype(np.intp)
    direct = distance_scores.prepare(X, metric, order)
    reordered = distance_scores.in_order(distance_scores.prepare(X, metric), order)
    assert direct.keys() == reordered.keys()
    for key, value in direct.items():
        assert np.array_equal(value, reordered[key]), key


def test_copy_ranks_in_tiny_blocks_are_exact(tiny_budgets):
    P = _rows(np.random.default_rng(3), 2000, 3)
    assert np.array_equal(kd_tree.copy_ranks(P), kd_tree._exact_copy_ranks(P))


def test_a_large_k_skips_no_copy_beyond_the_kept_ranks(monkeypatch):
    """Copy ranks are kept up to a cap; a k above it must still find the definition's neighbours."""
    monkeypatch.setattr(kd_tree, "COPY_RANK_CAP", 2)
    X = np.repeat(np.arange(300, dtype=float)[:, None] / 7.0, 8, axis=0)  # every row 8 times
    X = np.hstack([X, np.zeros((len(X), 1))])
    Q = X[::97] + 0.01
    for k in (2, 3, 9, 40):
        fast = neighbors_fast.nearest_neighbors(Q, neighbors_fast.prepare(X, "euclidean", tree=True), "euclidean",
                                                k, search="tree")
        assert np.array_equal(fast[1], neighbors.k_nearest(Q, X, k, "euclidean")[1])


def test_the_model_keeps_the_callers_float_rows_without_copying_or_writing_them():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, 4))
    model = KNeighborsClassifier().fit(X, (X[:, 0] > 0).astype(int))
    assert np.shares_memory(model.X_fit_, X) and not model.X_fit_.flags.writeable
    assert X.flags.writeable  # the caller's array is left as it was
    for other in (np.asfortranarray(X), X.astype(np.float32), X[::2]):  # not C-ordered float64: a copy
        model = KNeighborsRegressor().fit(other, other[:, 0])
        assert not np.shares_memory(model.X_fit_, other)
        assert np.array_equal(model.X_fit_, np.asarray(other, dtype=float))


@pytest.mark.parametrize("power", [-300, -100, 0, 100, 300])
def test_rows_of_any_scale_find_the_neighbours_of_the_unit_rows(power):
    """Rows are searched divided by a power of two only where their squares would leave float64's range;
    scaled or not, the neighbours are those of the same rows at unit scale, at distances scaled alike."""
    rng = np.random.default_rng(1)
    X, Q = _rows(rng, 2500, 3), _rows(rng, 40, 3)
    unit = KNeighborsRegressor(n_neighbors=4).fit(X, X[:, 0]).kneighbors(Q)
    scaled = KNeighborsRegressor(n_neighbors=4).fit(np.ldexp(X, power), X[:, 0]).kneighbors(np.ldexp(Q, power))
    assert np.array_equal(scaled[1], unit[1])
    assert np.array_equal(scaled[0], np.ldexp(unit[0], power))


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("d, k", [(3, 1), (3, 40), (30, 7), (200, 3)])
def test_every_sample_stride_finds_the_neighbours_of_the_definition(metric, d, k, monkeypatch):
    """The brute search's threshold comes from a sample of every stride-th row (sample_stride); whatever
    the stride, the same neighbours at the same distances."""
    rng = np.random.default_rng(d + k)
    X = _rows(rng, 2300, d)
    Q = np.vstack([_rows(rng, 30, d), X[:5]])
    prepared = neighbors_fast.prepare(X, metric, tree=False)
    expected = neighbors.k_nearest(Q, X, k, metric)
    for stride in (1, 2, 16, neighbors_fast.sample_stride(len(X), k, d)):
        monkeypatch.setattr(neighbors_fast, "sample_stride", lambda n, k, p, stride=stride: stride)
        found = neighbors_fast.nearest_neighbors(Q, prepared, metric, k, search="brute")
        assert np.array_equal(found[1], expected[1])
        assert np.array_equal(found[0], expected[0])


def test_the_sample_stride_balances_partitioning_and_measuring():
    assert neighbors_fast.sample_stride(2047, 5, 20) == 1  # below _SAMPLE_MIN_ROWS: every row
    assert neighbors_fast.sample_stride(10_000, 25, 20) == 4
    assert neighbors_fast.sample_stride(10_000, 5, 200) == 2
    assert neighbors_fast.sample_stride(10 ** 6, 5, 20) == 16  # at most _SAMPLE_STRIDE
    assert neighbors_fast.sample_stride(4096, 500, 1) == 2  # the sample holds at least 4 k rows
