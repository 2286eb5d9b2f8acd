"""Single link's minimum spanning tree with its working rows compacted in place and without temporary
copies (agglomerative.minimum_spanning_tree), and the merges' labels without a tuple per merge
(label_merges), against the way they were computed before: the same edges and labels."""

import numpy as np
import pytest

from pellucid import AgglomerativeClustering
from pellucid.learners.agglomerative.agglomerative import minimum_spanning_tree
from pellucid.learners.shared.distances import unit_scale



def minimum_spanning_tree_with_copies(M):
    """The previous minimum_spanning_tree, kept word for word but its docstring."""
    n, d = M.shape
    x_sq = np.einsum("ij,ij->i", M, M)  # (n,)
    # ||y - x||^2 = [-2x, 1, ||x||^2] . [y, ||y||^2, 1]: one product per row of the distance matrix.
    WT = np.vstack([M.T, x_sq, np.ones(n)])  # (d+2, n) the working rows, one per column
    Q = np.hstack([-2.0 * M, np.ones((n, 1)), x_sq[:, None]])  # (n, d+2)
    ids = np.arange(n)  # original index of each working column
    best, nearest = Q[0] @ WT, np.zeros(n, dtype=np.intp)  # row 0 starts the tree
    best[0] = WT[d, 0] = np.inf
    joined, row, closer = 1, np.empty(n), np.empty(n, dtype=bool)
    a, b = np.empty(n - 1, np.intp), np.empty(n - 1, np.intp)
    for step in range(n - 1):
        if 4 * joined > len(ids):  # drop the joined rows from the working arrays
            keep = np.flatnonzero(best < np.inf)
            WT, ids, best, nearest = WT[:, keep], ids[keep], best[keep], nearest[keep]
            joined, row, closer = 0, np.empty(len(keep)), np.empty(len(keep), dtype=bool)
        p = best.argmin()  # the outside row closest to the tree joins it
        new = ids[p]
        a[step], b[step] = nearest[p], new
        best[p] = WT[d, p] = np.inf
        joined += 1
        np.matmul(Q[new], WT, out=row)  # squared distances of the working rows to the new tree row
        np.less(row, best, out=closer)
        np.putmask(nearest, closer, new)
        np.minimum(best, row, out=best)
    diff = M[a] - M[b]  # (n-1, d) the edges' lengths, exactly (the expansion is least exact when short)
    return a, b, np.sqrt(np.einsum("ij,ij->i", diff, diff))



def _tables():
    rng = np.random.default_rng(7)
    blobs = rng.normal(0.0, 4.0, (3, 6))[rng.integers(0, 3, 700)] + rng.normal(size=(700, 6))
    return [("blobs", blobs), ("wide", rng.normal(size=(40, 300))), ("two rows", rng.normal(size=(2, 3))),
            ("one column", rng.normal(size=(500, 1))), ("grid", np.indices((12, 12)).reshape(2, -1).T * 1.0),
            ("duplicates", np.repeat(rng.normal(size=(50, 4)), 3, axis=0))]


@pytest.mark.parametrize("name,X", _tables(), ids=[t[0] for t in _tables()])
def test_compacted_tree_has_the_same_edges(name, X):
    M = X - X.mean(axis=0)
    before = M.copy()
    for got, expected in zip(minimum_spanning_tree(M), minimum_spanning_tree_with_copies(M)):
        np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(M, before)  # M is only read


def test_fit_keeps_the_rows_and_labels_of_the_previous_steps():
    X = _tables()[0][1]
    model = AgglomerativeClustering(n_clusters=3).fit(X)
    mean = X.mean(axis=0)
    M = X - mean
    scale = unit_scale(M)
    np.testing.assert_array_equal(model.X_fit_, (M / scale) * scale + mean)  # as `M * scale + mean` made it
    a, b, dist = minimum_spanning_tree_with_copies(M / scale)
    np.testing.assert_array_equal(model.distances_, np.sort(dist, kind="stable") * scale)


def label_merges_with_tuples(a, b, n):
    """The previous label_merges, kept word for word but its docstring."""
    parent = np.arange(2 * n - 1).tolist()
    size = [1] * n + [0] * (n - 1)

    def find(i):
        root = i
        while parent[root] != root:
            root = parent[root]
        while parent[i] != root:  # path compression
            parent[i], i = root, parent[i]
        return root

    children, sizes = [], []
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        rx, ry = find(x), find(y)
        children.append((rx, ry) if rx < ry else (ry, rx))
        parent[rx] = parent[ry] = n + i
        size[n + i] = size[rx] + size[ry]
        sizes.append(size[n + i])
    return np.array(children, dtype=np.intp).reshape(-1, 2), np.array(sizes, dtype=np.intp)


@pytest.mark.parametrize("linkage", ["single", "complete", "ward"])
@pytest.mark.parametrize("n", [1, 2, 3, 1023, 1025, 2500])
def test_merges_are_labelled_as_before(linkage, n):
    from pellucid.learners.agglomerative.agglomerative import (label_merges, minimum_spanning_tree,
                                                               nearest_neighbour_chain)
    M = np.random.default_rng(n).normal(size=(n, 4))
    if n == 1:
        a, b = np.empty(0, np.intp), np.empty(0, np.intp)
    else:
        a, b, dist = minimum_spanning_tree(M) if linkage == "single" else nearest_neighbour_chain(M, linkage)
        order = np.argsort(dist, kind="stable")
        a, b = a[order], b[order]
    children, sizes = label_merges(a, b, n)
    expected_children, expected_sizes = label_merges_with_tuples(a, b, n)
    np.testing.assert_array_equal(children, expected_children)
    np.testing.assert_array_equal(sizes, expected_sizes)
    assert children.dtype == expected_children.dtype and children.shape == (n - 1, 2)
    assert sizes.dtype == expected_sizes.dtype
