"""Lloyd's iterations fast: kmeans.lloyd with a Pyodide-friendly assignment step and cluster sums that
are updated only for the rows that changed cluster.

kmeans.py writes the assign / update steps as the notes do; k-means fits without a trace run this
version (`lloyd_run`, chosen in KMeans.fit), traced fits (the steps view) the readable one, and
tests/unit/test_fast_paths.py checks that both give the same clusters from the same centres.
"""

import numpy as np

from ..shared.distances import square_safe_scale
from ..shared.gram_fast import HAS_BLAS

_SMALL_ONEHOT_ROWS = 2000  # result(): up to here (natively) the one-hot product beats the per-feature loop
# predict() reads the rows a block of about this many values at a time: each block's (k, rows) scores
# stay in cache, and a block is divided by the scale (when it is not 1) without a copy of all the rows.
_PREDICT_BLOCK_CELLS = 1 << 16


def assign(MT, centres):
    """kmeans.assign on the rows held as the columns of MT (d, n): the closest centre of every row, and
    ||x - mu||^2 - ||x||^2 for it.

    On the transpose the (k, n) products reduce over k along contiguous rows (fast for small k). The
    centres are compared one row at a time with whole-array calls (less, where, minimum), which in
    Pyodide cost far less than part.argmin(axis=0) or masked writes (np.putmask took 0.41 ms for
    100,000 rows where np.where takes 0.06); a strict "less" leaves ties with the lowest index, as
    argmin."""
    c_sq = np.einsum("ij,ij->i", centres, centres)  # (k,)
    part = (-2.0 * centres) @ MT  # (k, n)
    part += c_sq[:, None]
    if len(centres) == 1:
        return np.zeros(MT.shape[1], dtype=np.intp), part[0].copy()
    # The first comparison gives the labels of centres 0 and 1 as a bool array (np.where widens it), and
    # the first minimum allocates best: at small n each call saved is a measurable part of an iteration.
    labels = np.less(part[1], part[0])  # (n,)
    best = np.minimum(part[0], part[1])  # (n,)
    for j in range(2, len(centres)):
        closer = np.less(part[j], best)
        labels = np.where(closer, j, labels)
        np.minimum(best, part[j], out=best)
    return labels.astype(np.intp, copy=False), best


