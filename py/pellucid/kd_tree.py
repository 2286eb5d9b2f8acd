"""KD-tree: exact k-nearest-neighbour search for points in a few dimensions, built and queried with numpy.

Seed 004 "K-Nearest Neighbor Methods" defines the neighbours; this module only finds them faster than
comparing every query with every training row when the rows have 1 to 3 features (a decision boundary
asks about a whole grid of points in the plane). It changes nothing in the answer.

The tree. The training rows are split in halves, level by level, each node along the feature where its
points spread widest, until a leaf holds 8 to 15 rows. Node i of a level holds the rows at positions
[i n / 2^l, (i + 1) n / 2^l) of one permutation, so every node is a contiguous run of it, and each
node keeps the bounding box of its points.

A query, for a whole batch at once (no loop over queries):
  1. walk down to the deepest node that still holds at least k rows, and take the k-th smallest
     distance to its rows: an upper bound `bound` on the distance of the k-th nearest neighbour;
  2. walk down again, keeping every (query, node) pair whose box may hold a row at distance <= bound
     (a lower bound on the distance from the query to anything in the box), and tightening the bound
     with the farthest-corner distance of nodes that hold at least k rows;
  3. measure every row of the kept leaves exactly, keep those at distance <= bound (all the true
     neighbours and every row tied with the k-th) and take the k nearest by (distance, training row).
The distances are `pair_distances`, the same definition the brute-force search measures with (terms
added in feature order), and the box bounds are computed with the same operations in the same order,
so (rounding being monotone) a box bound never exceeds a distance it covers; the pruning also keeps a
1e-12 relative margin.
"""

import numpy as np

LEAF_SIZE = 8  # a leaf holds LEAF_SIZE to 2 * LEAF_SIZE - 1 rows
_PAIR_BUDGET = 2 ** 20  # measured (query, row) pairs per chunk in step 3, to bound memory
_MARGIN = 1e-12
_START_LEVEL = 2  # the walk to the leaves in reach starts with the 4 nodes of this level


def _bounds(n, level):
    """(2^level + 1,) start positions of the nodes of one level (and n at the end).

    The product needs 64 bits, but positions are indices: np.intp, which is 32 bits in the browser's
    wasm32 numpy, where reduceat and bincount refuse int64 indices."""
    return ((np.arange(2 ** level + 1, dtype=np.int64) * n) >> level).astype(np.intp)


def build_tree(P):
    """The tree over the rows of P (n, d), as a dict of arrays (heap order: node j has children
    2j + 1 and 2j + 2)."""
    n, d = P.shape
    depth = int(np.floor(np.log2(n / LEAF_SIZE))) if n >= 2 * LEAF_SIZE else 0
    perm = np.arange(n)
    dims = np.zeros(2 ** depth - 1, dtype=np.intp)  # split feature of each inner node
    for level in range(depth):
        bounds = _bounds(n, level)
        Pp = P[perm]  # (n, d) rows in current tree order
        spread = np.maximum.reduceat(Pp, bounds[:-1], axis=0) - np.minimum.reduceat(Pp, bounds[:-1], axis=0)
        dim = np.argmax(spread, axis=1)  # (2^level,) the widest feature of each node
        node = np.repeat(np.arange(2 ** level), np.diff(bounds))  # (n,)
        order = np.lexsort((Pp[np.arange(n), dim[node]], node))  # sort each node's rows along its feature
        perm = perm[order]
        dims[2 ** level - 1:2 ** (level + 1) - 1] = dim
    Pp = P[perm]
    starts = [_bounds(n, level)[:-1] for level in range(depth + 1)]
    lo = np.concatenate([np.minimum.reduceat(Pp, s, axis=0) for s in starts])  # (2^(depth+1) - 1, d)
    hi = np.concatenate([np.maximum.reduceat(Pp, s, axis=0) for s in starts])
    inner = np.arange(len(dims))
    split = hi[2 * inner + 1, dims]  # (inner,) a query goes left when its value is <= this
    return {"perm": perm, "depth": depth, "n": n, "dims": dims, "split": split,
            "PT": np.ascontiguousarray(Pp.T),  # (d, n) the rows in tree order, one feature per line
            "loT": np.ascontiguousarray(lo.T), "hiT": np.ascontiguousarray(hi.T)}  # (d, nodes) each


