"""k-means fits without a trace (kmeans_fast) give the clusters of the traced fits (kmeans.py's readable
steps): the same labels, centres, inertia and iterations, across seeds, shapes and numbers of clusters,
k = 1 and 2 included (the assignment step treats them apart)."""

import numpy as np
import pytest

from pellucid import KMeans
from pellucid.learners.kmeans import kmeans, kmeans_fast
from pellucid.learners.shared.distances import unit_scale


def _blobs(rng, n, d, k):
    centres = rng.normal(scale=3.0, size=(k, d))
    return centres[rng.integers(k, size=n)] + rng.normal(size=(n, d))


@pytest.mark.parametrize("seed", range(12))
def test_untraced_fit_equals_traced_fit(seed):
    rng = np.random.default_rng(100 + seed)
    n, d, k = int(rng.integers(20, 1500)), int(rng.integers(1, 12)), int(rng.integers(1, 7))
    X = _blobs(rng, n, d, max(k, 2))
    traced = KMeans(n_clusters=k, random_state=seed, trace=True).fit(X)
    fast = KMeans(n_clusters=k, random_state=seed).fit(X)
    assert np.array_equal(traced.labels_, fast.labels_)
    assert traced.n_iter_ == fast.n_iter_
    np.testing.assert_allclose(fast.cluster_centers_, traced.cluster_centers_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fast.inertia_, traced.inertia_, rtol=1e-10)


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_assignment_equals_readable_one_for_every_k(k):
    rng = np.random.default_rng(k)
    MT = rng.integers(-3, 4, size=(4, 300)).astype(float)  # a grid: many rows tie between centres
    centres = MT[:, rng.choice(300, size=k, replace=False)].T.copy()
    labels, part = kmeans.assign(MT, centres)
    fast_labels, fast_part = kmeans_fast.assign(MT, centres)
    assert fast_labels.dtype == np.intp
    assert np.array_equal(labels, fast_labels) and np.array_equal(part, fast_part)


def test_moving_rows_updates_sums_and_counts_as_recounting_them():
    rng = np.random.default_rng(7)
    MT = rng.normal(size=(3, 200))
    old = rng.integers(4, size=200)
    new = old.copy()
    new[::9] = (new[::9] + 1) % 4
    sums, counts = kmeans_fast.cluster_sums(MT, old, 4)
    moved = np.flatnonzero(new != old)
    moved_sums, moved_counts = kmeans_fast.move_rows(MT, moved, old[moved], new[moved], sums, counts)
    expected_sums, expected_counts = kmeans_fast.cluster_sums(MT, new, 4)
    np.testing.assert_allclose(moved_sums, expected_sums, rtol=1e-12, atol=1e-12)
    assert np.array_equal(moved_counts, expected_counts)


def _scaled_assignment(M, centres):
    """The readable assignment (kmeans.assign) on the rows and centres divided by the centres' scale, as
    predict computed it before it read the rows in place."""
    scale = unit_scale(centres)
    return kmeans.assign(np.ascontiguousarray((M / scale).T), centres / scale)[0]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("power", [-400, -100, 0, 100])
def test_predict_reading_rows_in_place_equals_the_readable_assignment(seed, power, monkeypatch):
    """In blocks (made tiny here, so that rows cross many block borders), on rows of any scale, C- or
    Fortran-ordered, with constant columns and rows tied between two centres."""
    monkeypatch.setattr(kmeans_fast, "_PREDICT_BLOCK_CELLS", 7 + seed)
    rng = np.random.default_rng(seed)
    n, d, k = int(rng.integers(1, 400)), int(rng.integers(1, 9)), int(rng.integers(1, 6))
    X = np.ldexp(_blobs(rng, max(n, k), d, k), power)
    X[:, 0] = np.ldexp(1.0, power)  # a constant column
    model = KMeans(n_clusters=k, random_state=seed).fit(X)
    centres = model.cluster_centers_
    between = (centres[0] + centres[-1]) / 2  # equidistant from two centres (a tie: the lower index)
    Q = np.vstack([X[:n], between[None, :], centres])
    expected = _scaled_assignment(Q, centres)
    assert np.array_equal(model.predict(Q), expected)
    assert np.array_equal(model.predict(np.asfortranarray(Q)), expected)
    assert np.array_equal(model.predict(Q[:1]), expected[:1])
