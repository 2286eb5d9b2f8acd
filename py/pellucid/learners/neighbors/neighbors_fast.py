"""k-nearest neighbours fast: the exact search of neighbors.k_nearest, in blocks of queries or through
a KD-tree (kd_tree.py), measuring only the rows that can be among the k nearest.

neighbors.py writes the definition (measure every training row, keep the k closest, equal distances by
training row); every prediction goes through this search, explain() through the definition, and
tests/unit/test_fast_paths.py checks that both find the same neighbours at the same distances.
"""

import numpy as np

from . import distance_scores, wasm_kernel
from .kd_tree import build_tree, k_nearest, share_in_reach
from .grid import nearest_on_lattice

# A block of queries' scores of about 32 MB (about 120 queries against 35,000 rows): Pyodide's numpy,
# which has no BLAS, makes the product about 1.3-1.5x faster from such blocks than from blocks of 32
# queries (measured at 20 features); natively the two are the same. A search stays well under 64 MB.
_BLOCK_BYTES = 32 * 2 ** 20
_MAX_BLOCK_BYTES = 32 * 2 ** 20

## Brute force: each block of queries gets cheap scores against every training row (distance_scores.py),
# a threshold that at least k rows pass (the k-th smallest score of a strided sample, widened by the
# rounding slack), and exact distances for the few rows that pass; the k nearest are taken from those
# by (distance, training row). In the page a WebAssembly kernel finds those rows instead of numpy
# (wasm_kernel.py); the same exact distances and order then pick the same neighbours. With many
# training rows and a small k the KD-tree search (kd_tree.py) compares each query only with the rows
# near it, and falls back to this when its tree would not prune.

_SAMPLE_STRIDE = 16  # the threshold comes from every 16th row at most ...
_SAMPLE_MIN_ROWS = 2048  # ... from this many training rows on
# A sparser sample is cheaper to partition (n / stride scores a query), but its k-th score stands for
# about the (k stride)-th row, so about k stride candidates a query are measured exactly, p features each.
# The stride balancing the two is about sqrt(n / (_MEASURE_COST k p)), a measured candidate costing
# about twice a partitioned score per feature (natively, 10,000 rows of 20 features: k = 25 took 0.38 s
# a 1,000 queries with a stride of 16 and 0.07 s with 4; k = 5 in 200 features 0.32 s and 0.13 s with 2).
_MEASURE_COST = 2
_TREE_MIN_ROWS = 1024  # from this many training rows on, search through a KD-tree ...
_TREE_MIN_SHARE = 16  # ... when k is at most 1/16 of them
# ... and, with the page's kernel, in at most 4 features: from 5 on the kernel scores every row faster
# than the tree finds the near ones (1,024 queries, 35,000 rows, under Node: 6-D 0.14 s vs 0.38 s,
# 8-D 0.11 vs 0.72 s; 4-D about even, 2- and 3-D the tree 1.3x faster).
_KERNEL_TREE_MAX_FEATURES = 4

# Whether to build the tree at all. In many dimensions its boxes do not prune, and the search gives up
# on it at its first queries (kd_tree.k_nearest's probe), after building it for nothing (2.5 s at 10^6
# rows in 20 features). So from _TRIAL_MIN_ROWS rows on, in _TRIAL_MIN_FEATURES features or more, a
# trial tree over 16,384 evenly spaced rows is probed first with 256 rows between them, for the k the
# model asks for; the tree is left out when the trial keeps in reach at least _TRIAL_HOPELESS of its
# (query, node) pairs. A small tree prunes worse than a large one (Gaussian rows, k = 5: in 10 features
# 66% of pairs in reach against 33% for a tree of 10^5 rows; 98.7% against 90% in 15; 100% in 20), so
# only a trial that prunes almost nothing leaves the tree out, where the full probe would give up too.
# Built or not, the search finds the same neighbours.
_TRIAL_ROWS = 16384
_TRIAL_MIN_ROWS = 4 * _TRIAL_ROWS  # (a full tree costs at least 4 trials)
_TRIAL_MIN_FEATURES = 8
_TRIAL_QUERIES = 256
_TRIAL_HOPELESS = 0.95


def prepare(X, metric, tree=None, k=None):
    """What the searches need from the training matrix X (n, p), computed once per model (X itself is
    kept, not copied: the caller must not change it). tree: build a KD-tree (True), or not (False), or
    from _TREE_MIN_ROWS rows on where it would be searched (None): for k neighbours (when given) only
    if k is small enough for the tree to be searched and a trial tree prunes (above). With a tree the
    score arrays' columns go in tree order (made so directly, no second copy of them), and "order" maps
    them back to rows."""
    points = distance_scores.points_of(X, metric)
    if tree is None:
        tree = len(X) >= _TREE_MIN_ROWS and (k is None or (k <= len(X) // _TREE_MIN_SHARE
                                                              and not _tree_hopeless(points, metric, k)))
        if tree and wasm_kernel.available():  # the page: whether its kernel searches instead needs the scores
            prepared = distance_scores.arrange(points, metric)
            if X.shape[1] > _KERNEL_TREE_MAX_FEATURES and wasm_kernel.applies(prepared, metric):
                return prepared
            built = build_tree(points)
            return {**distance_scores.in_order(prepared, built["perm"]), "tree": built}
    if tree:
        built = build_tree(points)
        return {**distance_scores.arrange(points, metric, built["perm"]), "tree": built}
    return distance_scores.arrange(points, metric)


