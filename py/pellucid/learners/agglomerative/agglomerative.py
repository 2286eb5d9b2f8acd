"""Agglomerative (bottom-up hierarchical) clustering with single, complete, average or Ward link (notes 004).

The notes' "Agglomerative clustering": start with every point in its own cluster and repeatedly merge
the two closest clusters, where the distance between two clusters is that of their closest pair of
points (single link) or of their farthest pair (complete link); average link, the mean over all pairs,
is the usual third choice, and Ward's (scikit-learn's default) merges the pair whose union least increases
the total within-cluster sum of squares. The merges form a tree (dendrogram); cutting it after n - k merges leaves
k clusters.

Single link is computed from a minimum spanning tree (Prim's algorithm, one row of the distance matrix
per step, made when needed: the single-link merges are the tree's edges taken from the shortest up);
O(n^2) time, O(n d) memory. Complete, average and Ward link use the nearest-neighbour chain algorithm with
the Lance-Williams update of an n x n distance matrix: O(n^2) time and memory. The merge order and
tie-breaking follow scipy's `linkage`, so on data without tied distances the tree is scipy's. (Data on
a grid, such as raw iris or digits pixels, has exactly tied distances; which of the tied pairs merges
first then depends on rounding, and scipy and scikit-learn's own single link differ there too.)
"""

import numpy as np

from ...core.base import ClusterMixin, Estimator
from ...core.errors import DataError
from ...core.file_fields import Array, Int, damaged
from ...tabular.features import NUMERIC_STATE, fit_numeric, numeric
from ...core.params import Choice, Flag, Integer
from ...core.validation import check_k_within_rows
from .agglomerative_fast import pairwise_squared_distances
from ..shared.distances import squared_distances, unit_scale
from ..shared.row_limit import check_row_limit

# Agglomerative clustering holds (complete, average link) or scans (single link) every pair of rows:
# 5,000 rows are 12.5 million pairs, a 200 MB distance matrix and a few seconds in the browser; fit refuses
# more, and the page offers a seeded sample of this many rows instead.
MAX_ROWS = 5_000


