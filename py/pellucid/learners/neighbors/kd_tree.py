"""KD-tree: exact k-nearest-neighbour search that compares each query only with the rows near it.

Notes 004 "K-Nearest Neighbor Methods" defines the neighbours; the tree only skips rows that cannot be
among them, so the answer is the brute-force one to the last bit, ties included (distance_scores.exact
measures both; equal distances go by training row).

The tree. The training rows are split in halves, level by level, each node along the feature where its
points spread widest (judged on a sample of a large node's rows), until a leaf holds LEAF_SIZE to
2 LEAF_SIZE - 1 rows. Node i of a level holds the rows at positions [i n / 2^l, (i + 1) n / 2^l) of one
permutation, so every node is a contiguous run of it, and each node keeps the bounding box of its
points. The tree holds no copy of the rows, nor makes one while it is built (each level reorders the
permutation, with one sort for all its nodes): the searches' score arrays are made in tree order
instead of training order (distance_scores.arrange), so each node's columns are one slice.

A search, for a whole batch of queries at once (numpy calls per tree level and per node scanned, none
per query):
  1. a bound: each query walks down to the node of at least max(2k, 32) rows that holds its place; the
     k-th smallest distance to that node's rows is at least its k-th nearest distance;
  2. the nodes in reach: walking down from the top to the level of nodes of at least 64 rows, a
     (query, node) pair is kept while a lower bound on the distance from the query to the node's box
     is within the query's bound (a step down changes one feature's gap: the split feature's);
  3. the candidates: node by node, the queries that reach it get scores against its rows (one matrix
     product), the rows whose score is within the bound are measured exactly (skipping any row with k
     identical rows before it, which can never win a tie), and each query keeps its k nearest by
     (distance, training row).
Every row within a query's bound is measured, so no neighbour (nor any row tied with the k-th) is missed.
In many dimensions boxes stop pruning; when most (query, node) pairs stay in reach the search gives up
(returns None) and the caller compares with every row instead.
"""

import numpy as np

from . import distance_scores

LEAF_SIZE = 32  # a leaf holds LEAF_SIZE to 2 * LEAF_SIZE - 1 rows
_BOUND_ROWS = 32  # the bound comes from a node of at least this many rows (and 2k) ...
_SCAN_ROWS = 64  # ... and queries are scored against the rows of nodes of at least this many
_PRUNED_SHARE = 0.5  # search by nodes only while at most this share of (query, node) pairs is in reach
_TOP_LEVEL = 3  # the walk down starts from the 8 nodes of this level
_MARGIN = 1e-9  # relative (and for cosine absolute) room for rounding in the bounds
_PAIR_BUDGET = 2 ** 22  # (query, row) pairs x features measured at once in step 1
_PAIRS_PER_BATCH = 2 ** 21  # (query, node) pairs a batch of queries may reach at most ...
_BATCH_QUERIES = (256, 65536)  # ... within these many queries a batch
_PROBE_QUERIES = 256  # the queries that decide whether the tree is worth it
_HIT_BUDGET = 2 ** 20  # measured candidates waiting at most before each query's k best are kept
_PROBE_PAIRS = 2 ** 18  # (query, node) pairs the probe of a tree looks at once
_SPREAD_SAMPLE = 128  # a large node's widest feature is judged on this many of its rows
_BLOCK_CELLS = 1 << 20  # values of the rows gathered at once while building
COPY_RANK_CAP = 255  # copy ranks are kept up to this (in one byte): a search with a larger k skips no copy


def _bounds(n, level):
    """(2^level + 1,) start positions of the nodes of one level (and n at the end).

    The product needs 64 bits, but positions are indices: np.intp, which is 32 bits in the browser's
    wasm32 numpy, where reduceat and bincount refuse int64 indices."""
    return ((np.arange(2 ** level + 1, dtype=np.int64) * n) >> level).astype(np.intp)


