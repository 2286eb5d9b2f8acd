"""Every speed-up gives what the readable algorithm gives: on random inputs with ties (repeated values,
duplicate rows) the fast modules (*_fast.py) and the readable ones beside them agree."""

import warnings

import numpy as np
import pytest

from pellucid.learners.kmeans import kmeans, kmeans_fast
from pellucid.learners.naive_bayes import gaussian, gaussian_fast
from pellucid.learners.logistic import logistic, logistic_fast
from pellucid.learners.neighbors import neighbors, neighbors_fast
from pellucid.learners.shared import gram_fast
from pellucid import Perceptron
from pellucid.learners.linear import linear_regression as linear
from pellucid.learners.linear import perceptron_fast
from pellucid.learners.projection import pca
from pellucid.learners.tree import growth, growth_fast
from pellucid.learners.tree import orders, routing
from pellucid.learners.tree.held import FixedTree
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


def _assert_same_tree(a, b, regression, atol=1e-12):
    for name in ("feature", "child_start", "n_children", "parent", "branch", "depth", "reason"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.threshold, b.threshold, equal_nan=True)  # the same midpoints
    if regression:
        np.testing.assert_allclose(a.stats, b.stats, rtol=1e-9, atol=1e-9)
    else:
        assert np.array_equal(a.stats, b.stats)
    np.testing.assert_allclose(a.gain, b.gain, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(a.candidates, b.candidates, rtol=1e-9, atol=atol)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["entropy", "gini", "gain_ratio", "regression"])
@pytest.mark.parametrize("limits", [{}, {"max_depth": 3, "min_samples_split": 5, "min_gain": 0.01},
                                    {"min_weight_leaf": 7.0}])
@pytest.mark.parametrize("column_by_column", [False, True])
def test_tree_growth_readable_equals_fast(seed, kind, limits, column_by_column, monkeypatch):
    """With column_by_column, the fast grower's memory budget is one cell: it sorts, scores and regroups
    the numeric columns one at a time, as it does on a large table."""
    if column_by_column:
        monkeypatch.setattr(orders, "CELLS_AT_ONCE", 1)
    X, is_categorical, n_values, target = _tree_inputs(seed, kind)
    readable = growth.grow(X, is_categorical, n_values, target, **limits)
    fast = growth_fast.grow(X, is_categorical, n_values, target, **limits)
    assert readable.node_count > 1
    _assert_same_tree(readable, fast, kind == "regression")
    assert np.array_equal(readable.apply(X, is_categorical), fast.apply(X, is_categorical))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["entropy", "gini", "gain_ratio", "regression"])
@pytest.mark.parametrize("limits", [{}, {"min_samples_leaf": 4}, {"max_depth": 3, "min_samples_leaf": 7}])
@pytest.mark.parametrize("one_value", [False, True], ids=["best_set", "one_vs_rest"])
def test_tree_growth_with_binary_category_tests_readable_equals_fast(seed, kind, limits, one_value):
    """Binary tests "A in S" on a 15-value column (and, on even seeds, on the 4-value one too), with
    leaf-size limits: the same tests, left sets and leaves from both growers; with one_value, the
    15-value column's S is one value (categorical_split="one_vs_rest")."""
    X, is_categorical, n_values, target = _tree_inputs(seed, kind)
    rng = np.random.default_rng(seed + 100)
    city = rng.integers(0, 15, size=len(X))
    X, is_categorical, n_values = np.column_stack([X, city]), np.append(is_categorical, True), n_values + [15]
    if kind == "regression":  # the target depends on the city, so its tests are chosen
        target = Values(target.y_raw + city % 3)
    else:
        labels = np.where(rng.random(len(X)) < 0.5, target.y, city % target.k)
        target = Classes(labels, target.k, target.kind)
    binary = [False, False, seed % 2 == 0, False, True]
    single = [False, False, False, False, one_value]
    readable = growth.grow(X, is_categorical, n_values, target, binary=binary, single=single, **limits)
    fast = growth_fast.grow(X, is_categorical, n_values, target, binary=binary, single=single, **limits)
    assert readable.left_values  # the premise: some node tests a left set
    if one_value:
        assert all(len(codes) == 1 for node, codes in readable.left_values.items()
                   if readable.feature[node] == 4)
    _assert_same_tree(readable, fast, kind == "regression")
    assert readable.left_values.keys() == fast.left_values.keys()
    for node, codes in readable.left_values.items():
        assert np.array_equal(codes, fast.left_values[node]), node
    assert np.array_equal(readable.apply(X, is_categorical), fast.apply(X, is_categorical))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["entropy", "gini", "gain_ratio"])
@pytest.mark.parametrize("limits", [{}, {"min_samples_leaf": 4}, {"max_depth": 3, "min_gain": 0.01},
                                    {"min_weight_leaf": 10.0}])
