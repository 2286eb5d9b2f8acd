"""Cluster quality measures: silhouette and ARI against scikit-learn, the Dunn index against its definition
(notes 004), inertia, and the k sweep for choosing k."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
pytest.importorskip("scipy", reason="an oracle test: it compares with scipy")
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from scipy.spatial.distance import cdist
from sklearn.cluster import KMeans as SKKMeans
from sklearn.datasets import load_digits, load_iris, load_wine
from sklearn.metrics import adjusted_rand_score
from sklearn.metrics import silhouette_score as sk_silhouette
from sklearn.preprocessing import StandardScaler

from pellucid.evaluation.cluster_metrics import adjusted_rand_index, dunn_index, inertia, k_sweep, silhouette_score
from pellucid.core.errors import DataError

IRIS = load_iris()
WINE_STD = StandardScaler().fit_transform(load_wine().data)


# --- silhouette -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["iris", "wine", "digits"])
def test_silhouette_equals_sklearn(name):
    if name == "iris":
        X, labels = IRIS.data, IRIS.target
    elif name == "wine":
        X, labels = WINE_STD, load_wine().target
    else:  # 1797 rows: more than one block of rows
        digits = load_digits()
        X, labels = digits.data, digits.target
    assert silhouette_score(X, labels) == pytest.approx(sk_silhouette(X, labels), abs=1e-10)


def test_silhouette_of_kmeans_labels_and_a_singleton_cluster():
    X = IRIS.data
    labels = SKKMeans(4, n_init=1, random_state=0).fit(X).labels_
    assert silhouette_score(X, labels) == pytest.approx(sk_silhouette(X, labels), abs=1e-10)
    single = IRIS.target.copy()
    single[0] = 7  # a cluster of one row counts 0, as in scikit-learn
    assert silhouette_score(X, single) == pytest.approx(sk_silhouette(X, single), abs=1e-10)


def test_silhouette_needs_two_to_n_minus_one_clusters():
    with pytest.raises(DataError, match="between 2 and"):
        silhouette_score(IRIS.data, np.zeros(150))
    with pytest.raises(DataError, match="one label per row"):
        silhouette_score(IRIS.data, np.zeros(10))


# --- adjusted Rand index ----------------------------------------------------------------------------

def test_ari_special_cases():
    assert adjusted_rand_index([0, 0, 1, 1], [1, 1, 0, 0]) == 1.0
    assert adjusted_rand_index(["a", "a", "b"], [5, 5, 9]) == 1.0
    assert adjusted_rand_index([0, 0, 0], [0, 0, 0]) == 1.0
    assert adjusted_rand_index([0, 0, 1, 2], [0, 0, 1, 1]) == pytest.approx(0.5714285714285714)
    with pytest.raises(DataError, match="same length"):
        adjusted_rand_index([0, 1], [0, 1, 1])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 6)), min_size=2, max_size=60))
def test_ari_equals_sklearn(pairs):
    a, b = np.array(pairs).T
    assert adjusted_rand_index(a, b) == pytest.approx(adjusted_rand_score(a, b), abs=1e-12)


def test_ari_of_iris_kmeans_equals_sklearn():
    labels = SKKMeans(3, n_init=1, random_state=1).fit(IRIS.data).labels_
    ours = adjusted_rand_index(IRIS.target, labels)
    assert ours == pytest.approx(adjusted_rand_score(IRIS.target, labels), abs=1e-12)
    assert 0.6 < ours < 0.8  # k-means finds setosa and mixes the other two


# --- Dunn index (notes 004) --------------------------------------------------------------------------

def _dunn_by_definition(X, labels):
    """min over pairs of clusters of the closest pair apart / max over clusters of the diameter."""
    groups = [X[labels == c] for c in np.unique(labels)]
    apart = min(cdist(p, q).min() for i, p in enumerate(groups) for q in groups[i + 1:])
    widest = max(cdist(g, g).max() for g in groups)
    return apart / widest


def test_dunn_index_hand_example():
    # Two clusters on a line: {0, 1} and {5, 6, 8}. Closest pair apart: 1 and 5 (4); widest: 5 to 8 (3).
    X = np.array([[0.0], [1.0], [5.0], [6.0], [8.0]])
    assert dunn_index(X, [0, 0, 1, 1, 1]) == pytest.approx(4 / 3, rel=1e-12)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_dunn_index_matches_definition(k):
    labels = SKKMeans(k, n_init=1, random_state=0).fit(WINE_STD).labels_
    assert dunn_index(WINE_STD, labels) == pytest.approx(_dunn_by_definition(WINE_STD, labels), rel=1e-9)


def test_dunn_index_larger_for_far_compact_clusters():
    rng = np.random.default_rng(0)
    labels = np.repeat([0, 1], 50)
    near = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(3, 1, (50, 2))])
    far = np.vstack([rng.normal(0, 1, (50, 2)), rng.normal(30, 1, (50, 2))])
    assert dunn_index(far, labels) > 1 > dunn_index(near, labels)


def test_dunn_index_blocks_and_errors():
    digits = load_digits()  # more rows than one block
    X, labels = digits.data[:1200], digits.target[:1200]
    assert dunn_index(X, labels) == pytest.approx(_dunn_by_definition(X, labels), rel=1e-9)
    with pytest.raises(DataError, match="at least 2 clusters"):
        dunn_index(X, np.zeros(1200))
    assert dunn_index([[0.0], [5.0]], [0, 1]) == float("inf")  # singletons have no diameter


# --- inertia ----------------------------------------------------------------------------------------

def test_inertia_equals_sklearn_kmeans():
    model = SKKMeans(3, n_init=1, random_state=0).fit(IRIS.data)
    ours = inertia(IRIS.data, model.labels_, model.cluster_centers_)
    assert ours == pytest.approx(model.inertia_, rel=1e-9)
    # default centres are the cluster means, which are the converged k-means centres
    assert inertia(IRIS.data, model.labels_) == pytest.approx(model.inertia_, rel=1e-6)
    with pytest.raises(DataError, match="shape"):
        inertia(IRIS.data, model.labels_, np.zeros((3, 2)))


# --- choosing k -------------------------------------------------------------------------------------

def test_k_sweep_reports_each_measure():
    from pellucid.learners.kmeans.kmeans import KMeans

    rows = k_sweep(IRIS.data, [1, 2, 3, 4], seed=0, n_init=5)
    json.dumps(rows)  # plain JSON
    assert [r["k"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["dunn"] is None and rows[0]["silhouette"] is None
    inertias = [r["inertia"] for r in rows]
    assert inertias == sorted(inertias, reverse=True)
    assert inertias[0] == pytest.approx(float(np.sum((IRIS.data - IRIS.data.mean(0)) ** 2)))
    labels = KMeans(n_clusters=3, n_init=5, random_state=0).fit(IRIS.data).labels_
    assert rows[2]["silhouette"] == pytest.approx(sk_silhouette(IRIS.data, labels), abs=1e-10)
    assert rows[2]["dunn"] == pytest.approx(_dunn_by_definition(IRIS.data, labels), rel=1e-9)
    # the silhouette prefers 2 clusters on iris (setosa apart from the rest)
    assert max(rows[1:], key=lambda r: r["silhouette"])["k"] == 2
    with pytest.raises(DataError, match="ks must be"):
        k_sweep(IRIS.data, [0, 2])
