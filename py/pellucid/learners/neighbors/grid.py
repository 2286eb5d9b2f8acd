"""k-nearest neighbours of a lattice of queries, tile by tile: the exact search of neighbors.k_nearest
for a decision boundary's grid.

A boundary's grid varies two features over a regular lattice (x varying fastest) and holds every other
feature at one value. For Euclidean distances |q - x|^2 = (q_u - x_u)^2 + (q_w - x_w)^2 + c_x, where
c_x = |h - x_h|^2 sums the held features and is one number per training row (Manhattan likewise, with
absolute values and no squares): each training row is a point (x_u, x_w) of the plane, raised by c_x.
Below, a "score" is that sum (the squared distance for Euclidean, the distance for Manhattan).

The lattice is cut into tiles of 4 x 4 points; the tiles' centres make a coarser lattice, cut into tiles
of 2 x 2, and so on down to at most 4 x 4 points, whose k nearest rows are found by measuring every row.
Then, back up level by level, for each tile:
  1. a bound: the k rows found for the tile's centre are no farther from any point of the tile than
     the farthest of them, so each point's k-th nearest is within that (the tile's bound);
  2. the candidates: the rows whose score from the tile's rectangle is within the bound. The rows are
     sorted into layers of c (made again when the bounds outgrow them or shrink well below them) and,
     within a layer, into cells of the plane; a tile gathers, in each layer its bound reaches, the cells
     within what is left of its bound along the plane;
  3. every point of the tile against every candidate, in the plane, for many tiles in one vectorised
     block: each point keeps its k nearest candidates (for the next level's bounds) or, on the lattice of
     the queries, every candidate within its k-th smallest score.
Those last are measured again in all p features as distance_scores.exact measures them (from the rows'
gaps to the held values, which every query shares, with u and w put in); with no held feature the plane's
score already is exact's sum, d_u^2 + d_w^2 added as exact adds them, and only its root is taken. Each
query keeps its k nearest by (distance, training row); two scores one bit apart may have one root, so the
order is by the roots, not the scores. No row that can be among a query's k nearest, or tie with its
k-th, is left out (the bounds are widened for rounding), so the answer is the definition's to the last
bit, ties included.

Why tiles: a 200 x 200 grid over the data's range is as dense as the data or denser, so neighbouring
points share most candidates, and numpy does the work in a few large blocks rather than per point. Each
query still scores a few dozen candidates in the plane; a KD-tree would score fewer, but its per-node
steps cost more than that in numpy (in Pyodide the 200 x 200 grid over 20,000 rows is about 2.3 times as
fast this way, and so is the page's grid with 18 held features over 35,000 rows).
"""

import numpy as np

from .grid_exact import k_best, measured

_MIN_QUERIES = 256  # a lattice smaller than this goes the usual way
_TILE = 4  # a tile of the queries' lattice holds up to 4 x 4 points, of the coarser lattices 2 x 2
_COARSEST = 4  # the coarsest lattice has at most 4 x 4 points, searched against every row
_ROWS_PER_CELL = 2  # the plane's cells hold about this many rows on average ...
_LAYERS = 8  # ... in each of these layers of c (when held features make c vary), ...
_REINDEX = 0.8  # ... made again when the bounds of a level fall below this share of the layers' top
_HEADROOM = 1.1  # ... or rise above it; made with this room above the bounds (finer levels' reach a little farther)
_BLOCK_VALUES = 2 ** 17  # (point, candidate) scores computed at once
_MARGIN = 1e-9  # relative room for rounding: the plane's sums and exact's differ in their last bits