def test_tree_growth_with_class_weights_readable_equals_fast(seed, kind, limits):
    """Class weights (one class rare, as class_weight="balanced" weighs it) on numeric, multiway and
    binary categorical tests: the same tree, gains and leaves from both growers."""
    X, is_categorical, n_values, target = _tree_inputs(seed, kind)
    rng = np.random.default_rng(seed + 200)
    city = rng.integers(0, 15, size=len(X))
    X, is_categorical, n_values = np.column_stack([X, city]), np.append(is_categorical, True), n_values + [15]
    labels = np.where(rng.random(len(X)) < 0.15, target.y, 0)  # class 0 common, the others rare
    counts = np.bincount(labels, minlength=target.k)
    weights = len(labels) / (target.k * np.maximum(counts, 1))
    target = Classes(labels, target.k, kind, weights)
    binary = [False, False, seed % 2 == 0, False, True]
    readable = growth.grow(X, is_categorical, n_values, target, binary=binary, **limits)
    fast = growth_fast.grow(X, is_categorical, n_values, target, binary=binary, **limits)
    assert readable.node_count > 1
    _assert_same_tree(readable, fast, regression=False)
    assert readable.left_values.keys() == fast.left_values.keys()
    assert np.array_equal(readable.apply(X, is_categorical), fast.apply(X, is_categorical))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["entropy", "gini", "gain_ratio", "regression"])
@pytest.mark.parametrize("limits", [{}, {"min_samples_leaf": 4}, {"max_depth": 3, "min_gain": 0.01},
                                    {"min_weight_leaf": 6.0}, {"min_weight_leaf": 15.0, "min_samples_leaf": 3}])
@pytest.mark.parametrize("one_value", [False, True], ids=["best_set", "one_vs_rest"])
def test_tree_growth_with_sample_weights_readable_equals_fast(seed, kind, limits, one_value):
    """Sample weights, a fifth of them 0, with class weights on odd seeds, on numeric, multiway and
    binary categorical tests, with least branch weights (min_weight_fraction_leaf): the same tree, gains
    and leaves from both growers."""
    X, is_categorical, n_values, target = _tree_inputs(seed, kind)
    rng = np.random.default_rng(seed + 300)
    city = rng.integers(0, 15, size=len(X))
    X, is_categorical, n_values = np.column_stack([X, city]), np.append(is_categorical, True), n_values + [15]
    weight = rng.choice([0.0, 0.5, 1.0, 2.5, 3.0], size=len(X), p=[0.2, 0.2, 0.2, 0.2, 0.2])
    if kind == "regression":
        target = Values(target.y_raw + city % 3, sample_weight=weight)
    else:
        labels = np.where(rng.random(len(X)) < 0.5, target.y, city % target.k)
        class_weights = rng.uniform(0.5, 2.0, size=target.k) if seed % 2 else None
        target = Classes(labels, target.k, kind, class_weights, sample_weight=weight)
    binary = [False, False, seed % 2 == 0, False, True]
    single = [False, False, False, False, one_value]
    readable = growth.grow(X, is_categorical, n_values, target, binary=binary, single=single, **limits)
    fast = growth_fast.grow(X, is_categorical, n_values, target, binary=binary, single=single, **limits)
    assert readable.node_count > 1
    # Running sums of weights round differently from a node's own sums: gains of 0 may come out as 1e-12.
    _assert_same_tree(readable, fast, regression=True, atol=1e-9)
    assert readable.left_values.keys() == fast.left_values.keys()
    for node, codes in readable.left_values.items():
        assert np.array_equal(codes, fast.left_values[node]), node
    assert np.array_equal(readable.apply(X, is_categorical), fast.apply(X, is_categorical))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["entropy", "gini", "gain_ratio", "regression"])
@pytest.mark.parametrize("n_offered", [1, 2, 4])
@pytest.mark.parametrize("columnwise", [False, True])
def test_tree_growth_with_max_features_readable_equals_fast(seed, kind, n_offered, columnwise, monkeypatch):
    """Each node offered n_offered of its open attributes (max_features), multiway and binary category
    tests among them: both growers draw the same subsets, so they grow the same tree, whether the fast
    one scores every column at once (a level of few rows) or each on the nodes offered it (many rows)."""
    monkeypatch.setattr(growth_fast, "_ROWS_FOR_COLUMNWISE", 0 if columnwise else np.inf)
    X, is_categorical, n_values, target = _tree_inputs(seed, kind)
    rng = np.random.default_rng(seed + 400)
    city = rng.integers(0, 15, size=len(X))
    X, is_categorical, n_values = np.column_stack([X, city]), np.append(is_categorical, True), n_values + [15]
    if seed % 2:  # a forest's tree: each row weighted by its count in a bootstrap sample, 0 out of bag
        counts = np.bincount(rng.integers(0, len(X), len(X)), minlength=len(X)).astype(float)
        target = (Values(target.y_raw, sample_weight=counts) if kind == "regression"
                  else Classes(target.y, target.k, kind, sample_weight=counts))
    binary = [False, False, False, False, seed % 2 == 0]
    options = {"binary": binary, "n_offered": n_offered, "seed": seed}
    readable = growth.grow(X, is_categorical, n_values, target, **options)
    fast = growth_fast.grow(X, is_categorical, n_values, target, **options)
    assert readable.node_count > 1
    scored = ~np.isnan(readable.candidates[readable.feature >= 0])
    assert (scored.sum(axis=1) <= n_offered).all()  # the premise: only the offered attributes were scored
    _assert_same_tree(readable, fast, kind == "regression")
    assert np.array_equal(readable.apply(X, is_categorical), fast.apply(X, is_categorical))