class AgglomerativeClustering(ClusterMixin, Estimator):
    """Agglomerative clustering (notes 004): merge the closest clusters until k remain.

    Distances are Euclidean, between rows with categorical columns one-hot encoded (not standardised).

    Fitted: `labels_` (n,) for k clusters, numbered in order of first appearance in the rows;
    `children_` (n-1, 2): merge i joins the clusters with ids children_[i] (ids < n are rows, id n + j is
    the cluster made by merge j), as scikit-learn and scipy; `distances_` (n-1,) the link distance of
    each merge (non-decreasing); `sizes_` (n-1,) the number of rows in each merged cluster; `merges_`
    the same as a list of {"a", "b", "distance", "size"} dicts for drawing a dendrogram; `n_clusters_` the
    number of clusters (k); `labels_for(k)`
    cuts the same tree into another number of clusters without refitting. `X_fit_` keeps the (encoded)
    rows, so `predict` can give a new row the cluster of its nearest fitted row.

    Trace (`trace=True`): the merges one by one, from the closest pair up,
    {"step": i, "a": id, "b": id, "distance": float, "size": int}, ids as in `children_`.
    """

    _param_rules = {
        "n_clusters": Integer(1, None, label="k", help="Number of clusters left when merging stops (the notes' k)."),
        "linkage": Choice("single", "complete", "average", "ward",
                          help="Distance between clusters: closest pair (single link), farthest pair "
                               "(complete link), mean over all pairs (average link), or Ward's: how much "
                               "merging them would add to the within-cluster sum of squares."),
        "trace": Flag(help="Record every merge: which clusters, at what distance, of what size."),
    }
    # A model file's state (core.file_fields): the merges, the fitted rows and their clusters.
    _state_fields = {**NUMERIC_STATE, "children_": Array("i", ("n_merges", 2), low=0),
                     "sizes_": Array("i", ("n_merges",), low=2), "distances_": Array("f", ("n_merges",), low=0),
                     "n_leaves_": Int(1, dim="n_rows"), "X_fit_": Array("f", ("n_rows", "n_encoded")),
                     "labels_": Array("i", ("n_rows",), low=0)}

    def _check_state(self):
        """The merges make one tree over the rows: merge i joins two earlier clusters (rows 0..n-1, merge j
        is cluster n + j), each joined once, so no cluster contains itself."""
        n, children = self.n_leaves_, self.children_
        if len(children) != n - 1:
            raise damaged("state.children_", f"must hold {n - 1} merges for {n} rows; got {len(children)}")
        made = n + np.arange(len(children))  # (n - 1,) the id each merge makes
        if (children >= made[:, None]).any() or len(np.unique(children)) != children.size:
            raise damaged("state.children_", "must join two earlier clusters in each merge, each cluster once")
        if self.labels_.size and self.labels_.max() >= n:
            raise damaged("state.labels_", f"must hold cluster numbers below {n}")

    _renamed_params = {"k": "n_clusters"}  # before scikit-learn's name

    def __init__(self, n_clusters=2, linkage="single", trace=False):
        self.n_clusters = n_clusters
        self.linkage = linkage
        self.trace = trace

    def fit(self, X, y=None, feature_names=None):
        """Build the whole merge tree of the rows of X and cut it into k clusters."""
        self._check_params()
        M, _ = fit_numeric(self, X, None, feature_names)  # (n, d)
        n = len(M)
        check_row_limit(self, n, MAX_ROWS, "Its distances between every pair of rows")
        check_k_within_rows(self.n_clusters, n)
        mean = M.mean(axis=0)
        M = M - mean  # centring keeps the distance expansion accurate (a new array: X is only read)
        scale = unit_scale(M)  # and dividing by a power of two keeps squares of tiny values from underflowing
        M /= scale  # in place, as every (n, d) step of fit: each copy is one more of the peak's few
        if n == 1:
            a, b, dist = np.empty(0, np.intp), np.empty(0, np.intp), np.empty(0)
        elif self.linkage == "single":
            a, b, dist = minimum_spanning_tree(M)
        else:
            a, b, dist = nearest_neighbour_chain(M, self.linkage)
        order = np.argsort(dist, kind="stable")  # the merges from the closest pair up
        self.children_, self.sizes_ = label_merges(a[order], b[order], n)
        self.distances_ = dist[order] * scale
        self.n_leaves_ = n
        self.X_fit_ = M * scale  # (n, d) the encoded rows, for predict
        self.X_fit_ += mean
        self.labels_ = self.labels_for(self.n_clusters)
        if self.trace:
            self.trace_ = [{"step": i, **merge} for i, merge in enumerate(self.merges_)]
        return self

    @property
    def n_clusters_(self):
        """The number of clusters the tree was cut into (scikit-learn's attribute): k, read from `labels_`
        (so a model file needs nothing more)."""
        return int(self.labels_.max()) + 1 if self.labels_.size else 0

    @property
    def merges_(self):
        """The merge history as JSON-able dicts, closest first (for drawing a dendrogram)."""
        self._check_fitted()
        return [{"a": int(a), "b": int(b), "distance": float(d), "size": int(s)}
                for (a, b), d, s in zip(self.children_, self.distances_, self.sizes_)]

    def labels_for(self, k):
        """Cluster labels for k clusters from the fitted tree: undo the last k - 1 merges."""
        self._check_fitted()
        n = int(self.n_leaves_)
        if not (isinstance(k, (int, np.integer)) and 1 <= k <= n):
            raise DataError(f"k must be an integer between 1 and the number of rows ({n}); got {k!r}.")
        parent = np.arange(2 * n - 1)  # (2n-1,) every node its own root
        kept = n - int(k)  # merges made before stopping at k clusters
        parent[self.children_[:kept].ravel()] = np.repeat(np.arange(n, n + kept), 2)
        while True:  # pointer jumping: every node points twice as far up per pass, O(log depth) passes
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up
        root = parent[:n]
        _, first, codes = np.unique(root, return_index=True, return_inverse=True)
        rank = np.empty(len(first), dtype=np.intp)
        rank[np.argsort(first)] = np.arange(len(first))  # number clusters by their first row
        return rank[codes.ravel()]

    def predict(self, X):
        """The cluster of the nearest fitted row, for every row of X (the fitted rows get `labels_`).
        Agglomerative clustering itself only labels the rows it was fitted on; this extends it."""
        self._check_fitted()
        scale = unit_scale(self.X_fit_)  # both sides scaled, so no square underflows
        M, fitted = numeric(self, X) / scale, self.X_fit_ / scale
        nearest = np.empty(len(M), dtype=np.intp)
        fit_sq = np.einsum("ij,ij->i", fitted, fitted)  # (n_fit,)
        for start in range(0, len(M), 1024):  # blocks keep memory at O(1024 * n_fit)
            block = squared_distances(M[start:start + 1024], fitted, fit_sq)  # (b, n_fit)
            nearest[start:start + 1024] = np.argmin(block, axis=1)
        return self.labels_[nearest]