def pair_distances(q_cols, x_cols, metric):
    """Distances between queries and training rows given one (broadcastable) array per feature:
    the terms (q_j - x_j)^2, |q_j - x_j| or q_j x_j added in feature order, then the square root,
    nothing, or 1 - sum clipped to [0, 2] (cosine, on rows scaled to unit length)."""
    total = None
    for q, x in zip(q_cols, x_cols):
        if metric == "cosine":
            term = q * x
        else:
            term = q - x
            term = np.multiply(term, term, out=term) if metric == "euclidean" else np.abs(term, out=term)
        total = term if total is None else np.add(total, term, out=total)
    if metric == "euclidean":
        return np.sqrt(total, out=total)
    return np.clip(1.0 - total, 0.0, 2.0) if metric == "cosine" else total


def box_bounds(tree, q_cols, nodes, metric):
    """(lower, upper): bounds on the distance from queries (one array per feature) to any row in the
    box of `nodes`, from pair_distances' own operations on the nearest and farthest values the box
    allows, so (rounding being monotone) they bracket the distance measured to a row inside. Cosine
    (rows of length 1 or 0): the lower bound is half the squared euclidean gap less a rounding margin,
    the upper one 1 - the smallest q.x over the box."""
    lower = upper = None
    for q, lo, hi in zip(q_cols, tree["loT"][:, nodes], tree["hiT"][:, nodes]):
        near = np.maximum(np.maximum(lo - q, q - hi), 0.0)  # |q_j - x_j| >= near for every x in the box
        if metric == "cosine":
            low, up = near * near, np.minimum(q * lo, q * hi)
        else:
            up = np.maximum(np.abs(q - lo), np.abs(q - hi))  # ... and <= up
            low, up = (near * near, up * up) if metric == "euclidean" else (near, up)
        lower, upper = (low, up) if lower is None else (lower + low, upper + up)
    if metric == "euclidean":
        return np.sqrt(lower), np.sqrt(upper)
    if metric == "cosine":
        return 0.5 * lower - _MARGIN, np.clip(1.0 - upper, 0.0, 2.0)  # clipped as the distance is
    return lower, upper


def _descend(tree, Q, levels):
    """(m,) heap index of the node each query reaches after `levels` steps down from the root."""
    node = np.zeros(len(Q), dtype=np.intp)
    for _ in range(levels):
        right = Q[np.arange(len(Q)), tree["dims"][node]] > tree["split"][node]  # (m,)
        node = 2 * node + 1 + right
    return node