def _with_gaps(X, is_categorical, rng, share):
    """X with `share` of its numeric cells missing, and the last numeric column missing where it is high
    (gaps that tell something about the target)."""
    X = X.copy()
    numeric = np.flatnonzero(~is_categorical)
    X[:, numeric] = np.where(rng.random((len(X), len(numeric))) < share, np.nan, X[:, numeric])
    last = numeric[-1]
    X[X[:, last] > np.nanmedian(X[:, last]), last] = np.nan
    return X


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["entropy", "gini", "gain_ratio", "regression"])
@pytest.mark.parametrize("limits", [{}, {"min_samples_leaf": 4}, {"max_depth": 3, "min_weight_leaf": 6.0},
                                    {"n_offered": 2}])
@pytest.mark.parametrize("column_by_column", [False, True])
def test_tree_growth_with_missing_values_readable_equals_fast(seed, kind, limits, column_by_column, monkeypatch):
    """Numeric columns with gaps (a share at random, and a column missing where it is high), sample
    weights on odd seeds: both growers send each node's missing values the same way, so they grow the
    same tree, and rows with gaps end in the same leaves."""
    if column_by_column:
        monkeypatch.setattr(orders, "CELLS_AT_ONCE", 1)
        monkeypatch.setattr(growth_fast, "_ROWS_FOR_COLUMNWISE", 0)
    X, is_categorical, n_values, target = _tree_inputs(seed, kind)
    rng = np.random.default_rng(seed + 500)
    X = _with_gaps(X, is_categorical, rng, share=[0.05, 0.3][seed % 2])
    if seed % 2:
        weight = rng.choice([0.0, 1.0, 2.0, 3.5], size=len(X))
        target = (Values(target.y_raw, sample_weight=weight) if kind == "regression"
                  else Classes(target.y, target.k, kind, sample_weight=weight))
    readable = growth.grow(X, is_categorical, n_values, target, seed=seed, **limits)
    fast = growth_fast.grow(X, is_categorical, n_values, target, seed=seed, **limits)
    assert readable.node_count > 1
    numeric_tests = (readable.feature >= 0) & ~is_categorical[np.maximum(readable.feature, 0)]
    assert readable.missing_left[numeric_tests].any() and not readable.missing_left[numeric_tests].all()
    _assert_same_tree(readable, fast, regression=True, atol=1e-9)
    assert np.array_equal(readable.missing_left, fast.missing_left)
    assert np.array_equal(readable.gap_nodes, fast.gap_nodes) and readable.gap_nodes.any()
    query = _with_gaps(X, is_categorical, np.random.default_rng(seed), share=0.4)
    assert np.array_equal(readable.apply(query, is_categorical), fast.apply(query, is_categorical))


@pytest.mark.parametrize("seed", SEEDS)
def test_kmeans_readable_steps_equal_fast_lloyd(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(30, 400)), int(rng.integers(2, 7))
    M = _tied_matrix(rng, n, 3, levels=6) + rng.normal(scale=1e-3, size=(n, 3)) * (seed % 2)
    MT = np.ascontiguousarray((M - M.mean(axis=0)).T)  # (d, n) centred, as KMeans.fit holds them
    x_sq = np.einsum("ij,ij->j", MT, MT)
    start = MT[:, rng.choice(n, size=k, replace=False)].T.copy()  # (k, d); duplicate rows may repeat a centre
    readable = kmeans.lloyd(MT, start.copy(), 300, 0.0, x_sq, trace=True)
    fast = kmeans_fast.lloyd_run(MT, start.copy(), 300, 0.0, x_sq, kmeans.relocate_empty)
    assert np.array_equal(readable["labels"], fast["labels"])
    assert readable["n_iter"] == fast["n_iter"]
    np.testing.assert_allclose(readable["centres"], fast["centres"], rtol=1e-10, atol=1e-12)
    assert readable["inertia"] == pytest.approx(fast["inertia"], rel=1e-10, abs=1e-12)
    labels, part = kmeans.assign(MT, fast["centres"])
    fast_labels, fast_part = kmeans_fast.assign(MT, fast["centres"])
    assert np.array_equal(labels, fast_labels) and np.array_equal(part, fast_part)