def minimum_spanning_tree(M):
    """Prim's algorithm on the Euclidean distances of the rows of M: the n - 1 edges (a, b, length).

    Every step adds the outside row closest to the tree. `best[i]` is working row i's squared distance
    to the tree and `nearest[i]` the tree row it is closest to; each step updates them with one row of
    the distance matrix, computed when needed (one matrix-vector product), so memory stays O(n d).
    A row that joins the tree stays in the working arrays, made infinitely far (its |x|^2 entry is
    inf), until a quarter of them have joined; then the working arrays are compacted. This keeps each
    step to a few whole-array numpy calls, whose fixed cost dominates in Pyodide."""
    n, d = M.shape
    x_sq = np.einsum("ij,ij->i", M, M)  # (n,)
    # ||y - x||^2 = [-2x, 1, ||x||^2] . [y, ||y||^2, 1]: one product per row of the distance matrix.
    WT = np.vstack([M.T, x_sq, np.ones(n)])  # (d+2, n) the working rows, one per column
    Q = np.empty((n, d + 2))  # [-2x, 1, ||x||^2], filled in place (no (n, d) temporary for -2x)
    np.multiply(M, -2.0, out=Q[:, :d])
    Q[:, d], Q[:, d + 1] = 1.0, x_sq
    ids = np.arange(n)  # original index of each working column
    best, nearest = Q[0] @ WT, np.zeros(n, dtype=np.intp)  # row 0 starts the tree
    best[0] = WT[d, 0] = np.inf
    joined, row, closer = 1, np.empty(n), np.empty(n, dtype=bool)
    a, b = np.empty(n - 1, np.intp), np.empty(n - 1, np.intp)
    for step in range(n - 1):
        if 4 * joined > len(ids):  # drop the joined rows from the working arrays
            keep = np.flatnonzero(best < np.inf)
            WT, ids, best, nearest = _keep_columns(WT, keep), ids[keep], best[keep], nearest[keep]
            joined, row, closer = 0, np.empty(len(keep)), np.empty(len(keep), dtype=bool)
        p = best.argmin()  # the outside row closest to the tree joins it
        new = ids[p]
        a[step], b[step] = nearest[p], new
        best[p] = WT[d, p] = np.inf
        joined += 1
        np.dot(Q[new], WT, out=row)  # squared distances of the working rows to the new tree row (dot: the
        # same gemv as matmul, 0.4 us less a step of its 1,000-row time)
        np.less(row, best, out=closer)
        np.putmask(nearest, closer, new)
        np.minimum(best, row, out=best)
    del WT, Q  # the working arrays are done with before the edges' rows are gathered
    diff = M[a]  # (n-1, d) the edges' lengths, exactly (the expansion is least exact when short)
    diff -= M[b]
    return a, b, np.sqrt(np.einsum("ij,ij->i", diff, diff))


def _keep_columns(WT, keep):
    """WT[:, keep] written over WT's own first columns, a few rows at a time, and returned as a view: the
    working rows shrink without a second (d+2, m) array beside them, which at the first compaction was
    the largest allocation of a single-link fit (its peak was WT, Q and that copy)."""
    k = len(keep)
    for r in range(0, len(WT), 8):
        WT[r:r + 8, :k] = WT[r:r + 8, keep]  # the right side is gathered before it is written
    return WT[:, :k]