def _node_positions(tree, nodes, level):
    """(positions, valid), each (len(nodes), width): tree-order positions of the rows of nodes of one
    level, padded to the widest node (padding points at a real row and is marked invalid)."""
    n, bounds = tree["n"], _bounds(tree["n"], level)
    index = nodes - (2 ** level - 1)  # position within the level
    start, stop = bounds[index], bounds[index + 1]  # (c,)
    pos = start[:, None] + np.arange(-(-n // 2 ** level))  # (c, width)
    valid = pos < stop[:, None]
    return np.minimum(pos, n - 1), valid


def _distances_to(tree, Q, queries, pos, metric):
    """(c, width) distances from queries Q[queries] (c,) to the rows at tree positions pos (c, width)."""
    return pair_distances([Q[queries, j][:, None] for j in range(Q.shape[1])], tree["PT"][:, pos], metric)


def _kth_bound(tree, Q, k, metric):
    """(m,) the k-th smallest distance from each query to the rows of the deepest node holding >= k:
    at least k rows lie within it, so the k-th nearest does too."""
    level = min(tree["depth"], int(np.floor(np.log2(tree["n"] // k))))
    pos, valid = _node_positions(tree, _descend(tree, Q, level), level)  # (m, width)
    dist = _distances_to(tree, Q, np.arange(len(Q)), pos, metric)
    dist[~valid] = np.inf
    return np.partition(dist, k - 1, axis=1)[:, k - 1]


def _leaves_in_reach(tree, Q, bound, k, metric):
    """(queries, leaves, bound): every (query, leaf) pair whose box may hold a row within the bound on
    the k-th distance, grouped by query. The bound tightens on the way down: a node of >= k rows lies
    wholly within its farthest-corner distance. The walk starts at the 4 nodes of level 2."""
    top = min(tree["depth"], _START_LEVEL)
    queries = np.repeat(np.arange(len(Q)), 2 ** top)  # (m 2^top,) grouped by query
    nodes = np.tile(np.arange(2 ** top - 1, 2 ** (top + 1) - 1), len(Q))
    for level in range(top, tree["depth"] + 1):
        if level > top:  # both children of every kept node, still grouped by query
            queries = np.repeat(queries, 2)
            nodes = (2 * nodes[:, None] + np.array([1, 2])).ravel()
        lower, upper = box_bounds(tree, [Q[queries, j] for j in range(Q.shape[1])], nodes, metric)
        if tree["n"] >> level >= k:  # every node of this level holds at least k rows
            first = np.flatnonzero(np.concatenate([[True], queries[1:] != queries[:-1]]))
            bound[queries[first]] = np.minimum(bound[queries[first]], np.minimum.reduceat(upper, first))
        limit = bound * (1.0 + _MARGIN) + (_MARGIN if metric == "cosine" else 0.0)  # (m,)
        keep = lower <= limit[queries]
        queries, nodes = queries[keep], nodes[keep]
    return queries, nodes, bound


def k_nearest(tree, Q, k, metric):
    """(distances, indices), each (m, k): the k nearest tree rows to each query row of Q (m, d) (for
    cosine, scaled to unit length), nearest first, equal distances by training row."""
    bound = _kth_bound(tree, Q, k, metric)  # (m,)
    queries, leaves, bound = _leaves_in_reach(tree, Q, bound, k, metric)
    width = -(-tree["n"] // 2 ** tree["depth"])
    ends = np.cumsum(np.bincount(queries, minlength=len(Q)))  # (m,) end of each query's pairs
    per_chunk = max(1, _PAIR_BUDGET // width)
    distances, indices = np.empty((len(Q), k)), np.empty((len(Q), k), dtype=np.intp)
    first = 0
    while first < len(Q):  # chunks of whole queries, so memory stays bounded even with many ties
        start = ends[first - 1] if first else 0
        last = max(first + 1, int(np.searchsorted(ends, start + per_chunk, side="right")))
        stop = ends[last - 1]
        distances[first:last], indices[first:last] = _select(
            tree, Q, k, metric, queries[start:stop], leaves[start:stop], bound, first, last)
        first = last
    return distances, indices


def _select(tree, Q, k, metric, queries, leaves, bound, first, last):
    """The k nearest of queries first..last-1 among the rows of their (query, leaf) pairs."""
    pos, valid = _node_positions(tree, leaves, tree["depth"])  # (pairs, width)
    dist = _distances_to(tree, Q, queries, pos, metric)  # (pairs, width)
    near = valid & (dist <= bound[queries][:, None])  # every true neighbour and every row tied with the k-th
    q = np.broadcast_to(queries[:, None], pos.shape)[near]  # (candidates,)
    rows, dist = tree["perm"][pos[near]], dist[near]
    order = _order_by_query_distance_row(q, dist, rows, tree["n"])
    take = np.searchsorted(q[order], np.arange(first, last))[:, None] + np.arange(k)  # (c, k)
    return dist[order][take], rows[order][take]


def _order_by_query_distance_row(q, dist, rows, n):
    """The permutation sorting candidates by (query, distance, training row): one integer key made of
    the query, the rank of the distance among all the distances (equal ones share it) and the row,
    which numpy sorts much faster than a three-key lexsort."""
    if len(q) == 0 or (int(q[-1]) + 1) * len(q) * n >= 2 ** 62:  # the key would overflow
        return np.lexsort((rows, dist, q))
    by_dist = np.argsort(dist)  # (c,)
    ranked = dist[by_dist]
    rank = np.empty(len(q), dtype=np.int64)
    rank[by_dist] = np.concatenate([[0], np.cumsum(ranked[1:] != ranked[:-1])])  # equal distances, equal rank
    return np.argsort((q.astype(np.int64) * len(q) + rank) * n + rows)