@pytest.mark.parametrize("seed", SEEDS)
def test_softmax_hessian_grams_from_the_formula_equal_the_products_table(seed, monkeypatch):
    monkeypatch.setattr(logistic_fast, "MAX_PRODUCTS", 500)  # several chunks of rows
    rng = np.random.default_rng(seed)
    n, D = int(rng.integers(5, 120)), int(rng.integers(1, 8))
    XT = np.ascontiguousarray(_tied_matrix(rng, n, D, levels=4).T)  # (D, n)
    C = rng.normal(size=(3, n))
    np.testing.assert_allclose(logistic_fast.WeightedGram(XT)(C), logistic.weighted_gram(XT, C),
                               rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("seed", SEEDS)
def test_logistic_traced_fit_equals_fast_fit(seed):
    rng = np.random.default_rng(seed)
    n, K = int(rng.integers(30, 200)), int(rng.integers(3, 5))
    X = _tied_matrix(rng, n, 3, levels=5)
    y = (X[:, 0] + X[:, 1] + rng.integers(0, 2, size=n)).astype(int) % K
    class_weight = "balanced" if seed % 2 else None
    fast = logistic.LogisticRegression(l2=0.05, class_weight=class_weight).fit(X, y)
    readable = logistic.LogisticRegression(l2=0.05, class_weight=class_weight, trace=True).fit(X, y)
    assert readable.n_iter_ == fast.n_iter_
    np.testing.assert_allclose(readable.coef_, fast.coef_, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(readable.intercept_, fast.intercept_, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
@pytest.mark.parametrize("search", ["brute", "tree"])
def test_knn_search_finds_the_neighbours_of_the_definition(seed, metric, search):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1100, 2500)), int(rng.integers(1, 12))
    X = _tied_matrix(rng, n, 3, levels=5)  # many equidistant rows: ties go by training row
    Q = np.vstack([_tied_matrix(rng, 40, 3, levels=5), X[:10]])  # queries on the grid and on training rows
    prepared = neighbors_fast.prepare(X, metric, tree=search == "tree")
    fast = neighbors_fast.nearest_neighbors(Q, prepared, metric, k, search=search)
    readable = neighbors.k_nearest(Q, X, k, metric)
    assert np.array_equal(fast[1], readable[1])
    assert np.array_equal(fast[0], readable[0])


@pytest.mark.parametrize("seed", SEEDS)
def test_agglomerative_distance_matrix_is_squared_distances_mirrored(seed, monkeypatch):
    from pellucid.learners.agglomerative import agglomerative_fast
    from pellucid.learners.shared.distances import squared_distances
    monkeypatch.setattr(agglomerative_fast, "BLOCK", 16)  # several blocks, and a ragged last one
    rng = np.random.default_rng(seed)
    M = _tied_matrix(rng, int(rng.integers(2, 120)), 3, levels=5) + rng.normal(size=3) * (seed % 2)
    fast = agglomerative_fast.pairwise_squared_distances(M)
    readable = squared_distances(M, M)
    upper = np.triu_indices(len(M))
    assert np.array_equal(fast[upper], readable[upper])
    assert np.array_equal(fast, fast.T)


def _grid_with_held_columns(rng, p, held_at):
    """400 queries varying features 0 and 2 over a 20 x 20 grid, every other feature held at `held_at`."""
    g = np.linspace(-3, 3, 20)
    gx, gy = np.meshgrid(g, g)
    Q = np.tile(held_at, (400, 1))
    Q[:, 0], Q[:, 2] = gx.ravel(), gy.ravel()
    return Q


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("metric", ["euclidean", "manhattan"])
def test_knn_lifted_grid_search_finds_the_neighbours_of_the_definition(seed, metric, monkeypatch):
    rng = np.random.default_rng(seed)
    n, p, k = int(rng.integers(1100, 2500)), int(rng.integers(4, 9)), int(rng.integers(1, 12))
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 3, p) + rng.normal(0, 2, (3, p))[rng.integers(0, 3, n)]
    Q = _grid_with_held_columns(rng, p, rng.normal(size=p))
    assert neighbors_fast.held_columns(Q).tolist() == [j for j in range(p) if j not in (0, 2)]
    lifted = []
    monkeypatch.setattr(neighbors_fast, "_lifted_search",
                        lambda *args, search=neighbors_fast._lifted_search: lifted.append(1) or search(*args))
    Q = np.vstack([Q, Q[:1]])  # one query more: not a lattice (neighbors/grid.py searches those)
    fast = neighbors_fast.nearest_neighbors(Q, neighbors_fast.prepare(X, metric), metric, k)
    readable = neighbors.k_nearest(Q, X, k, metric)
    assert lifted  # "auto" took the lifted search for these queries
    assert np.array_equal(fast[1], readable[1])  # continuous values: no two rows equally far
    np.testing.assert_allclose(fast[0], readable[0], rtol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_knn_lifted_grid_search_on_tied_rows_is_as_near_as_the_definition(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1100, 2500)), int(rng.integers(1, 12))
    X = _tied_matrix(rng, n, 5, levels=5)  # equidistant rows: the lift may keep another of equal distance
    Q = _grid_with_held_columns(rng, 5, X[0])
    fast = neighbors_fast.nearest_neighbors(Q, neighbors_fast.prepare(X, "euclidean"), "euclidean", k,
                                            search="lifted")
    readable = neighbors.k_nearest(Q, X, k, "euclidean")
    np.testing.assert_allclose(fast[0], readable[0], rtol=1e-12)
    assert (np.diff(fast[0], axis=1) >= 0).all()