def lattice(Q):
    """(held, u, w, xs, ys) when the rows of Q (m, p) are the lattice Q[i nx + j, u] = xs[j], Q[i nx + j, w]
    = ys[i] with every other column `held` at one value (checked exactly); else None."""
    m = len(Q)
    if Q.ndim != 2 or m < _MIN_QUERIES:
        return None
    held = (Q == Q[0]).all(axis=0)  # (p,)
    varying = np.flatnonzero(~held)
    if len(varying) != 2:
        return None
    a, b = varying
    u, w = (a, b) if Q[1, a] != Q[0, a] else (b, a)  # u varies from one query to the next
    nx = int(np.argmax(Q[:, w] != Q[0, w]))  # where w first changes
    if nx < 2 or m % nx:
        return None
    U, W = Q[:, u].reshape(-1, nx), Q[:, w].reshape(-1, nx)  # (ny, nx) each
    if not ((U == U[0]).all() and (W == W[:, :1]).all()):
        return None
    return np.flatnonzero(held), u, w, U[0].copy(), W[:, 0].copy()


def nearest_on_lattice(Q, prepared, metric, k, distances=True):
    """(distances, indices), each (m, k), as neighbors_fast.nearest_neighbors gives them, for queries Q
    (m, p) that form a lattice (see `lattice`); None when they do not, or for cosine distances. With
    distances=False, (None, indices) when the scores alone decide each query's k nearest (in no
    particular order): no query has a row within rounding of its k-th."""
    found = lattice(Q) if metric in ("euclidean", "manhattan") else None
    if found is None:
        return None
    held, u, w, xs, ys = found
    X = prepared["points"]
    gaps = X - Q[0]  # (n, p) in the held columns every query's differences; u and w are put in below
    gaps[:, u], gaps[:, w] = 0.0, 0.0
    raised = np.einsum("ij,ij->i", gaps, gaps) if metric == "euclidean" else np.abs(gaps).sum(axis=1)
    plane = _Plane(np.ascontiguousarray(X[:, u]), np.ascontiguousarray(X[:, w]), raised, metric)  # gathered often
    px, py = np.argsort(xs, kind="stable"), np.argsort(ys, kind="stable")
    query, found, score = plane.search(xs[px], ys[py], k, py * len(xs), px)  # (pairs,) each
    if not distances and len(query) == len(Q) * k:  # every query has at least k pairs, so exactly k
        indices = np.empty((len(Q), k), dtype=found.dtype)
        indices[query[::k]] = found.reshape(-1, k)
        return None, indices
    if not len(held):  # the plane's score is exact's sum, d_u^2 + d_w^2 (or |d_u| + |d_w|), to the bit
        dist = plane.root(score)
    else:
        dist = measured(Q, gaps, plane.xu, plane.xw, u, w, query, found, metric)
    return k_best(query, dist, found, len(Q), k)


def _tile_starts(n, side):
    """(tiles + 1,) where each tile of `side` points (the last maybe fewer) of an axis of n starts."""
    return np.append(np.arange(0, n, side), n)