def nearest_neighbour_chain(M, linkage):
    """Complete, average or Ward link merges by the nearest-neighbour chain algorithm (as scipy's nn_chain).

    Follow nearest neighbours from any cluster until two clusters are each other's nearest; merge them
    (the one with the smaller index is dropped, the other holds the union) and update its row and column
    of the distance matrix by Lance-Williams: complete d(i, a+b) = max(d(i, a), d(i, b)); average
    d(i, a+b) = (|a| d(i, a) + |b| d(i, b)) / (|a| + |b|); Ward, on squared distances,
    d2(i, a+b) = ((|i|+|a|) d2(i, a) + (|i|+|b|) d2(i, b) - |i| d2(a, b)) / (|i| + |a| + |b|), so a merge's
    distance is sqrt(2 |a||b| / (|a|+|b|)) times the distance of the two centroids, as scipy and
    scikit-learn report it. Returns the merges (a, b, distance) in the order made.

    Dropped clusters are hidden by adding `dropped` (0 or inf) to each row read; once half the matrix
    is dropped it is compacted to the live clusters (kept in index order, so ties still go to the
    lowest index), which keeps the scattered column writes of later merges in cache."""
    n = len(M)
    D = pairwise_squared_distances(M)  # (n, n) squared_distances(M, M), one triangle computed and mirrored
    if linkage == "average":
        np.sqrt(D, out=D)  # averages need real distances; complete link can stay squared (max is monotone),
        # and Ward's update is on squared distances
    np.fill_diagonal(D, np.inf)  # a cluster is not its own neighbour
    ids = np.arange(n)  # original cluster index of each matrix position
    size = np.ones(n)
    dropped = np.zeros(n)  # (m,) inf for merged-away clusters
    a, b, dist = np.empty(n - 1, np.intp), np.empty(n - 1, np.intp), np.empty(n - 1)
    chain, live = [], n
    for step in range(n - 1):
        if 2 * live <= len(D) and live > 64:
            D, ids, size, dropped, chain = _compact(D, ids, size, chain)
        if not chain:
            chain.append(int(np.argmax(size > 0)))
        x, y = _mutual_neighbours(D, dropped, chain)
        a[step], b[step], dist[step] = ids[x], ids[y], D[x, y]
        _lance_williams(D[y], D[x], size, y, x, linkage)  # row y becomes the merged cluster's
        D[y, y] = np.inf
        D[:, y] = D[y]
        dropped[x] = np.inf
        size[y] += size[x]
        size[x] = 0
        live -= 1
    return a, b, (dist if linkage == "average" else np.sqrt(dist))


def _mutual_neighbours(D, dropped, chain):
    """Grow the chain of nearest neighbours until its last two are each other's nearest; pop and return
    them, smaller index first."""
    row = np.empty(len(D))
    while True:
        x = chain[-1]
        np.add(D[x], dropped, out=row)
        y = int(row.argmin())  # ties: the lowest index, as scipy
        if len(chain) > 1 and not row[y] < row[chain[-2]]:
            y = chain[-2]  # prefer the previous cluster of the chain: no cycles on ties
            break
        chain.append(y)
    del chain[-2:]
    return min(x, y), max(x, y)


def _compact(D, ids, size, chain):
    keep = np.flatnonzero(size > 0)
    position = np.full(len(size), -1)
    position[keep] = np.arange(len(keep))
    D = D[np.ix_(keep, keep)]  # (m', m')
    return D, ids[keep], size[keep], np.zeros(len(keep)), [int(position[c]) for c in chain]


def _lance_williams(dy, dx, size, y, x, linkage):
    """Overwrite dy (row y of the distance matrix) with the distances to the union of clusters y and x;
    `size` holds every cluster's row count (0 for merged-away ones, whose entries are never read)."""
    ny, nx = size[y], size[x]
    if linkage == "complete":
        np.maximum(dy, dx, out=dy)
    elif linkage == "average":
        dy *= ny / (nx + ny)
        dy += (nx / (nx + ny)) * dx
    else:  # Ward, squared distances
        d_xy = dy[x]
        with np.errstate(invalid="ignore"):  # inf entries (the diagonal) stay inf or are overwritten
            dy[:] = ((size + ny) * dy + (size + nx) * dx - size * d_xy) / (size + nx + ny)


def label_merges(a, b, n):
    """Rename merges of rows (a[i], b[i]), in merge order, to the ids of the clusters holding them:
    (children (n-1, 2), sizes (n-1,)), with the smaller id first (scipy's `label`). Union-find."""
    parent = np.arange(2 * n - 1).tolist()
    size = [1] * n + [0] * (n - 1)

    def find(i):
        root = i
        while parent[root] != root:
            root = parent[root]
        while parent[i] != root:  # path compression
            parent[i], i = root, parent[i]
        return root

    # Two flat lists rather than a tuple per merge, and the rows read a block at a time: fewer Python
    # objects alive at once (at 5,000 rows they were a third of the fit's peak resident size)
    first, second, sizes = [], [], []
    for start in range(0, len(a), 1024):
        for i, x, y in zip(range(start, start + 1024), a[start:start + 1024].tolist(), b[start:start + 1024].tolist()):
            rx, ry = find(x), find(y)
            if rx > ry:
                rx, ry = ry, rx
            first.append(rx)
            second.append(ry)
            parent[rx] = parent[ry] = n + i
            size[n + i] = size[rx] + size[ry]
            sizes.append(size[n + i])
    children = np.empty((len(a), 2), dtype=np.intp)
    children[:, 0], children[:, 1] = first, second
    return children, np.array(sizes, dtype=np.intp)