@pytest.mark.parametrize("seed", SEEDS)
def test_gram_from_column_dot_products_is_the_matrix_product(seed):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(1, 400)), int(rng.integers(1, 30))
    M = _tied_matrix(rng, n, d, levels=7) - 1.5 if seed % 2 else rng.normal(size=(n, d))
    by_dots = gram_fast.gram_by_dots(M)
    np.testing.assert_allclose(by_dots, M.T @ M, rtol=1e-12, atol=1e-12 * np.abs(M).max() ** 2 * n)
    assert np.array_equal(by_dots, by_dots.T)


@pytest.mark.parametrize("seed", SEEDS)
def test_pca_and_normal_equation_without_blas_equal_them_with_it(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(200, 6)) @ rng.normal(size=(6, 6)) + rng.normal(scale=50.0, size=6)
    y = X @ rng.normal(size=6) + rng.normal(size=200)
    monkeypatch.setattr(gram_fast, "HAS_BLAS", True)
    with_blas = pca.PCA().fit(X), linear.normal_equation(X, y)
    monkeypatch.setattr(gram_fast, "HAS_BLAS", False)
    without = pca.PCA().fit(X), linear.normal_equation(X, y)
    np.testing.assert_allclose(without[0].explained_variance_, with_blas[0].explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(without[0].components_, with_blas[0].components_, atol=1e-8)
    np.testing.assert_allclose(without[1], with_blas[1], rtol=1e-9)


# --- a boundary grid: held columns routed or summed once ------------------------------------------

def _grid_of(rng, X, varied, held):
    """Rows varying in `varied` over a few tied levels (and the training values' range), `held` fixed."""
    m = 500
    G = np.empty((m, X.shape[1]))
    for j in varied:
        G[:, j] = rng.choice(np.unique(X[:, j]), size=m) + rng.choice([0.0, 0.0, 0.25, -0.3], size=m)
    for j, value in held.items():
        G[:, j] = value
    return G


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["entropy", "regression"])
@pytest.mark.parametrize("held_code", [0, 3, -1])  # a category seen in training, another, one unseen
def test_tree_fixed_on_held_columns_ends_where_the_whole_tree_routes(seed, kind, held_code):
    """Multiway and binary category tests, class weights on even seeds, the held numeric column at a
    threshold itself (x <= t goes left): every grid row ends in the node Tree.apply gives it."""
    X, is_categorical, n_values, target = _tree_inputs(seed, kind)
    rng = np.random.default_rng(seed + 300)
    city = rng.integers(0, 15, size=len(X))
    X, is_categorical, n_values = np.column_stack([X, city]), np.append(is_categorical, True), n_values + [15]
    if kind != "regression" and seed % 2 == 0:
        counts = np.bincount(target.y, minlength=target.k)
        target = Classes(target.y, target.k, kind, len(target.y) / (target.k * np.maximum(counts, 1)))
    tree = growth_fast.grow(X, is_categorical, n_values, target, binary=[False, False, seed % 2 == 0, False, True])
    on_3 = tree.threshold[tree.feature == 3]
    held = {2: float(held_code), 3: float(on_3[0]) if len(on_3) else 0.5, 4: float(seed % 15)}
    G = _grid_of(rng, X, [0, 1], held)
    fixed = FixedTree(tree, held, is_categorical)
    assert np.array_equal(fixed.apply(G[:, [0, 1]]), tree.apply(G, is_categorical))
    many = np.repeat(G, 10, axis=0)  # enough rows for the Router's table of boxes
    assert np.array_equal(fixed.apply(many[:, [0, 1]]), tree.apply(many, is_categorical))


