"""Agglomerative clustering (notes 004): single and complete link (and average and Ward's) against hand-worked merges,
scipy's linkage and scikit-learn's AgglomerativeClustering; the tree cut at any k; trace and errors."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
pytest.importorskip("scipy", reason="an oracle test: it compares with scipy")
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from scipy.cluster.hierarchy import linkage
from scipy.spatial.distance import pdist
from sklearn.cluster import AgglomerativeClustering as SKAgglomerative
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.preprocessing import StandardScaler

from pellucid import from_dict
from pellucid.learners.agglomerative.agglomerative import AgglomerativeClustering
from pellucid.evaluation.cluster_metrics import adjusted_rand_index
from pellucid.core.errors import DataError, NotFittedError

# Iris moved by less than 0.005 (seeded): raw iris repeats rows and distances, so which tied pair merges
# first is each implementation's choice, and the trees (and cuts) may differ.
IRIS_UNTIED = StandardScaler().fit_transform(load_iris().data + np.random.default_rng(0).uniform(
    -0.005, 0.005, size=(150, 4)))
WINE_STD = StandardScaler().fit_transform(load_wine().data)
CANCER_STD = StandardScaler().fit_transform(load_breast_cancer().data)
LINE = np.array([[0.0], [1.0], [3.0], [7.0]])


@pytest.mark.parametrize("linkage_name,heights", [
    ("single", [1.0, 2.0, 4.0]),  # closest pair: {0,1} at 1, +3 at 2 (3-1), +7 at 4 (7-3)
    ("complete", [1.0, 3.0, 7.0]),  # farthest pair: {0,1} at 1, +3 at 3 (3-0), +7 at 7 (7-0)
    ("average", [1.0, 2.5, 17 / 3]),  # mean pair: {0,1} at 1, +3 at (3+2)/2, +7 at (7+6+4)/3
    # Ward: sqrt(2|A||B| / (|A|+|B|)) times the centroids' distance: {0,1} at 1, +3 at sqrt(4/3) (3 - 1/2),
    # +7 at sqrt(3/2) (7 - 4/3)
    ("ward", [1.0, np.sqrt(4 / 3) * 2.5, np.sqrt(1.5) * 17 / 3]),
])
def test_hand_worked_merges(linkage_name, heights):
    model = AgglomerativeClustering(n_clusters=2, linkage=linkage_name, trace=True).fit(LINE)
    np.testing.assert_allclose(model.distances_, heights, rtol=1e-12)
    np.testing.assert_array_equal(model.children_, [[0, 1], [2, 4], [3, 5]])
    np.testing.assert_array_equal(model.sizes_, [2, 3, 4])
    np.testing.assert_array_equal(model.labels_, [0, 0, 0, 1])
    assert model.trace_[1] == {"step": 1, "a": 2, "b": 4, "distance": pytest.approx(heights[1]), "size": 3}
    json.dumps(model.trace_)


def assert_no_tied_distances(X):
    """Every two pairwise distances differ by far more than rounding (1e-12 of the largest; rounding moves
    a distance by about 1e-16 of it), so no merge is decided by a tie: a single- or complete-link
    distance is one pair's distance, and each pair of rows belongs to one pair of clusters (an average
    link tie would need two means of different distances to coincide)."""
    d = np.sort(pdist(X))
    assert np.min(np.diff(d)) > 1e-12 * d[-1]


@pytest.mark.parametrize("data", ["iris", "wine"])
@pytest.mark.parametrize("linkage_name", ["single", "complete", "average", "ward"])
def test_same_partitions_as_sklearn(data, linkage_name):
    X = IRIS_UNTIED if data == "iris" else WINE_STD
    assert_no_tied_distances(X)
    model = AgglomerativeClustering(n_clusters=2, linkage=linkage_name).fit(X)
    for k in range(2, 9):
        theirs = SKAgglomerative(n_clusters=k, linkage=linkage_name).fit(X).labels_
        assert adjusted_rand_index(model.labels_for(k), theirs) == 1.0, k


@pytest.mark.parametrize("data", ["wine", "cancer"])
@pytest.mark.parametrize("linkage_name", ["single", "complete", "average", "ward"])
def test_same_tree_as_scipy(data, linkage_name):
    X = WINE_STD if data == "wine" else CANCER_STD
    assert_no_tied_distances(X)
    model = AgglomerativeClustering(linkage=linkage_name).fit(X)
    Z = linkage(X, method=linkage_name)
    np.testing.assert_array_equal(model.children_, Z[:, :2].astype(int))
    np.testing.assert_allclose(model.distances_, Z[:, 2], rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(model.sizes_, Z[:, 3].astype(int))


def test_cutting_the_tree():
    model = AgglomerativeClustering(n_clusters=3, linkage="complete").fit(WINE_STD)
    np.testing.assert_array_equal(model.labels_for(3), model.labels_)
    assert set(model.labels_for(1).tolist()) == {0}
    np.testing.assert_array_equal(model.labels_for(len(WINE_STD)), np.arange(len(WINE_STD)))
    assert model.labels_[0] == 0  # clusters are numbered by their first row
    assert np.all(np.diff(model.distances_) >= 0)
    np.testing.assert_array_equal(model.predict(WINE_STD), model.labels_)
    assert model.sizes_[-1] == len(WINE_STD)
    merges = model.merges_
    assert len(merges) == len(WINE_STD) - 1 and set(merges[0]) == {"a", "b", "distance", "size"}
    with pytest.raises(DataError, match="k must be an integer between 1"):
        model.labels_for(0)


def test_round_trip_and_categorical_columns():
    X = [[0.0, "a"], [0.2, "a"], [5.0, "b"], [5.1, "b"], [9.0, "a"]]
    model = AgglomerativeClustering(n_clusters=3, linkage="single").fit(X)
    np.testing.assert_array_equal(model.labels_, [0, 0, 1, 1, 2])
    rebuilt = from_dict(json.loads(json.dumps(model.to_dict())))
    np.testing.assert_array_equal(rebuilt.labels_, model.labels_)
    np.testing.assert_array_equal(rebuilt.labels_for(2), model.labels_for(2))
    assert rebuilt.merges_ == model.merges_
    np.testing.assert_array_equal(rebuilt.predict(X), model.labels_)
    # a new row takes the cluster of its nearest fitted row
    np.testing.assert_array_equal(model.predict([[5.3, "b"], [8.0, "a"], [0.1, "b"]]), [1, 2, 0])


def test_errors():
    with pytest.raises(DataError, match="'n_clusters' \\(k\\) must be at most the number of rows"):
        AgglomerativeClustering(n_clusters=4).fit([[0.0], [1.0]])
    with pytest.raises(DataError, match="'linkage'"):
        AgglomerativeClustering(linkage="centroid").fit(LINE)
    with pytest.raises(DataError, match="holds text|missing"):
        AgglomerativeClustering().fit([[1.0, None], [2.0, "x"]])
    with pytest.raises(NotFittedError):
        AgglomerativeClustering().labels_for(2)


@settings(max_examples=40, deadline=None)
@given(arrays(float, st.tuples(st.integers(1, 30), st.integers(1, 3)),
              elements=st.floats(-50, 50, allow_nan=False)),
       st.integers(1, 5), st.sampled_from(["single", "complete", "average", "ward"]))
def test_labels_partition_the_rows(X, k, linkage_name):
    k = min(k, len(X))
    model = AgglomerativeClustering(n_clusters=k, linkage=linkage_name).fit(X)
    assert model.labels_.shape == (len(X),)
    assert set(model.labels_.tolist()) == set(range(k))
    assert len(model.children_) == len(X) - 1
    if len(X) > 1:
        assert model.sizes_[-1] == len(X)


def test_cutting_a_chain_of_merges():
    # Points on a line with ever wider gaps: single link adds one point per merge (a tree 499 deep).
    X = (np.arange(500.0) ** 1.5)[:, None]
    model = AgglomerativeClustering(n_clusters=1).fit(X)
    for k in (1, 2, 7, 250, 500):
        expected = [0] * (501 - k) + list(range(1, k))  # rows 0..500-k together, the rest alone
        np.testing.assert_array_equal(model.labels_for(k), expected)
