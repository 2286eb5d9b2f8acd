"""k-nearest neighbours: scikit-learn as an oracle, deterministic ties, both search paths, errors."""

import json

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import neighbors as sknn
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, load_wine
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pellucid import from_dict
from pellucid.core.errors import DataError, NotFittedError
from pellucid.learners.neighbors.kd_tree import copy_ranks, k_nearest
from pellucid.learners.neighbors.neighbors import KNeighborsClassifier, KNeighborsRegressor, nearest_neighbors, prepare


def _blobs(n_train, n_query, d, seed=0, offset=0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_train, d)) + offset
    y = (X[:, 0] - offset + 0.5 * rng.normal(size=n_train) > 0).astype(int) + (X[:, 1] - offset > 1)
    return X, y, rng.normal(size=(n_query, d)) + offset


def _reference(X, Q, k, metric):
    """Exact k nearest by full sorting on (distance, training row)."""
    if metric == "euclidean":
        D = np.sqrt(((Q[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    else:
        D = np.abs(Q[:, None, :] - X[None, :, :]).sum(axis=2)
    order = np.argsort(D, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(D, order, axis=1), order


# --- scikit-learn as an oracle ----------------------------------------------------------------------

def _assert_same_as_sklearn(ours, theirs, Q):
    """The same neighbours (to 1e-9 in distance), predictions and vote shares as scikit-learn's, on queries
    whose k+1 nearest rows are all at different distances (checked: rounding then cannot reorder them)."""
    d_next, _ = theirs.kneighbors(Q, n_neighbors=theirs.n_neighbors + 1)  # (n queries, k + 1), sorted
    assert np.min(np.diff(d_next, axis=1)) > 1e-9 * d_next.max()
    d_ours, i_ours = ours.kneighbors(Q)
    d_theirs, i_theirs = theirs.kneighbors(Q)
    assert np.array_equal(i_ours, i_theirs)
    assert np.allclose(d_ours, d_theirs, rtol=0, atol=1e-9)
    assert np.array_equal(ours.predict(Q), theirs.predict(Q))
    assert np.allclose(ours.predict_proba(Q), theirs.predict_proba(Q), atol=1e-12)


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_matches_sklearn_without_ties(metric, weights):
    X, y, Q = _blobs(400, 150, 4)
    ours = KNeighborsClassifier(n_neighbors=7, metric=metric, weights=weights).fit(X, y)
    theirs = sknn.KNeighborsClassifier(7, metric=metric, weights=weights, algorithm="brute").fit(X, y)
    _assert_same_as_sklearn(ours, theirs, Q)


@pytest.mark.parametrize("offset", [0.0, 1e5])
def test_large_training_set_path_is_exact(offset):
    # From 2048 training rows on, candidates are screened in float32 and then measured exactly.
    X, y, Q = _blobs(6000, 300, 6, seed=1, offset=offset)
    ours = KNeighborsClassifier(n_neighbors=5).fit(X, y)
    d_ref, i_ref = _reference(X, Q, 5, "euclidean")
    d_ours, i_ours = ours.kneighbors(Q)
    assert np.array_equal(i_ours, i_ref)
    assert np.allclose(d_ours, d_ref, rtol=1e-12, atol=0)
    theirs = sknn.KNeighborsClassifier(5).fit(X, y)
    assert np.array_equal(ours.predict(Q), theirs.predict(Q))


def test_integer_data_with_many_ties_orders_by_training_row():
    rng = np.random.default_rng(2)
    for n in (300, 3000):  # the small-data and the screened path
        X = rng.integers(0, 4, size=(n, 3)).astype(float)
        Q = rng.integers(0, 4, size=(50, 3)).astype(float)
        y = rng.integers(0, 3, size=n)
        for metric in ("euclidean", "manhattan"):
            d_ours, i_ours = KNeighborsClassifier(n_neighbors=9, metric=metric).fit(X, y).kneighbors(Q)
            d_ref, i_ref = _reference(X, Q, 9, metric)
            assert np.array_equal(i_ours, i_ref)
            assert np.allclose(d_ours, d_ref)


def test_regressor_matches_sklearn():
    X, y = load_diabetes(return_X_y=True)
    for weights in ("uniform", "distance"):
        ours = KNeighborsRegressor(n_neighbors=6, weights=weights).fit(X[:350], y[:350])
        theirs = sknn.KNeighborsRegressor(6, weights=weights, algorithm="brute").fit(X[:350], y[:350])
        assert np.allclose(ours.predict(X[350:]), theirs.predict(X[350:]), rtol=1e-12)


@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
def test_cross_validated_predictions_match_sklearn_pipeline_where_no_distance_ties(loader):
    # The tie rule: a row whose 5th and 6th nearest training rows are equally far (to rounding) may get
    # either neighbour, and scikit-learn's choice varies with its version and search; every other row
    # must be predicted alike (tied votes alike too: both give them to the smallest label).
    X, y = loader(return_X_y=True)
    compared = 0
    for train, test in StratifiedKFold(10, shuffle=True, random_state=0).split(X, y):
        ours = KNeighborsClassifier(n_neighbors=5, standardize=True).fit(X[train], y[train]).predict(X[test])
        pipe = make_pipeline(StandardScaler(), sknn.KNeighborsClassifier(5)).fit(X[train], y[train])
        D, _ = _reference(pipe[0].transform(X[train]), pipe[0].transform(X[test]), 6, "euclidean")  # (n test, 6)
        untied = D[:, 5] - D[:, 4] > 1e-9 * D.max()
        assert np.array_equal(ours[untied], pipe.predict(X[test])[untied])
        compared += int(untied.sum())
    assert compared >= 0.75 * len(y)  # the rule leaves out a few rows, not the comparison


# --- the KD-tree search gives the brute-force answer bit for bit ---------------------------------------

def _both_searches(X, Q, metric, k):
    prepared = prepare(X, metric, tree=True)  # built by default from 1,024 rows on
    return (nearest_neighbors(Q, prepared, metric, k, search="brute"),
            nearest_neighbors(Q, prepared, metric, k, search="tree"))


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
@pytest.mark.parametrize("d", [1, 2, 3, 6])
def test_tree_equals_brute_force_on_integer_data_with_many_ties(metric, d):
    rng = np.random.default_rng(d)
    X = rng.integers(-4, 5, size=(700, d)).astype(float)  # at most 729 distinct points: ties everywhere
    Q = np.vstack([rng.integers(-6, 7, size=(150, d)), np.zeros((1, d))]).astype(float)  # and the origin
    X[::97] = 0.0  # zero rows: cosine distance 1 to everything
    for k in range(1, 16):
        (d_brute, i_brute), (d_tree, i_tree) = _both_searches(X, Q, metric, k)
        assert np.array_equal(i_tree, i_brute) and np.array_equal(d_tree, d_brute), k
        if metric != "cosine":  # both are also the full sort's answer
            d_ref, i_ref = _reference(X, Q, k, metric)
            assert np.array_equal(i_tree, i_ref)
            assert np.allclose(d_tree, d_ref, rtol=1e-15, atol=0)


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
def test_tree_equals_brute_force_on_clustered_data_far_from_the_origin(metric):
    rng = np.random.default_rng(7)
    centres = rng.normal(size=(5, 2)) * 50 + 1e4
    X = centres[rng.integers(0, 5, size=3000)] + rng.normal(size=(3000, 2))  # (n, 2) dense clumps
    X[:40] = X[40:80]  # exact duplicates, tied at every query
    g = np.linspace(X.min() - 20, X.max() + 20, 60)
    Q = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)  # a decision-boundary grid, mostly empty space
    for k in (1, 4, 15):
        (d_brute, i_brute), (d_tree, i_tree) = _both_searches(X, Q, metric, k)
        assert np.array_equal(i_tree, i_brute) and np.array_equal(d_tree, d_brute)


def test_tree_on_small_and_odd_sized_sets_with_every_k():
    rng = np.random.default_rng(3)
    for n in (1, 15, 16, 17, 33, 100, 127, 128, 129, 600):
        X = rng.integers(0, 3, size=(n, 2)).astype(float)
        Q = rng.integers(-1, 4, size=(40, 2)).astype(float)
        for k in range(1, n + 1, max(1, n // 7)):
            d_tree, i_tree = k_nearest(prepare(X, "euclidean", tree=True), Q, k, "euclidean")
            d_ref, i_ref = _reference(X, Q, k, "euclidean")
            assert np.array_equal(i_tree, i_ref), (n, k)
            assert np.allclose(d_tree, d_ref, rtol=1e-15, atol=0)


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
def test_tree_prunes_in_ten_dimensions_and_matches_sklearn(metric):
    # Gaussian clusters in 10-D (as scikit-learn's make_classification): the tree keeps a small share of
    # the leaves in reach, and the answer is scikit-learn's and the brute force's.
    rng = np.random.default_rng(11)
    centres = rng.normal(scale=4.0, size=(6, 10))
    X = centres[rng.integers(0, 6, size=8000)] + rng.normal(size=(8000, 10))  # 20-30% of (query, node) pairs in reach
    Q = X[:300] + rng.normal(scale=0.1, size=(300, 10))
    prepared = prepare(X, metric)
    assert k_nearest(prepared, Q, 5, metric, pruning_required=True) is not None
    (d_brute, i_brute), (d_tree, i_tree) = _both_searches(X, Q, metric, 5)
    assert np.array_equal(i_tree, i_brute) and np.array_equal(d_tree, d_brute)
    d_sk, i_sk = sknn.NearestNeighbors(n_neighbors=5, metric=metric, algorithm="brute").fit(X).kneighbors(Q)
    assert np.array_equal(i_tree, i_sk)
    assert np.allclose(d_tree, d_sk, rtol=0, atol=1e-9)


def test_tree_search_in_small_batches_of_queries(monkeypatch):
    monkeypatch.setattr("pellucid.learners.neighbors.kd_tree._BATCH_QUERIES", (7, 7))  # 50 queries: 8 batches,
    # the last of 1
    rng = np.random.default_rng(5)
    X, Q = rng.normal(size=(3000, 3)), rng.normal(size=(50, 3))
    (d_brute, i_brute), (d_tree, i_tree) = _both_searches(X, Q, "euclidean", 4)
    assert np.array_equal(i_tree, i_brute) and np.array_equal(d_tree, d_brute)


@pytest.mark.parametrize("budget", [None, 1000])
def test_tree_keeps_each_querys_k_best_when_many_rows_tie(monkeypatch, budget):
    # 6,000 rows on 5 values: a query ties with about 1,200 rows at distance 0, all of them candidates;
    # with a small budget the search keeps each query's k best (by training row) many times over.
    if budget is not None:
        monkeypatch.setattr("pellucid.learners.neighbors.kd_tree._HIT_BUDGET", budget)
    rng = np.random.default_rng(6)
    X = rng.integers(0, 5, size=(6000, 1)).astype(float)
    Q = np.vstack([rng.integers(-1, 6, size=(400, 1)), [[2.5]]]).astype(float)
    for k in (1, 7):
        (d_brute, i_brute), (d_tree, i_tree) = _both_searches(X, Q, "euclidean", k)
        assert np.array_equal(i_tree, i_brute) and np.array_equal(d_tree, d_brute)
        d_ref, i_ref = _reference(X, Q, k, "euclidean")
        assert np.array_equal(i_tree, i_ref)


def test_tree_gives_way_to_brute_force_where_boxes_cannot_prune():
    # 60 uniform features: every leaf's box is within reach of every query, so the search by leaves
    # would cost more than comparing with every row; "auto" compares with every row instead.
    rng = np.random.default_rng(12)
    X, Q = rng.random((2000, 60)), rng.random((50, 60))
    prepared = prepare(X, "euclidean")
    assert k_nearest(prepared, Q, 5, "euclidean", pruning_required=True) is None
    d_auto, i_auto = nearest_neighbors(Q, prepared, "euclidean", 5)
    assert "tree" not in prepared  # not tried again for this model
    d_ref, i_ref = _reference(X, Q, 5, "euclidean")
    assert np.array_equal(i_auto, i_ref)
    assert np.allclose(d_auto, d_ref, rtol=1e-12, atol=0)


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_two_feature_models_match_sklearn(metric, weights):
    # 2,000 rows in 2-D: the classifier searches with the tree; scikit-learn is the oracle.
    X, y, Q = _blobs(2000, 500, 2, seed=4)
    ours = KNeighborsClassifier(n_neighbors=9, metric=metric, weights=weights).fit(X, y)
    assert "tree" in ours._prepared() and k_nearest(ours._prepared(), Q, 9, metric, True) is not None
    theirs = sknn.KNeighborsClassifier(9, metric=metric, weights=weights, algorithm="brute").fit(X, y)
    _assert_same_as_sklearn(ours, theirs, Q)
    if metric == "cosine" and weights == "distance":
        return  # 1 / (cosine distances near 1e-12) magnifies last-bit differences beyond any tolerance
    reg = KNeighborsRegressor(n_neighbors=9, metric=metric, weights=weights).fit(X, X[:, 0] * X[:, 1])
    sk_reg = sknn.KNeighborsRegressor(9, metric=metric, weights=weights, algorithm="brute")
    assert np.allclose(reg.predict(Q), sk_reg.fit(X, X[:, 0] * X[:, 1]).predict(Q), rtol=1e-12, atol=1e-12)


# --- ties, votes, weights ---------------------------------------------------------------------------

def test_equidistant_neighbours_come_in_training_order():
    X = [[0, 1], [1, 0], [0, -1], [-1, 0], [3, 3]]
    model = KNeighborsClassifier(n_neighbors=2).fit(X, ["a", "b", "c", "d", "e"])
    dist, idx = model.kneighbors([[0, 0]])
    assert idx.tolist() == [[0, 1]] and np.allclose(dist, 1.0)


def test_a_tied_vote_goes_to_the_smallest_label():
    X = [[1.0], [-1.0], [5.0]]
    model = KNeighborsClassifier(n_neighbors=2).fit(X, ["b", "a", "b"])
    assert model.predict([[0.0]])[0] == "a"
    assert model.predict_proba([[0.0]]).tolist() == [[0.5, 0.5]]
    # The nearer neighbour decides once the vote is weighted by 1 / distance.
    weighted = KNeighborsClassifier(n_neighbors=2, weights="distance").fit(X, ["b", "a", "b"])
    assert weighted.predict([[0.4]])[0] == "b"


def test_distance_weights_with_an_exact_match():
    X = [[0.0], [1.0], [2.0]]
    model = KNeighborsRegressor(n_neighbors=3, weights="distance").fit(X, [10.0, 20.0, 30.0])
    assert model.predict([[1.0]])[0] == 20.0  # only the point at distance 0 votes
    assert np.isclose(model.predict([[0.5]])[0], (10 / 0.5 + 20 / 0.5 + 30 / 1.5) / (2 / 0.5 + 1 / 1.5))


def test_k_one_gives_voronoi_cells():
    # 1-NN labels every point with its nearest training point: the Voronoi cell it lies in (notes 004).
    X = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]])
    model = KNeighborsClassifier(n_neighbors=1).fit(X, [0, 1, 2])
    grid = np.stack(np.meshgrid(np.linspace(-2, 6, 41), np.linspace(-2, 6, 41)), axis=-1).reshape(-1, 2)
    nearest = np.argmin(((grid[:, None, :] - X[None]) ** 2).sum(axis=2), axis=1)
    assert np.array_equal(model.predict(grid), nearest)


def test_categorical_features_are_one_hot_encoded():
    X = [["red", 0.0], ["blue", 0.0], ["red", 3.0]]
    model = KNeighborsClassifier(n_neighbors=1).fit(X, ["r", "b", "far"], feature_names=["colour", "size"])
    dist, idx = model.kneighbors([["blue", 0.5]])
    assert idx.tolist() == [[1]] and np.isclose(dist[0, 0], 0.5)
    dist, _ = model.kneighbors([["red", 0.0]], n_neighbors=2)
    assert np.allclose(dist[0], [0.0, np.sqrt(2.0)])  # a different colour is two one-hot coordinates away


# --- explain, trace, round trip ---------------------------------------------------------------------

def test_explain_lists_the_neighbours_and_the_vote():
    X, y = load_iris(return_X_y=True)
    model = KNeighborsClassifier(n_neighbors=5).fit(X, y)
    explained = model.explain(X[70])
    json.dumps(explained, allow_nan=False)
    dist, idx = model.kneighbors(X[70:71])
    assert [n["row"] for n in explained["neighbors"]] == idx[0].tolist()
    assert [n["label"] for n in explained["neighbors"]] == y[idx[0]].tolist()
    assert sum(explained["votes"]) == 5
    assert explained["prediction"] == model.predict(X[70:71])[0]


def test_trace_and_round_trip():
    X = [["red", 1.0], ["blue", 2.0], ["red", 3.0], ["blue", 5.0]]
    y = ["a", "b", "a", "b"]
    model = KNeighborsClassifier(n_neighbors=3, standardize=True, weights="distance", trace=True).fit(X, y)
    json.dumps(model.trace_, allow_nan=False)
    assert model.trace_[0]["features"] == ["x0=blue", "x0=red", "x1"]
    assert model.trace_[0]["class_count"] == [2, 2]
    rebuilt = from_dict(json.loads(json.dumps(model.to_dict())))
    Q = [["blue", 1.5], ["red", 4.0]]
    assert np.array_equal(rebuilt.predict_proba(Q), model.predict_proba(Q))
    regressor = KNeighborsRegressor(n_neighbors=2, metric="manhattan").fit([[0.0], [1.0], [3.0]], [1.0, 2.0, 4.0])
    again = from_dict(json.loads(json.dumps(regressor.to_dict())))
    assert np.array_equal(again.predict([[0.2], [2.5]]), regressor.predict([[0.2], [2.5]]))


# --- errors -----------------------------------------------------------------------------------------

def test_k_larger_than_the_training_set():
    with pytest.raises(DataError, match="larger than the training set, which has 3 rows"):
        KNeighborsClassifier(n_neighbors=5).fit([[0], [1], [2]], [0, 1, 0])


def test_bad_input_and_unfitted_use():
    with pytest.raises(DataError, match="'metric'"):
        KNeighborsClassifier(metric="chebyshev").fit([[0], [1]], [0, 1])
    with pytest.raises(NotFittedError):
        KNeighborsClassifier().predict([[0]])
    model = KNeighborsClassifier(n_neighbors=1).fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(DataError, match="X has 3 features, but KNeighborsClassifier is expecting 2 features"):
        model.predict([[0, 1, 2]])
    with pytest.raises(DataError, match="n_neighbors must be an integer from 1 to the 2 training rows"):
        model.kneighbors([[0, 1]], n_neighbors=3)


def test_copy_ranks_count_the_identical_rows_before_each_row():
    P = np.array([[1.0, 0.0], [2.0, 0.0], [1.0, 0.0], [1.0, 0.0], [2.0, 0.0], [1.0, 1.0]])
    assert copy_ranks(P).tolist() == [0, 0, 1, 2, 1, 0]


@pytest.mark.parametrize("make", [
    lambda rng: rng.normal(size=(3000, 5)),
    lambda rng: rng.integers(0, 3, size=(3000, 3)).astype(float),  # many copies of each row
    lambda rng: np.where(rng.random((500, 2)) < 0.5, -0.0, 0.0),  # -0.0 and 0.0 are the same point
])
def test_hashed_copy_ranks_are_the_ranks_of_sorting_the_rows(make, monkeypatch):
    from pellucid.learners.neighbors import kd_tree
    P = make(np.random.default_rng(5))
    exact = kd_tree._exact_copy_ranks(P)
    assert np.array_equal(copy_ranks(P), exact)
    # Every row hashed alike (all collide): the groups are ranked exactly all the same.
    monkeypatch.setattr(kd_tree, "_row_hashes", lambda bits: np.zeros(len(bits), dtype=np.uint64))
    assert np.array_equal(copy_ranks(P), exact)