class _Plane:
    """The training rows as points (x_u, x_w) of the plane raised by c, and the search on a lattice."""

    def __init__(self, xu, xw, c, metric):
        self.xu, self.xw, self.c, self.metric = xu, xw, c, metric

    def term(self, gap):
        """A gap's share of a score."""
        return gap * gap if self.metric == "euclidean" else gap

    def diff(self, a, b):
        """a - b, or its absolute value where the term needs it (Manhattan)."""
        return a - b if self.metric == "euclidean" else np.abs(a - b)

    def root(self, score):
        """The gap whose term is `score`."""
        return np.sqrt(score) if self.metric == "euclidean" else score

    def search(self, xs, ys, k, query_rows, query_columns):
        """(query, row, score): for each point (iy, ix) of the lattice of ascending xs and ys, query
        query_rows[iy] + query_columns[ix], every row within its k-th smallest score (widened for
        rounding), as training-row indices, and its score."""
        self.query_rows, self.query_columns = query_rows, query_columns
        levels = [(xs, ys)]
        while len(levels[-1][0]) > _COARSEST or len(levels[-1][1]) > _COARSEST:
            levels.append(_coarser(*levels[-1], _TILE if len(levels) == 1 else 2))
        near = self._every_row(*levels[-1], k)  # (ny, nx, k) rows
        self.indexed = None
        for depth in range(len(levels) - 2, -1, -1):
            near = self._refine(*levels[depth], near, k, _TILE if depth == 0 else 2, last=depth == 0)
        return near

    def _every_row(self, xs, ys, k):
        """(ny, nx, k) the k nearest rows of each point of a small lattice, measuring every row."""
        scores = (self.term(np.abs(xs[:, None] - self.xu))[None, :, :] +
                  (self.term(np.abs(ys[:, None] - self.xw)) + self.c)[:, None, :])  # (ny, nx, n)
        return np.argpartition(scores, k - 1, axis=-1)[..., :k] if scores.shape[-1] > k else \
            np.broadcast_to(np.arange(k), scores.shape).copy()

    def _index(self, top):
        """Sort the rows whose c is at most `top` (the others are no one's candidates) into layers of
        equal depth in c and, within a layer, into cells of the plane (about _ROWS_PER_CELL rows each),
        cell by cell along u, then w."""
        rows = np.flatnonzero(self.c <= top)
        c = self.c[rows]
        low, high = float(c.min()), float(c.max())
        layers = _LAYERS if high > low else 1
        layer = np.minimum(((c - low) * (layers / (high - low) if high > low else 0.0)).astype(np.intp), layers - 1)
        sides = np.sqrt(np.bincount(layer, minlength=layers) / _ROWS_PER_CELL)
        self.sides = np.clip(sides, 1, 256).astype(np.intp)  # (layers,) cells along u and along w
        self.base = np.concatenate([[0], np.cumsum(self.sides ** 2)])  # where each layer's cells start
        self.lo = (float(self.xu[rows].min()), float(self.xw[rows].min()))
        spans = (float(self.xu[rows].max()) - self.lo[0], float(self.xw[rows].max()) - self.lo[1])
        self.per_unit = [self.sides / span if span > 0 else np.zeros(layers) for span in spans]  # (layers,) each
        cell = (self.base[layer] + self._cell(self.xw[rows], 1, layer) * self.sides[layer] +
                self._cell(self.xu[rows], 0, layer))
        order = np.argsort(cell, kind="stable")
        self.rows = rows[order]  # (kept,) training rows by layer, then cell
        self.start = np.searchsorted(cell[order], np.arange(self.base[-1] + 1))  # (cells + 1,)
        self.c_floor = np.full(layers, np.inf)  # the least c of each layer (its rows are one run now)
        present = np.flatnonzero(np.bincount(layer, minlength=layers))
        runs = self.start[self.base[present]]
        self.c_floor[present] = np.minimum.reduceat(c[order], runs)
        self.indexed = (top, high > low)

    def _cell(self, values, axis, layer):
        """The cell along u (axis 0) or w (1) of each value in its layer; never decreasing with the value,
        so the cells between those of a and b hold every row between a and b."""
        cells = np.floor((values - self.lo[axis]) * self.per_unit[axis][layer])
        return np.clip(cells, 0, self.sides[layer] - 1).astype(np.intp)

    def _gap_to_line(self, w, layer, y_lo, y_hi):
        """How far the rows of line w of cells (in its layer) are at least from [y_lo, y_hi] along w:
        the line's edges, widened by a millionth of a cell against rounding in `_cell`."""
        per_unit = self.per_unit[1][layer]
        if not per_unit.all():  # every row of the plane has one value of w: one line
            return np.zeros(len(w))
        low, high = self.lo[1] + (w - 1e-6) / per_unit, self.lo[1] + (w + 1 + 1e-6) / per_unit
        return np.maximum(np.maximum(low - y_hi, y_lo - high), 0.0)

    def _refine(self, xs, ys, coarse, k, side, last):
        """The next finer level: (ny, nx, k) the k nearest candidates of each point of the lattice, or
        with last=True the (query, row, score) of `search`. coarse: (Ty, Tx, k) rows found for the
        tiles' centres."""
        bx, by = _tile_starts(len(xs), side), _tile_starts(len(ys), side)
        ix = np.minimum(bx[:-1, None] + np.arange(side), bx[1:, None] - 1)  # (Tx, T) a tile's points, last repeated
        iy = np.minimum(by[:-1, None] + np.arange(side), by[1:, None] - 1)
        farthest = (self.term(np.abs(xs[ix][None, :, :, None] - self.xu[coarse][:, :, None, :])).max(axis=2) +
                    self.term(np.abs(ys[iy][:, None, :, None] - self.xw[coarse][:, :, None, :])).max(axis=2) +
                    self.c[coarse])  # (Ty, Tx, k)
        bound = farthest.max(axis=-1) * (1.0 + _MARGIN)  # (Ty, Tx) within it: each point's k nearest
        top = float(bound.max())
        if self.indexed is None or (self.indexed[1] and not _REINDEX * self.indexed[0] <= top <= self.indexed[0]):
            self._index(top * _HEADROOM)  # layers of c spanning what the bounds reach, finer as they shrink
        tile, rows = self._candidates(xs[ix], ys[iy], bound)
        return self._nearest(xs, ys, ix, iy, tile, rows, k, last)

    def _candidates(self, x_tile, y_tile, bound):
        """(tile, row): the rows within each tile's bound of its rectangle, grouped by tile (tile = ty *
        Tx + tx). For each layer of c within the bound, the cells the remaining reach along the plane
        covers; a line of cells along u is one run of rows."""
        room = bound.ravel()[:, None] - self.c_floor  # (tiles, layers)
        tile, layer = np.nonzero(room >= 0)
        room = room[tile, layer]
        reach = self.root(room) * (1.0 + _MARGIN)  # along the plane
        n_x = len(x_tile)
        y_lo, y_hi = y_tile[tile // n_x, 0], y_tile[tile // n_x, -1]
        w0, w1 = self._cell(y_lo - reach, 1, layer), self._cell(y_hi + reach, 1, layer)
        lines = w1 - w0 + 1  # the lines of cells along u the tile reaches in each layer
        line = np.repeat(np.arange(len(lines)), lines)
        tile, layer, room, w = tile[line], layer[line], room[line], w0[line] + _ranks(lines)
        gap = self._gap_to_line(w, layer, y_lo[line], y_hi[line])
        along = self.root(np.maximum(room - self.term(gap), 0.0)) * (1.0 + _MARGIN)  # what is left along u
        u0 = self._cell(x_tile[tile % n_x, 0] - along, 0, layer)
        u1 = self._cell(x_tile[tile % n_x, -1] + along, 0, layer)
        base = self.base[layer] + w * self.sides[layer]
        first = self.start[base + u0]
        count = self.start[base + u1 + 1] - first
        tile, rows = np.repeat(tile, count), self.rows[np.repeat(first, count) + _ranks(count)]
        tx, ty = tile % n_x, tile // n_x
        u, w = self.xu[rows], self.xw[rows]
        gap_u = np.maximum(np.maximum(x_tile[tx, 0] - u, u - x_tile[tx, -1]), 0.0)
        gap_w = np.maximum(np.maximum(y_tile[ty, 0] - w, w - y_tile[ty, -1]), 0.0)
        keep = self.term(gap_u) + self.term(gap_w) + self.c[rows] <= bound.ravel()[tile]
        return tile[keep], rows[keep]

    def _nearest(self, xs, ys, ix, iy, tile, rows, k, last):
        """Each tile's points against its candidates (a block of tiles at a time): (ny, nx, k) each
        point's k nearest, or with last=True the (query, row, score) of `search`."""
        count = np.bincount(tile, minlength=len(ix) * len(iy))
        starts = np.concatenate([[0], np.cumsum(count)])
        near = None if last else np.empty((len(ys), len(xs), k), dtype=np.intp)
        pairs = []
        for tiles in _blocks(count, ix.shape[1] * iy.shape[1]):
            scores, pos, px, py = self._scores(xs, ys, ix, iy, tiles, starts[tiles], count[tiles], rows)
            shape = (len(tiles), iy.shape[1], ix.shape[1])
            if not last:
                nearest = np.argpartition(scores, k - 1, axis=1)[:, :k] if scores.shape[1] > k else \
                    np.broadcast_to(np.arange(k), (len(scores), k))
                found = np.take_along_axis(np.repeat(pos, shape[1] * shape[2], axis=0), nearest, axis=1)
                near[py[:, :, None], px[:, None, :]] = found.reshape(*shape, k)
                continue
            kth = np.partition(scores, k - 1, axis=1)[:, k - 1] if scores.shape[1] > k else scores.max(axis=1)
            within = scores <= (kth * (1.0 + _MARGIN))[:, None]
            first_y, first_x = _first_of_repeats(py), _first_of_repeats(px)
            if not (first_y.all() and first_x.all()):  # a short tile repeats its last point: count it once
                within &= (first_y[:, :, None] & first_x[:, None, :]).reshape(-1, 1)
            point, column = np.divmod(np.flatnonzero(within), scores.shape[1])
            query = (self.query_rows[py][:, :, None] + self.query_columns[px][:, None, :]).ravel()  # (b T T,)
            pairs.append((query[point], pos.ravel()[(point // (shape[1] * shape[2])) * pos.shape[1] + column],
                          scores[point, column]))
        return near if not last else tuple(np.concatenate(part) for part in zip(*pairs))

    def _scores(self, xs, ys, ix, iy, tiles, starts, count, rows):
        """(scores (b T T, width), candidates (b, width) as training rows, px (b, T), py (b, T)) for a block
        of tiles: every point of each tile against its candidates, padded with no-candidates (infinite
        scores) to the block's widest."""
        slot = np.arange(int(count.max()))
        pos = rows[starts[:, None] + np.minimum(slot, count[:, None] - 1)]  # (b, width) past count: the last again
        px, py = ix[tiles % len(ix)], iy[tiles // len(ix)]  # (b, T) lattice indices of each tile's points
        along_x = self.term(self.diff(xs[px][:, :, None], self.xu[pos][:, None, :]))  # (b, T, width)
        along_y = self.term(self.diff(ys[py][:, :, None], self.xw[pos][:, None, :]))
        raised = self.c[pos]
        raised[slot >= count[:, None]] = np.inf  # the padding is no candidate
        along_y += raised[:, None, :]
        return (along_y[:, :, None, :] + along_x[:, None, :, :]).reshape(-1, len(slot)), pos, px, py


def _blocks(count, points):
    """Groups of tiles (indices) of about as many candidates each, their (point, candidate) scores
    within _BLOCK_VALUES (a tile with more is a group of its own)."""
    by_count = np.argsort(count, kind="stable")
    first = 0
    while first < len(count):
        group = max(1, _BLOCK_VALUES // (points * int(count[by_count[first]])))
        while group > 1 and points * group * int(count[by_count[min(first + group, len(count)) - 1]]) > _BLOCK_VALUES:
            group //= 2
        yield by_count[first:first + group]
        first += group


def _first_of_repeats(index):
    """(b, T) whether each of a tile's lattice indices is its first (a short tile repeats its last point)."""
    return np.diff(index, axis=1, prepend=-1) != 0


def _ranks(counts):
    """0, 1, ..., c - 1 for each c of counts, one after another."""
    total = int(counts.sum())
    return np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)


def _coarser(xs, ys, side):
    """The centres of the tiles of a lattice: the next coarser lattice."""
    bx, by = _tile_starts(len(xs), side), _tile_starts(len(ys), side)
    a, b, c, d = bx[:-1], bx[1:] - 1, by[:-1], by[1:] - 1
    return xs[a] + (xs[b] - xs[a]) / 2, ys[c] + (ys[d] - ys[c]) / 2