@pytest.mark.parametrize("seed", SEEDS)
def test_tree_fixed_on_all_but_one_column_ends_where_the_whole_tree_routes(seed):
    X, is_categorical, n_values, target = _tree_inputs(seed, "gini")
    tree = growth_fast.grow(X, is_categorical, n_values, target)
    rng = np.random.default_rng(seed + 400)
    held = {1: float(X[0, 1]), 2: float(X[0, 2]), 3: float(X[1, 3])}
    G = _grid_of(rng, X, [0], held)
    assert np.array_equal(FixedTree(tree, held, is_categorical).apply(G[:, [0]]), tree.apply(G, is_categorical))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_logistic_held_scores_are_the_whole_product(seed, n_classes):
    rng = np.random.default_rng(seed)
    D = int(rng.integers(3, 30))
    coef = rng.normal(size=(1 if n_classes == 2 else n_classes, D))
    intercept = rng.normal(size=len(coef))
    held_row = np.where(rng.random(D) < 0.5, rng.integers(0, 2, size=D), rng.normal(size=D))  # one-hot and numbers
    varied = np.sort(rng.choice(D, size=2, replace=False))
    X_varied = _tied_matrix(rng, 300, 2, levels=9)
    whole = np.tile(held_row, (300, 1))
    whole[:, varied] = X_varied
    expected = whole @ coef.T + intercept
    scores = logistic_fast.held_scores(coef, intercept, held_row, varied, X_varied)
    np.testing.assert_allclose(scores, expected[:, 0] if n_classes == 2 else expected, rtol=1e-12, atol=1e-12)


def test_logistic_held_scores_keep_tied_classes_tied():
    """Two classes with the same weights score the same on every row, so predict takes the first, as
    argmax over the whole product does."""
    model = logistic.LogisticRegression()
    model.classes_ = np.array(["a", "b", "c"])
    model.coef_ = np.array([[0.5, -1.0, 2.0, 0.25], [1.5, 1.0, -2.0, 0.5], [1.5, 1.0, -2.0, 0.5]])
    model.intercept_ = np.array([0.1, -0.2, -0.2])
    held_row, varied = np.array([0.0, 1.0, 0.0, 3.0]), np.array([0, 2])
    X_varied = np.array([[4.0, -1.0], [-4.0, 1.0], [0.0, 0.0]])
    scores = logistic_fast.held_scores(model.coef_, model.intercept_, held_row, varied, X_varied)
    assert np.array_equal(scores[:, 1], scores[:, 2])
    whole = np.tile(held_row, (3, 1))
    whole[:, varied] = X_varied
    predicted = model.class_of_scores(scores).tolist()
    assert predicted == model.class_of_scores(whole @ model.coef_.T + model.intercept_).tolist()
    assert "b" in predicted and "c" not in predicted  # the tie between b and c goes to the first


def _lattice(xs, ys, held_at, u, w):
    """Queries over the lattice of xs (varying fastest, in column u) and ys (column w), every other
    column held at held_at: a decision boundary's grid."""
    gx, gy = np.meshgrid(xs, ys)
    Q = np.tile(held_at, (gx.size, 1))
    Q[:, u], Q[:, w] = gx.ravel(), gy.ravel()
    return Q


def _lattice_case(seed):
    """(X, Q, k, metric) for one seed: rows with ties (duplicates, few levels) or continuous, held columns
    or none, lattices inside or far outside the data, points of the lattice on training rows, k from 1
    to large."""
    from pellucid.learners.neighbors import grid as neighbors_grid
    rng = np.random.default_rng(seed)
    metric = ("euclidean", "manhattan")[seed % 2]
    p = int(rng.integers(2, 6)) if seed % 3 else 2  # every third seed: no held column
    n = int(rng.integers(300, 1500))
    X = _tied_matrix(rng, n, p, levels=5) if seed % 4 < 2 else rng.normal(size=(n, p)) * rng.uniform(0.5, 3, p)
    k = int(rng.choice([1, 2, 5, 11, 40]))
    u, w = rng.choice(p, 2, replace=False)
    shift = 30.0 if seed % 5 == 4 else 0.0  # a lattice far outside the data
    steps = int(rng.integers(2, 6))
    xs = np.arange(-2 * steps, 5 * steps + 1) / (2.0 * steps) + shift  # through -1, -0.5, ..., 2.5 (tied values)
    ys = np.linspace(-1, 2.5, 8)[::-1] if seed % 7 == 3 else np.linspace(-1.5, 3, int(rng.integers(16, 30)))
    Q = _lattice(xs, ys, X[int(rng.integers(0, n))] if seed % 2 else rng.normal(size=p), u, w)
    if len(Q) < neighbors_grid._MIN_QUERIES:
        Q = _lattice(np.linspace(-1, 2.5, 64), ys, Q[0], u, w)
    return X, Q, k, metric


