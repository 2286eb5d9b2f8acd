"""How good a clustering is: inertia, the Dunn index, the silhouette, the adjusted Rand index, choosing k.

The notes (notes 004, "How to Choose the Right Number of Clusters?") judge a clustering by the Dunn index,

    Dunn index = min(inter cluster distance) / max(intra cluster distance),

large when clusters are far apart and compact, and pick k by trying several ("Empirical Choice of K").
`k_sweep` does that: for each k it fits k-means and reports the inertia, the Dunn index and the silhouette.
Every measure reads X as the clustering estimators do (`features.matrix`: categorical columns one-hot
encoded, not standardised), so distances are taken between the encoded rows.
"""

import numpy as np

from ..core.errors import DataError
from ..learners.shared.distances import squared_distances
from ..learners.kmeans.kmeans import KMeans
from ..tabular.features import matrix

_BLOCK = 1024  # rows per block in the O(n^2) metrics: memory stays O(block * n)


def _labels(labels, n):
    labels = np.asarray(labels)
    if labels.ndim != 1 or len(labels) != n:
        raise DataError(f"labels must be 1-D with one label per row of X ({n}); got shape {labels.shape}.")
    return np.unique(labels, return_inverse=True)[1].ravel()  # (n,) codes 0..k-1


def _blocks(n):
    for start in range(0, n, _BLOCK):
        yield start, min(n, start + _BLOCK)


# --- the measures --------------------------------------------------------------------------------------

def inertia(X, labels, centres=None):
    """Sum over rows of the squared distance to the row's cluster centre (the k-means objective).

    `centres` is a (k, d) array indexed by label (labels 0..k-1); by default each cluster's mean."""
    M = matrix(X)
    labels = np.asarray(labels)
    if labels.ndim != 1 or len(labels) != len(M):
        raise DataError(f"labels must be 1-D with one label per row of X ({len(M)}); "
                        f"got shape {labels.shape}.")
    if centres is None:
        codes = _labels(labels, len(M))
        k = int(codes.max()) + 1
        counts = np.bincount(codes, minlength=k)  # (k,)
        sums = np.stack([np.bincount(codes, weights=M[:, j], minlength=k) for j in range(M.shape[1])], 1)
        centres, labels = sums / counts[:, None], codes  # (k, d)
    centres = np.asarray(centres, dtype=float)
    if centres.ndim != 2 or centres.shape[1] != M.shape[1]:
        raise DataError(f"centres must have shape (k, {M.shape[1]}); got {centres.shape}.")
    if labels.dtype.kind not in "iu" or labels.min() < 0 or labels.max() >= len(centres):
        raise DataError(f"With centres given, labels must be integers 0..{len(centres) - 1}.")
    diff = M - centres[labels]  # (n, d)
    return float(np.einsum("ij,ij->", diff, diff))


def dunn_index(X, labels):
    """Notes 004's Dunn index: min(inter cluster distance) / max(intra cluster distance).

    Inter cluster distance of two clusters = the distance between their closest pair of points (one in
    each); intra cluster distance of a cluster = its diameter, the distance between its farthest pair of
    points (Dunn's original definition, the one the notes' pictures draw). Needs at least 2 clusters;
    returns inf when every cluster has diameter 0 (e.g. all singletons). Blocked, O(n^2) time, O(n) memory
    per block row."""
    M = matrix(X)
    codes = _labels(labels, len(M))
    if codes.max() < 1:
        raise DataError("The Dunn index needs at least 2 clusters; all rows have the same label.")
    M = M - M.mean(axis=0)  # centring keeps the distance expansion accurate
    M_sq = np.einsum("ij,ij->i", M, M)  # (n,)
    closest_apart, widest_within = np.inf, 0.0
    for start, stop in _blocks(len(M)):
        D2 = squared_distances(M[start:stop], M, M_sq)  # (b, n)
        same = codes[start:stop, None] == codes[None, :]  # (b, n)
        widest_within = max(widest_within, float(np.max(D2, where=same, initial=0.0)))
        closest_apart = min(closest_apart, float(np.min(D2, where=~same, initial=np.inf)))
    if widest_within == 0.0:
        return float("inf")
    return float(np.sqrt(closest_apart) / np.sqrt(widest_within))