def nearest_centres(M, centres):
    """(n,) the closest of the `centres` (k, d) to every row of M (n, d): `assign`'s labels, reading M
    as it is given, a block of rows at a time (no scaled or transposed copy of it: at 10^6 rows those
    copies took half of predict). Each block's transpose is a view, which the product reads as it is.
    The rows and centres are divided by a power of two only where squares would leave float64's
    range; dividing by one rounds nothing, so the labels are those of any such scale."""
    scale = square_safe_scale(centres)
    centres = centres / scale
    labels = np.empty(len(M), dtype=np.intp)
    step = max(1, _PREDICT_BLOCK_CELLS // max(1, M.shape[1]))
    for start in range(0, len(M), step):
        block = M[start:start + step]  # (b, d) a view
        labels[start:start + step] = assign((block if scale == 1.0 else block / scale).T, centres)[0]
    return labels


def cluster_sums(MT, labels, k, weights=None):
    """(k, d) sum and (k,) count of the rows of each cluster (weighted sum and total weight with row
    `weights`). Without BLAS (Pyodide) einsum takes about 2/3 of the time of onehot @ MT.T; with BLAS the
    product is the faster."""
    onehot = (labels[None, :] == np.arange(k)[:, None]).astype(MT.dtype)  # (k, n)
    if weights is not None:
        onehot *= weights  # (k, n) w_i in row i's cluster
    sums = onehot @ MT.T if HAS_BLAS else np.einsum("kn,dn->kd", onehot, MT)
    return sums, np.bincount(labels, weights=weights, minlength=k).astype(float)


def move_rows(MT, moved, old, new, sums, counts):
    """Cluster sums and counts after the rows `moved` went from clusters `old` to clusters `new`."""
    clusters = np.arange(len(counts))[:, None]  # (k, 1)
    delta = np.subtract(new == clusters, old == clusters, dtype=MT.dtype)  # (k, m) +1 joined, -1 left
    return sums + delta @ MT[:, moved].T, counts + delta.sum(axis=1)


def lloyd(MT, centres, max_iter, tol, x_sq, relocate_empty, weights=None):
    """kmeans.lloyd's loop without the trace: (centres, n_iter, stable, labels). Same steps and stops;
    the cluster sums are updated only for the rows whose label changed, so late iterations, where few
    rows move, cost little more than the assignment step. labels: the centres' assignment when the run
    ended stable (it is the last one made), else None. With row `weights` the sums are formed again on
    each iteration: a total weight updated by additions and subtractions could miss an exact 0 (an
    emptied cluster)."""
    k = len(centres)
    labels_old, stable = None, False
    for it in range(1, max_iter + 1):  # noqa: B007 (the count of iterations made is returned)
        labels, best = assign(MT, centres)
        if labels_old is not None:
            moved = np.flatnonzero(labels != labels_old)
            if len(moved) == 0:
                stable = True  # the clusters stayed the same: the centres are already their means
                break
        if labels_old is None or weights is not None:
            sums, counts = cluster_sums(MT, labels, k, weights)
        else:
            sums, counts = move_rows(MT, moved, labels_old[moved], labels[moved], sums, counts)
        if not counts.all():  # an empty cluster
            labels = relocate_empty(labels, counts, best + x_sq, weights)
            sums, counts = cluster_sums(MT, labels, k, weights)
        new = sums / counts[:, None]  # (k, d) the means
        shift = float(((new - centres) ** 2).sum())  # the method skips np.sum's Python wrapper
        centres, labels_old = new, labels
        if shift <= tol:
            break
    if not stable:  # exact means of the last assignment (the incremental sums may drift by rounding)
        sums, counts = cluster_sums(MT, labels_old, k, weights)
        centres = sums / counts[:, None]
    return centres, it, stable, labels_old if stable else None


def lloyd_run(MT, centres, max_iter, tol, x_sq, relocate_empty, weights=None):
    """kmeans.lloyd's result without a trace, {"labels", "centres", "inertia", "n_iter", "trace": None}, from
    the iterations below; `relocate_empty` is kmeans.relocate_empty (passed in, so this module imports no
    readable one)."""
    centres, n_iter, stable, labels = lloyd(MT, centres, max_iter, tol, x_sq, relocate_empty, weights)
    labels, inertia = result(MT, centres, labels, weights)
    return {"labels": labels, "centres": centres, "inertia": inertia, "n_iter": n_iter, "trace": None}


def result(MT, centres, labels=None, weights=None):
    """(labels, inertia) of the final centres, as kmeans._result computes them: the assignment (unless
    given) and the sum of squared differences itself (not the expansion), weighted by row `weights`.
    Summed feature by feature (one gather of the centres' coordinates and one dot product each): the
    (d, n) gather of
    kmeans._result is slow in numpy natively along its second axis and with np.take in Pyodide. The
    order of the additions differs, so the inertia may differ from it in the last bits."""
    if labels is None:
        labels = assign(MT, centres)[0]
    if HAS_BLAS and MT.shape[1] <= _SMALL_ONEHOT_ROWS:  # fewer calls; the very sum kmeans._result makes
        onehot = (labels == np.arange(len(centres))[:, None]).astype(MT.dtype)  # (k, n)
        diff = MT - centres.T @ onehot  # (d, n) exact: each column picks one centre (products by 1 and 0)
        if weights is not None:
            return labels, float(np.einsum("ij,ij->j", diff, diff) @ weights)
        return labels, float(np.einsum("ij,ij->", diff, diff))
    coordinates = np.ascontiguousarray(centres.T)  # (d, k)
    inertia = 0.0
    for feature, values in zip(MT, coordinates):
        diff = feature - values[labels]  # (n,)
        inertia += float(diff @ (diff if weights is None else diff * weights))
    return labels, inertia