@pytest.mark.parametrize("seed", range(40))
def test_knn_lattice_search_finds_the_neighbours_of_the_definition(seed, monkeypatch):
    """The tile-by-tile search of a boundary's grid (neighbors/grid.py) gives the definition's neighbours
    and distances to the last bit, ties by training row included."""
    from pellucid.learners.neighbors import grid as neighbors_grid
    X, Q, k, metric = _lattice_case(seed)
    searched = []
    monkeypatch.setattr(neighbors_fast, "nearest_on_lattice",
                        lambda *args, search=neighbors_grid.nearest_on_lattice: searched.append(1) or search(*args))
    fast = neighbors_fast.nearest_neighbors(Q, neighbors_fast.prepare(X, metric), metric, k)
    readable = neighbors.k_nearest(Q, X, k, metric)
    assert searched and neighbors_grid.lattice(Q) is not None  # "auto" searched it as a lattice
    assert np.array_equal(fast[1], readable[1])
    assert np.array_equal(fast[0], readable[0])


def test_knn_lattice_is_recognised_exactly():
    from pellucid.learners.neighbors.grid import lattice
    Q = _lattice(np.linspace(0, 1, 20), np.linspace(0, 2, 15), np.array([5.0, 0, 7, 0]), 3, 1)
    held, u, w, xs, ys = lattice(Q)
    assert (held.tolist(), u, w) == ([0, 2], 3, 1)
    assert np.array_equal(xs, np.linspace(0, 1, 20)) and np.array_equal(ys, np.linspace(0, 2, 15))
    moved = Q.copy()
    moved[37, 3] += 1e-12  # one query off the lattice
    assert lattice(moved) is None
    assert lattice(Q[:-1]) is None  # a ragged last line
    assert lattice(np.column_stack([Q, np.arange(len(Q))])) is None  # a third varying column


@pytest.mark.parametrize("seed", SEEDS)
def test_intervals_by_arithmetic_count_the_cuts_below_as_searchsorted(seed):
    """Clustered and far-apart cuts, values on the cuts, just beside them, infinities and NaN (below none)."""
    rng = np.random.default_rng(seed)
    clusters = rng.normal(scale=10.0 ** rng.integers(-3, 4), size=(int(rng.integers(1, 20)), 1))
    cuts = np.unique((clusters + rng.normal(scale=1e-6, size=(len(clusters), 30))).ravel()[:int(rng.integers(1, 400))])
    x = np.concatenate([cuts, np.nextafter(cuts, np.inf), np.nextafter(cuts, -np.inf), rng.choice(cuts, 500)
                        + rng.normal(scale=1e-7, size=500), [np.inf, -np.inf, 1e300, -1e300, 0.0]])
    intervals = routing.Intervals(cuts)
    assert np.array_equal(intervals.of(x), np.searchsorted(cuts, x))
    assert intervals.of(np.array([np.nan])).tolist() == [0]


@pytest.mark.parametrize("seed", SEEDS)
def test_kmeans_cluster_sums_without_blas_equal_them_with_it(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 6))
    MT = _tied_matrix(rng, int(rng.integers(k, 500)), 4, levels=6).T.copy()  # (d, n)
    labels = rng.integers(0, k, size=MT.shape[1])
    monkeypatch.setattr(kmeans_fast, "HAS_BLAS", True)
    sums, counts = kmeans_fast.cluster_sums(MT, labels, k)
    monkeypatch.setattr(kmeans_fast, "HAS_BLAS", False)
    sums_without, counts_without = kmeans_fast.cluster_sums(MT, labels, k)
    np.testing.assert_allclose(sums_without, sums, rtol=1e-12, atol=1e-9)
    assert np.array_equal(counts_without, counts)
    np.testing.assert_allclose(sums, [MT[:, labels == j].sum(axis=1) for j in range(k)], rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("activation", ["relu", "tanh", "logistic", "identity"])
def test_network_fused_gradient_is_the_chain_rules(seed, activation):
    """One batch's loss and every gradient, from forward_backward (the chain rule layer by layer) and from
    forward_backward_fast's buffers, on tied rows, with and without sample weights, for each output."""
    from pellucid.learners.network import forward_backward, forward_backward_fast
    from pellucid.learners.network.flat import layout, views

    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(5, 60)), int(rng.integers(1, 5))
    X = _tied_matrix(rng, n, d, levels=4)
    hidden = [int(v) for v in rng.integers(1, 6, size=int(rng.integers(1, 4)))]
    for out, loss, k in (("logistic", "log_loss", 1), ("softmax", "log_loss", 3), ("identity", "squared_error", 1)):
        Y = np.eye(k)[rng.integers(0, k, n)] if out == "softmax" else rng.integers(0, 2, (n, 1)).astype(float)
        spans, size = layout([d] + hidden + [k])
        flat = rng.uniform(-1, 1, size)
        for weights in (None, rng.uniform(0, 2, n)):
            parts = views(flat, spans)
            L = len(parts) // 2
            slow = forward_backward.backward(X, Y, parts[:L], parts[L:], activation, out, loss, 0.3, weights)
            net = forward_backward_fast.FastNet(flat, spans, activation, out, loss, 0.3, n + 3)
            value, (grad,) = net.gradient(X, Y, weights)
            assert value == pytest.approx(slow.loss, rel=1e-12)
            expected = np.concatenate([g.ravel() for g in slow.coef_grads + slow.intercept_grads])
            np.testing.assert_allclose(grad, expected, rtol=1e-10, atol=1e-14)