def silhouette_score(X, labels):
    """Mean silhouette s(i) = (b(i) - a(i)) / max(a(i), b(i)) over all rows (Rousseeuw 1987).

    a(i) is the mean distance from row i to the other rows of its cluster, b(i) the smallest mean distance
    to the rows of another cluster; s(i) = 0 for a row alone in its cluster (as scikit-learn). Needs
    2 <= number of clusters <= n - 1. Computed in row blocks: memory O(block * n)."""
    M = matrix(X)
    codes = _labels(labels, len(M))
    n, k = len(M), int(codes.max()) + 1
    if not 2 <= k <= n - 1:
        raise DataError(f"The silhouette needs between 2 and n - 1 = {n - 1} clusters; the labels have {k}.")
    counts = np.bincount(codes, minlength=k).astype(float)  # (k,)
    onehot = (codes[:, None] == np.arange(k)[None, :]).astype(float)  # (n, k)
    M = M - M.mean(axis=0)  # centring keeps the distance expansion accurate
    M_sq = np.einsum("ij,ij->i", M, M)
    s = np.empty(n)
    for start, stop in _blocks(n):
        D = np.sqrt(squared_distances(M[start:stop], M, M_sq))  # (b, n)
        D[np.arange(stop - start), np.arange(start, stop)] = 0.0  # a row is at distance 0 from itself
        sums = D @ onehot  # (b, k) distance from each row to each cluster, summed
        own = codes[start:stop]
        own_count = counts[own]  # (b,)
        a = sums[np.arange(stop - start), own] / np.maximum(own_count - 1, 1)
        means = sums / counts[None, :]
        means[np.arange(stop - start), own] = np.inf
        b = means.min(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            block = (b - a) / np.maximum(a, b)
        s[start:stop] = np.where(own_count > 1, np.nan_to_num(block), 0.0)
    return float(s.mean())


def adjusted_rand_index(labels_a, labels_b):
    """Adjusted Rand index of two labelings (Hubert and Arabie 1985): 1 for the same partition up to the
    names of the clusters, about 0 for independent ones. Equals scikit-learn's adjusted_rand_score."""
    a, b = np.asarray(labels_a), np.asarray(labels_b)
    if a.ndim != 1 or b.ndim != 1 or len(a) != len(b):
        raise DataError(f"Both labelings must be 1-D of the same length; got shapes {a.shape} and {b.shape}.")
    n = len(a)
    ca, cb = _labels(a, n), _labels(b, n)
    table = np.bincount(ca * (int(cb.max()) + 1) + cb).astype(np.int64)  # flattened contingency table
    sum_sq = int(np.dot(table, table))
    row_sums, col_sums = np.bincount(ca).astype(np.int64), np.bincount(cb).astype(np.int64)
    rows_sq, cols_sq = int(np.dot(row_sums, row_sums)), int(np.dot(col_sums, col_sums))
    # Pair confusion matrix, as counts of ordered pairs (after scikit-learn's pair_confusion_matrix).
    tp = sum_sq - n
    fp = rows_sq - sum_sq
    fn = cols_sq - sum_sq
    tn = n * n - fp - fn - sum_sq
    if fn == 0 and fp == 0:
        return 1.0
    return float(2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)))


def k_sweep(X, ks, seed=0, n_init=10):
    """"Empirical choice of k": fit k-means for each k in `ks`, and report for each
    {"k", "inertia", "dunn", "silhouette"} (None where a measure is undefined: one cluster, or a Dunn
    index of infinity). A JSON-able list of dicts, in the order of `ks`."""
    M = matrix(X)  # (n, d)
    ks = [int(k) for k in ks]
    if not ks or min(ks) < 1 or max(ks) > len(M):
        raise DataError(f"ks must be a non-empty list of integers between 1 and the number of rows "
                        f"({len(M)}); got {ks}.")
    rows = []
    for k in ks:
        model = KMeans(n_clusters=k, n_init=n_init, random_state=seed).fit(M)
        distinct = len(np.unique(model.labels_))
        dunn = dunn_index(M, model.labels_) if distinct >= 2 else None
        sil = silhouette_score(M, model.labels_) if 2 <= distinct <= len(M) - 1 else None
        rows.append({"k": k, "inertia": float(model.inertia_),
                     "dunn": None if dunn is None or not np.isfinite(dunn) else float(dunn),
                     "silhouette": None if sil is None else float(sil)})
    return rows