def build_tree(P):
    """The tree over the rows of P (n, d) (for cosine, the rows scaled to unit length), as a dict of
    arrays (heap order: node j has children 2j + 1 and 2j + 2); "perm" lists the rows in tree order,
    "copy_rank" their copy ranks (capped at COPY_RANK_CAP), "loT" and "hiT" (d, nodes) the boxes of
    the nodes down to the level the searches scan.

    P is only read: each level reorders an index array ("perm"), and the rows a step needs are gathered
    a block at a time, so building takes a few arrays of n numbers beside P, never a copy of it."""
    P = np.ascontiguousarray(P)  # itself when it is already (the flat gathers below need its rows in a run)
    n, d = P.shape
    depth = int(np.floor(np.log2(n / LEAF_SIZE))) if n >= 2 * LEAF_SIZE else 0
    copies = np.minimum(copy_ranks(P), COPY_RANK_CAP).astype(np.uint8)  # (n,) before the level arrays exist
    perm = np.arange(n, dtype=np.intp)
    dims = np.zeros(2 ** depth - 1, dtype=np.intp)  # split feature of each inner node
    for level in range(depth):
        bounds = _bounds(n, level)
        dim = _widest_features(P, perm, bounds)  # (2^level,)
        perm = perm[np.argsort(_split_keys(P, perm, bounds, dim))]  # each node's rows in halves along it
        dims[2 ** level - 1:2 ** (level + 1) - 1] = dim
    lo, hi = _boxes(P, perm, depth)  # (2^(depth+1) - 1, d) each
    inner = np.arange(len(dims))
    split = hi[2 * inner + 1, dims]  # (inner,) a query goes left when its value is <= this
    tree = {"perm": perm, "depth": depth, "n": n, "dims": dims, "split": split, "copy_rank": copies[perm]}
    searched = 2 ** (_level_holding(tree, _SCAN_ROWS) + 1) - 1  # the searches test no box below that level
    return {**tree, "loT": np.ascontiguousarray(lo[:searched].T), "hiT": np.ascontiguousarray(hi[:searched].T)}


def _split_keys(P, perm, bounds, dim):
    """(n,) a key per position whose ascending order groups the rows by node and sorts each node's
    rows along its split feature: the node's number plus half the row's place in the node's range
    [lo, hi] along that feature, (v - lo) / (hi - lo), which rounding keeps within [0, 1] and in the
    order of v. One float sort then splits every node of a level, faster than sorting on (node, value)."""
    node = np.repeat(np.arange(len(dim), dtype=np.intp), np.diff(bounds))  # (n,) node of each position
    flat, keys = P.reshape(-1), np.empty(len(perm))
    blocks = _row_blocks(len(perm), P.shape[1])
    for block in blocks:
        keys[block] = np.take(flat, perm[block] * P.shape[1] + dim[node[block]])  # P[perm, dim] for the block
    lo = np.minimum.reduceat(keys, bounds[:-1])  # (nodes,)
    width = np.maximum.reduceat(keys, bounds[:-1]) - lo
    width[width == 0] = 1.0  # a node of one value along its feature: any order splits it
    for block in blocks:
        at = node[block]
        keys[block] = at + 0.5 * ((keys[block] - lo[at]) / width[at])
    return keys


def _widest_features(P, perm, bounds):
    """(nodes,) the feature along which each node's rows (perm[bounds[i]:bounds[i + 1]]) spread widest,
    judged on at most _SPREAD_SAMPLE of them evenly spaced in the node (all of them in small nodes):
    any feature gives a correct tree, and the sample picks the widest in all but close calls."""
    sizes = np.diff(bounds)  # (nodes,)
    if sizes.min() < 2 * _SPREAD_SAMPLE:
        lo, hi = _segment_boxes(P, perm, bounds[:-1])
    else:
        positions = bounds[:-1, None] + np.arange(1, _SPREAD_SAMPLE + 1) * sizes[:, None] // (_SPREAD_SAMPLE + 1)
        lo, hi = _segment_boxes(P, perm[positions.ravel()], np.arange(len(sizes), dtype=np.intp) * _SPREAD_SAMPLE)
    return np.argmax(hi - lo, axis=1)


