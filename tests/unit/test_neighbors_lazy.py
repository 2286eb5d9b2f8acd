"""k-NN's fit only stores the rows; the search structure (score arrays, KD-tree) is built by the first
query and kept. Whenever it is built, and however the model travels (pickled, written to a file, let
go of and built again), the neighbours are those of the definition (neighbors.k_nearest)."""

import pickle

import numpy as np
import pytest

import pellucid
from pellucid import KNeighborsClassifier, KNeighborsRegressor
from pellucid.learners.neighbors import neighbors, neighbors_fast

METRICS = ["euclidean", "manhattan", "cosine"]


def _rows(rng, n, d):
    """(n, d) rows from a few levels, some copied and one column constant: ties and identical rows."""
    X = rng.integers(0, 4, size=(n, d)).astype(float) / 2.0 + rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.5)
    X[rng.integers(0, n, size=n // 5)] = X[rng.integers(0, n, size=n // 5)]
    X[:, -1] = 1.5
    return X


def _definition(model, Q):
    scale = model._scale()
    dist, idx = neighbors.k_nearest(Q / scale, model.X_fit_ / scale, model.n_neighbors, model.metric)
    return (dist if model.metric == "cosine" else dist * scale), idx


def test_fit_builds_no_search_structure_and_the_first_query_keeps_it():
    rng = np.random.default_rng(0)
    X = _rows(rng, 3000, 3)
    model = KNeighborsClassifier().fit(X, (X[:, 0] > 0.5).astype(int))
    assert model._search == {}
    attributes = dict(vars(model))
    model.predict(X[:20])
    assert "tree" in model._search["prepared"]  # 3,000 rows in 3 features: searched through a KD-tree
    kept = model._search["prepared"]
    model.predict(X[20:40])
    assert model._search["prepared"] is kept  # built once
    assert vars(model) == attributes  # the same attributes: the structure is filled in place


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("n, d", [(1, 3), (7, 2), (300, 5), (2500, 3), (1500, 25)])
def test_every_way_of_building_the_structure_finds_the_neighbours_of_the_definition(metric, n, d):
    rng = np.random.default_rng(n + d)
    X, Q = _rows(rng, n, d), np.vstack([_rows(rng, 40, d), _rows(rng, 1, d)])
    y = rng.normal(size=n)
    k = min(n, 5)
    model = KNeighborsRegressor(n_neighbors=k, metric=metric).fit(X, y)
    unqueried = pickle.loads(pickle.dumps(model))  # before any query: rebuilt by the copy's first query
    expected = _definition(model, Q)
    first = model.kneighbors(Q)
    for got in (first, model.kneighbors(Q), unqueried.kneighbors(Q), pickle.loads(pickle.dumps(model)).kneighbors(Q),
                pellucid.from_dict(model.to_dict()).kneighbors(Q)):
        assert np.array_equal(got[1], expected[1])
        assert np.array_equal(got[0], first[0])
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-12, atol=1e-12)
    prediction = model.predict(Q)
    model.release_prepared()
    assert model._search == {}
    assert np.array_equal(model.predict(Q), prediction)


def test_a_changed_metric_or_refit_rows_rebuild_the_structure():
    rng = np.random.default_rng(3)
    X, Q = _rows(rng, 1200, 3), _rows(rng, 30, 3)
    y = rng.integers(0, 3, size=len(X))
    model = KNeighborsClassifier(n_neighbors=3).fit(X, y)
    model.predict(Q)
    model.set_params(metric="manhattan")
    assert np.array_equal(model.kneighbors(Q)[1], _definition(model, Q)[1])
    model.fit(X[::-1].copy(), y[::-1])
    assert model._search == {}
    assert np.array_equal(model.kneighbors(Q)[1], _definition(model, Q)[1])


@pytest.fixture
def small_trials(monkeypatch):
    """Trial trees of 1,024 rows from 4,096 rows on, so that small data take the trial."""
    monkeypatch.setattr(neighbors_fast, "_TRIAL_ROWS", 1024)
    monkeypatch.setattr(neighbors_fast, "_TRIAL_MIN_ROWS", 4096)


@pytest.mark.parametrize("metric", METRICS)
def test_a_tree_is_left_out_where_a_trial_tree_prunes_nothing(metric, small_trials):
    rng = np.random.default_rng(5)
    scattered = rng.normal(size=(5000, 20))  # 20 dimensions: boxes prune nothing
    flat = np.zeros((5000, 10))  # 10 features, 2 dimensions: boxes prune
    flat[:, :2] = rng.normal(size=(5000, 2))
    flat[:, 2:] = flat[:, :1] * np.arange(1, 9) + flat[:, 1:2]
    for X, kept in ((scattered, False), (flat, True)):
        Q = np.vstack([rng.normal(size=(40, X.shape[1])), X[:5]])
        model = KNeighborsRegressor(n_neighbors=4, metric=metric).fit(X, rng.normal(size=len(X)))
        found = model.kneighbors(Q)
        assert ("order" in model._search["prepared"]) == kept  # built (its own probe may drop it later)
        expected = _definition(model, Q)
        assert np.array_equal(found[1], expected[1])
        np.testing.assert_allclose(found[0], expected[0], rtol=1e-12, atol=1e-12)


def test_no_tree_for_a_k_it_would_not_be_searched_for():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(1600, 2))
    assert "tree" not in neighbors_fast.prepare(X, "euclidean", k=101)  # more than 1/16 of the rows
    assert "tree" in neighbors_fast.prepare(X, "euclidean", k=100)
    assert "tree" in neighbors_fast.prepare(X, "euclidean")  # k not said: as before