def _perceptron_inputs(seed, n_classes, separable):
    """Half-integer features (every sum exact, so scores of exactly 0 are met the same way by both paths)
    with labels that a line separates (mistakes rare: the block path) or at random (frequent: row by row)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 800))
    X = _tied_matrix(rng, n, 3, levels=int(rng.integers(2, 9))) - 2.0
    y = (X @ [1.0, -2.0, 0.5] > 0).astype(int) + (X[:, 0] > 1) * (n_classes - 2) if separable else \
        rng.integers(0, n_classes, size=n)
    return X, y % n_classes


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n_classes, multiclass", [(2, "ovr"), (3, "ovr"), (4, "joint")])
@pytest.mark.parametrize("separable", [True, False])
@pytest.mark.parametrize("extra", [{}, {"averaged": True, "shuffle": True, "random_state": 4},
                                   {"tol": 0.01, "n_iter_no_change": 2, "shuffle": True},
                                   {"class_weight": "dyadic", "sample_weight": True, "averaged": True}])
def test_perceptron_fast_pass_equals_the_row_by_row_pass(seed, n_classes, multiclass, separable, extra):
    X, y = _perceptron_inputs(seed, n_classes, separable)
    params, fit = {**extra}, {}
    if params.pop("sample_weight", False):  # weights 0 (left out), 0.5, 1, 2: the sums stay exact
        fit["sample_weight"] = np.random.default_rng(seed).choice([0.0, 0.5, 1.0, 2.0], size=len(y))
    if params.get("class_weight") == "dyadic":
        params["class_weight"] = {int(c): 2.0 ** (c % 3 - 1) for c in np.unique(y)}
    params = {"max_iter": 6, "multiclass": multiclass, **params}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = Perceptron(**params).fit(X, y, **fit)
        traced = Perceptron(**params, trace=True).fit(X, y, **fit)
    assert fast.mistakes_ == traced.mistakes_
    assert fast.n_iter_ == traced.n_iter_ and fast.converged_ == traced.converged_
    np.testing.assert_array_equal(fast.weights_, traced.weights_)


@pytest.mark.parametrize("averaged", [False, True])
def test_perceptron_fast_pass_changes_path_as_mistakes_thin_out(averaged, monkeypatch):
    """Noisy rows first (visited one at a time), then separable ones (in blocks), then noise again: on
    continuous data the weights agree within rounding whichever way each stretch was taken."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(6000, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    y[:1500] = rng.integers(0, 2, 1500)
    y[-700:] = rng.integers(0, 2, 700)
    seen = []
    for name in ("_binary_rows", "_add"):
        original = getattr(perceptron_fast, name)
        monkeypatch.setattr(perceptron_fast, name, lambda *a, _f=original, _n=name: seen.append(_n) or _f(*a))
    params = {"max_iter": 4, "averaged": averaged}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = Perceptron(**params).fit(X, y)
        traced = Perceptron(**params, trace=True).fit(X, y)
    assert {"_binary_rows", "_add"} <= set(seen)  # both ways were taken
    assert fast.mistakes_ == traced.mistakes_
    np.testing.assert_allclose(fast.weights_, traced.weights_, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("offset", [0.0, 1e3, -1e6])
def test_gaussian_nb_likelihood_products_equal_the_sum_over_features(seed, offset, monkeypatch):
    """Data far from zero (where an expanded square would cancel), classes near and far apart, tiny and
    large variances, queries inside and far outside the training range; with BLAS and without."""
    rng = np.random.default_rng(seed)
    k, d = int(rng.integers(1, 6)), int(rng.integers(1, 30))
    scales = 10.0 ** rng.uniform(-4, 3, size=d)
    theta = offset + rng.normal(size=(k, d)) * scales * 10.0 ** rng.uniform(-3, 2, size=(k, 1))
    var = (scales * rng.uniform(0.5, 2, size=(k, d))) ** 2
    X = offset + rng.normal(size=(int(rng.integers(1, 400)), d)) * scales * rng.choice([1, 30], size=(1, d))
    readable = gaussian.log_likelihood(X, theta, var)
    for blas in (True, False):
        monkeypatch.setattr(gaussian_fast, "HAS_BLAS", blas)
        fast = gaussian_fast.log_likelihood(X, theta, var)
        # each entry within rounding of the terms it sums: the distances and the log-variances
        size = 1.0 + np.abs(readable) + np.abs(np.log(var)).sum(axis=1)
        assert np.all(np.abs(fast - readable) <= 1e-12 * d * size), np.abs(fast - readable).max()