def _tree_hopeless(points, metric, k):
    """Whether a trial tree over 16,384 of the rows keeps in reach _TRIAL_HOPELESS of the (query, node)
    pairs of 256 other rows, for k neighbours (see above); False below _TRIAL_MIN_ROWS rows or
    _TRIAL_MIN_FEATURES features, where the tree is built without a trial."""
    n, p = points.shape
    if n < _TRIAL_MIN_ROWS or p < _TRIAL_MIN_FEATURES:
        return False
    step = n // _TRIAL_ROWS
    rows = points[::step][:_TRIAL_ROWS]  # (16384, p) evenly spaced
    probes = points[step // 2::step][:_TRIAL_QUERIES]  # rows between them: queries the trial has not seen
    built = build_tree(rows)
    trial = {**distance_scores.arrange(rows, metric, built["perm"]), "tree": built}
    return share_in_reach(trial, probes, min(k, _TRIAL_ROWS), metric) >= _TRIAL_HOPELESS


def _candidates(scores, slack, k, stride):
    """(rows, cols) of every entry that can be among a row's k nearest: the k-th smallest score of a
    strided sample is an upper bound on the row's k-th smallest, widened by the rounding slack."""
    sample = scores[:, ::stride]  # (c, n / stride)
    if k < sample.shape[1]:
        kth = np.partition(sample, k - 1, axis=1)[:, k - 1]  # (c,)
    else:
        kth = sample.max(axis=1)
    limit = (kth + slack).astype(scores.dtype)  # (c,)
    limit = np.nextafter(limit, np.inf)  # rounding the limit itself must not lose a candidate
    flat = np.flatnonzero(scores <= limit[:, None])
    return np.divmod(flat, scores.shape[1])


def sample_stride(n, k, p):
    """Every how many of n training rows the threshold's sample takes one, for k neighbours in p features:
    a power of two near sqrt(n / (_MEASURE_COST k p)), at most _SAMPLE_STRIDE, 1 below _SAMPLE_MIN_ROWS
    rows, and small enough for the sample to hold 4 k rows. Any stride finds the same neighbours."""
    if n < _SAMPLE_MIN_ROWS:
        return 1
    balanced = np.sqrt(n / (_MEASURE_COST * k * max(p, 1)))
    stride = int(min(_SAMPLE_STRIDE, 2 ** max(0, round(float(np.log2(max(balanced, 1.0)))))))
    while stride > 1 and n < 4 * k * stride:
        stride //= 2
    return stride


def _scored_candidates(side, prepared, metric, k, which=slice(None)):
    """(rows, cols) of the candidates of the queries side[...][which], from numpy's score product."""
    scores = distance_scores.scores(side, prepared, metric, which)  # (c, n)
    slack = side["slack"][which]
    stride = sample_stride(scores.shape[1], k, side["points"].shape[1])
    rows, cols = _candidates(scores, slack, k, stride)
    if stride > 1 and len(rows) > 8 * k * _SAMPLE_STRIDE * len(scores):  # a poor sample: use every row
        rows, cols = _candidates(scores, slack, k, 1)
    return rows, cols


def _kernel_candidates(side, prepared, metric, k, kernel):
    """(rows, cols) from the page's kernel; numpy's for the queries it had no room for (many ties),
    or for the whole block when its memory ran out."""
    found = kernel.candidates(side)
    if found is None:
        return _scored_candidates(side, prepared, metric, k)
    rows, cols, again = found
    if len(again):
        more_rows, more_cols = _scored_candidates(side, prepared, metric, k, again)
        rows, cols = np.concatenate([rows, again[more_rows]]), np.concatenate([cols, more_cols])
    return rows, cols


def _k_nearest_block(Q, prepared, metric, k, kernel=None):
    """(distances, indices), each (c, k), for one block of queries against every training row."""
    side = distance_scores.queries(Q, prepared, metric)
    if kernel is None:
        rows, cols = _scored_candidates(side, prepared, metric, k)
    else:
        rows, cols = _kernel_candidates(side, prepared, metric, k, kernel)
    if "order" in prepared:  # score columns in tree order: back to training rows
        cols = prepared["order"][cols]
    dist = distance_scores.exact(side, prepared, metric, rows, cols)
    order = np.lexsort((cols, dist, rows))  # by query, then distance, then training row
    take = np.searchsorted(rows[order], np.arange(len(Q)))[:, None] + np.arange(k)  # (c, k)
    return dist[order][take], cols[order][take]


## Held columns: a decision boundary's grid varies two features and holds every other at one value, so
# each query is q = (v, h) with the same h. For Euclidean distances |q - x|^2 = |v - x_v|^2 + |h - x_h|^2,
# and the last term is one number per training row, c_x; lifting each row to (x_v, sqrt(c_x)) and each
# query to (v, 0) keeps every distance, in 3 dimensions instead of p, where a KD-tree prunes (Manhattan
# likewise with c_x = sum |h - x_h|). Taking the smallest c_x off every one keeps the order of the rows
# and brings the nearest ones down to the queries' plane, so the balls the tree searches stay small. The
# distances of the rows found are measured again in all p features.
# Rounding the lift can reorder rows whose distances agree to about 1e-15, so among exactly equidistant
# rows this search may keep another one than the definition's training-row order.

_LIFT_MIN_QUERIES = 256  # a grid this large with held columns is searched in the lifted space ...
_LIFT_MIN_HELD = 2  # ... when at least this many of its columns are held (fewer dimensions to search)


def held_columns(Q):
    """Indices of the columns of Q (m, p) that hold one value in every row."""
    return np.flatnonzero((Q == Q[:1]).all(axis=0)) if len(Q) else np.arange(0)


def _lifted_search(Q, held, prepared, metric, k):
    """nearest_neighbors for queries that share the values of the `held` columns (see above)."""
    X = prepared["points"]
    varying = np.setdiff1d(np.arange(X.shape[1]), held)
    gaps = X[:, held] - Q[0, held]  # (n, h)
    if metric == "euclidean":  # less the smallest: the same order, and balls small enough for the tree to prune
        squares = np.einsum("ij,ij->i", gaps, gaps)  # (n,)
        offset = np.sqrt(squares - squares.min())
    else:
        offset = np.abs(gaps).sum(axis=1)
        offset -= offset.min()
    lifted = prepare(np.column_stack([X[:, varying], offset]), metric)  # (n, v + 1)
    lifted_Q = np.column_stack([Q[:, varying], np.zeros(len(Q))])  # (m, v + 1)
    _, indices = nearest_neighbors(lifted_Q, lifted, metric, k)
    rows = np.repeat(np.arange(len(Q)), k)
    distances = distance_scores.exact({"points": Q}, prepared, metric, rows, indices.ravel()).reshape(indices.shape)
    order = np.lexsort((indices, distances), axis=1)  # each query's k by (distance, training row) again
    return np.take_along_axis(distances, order, axis=1), np.take_along_axis(indices, order, axis=1)


def _worth_lifting(Q, metric, k, n_train):
    if metric == "cosine" or len(Q) < _LIFT_MIN_QUERIES or k > n_train // _TREE_MIN_SHARE:
        return None
    held = held_columns(Q)
    return held if len(held) >= _LIFT_MIN_HELD else None


def nearest_neighbors(Q, prepared, metric, k, search="auto", distances=True):
    """(distances, indices), each (m, k): the k nearest training rows of every query row of Q (m, p),
    nearest first, equal distances by training row. search: "brute", "tree" (needs a prepared tree),
    "lattice" (a boundary's grid: two features over a lattice, the others held; grid.py),
    "lifted" (queries sharing held columns: searched in the dimensions that vary) or "auto" (the
    lattice search for such a grid, else lifted when columns are held, else the tree when there is one
    and k is small beside the training set); the same neighbours (the lifted search up to ties, above).
    distances=False: the distances may come back None and each query's k in any order (a uniform vote
    needs no more), which spares the lattice search measuring them."""
    n_train = len(prepared["points"])
    if search in ("auto", "lattice"):  # a boundary's grid: tile by tile (grid.py)
        found = nearest_on_lattice(Q, prepared, metric, k, distances)
        if found is not None:
            return found
    held = held_columns(Q) if search == "lifted" else _worth_lifting(Q, metric, k, n_train) if search == "auto" \
        else None
    if held is not None and len(held):
        return _lifted_search(Q, held, prepared, metric, k)
    tree_wins = Q.shape[1] <= _KERNEL_TREE_MAX_FEATURES or not wasm_kernel.applies(prepared, metric)
    if search == "tree" or (search == "auto" and "tree" in prepared and k <= n_train // _TREE_MIN_SHARE and tree_wins):
        found = k_nearest(prepared, Q, k, metric, pruning_required=search == "auto")
        if found is not None:
            return found
        del prepared["tree"]  # its boxes do not prune on these data: compare with every row from now on
    m = len(Q)
    distances, indices = np.empty((m, k)), np.empty((m, k), dtype=np.intp)
    kernel = wasm_kernel.searcher(prepared, metric, k) if m else None  # None natively
    row_bytes = 8 * max(n_train, 1)
    block = kernel.block if kernel else max(1, _BLOCK_BYTES // row_bytes, min(32, _MAX_BLOCK_BYTES // row_bytes))
    for start in range(0, m, block):
        stop = min(start + block, m)
        distances[start:stop], indices[start:stop] = _k_nearest_block(Q[start:stop], prepared, metric, k, kernel)
    return distances, indices