def _boxes(P, perm, depth):
    """(lo, hi), each (2^(depth+1) - 1, d) in heap order: every node's bounding box. The leaves' boxes
    come from their rows; each inner node's is the union of its children's (the same numbers)."""
    lo, hi = _segment_boxes(P, perm, _bounds(len(P), depth)[:-1])
    los, his = [lo], [hi]
    for _ in range(depth):
        lo, hi = np.minimum(lo[0::2], lo[1::2]), np.maximum(hi[0::2], hi[1::2])
        los.append(lo)
        his.append(hi)
    return np.concatenate(los[::-1]), np.concatenate(his[::-1])


def _segment_boxes(P, rows, starts):
    """(lo, hi), each (len(starts), d): the smallest and largest values of P's rows listed in `rows`,
    per segment rows[starts[i]:starts[i + 1]] (starts increasing, from 0), gathered a block at a time."""
    m, d = len(rows), P.shape[1]
    lo, hi = np.full((len(starts), d), np.inf), np.full((len(starts), d), -np.inf)
    step = max(1, _BLOCK_CELLS // max(1, d))
    for a in range(0, m, step):
        b = min(a + step, m)
        block = np.take(P, rows[a:b], axis=0)  # (b - a, d)
        first, stop = np.searchsorted(starts, a, side="right") - 1, np.searchsorted(starts, b)
        cuts = np.concatenate([np.array([a], dtype=np.intp), starts[first + 1:stop]]) - a  # segments within the block
        lo[first:stop] = np.minimum(lo[first:stop], np.minimum.reduceat(block, cuts, axis=0))
        hi[first:stop] = np.maximum(hi[first:stop], np.maximum.reduceat(block, cuts, axis=0))
    return lo, hi


def copy_ranks(P):
    """(n,) how many rows identical to each row of P come before it (0 for its first occurrence). A row
    of copy rank >= k is never among a query's k nearest: k identical earlier rows tie with it and win,
    so the search skips it (data with many equal rows would otherwise measure every copy).

    Rows are grouped by a 64-bit hash of their bits (one integer sort, where sorting the rows themselves
    compares them column by column); a group whose rows are not all equal (a collision) is ranked by
    np.unique instead, so the ranks are exact either way. Hashing and checking go a block of rows at a
    time, so no copy of P is made, and only the rows after their group's first are checked (none when
    no two rows hash alike)."""
    n = len(P)
    hashed = np.empty(n, dtype=np.uint64)
    for block in _row_blocks(n, P.shape[1]):
        hashed[block] = _row_hashes((P[block] + 0.0).view(np.uint64))  # + 0.0: -0.0 hashes as 0.0
    order = np.argsort(hashed, kind="stable")  # grouped by hash, by row index within a group
    hashed = hashed[order]  # (the hashes in row order are not needed again)
    rank = np.arange(n)
    rank -= np.searchsorted(hashed, hashed)  # (n,) place of each row of `order` within its group
    del hashed
    later = np.flatnonzero(rank)  # places in `order` of rows after their group's first
    same = np.empty(len(later), dtype=bool)  # each such row equal to its group's first row
    for block in _row_blocks(len(later), P.shape[1]):
        at = later[block]
        same[block] = np.all(P[order[at]] == P[order[at - rank[at]]], axis=1)
    ranks = np.empty(n, dtype=np.intp)
    ranks[order] = rank
    if not same.all():  # a collision: rank those groups' rows exactly
        first = np.arange(n) - rank  # (n,) where each row's group starts in `order`
        rows = order[np.isin(first, first[later[~same]])]
        ranks[rows] = _exact_copy_ranks(P[rows])
    return ranks


def _row_blocks(n, d):
    """Slices of n rows of d values, each slice about _BLOCK_CELLS values."""
    step = max(1, _BLOCK_CELLS // max(1, d))
    return [slice(a, a + step) for a in range(0, n, step)]


def _row_hashes(bits):
    """(m,) a 64-bit hash of each row of `bits` (m, d) uint64: each column times its own odd number, summed
    with wrap-around, the high bits folded into the low."""
    mixers = np.random.default_rng(0).integers(1, 2 ** 63, size=bits.shape[1], dtype=np.uint64) | np.uint64(1)
    with np.errstate(over="ignore"):
        hashed = (bits * mixers).sum(axis=1, dtype=np.uint64)
    return hashed ^ (hashed >> np.uint64(29))


def _exact_copy_ranks(P):
    """copy_ranks by sorting the rows themselves (np.unique over rows), for the rows of colliding hashes."""
    inverse = np.unique(P, axis=0, return_inverse=True)[1].ravel()  # (n,) which distinct row
    order = np.argsort(inverse, kind="stable")
    grouped = inverse[order]
    ranks = np.empty(len(P), dtype=np.intp)
    ranks[order] = np.arange(len(P)) - np.searchsorted(grouped, grouped)
    return ranks


def k_nearest(prepared, Q, k, metric, pruning_required=False):
    """(distances, indices), each (m, k): the k nearest training rows of each query row of Q (m, d),
    nearest first, equal distances by training row; None when pruning_required and the tree prunes too
    little to beat comparing with every row (judged on the first 256 queries, so giving up costs
    little). Queries go in batches, so that the (query, node) pairs of a batch stay under about 2
    million (memory) however many nodes the tree has. `prepared`: distance_scores.prepare(rows,
    metric, tree["perm"]) with the tree under "tree"."""
    tree = prepared["tree"]
    level = _level_holding(tree, _SCAN_ROWS)  # the level whose nodes are scored whole
    if pruning_required and not _prunes(prepared, Q[:_PROBE_QUERIES], k, metric, level):
        return None
    distances, indices = np.empty((len(Q), k)), np.empty((len(Q), k), dtype=np.intp)
    batch = int(np.clip(_PAIRS_PER_BATCH >> level, *_BATCH_QUERIES))
    for first in range(0, len(Q), batch):
        side, bound = _bounded(prepared, Q[first:first + batch], k, metric)
        queries, nodes = _nodes_in_reach(tree, side["points"], bound, metric, level)
        distances[first:first + batch], indices[first:first + batch] = _nearest_in_nodes(
            prepared, side, queries, nodes, level, bound, k, metric)
    return distances, indices


def _prunes(prepared, Q, k, metric, level):
    """Whether at most _PRUNED_SHARE of the (query, node of `level`) pairs of the queries Q are in reach."""
    return share_in_reach(prepared, Q, k, metric, level) <= _PRUNED_SHARE


def share_in_reach(prepared, Q, k, metric, level=None):
    """The share of (query, node of `level`) pairs of the queries Q (m, d) in reach: near 1 where boxes
    do not prune. `level` defaults to the one the searches scan. The queries go a few at a time: where
    boxes do not prune, a query reaches every node."""
    level = _level_holding(prepared["tree"], _SCAN_ROWS) if level is None else level
    reached, step = 0, max(1, _PROBE_PAIRS >> level)
    for first in range(0, len(Q), step):
        side, bound = _bounded(prepared, Q[first:first + step], k, metric)
        reached += len(_nodes_in_reach(prepared["tree"], side["points"], bound, metric, level)[0])
    return reached / max(1, len(Q) * 2 ** level)


def _bounded(prepared, Q, k, metric):
    """(side, bound): the queries' side of the scores and an upper bound on each one's k-th distance."""
    side = distance_scores.queries(Q, prepared, metric)
    return side, _kth_bound(prepared["tree"], prepared["points"], side, k, metric)


def _level_holding(tree, rows):
    """The deepest level whose nodes all hold at least `rows` rows (the root if none does)."""
    if tree["n"] < 2 * rows:
        return 0
    return min(tree["depth"], int(np.floor(np.log2(tree["n"] / rows))))


def _descend(tree, P, level):
    """(m,) heap index of the node each row of P (m, d) reaches after `level` steps down from the root."""
    node = np.zeros(len(P), dtype=np.intp)
    for _ in range(level):
        right = P[np.arange(len(P)), tree["dims"][node]] > tree["split"][node]  # (m,)
        node = 2 * node + 1 + right
    return node


def _kth_bound(tree, points, side, k, metric):
    """(m,) an upper bound on each query's k-th nearest distance: the k-th smallest distance to the
    rows of the node of at least max(2k, _BOUND_ROWS) rows it falls in (widened for rounding)."""
    level = _level_holding(tree, max(2 * k, _BOUND_ROWS))
    index = _descend(tree, side["points"], level) - (2 ** level - 1)  # (m,) node within the level
    bounds = _bounds(tree["n"], level)
    start, stop = bounds[index], bounds[index + 1]
    width = -(-tree["n"] // 2 ** level)  # the widest node
    P = side["points"]
    bound = np.empty(len(P))
    chunk = max(1, _PAIR_BUDGET // (width * max(P.shape[1], 1)))
    for first in range(0, len(P), chunk):
        block = slice(first, first + chunk)
        pos = start[block, None] + np.arange(width)  # (c, width) tree positions, the last may be past the node
        rows = tree["perm"][np.minimum(pos, tree["n"] - 1)]  # (c, width) training rows
        dist = _distances(P[block], points, rows, metric)
        dist[pos >= stop[block, None]] = np.inf
        bound[block] = np.partition(dist, k - 1, axis=1)[:, k - 1]
    return bound * (1.0 + _MARGIN) + (_MARGIN if metric == "cosine" else 0.0)  # room for rounding


def _distances(P, X, rows, metric):
    """(c, width) distances from the rows of P (c, d) to the training rows X[rows] (rows: (c, width)),
    as distance_scores.exact defines them (up to rounding), added up feature by feature."""
    total = 0.0
    for j in range(P.shape[1]):
        x = X[rows, j]  # (c, width)
        total = total + (P[:, j, None] * x if metric == "cosine" else
                         np.square(P[:, j, None] - x) if metric == "euclidean" else np.abs(P[:, j, None] - x))
    if metric == "euclidean":
        return np.sqrt(total)
    return np.clip(1.0 - total, 0.0, 2.0) if metric == "cosine" else total


def _gap(v, lo, hi):
    """How far each value v lies outside [lo, hi] (0 inside)."""
    return np.maximum(np.maximum(lo - v, v - hi), 0.0)


def _nodes_in_reach(tree, P, bound, metric, level):
    """(queries, nodes): every (query, node of `level`) pair whose box comes within the query's bound,
    grouped by query. The lower bound is the gap between query and box, feature by feature, summed as the metric
    sums (squares for Euclidean; for cosine, on unit rows, half the squared Euclidean gap, which is at
    most 1 - cos). Computed in full for the nodes of the top level; a step down changes only the split
    feature's gap (the parent's box is kept in the other features, which still bounds from below)."""
    squared = metric != "manhattan"
    term = np.square if squared else (lambda g: g)
    reach = bound ** 2 if metric == "euclidean" else (2.0 * bound if metric == "cosine" else bound)  # (m,)
    loT, hiT, dims = tree["loT"], tree["hiT"], tree["dims"]
    top = min(level, _TOP_LEVEL)
    queries = np.repeat(np.arange(len(P)), 2 ** top)  # (m 2^top,) grouped by query
    nodes = np.tile(np.arange(2 ** top - 1, 2 ** (top + 1) - 1), len(P))
    lower = sum(term(_gap(P[queries, j], loT[j, nodes], hiT[j, nodes])) for j in range(P.shape[1]))
    keep = lower <= reach[queries]
    queries, nodes, lower = queries[keep], nodes[keep], lower[keep]
    for _ in range(top, level):
        j = dims[nodes]  # (pairs,) the split feature of each kept node
        v = P[queries, j]
        rest = lower - term(_gap(v, loT[j, nodes], hiT[j, nodes]))  # the other features' part
        queries, j, v, rest = (np.repeat(a, 2) for a in (queries, j, v, rest))
        nodes = (2 * nodes[:, None] + np.array([1, 2])).ravel()  # both children, still grouped by query
        lower = rest + term(_gap(v, loT[j, nodes], hiT[j, nodes]))
        keep = lower <= reach[queries]
        queries, nodes, lower = queries[keep], nodes[keep], lower[keep]
    return queries, nodes


def _nearest_in_nodes(prepared, side, queries, nodes, level, bound, k, metric):
    """The k nearest of every query among the rows of the nodes it reaches: node by node, scores for
    the queries that reach it; the rows within the bound are measured, and whenever more than
    _HIT_BUDGET are waiting, every query's k best so far are kept and the rest dropped (rows tied at
    one distance, e.g. many equal rows, would otherwise pile up)."""
    tree = prepared["tree"]
    limit = distance_scores.score_of(bound, side, metric) + side["slack"]  # (m,) in score units
    order = np.argsort(nodes, kind="stable")
    queries, nodes = queries[order], nodes[order]
    cuts = (np.flatnonzero(nodes[1:] != nodes[:-1]) + 1).tolist()
    positions = _bounds(tree["n"], level)
    best = (np.empty(0, np.intp), np.empty(0), np.empty(0, np.intp))  # (query, distance, row) kept so far
    waiting, n_waiting = [], 0
    for start, stop in zip([0] + cuts, cuts + [len(nodes)]):
        index = int(nodes[start]) - (2 ** level - 1)  # the node's place in its level
        a, b = int(positions[index]), int(positions[index + 1])
        which = queries[start:stop]
        scores = distance_scores.scores(side, prepared, metric, which, a, b)  # (c, b - a)
        within = scores <= limit[which][:, None]  # (c, b - a)
        if k <= COPY_RANK_CAP:
            within &= tree["copy_rank"][a:b] < k
        r, c = np.divmod(np.flatnonzero(within), b - a)  # (much faster than nonzero)
        waiting.append((which[r], c + a))
        n_waiting += len(r)
        if n_waiting > _HIT_BUDGET:
            best, waiting, n_waiting = _keep_k_best(prepared, side, metric, bound, k, best, waiting), [], 0
    q, dist, found = _keep_k_best(prepared, side, metric, bound, k, best, waiting)  # sorted by query
    take = np.searchsorted(q, np.arange(len(bound)))[:, None] + np.arange(k)  # (m, k)
    return dist[take], found[take]


def _keep_k_best(prepared, side, metric, bound, k, best, waiting):
    """(query, distance, row), sorted by (query, distance, row): each query's k nearest among those
    kept so far and the waiting (query, tree position) hits, which are measured here; hits beyond the
    query's bound are dropped (they are not among its k nearest, nor tied with the k-th)."""
    q = np.concatenate([w[0] for w in waiting] + [np.empty(0, np.intp)])
    found = prepared["tree"]["perm"][np.concatenate([w[1] for w in waiting] + [np.empty(0, np.intp)])]
    dist = distance_scores.exact(side, prepared, metric, q, found)
    near = dist <= bound[q]  # every true neighbour and every row tied with the k-th
    q, dist, found = (np.concatenate([kept, new[near]]) for kept, new in zip(best, (q, dist, found)))
    order = order_by_query_distance_row(q, dist, found, prepared["tree"]["n"])
    q, dist, found = q[order], dist[order], found[order]
    rank = np.arange(len(q)) - np.searchsorted(q, q)  # place within its query's run
    keep = rank < k
    return q[keep], dist[keep], found[keep]


def order_by_query_distance_row(q, dist, rows, n):
    """The permutation sorting candidates by (query, distance, training row): one integer key made of
    the query, the rank of the distance among all the distances (equal ones share it) and the row,
    which numpy sorts much faster than a three-key lexsort."""
    if len(q) == 0 or (int(q.max()) + 1) * len(q) * n >= 2 ** 62:  # the key would overflow
        return np.lexsort((rows, dist, q))
    by_dist = np.argsort(dist)  # (c,)
    ranked = dist[by_dist]
    rank = np.empty(len(q), dtype=np.int64)
    rank[by_dist] = np.concatenate([[0], np.cumsum(ranked[1:] != ranked[:-1])])  # equal distances, equal rank
    return np.argsort((q.astype(np.int64) * len(q) + rank) * n + rows)
