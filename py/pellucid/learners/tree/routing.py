"""Routing many rows through a numeric tree fast: a table of boxes for the top levels, then one pass per
level for the rows the table leaves at an inner node. The arrays are structure.Tree's (a leaf's feature
is -1); every row ends in the node that following the tests one at a time gives it (tests/unit/test_tree.py).
Rows that form a lattice (a boundary's grid) find their boxes per line and column of the lattice, not per
row (tests/unit/test_tree_lattice_predict.py).
"""

import numpy as np

BOX_CELLS = 1 << 18  # most cells in a Router's table of boxes (8 bytes each)
BOX_MIN_ROWS = 4096  # a Router builds its table of boxes when asked to route at least this many rows
CHECK_EVERY = 4  # levels a Router descends between drops of the rows that reached a leaf
# Rows a Router moves down together: a block's working arrays stay in the processor's cache between
# levels, where those of all rows at once would not (50,000 rows routed faster in blocks of this size)
BLOCK_ROWS = 16384


class Router:
    """A numeric tree compiled for routing many rows (every test is x_f <= threshold).

    The top levels, down to a depth K chosen so that their thresholds fit BOX_CELLS cells, cut the space
    into a grid of boxes: on each feature the sorted thresholds of the top levels split the axis into
    intervals, and the tree sends all points of a box (one interval per feature) to the same node at
    depth <= K, and often further: `table` holds the deepest node whose region holds the whole box, a
    leaf for many boxes. So a row's node there is one lookup: its interval on each feature
    (`Intervals`, np.searchsorted by arithmetic), and `table` maps the box to the node. From there rows
    descend one level per pass; each pass fetches the nodes' (threshold, left child, feature) records in one
    gather. Leaves point to themselves with threshold +inf, so finished rows can stay in the pass and
    are only dropped every CHECK_EVERY levels. The result is the same node as one test at a time.

    Gathers use fancy indexing rather than np.take: in Pyodide's numpy take is several times slower.
    The table is built on the first call with at least BOX_MIN_ROWS rows; until then rows start at the
    root. A tree with few distinct thresholds per feature (many features) may get an empty table."""

    def __init__(self, tree, kinds=b""):
        self.kinds = kinds  # the column kinds (Tree.apply's is_categorical, as bytes) it was built for
        leaf = tree.feature < 0  # (structure.LEAF is -1)
        self.inner = ~leaf  # (N,)
        # (N,) one 16-byte record per node: numpy copies records of 16 bytes fast, 24-byte ones slowly
        self.nodes = np.empty(tree.node_count, dtype=[("threshold", float), ("left", np.int32),
                                                      ("feature", np.int32)])
        self.nodes["threshold"] = np.where(leaf, np.inf, tree.threshold)  # a leaf's test says "left" ...
        self.nodes["left"] = np.where(leaf, np.arange(tree.node_count), tree.child_start)  # ... to itself
        self.nodes["feature"] = np.where(leaf, 0, tree.feature)
        self.tree = tree
        self.cuts, self.table = [], np.zeros(1, dtype=np.intp)  # no boxes yet: every row starts at the root
        self.axes = []  # (feature, its Intervals) for each feature with cuts

    def apply(self, X):
        n, d = X.shape
        if n >= BOX_MIN_ROWS and not self.cuts:  # the table costs about as much as routing a few
            self.cuts, self.table = box_table(self.tree)  # thousand rows, so it is built when it pays
            self.axes = [(f, Intervals(cuts)) for f, cuts in enumerate(self.cuts) if len(cuts)]
        end = self.table[self._boxes(X)]  # (n,) the deepest node that holds the row's whole box
        rows = np.flatnonzero(self.inner[end])  # (a,) rows still at an inner node
        flat = np.ascontiguousarray(X).ravel()  # (n * d,) x[r, f] is flat[r * d + f]
        for start in range(0, rows.size, BLOCK_ROWS):
            self._descend(end, rows[start:start + BLOCK_ROWS], flat, d)
        return end

    def _descend(self, end, rows, flat, d):
        """Move `rows` from their nodes in `end` down one level per pass until each is at a leaf, and
        write that leaf into `end`."""
        node = end[rows]  # (a,)
        offset = rows * d  # (a,)
        level = 0
        while rows.size:
            at = self.nodes[node]  # (a,) records
            right = flat[offset + at["feature"]] > at["threshold"]  # (a,)
            node = np.add(at["left"], right, dtype=np.intp)  # (a,) the child: left, or the one after it
            level += 1
            if level % CHECK_EVERY == 0:
                end[rows] = node  # a row at a leaf stays there, so its node now is its end
                kept = np.flatnonzero(self.inner[node])  # (a',)
                rows, node, offset = rows[kept], node[kept], offset[kept]

    def _boxes(self, X):
        """(n,) each row's box: its cell in `table`."""
        if not self.axes:
            return np.zeros(len(X), dtype=np.intp)
        shape = lattice_shape(X, [f for f, _ in self.axes]) if len(X) >= BOX_MIN_ROWS else None
        if shape is not None:
            return self._lattice_boxes(X, *shape)
        cell = None
        for f, intervals in self.axes:
            if cell is None:
                cell = intervals.of(X[:, f])
            else:
                cell *= intervals.count
                cell += intervals.of(X[:, f])
        return cell

    def _lattice_boxes(self, X, lines, across):
        """The boxes of rows that form a lattice (see `lattice_shape`): each feature's interval is found
        for one line or one column of the lattice and the two add up as an outer sum."""
        grids = {f: X[:, f].reshape(lines, -1) for f, _ in self.axes}  # (lines, columns) each
        along_line = np.zeros(len(X) // lines, dtype=np.intp)  # (columns,) from the features varying along a line
        down = np.zeros(lines, dtype=np.intp)  # (lines,) from the others
        for f, intervals in self.axes:
            along_line *= intervals.count
            down *= intervals.count
            if across[f]:
                along_line += intervals.of(grids[f][0])
            else:
                down += intervals.of(grids[f][:, 0])
        return (down[:, None] + along_line).ravel()


class Intervals:
    """np.searchsorted(cuts, x) (how many cuts lie below x) by arithmetic and gathers: Pyodide's
    searchsorted took 1.5 ms for 40,000 values, more than the rest of routing them.

    The range of the cuts is cut into equal buckets; `key` numbers a value's bucket, and never decreases
    as the value grows. So every cut in a lower bucket than x lies below x, and every cut in a higher one
    above: `start[k]` counts the cuts in buckets below k, and the few cuts in x's own bucket are compared
    with it one at a time (the buckets are made finer until each holds at most MOST_PER_BUCKET, when it
    can). NaN takes the first bucket and is below no cut, as a NaN test x <= t sends it left."""

    MOST_PER_BUCKET = 4

    def __init__(self, cuts):
        cuts = np.asarray(cuts, dtype=float)  # (L,) sorted
        self.count = len(cuts) + 1  # intervals
        self.padded = np.append(cuts, np.inf)  # (L + 1,) so a value above every cut stops at L
        span = cuts[-1] - cuts[0]
        for buckets in (8, 32, 128):
            self.buckets = float(buckets * len(cuts))
            self.scale = self.buckets / span if span > 0 else 1.0
            self.low = cuts[0] - 1.0 / self.scale  # so the first cut's bucket is 1: bucket 0 lies below it
            keys = self.key(cuts)  # (L,) non-decreasing
            self.compares = int(np.bincount(keys).max())
            if self.compares <= self.MOST_PER_BUCKET:
                break
        self.start = np.searchsorted(keys, np.arange(int(self.buckets) + 2))  # (buckets + 2,)

    def key(self, x):
        """(n,) each value's bucket, 0 (below the first cut's, or NaN) .. buckets + 1."""
        with np.errstate(over="ignore", invalid="ignore"):
            z = np.subtract(x, self.low)
            z *= self.scale
            z = np.where(z > 0.0, z, 0.0)  # NaN too: comparisons with it are False (and np.where is
            z = np.where(z < self.buckets + 1, z, self.buckets + 1)  # several times faster than fmax in Pyodide)
        return z.astype(np.intp)

    def of(self, x):
        """(n,) the number of cuts below each value, as np.searchsorted(cuts, x) (NaN: 0)."""
        index = self.start[self.key(x)]  # (n,)
        for _ in range(self.compares):
            index += x > self.padded[index]
        return index


def lattice_shape(X, features):
    """(lines, across) when the rows of X are a lattice on `features`: row i * c + j (line i, column j)
    holds in each of them a value that depends on j alone (across[f] True: it varies along a line) or on i
    alone, as on a boundary's grid, where one feature varies fastest, another from line to line, and the
    rest are held; lines > 1 and c > 1. None otherwise (NaN is never equal to itself, so never a lattice).
    One comparison of each feature's values: a feature that changes from the first row to the second
    must vary along the lines, one that does not must be constant along them."""
    n = len(X)
    if n < 4:
        return None
    across = {f: bool(X[1, f] != X[0, f]) for f in features}
    down = [f for f in features if not across[f]]
    if not down:
        return None
    c = max(int(np.argmax(X[:, f] != X[0, f])) for f in down)  # a line's length: where one first changes
    if c < 2 or n % c or n == c:
        return None
    for f in features:
        grid = X[:, f].reshape(-1, c)  # (lines, c)
        alike = grid[1:] == grid[:-1] if across[f] else grid[:, 1:] == grid[:, :-1]  # lines alike, or each flat
        if not alike.all():
            return None
    return n // c, across


def box_table(tree):
    """(cuts, table) for the top levels of the tree: cuts[f] the sorted thresholds on feature f of the
    inner nodes above depth K, table the deepest node holding each box, flattened. K is chosen within BOX_CELLS cells
    to save the most level passes net: each feature with cuts costs a binary search, about one pass."""
    d = int(tree.feature.max()) + 1
    inner = tree.feature >= 0
    cuts, saved = [np.empty(0)] * max(d, 1), 0
    for k in range(1, tree.max_depth() + 1):
        top = inner & (tree.depth < k)
        more = [np.unique(tree.threshold[top & (tree.feature == f)]) for f in range(d)]
        if np.prod([len(c) + 1.0 for c in more]) > BOX_CELLS:
            break
        if k - sum(len(c) > 0 for c in more) > saved:
            cuts, saved = more, k - sum(len(c) > 0 for c in more)
    # Only the features with cuts are axes of the table (one without is a single interval, and numpy allows
    # at most 64 axes, fewer than a wide table's features); the flat order is _boxes' all the same.
    axes = [f for f, c in enumerate(cuts) if len(c)]
    table = np.empty([len(cuts[f]) + 1 for f in axes], dtype=np.intp)
    _fill_boxes(tree, cuts, table, axes)
    return cuts, table.ravel()


def _cells(box, axes):
    """The table's cells of a box ((lo, hi) per feature), on the table's axes (the features with cuts)."""
    return tuple(slice(*box[f]) for f in axes)


def _fill_boxes(tree, cuts, table, axes):
    """Write into every cell the deepest node whose region holds the whole cell. From the root down, a
    test x_f <= t sends the cells whose x_f range lies at or below t to the left child and those above it
    to the right; the one cell t cuts through (if any) stays at the node, its rows testing on from there.
    The cuts are the top levels' thresholds, so above depth K no cell is cut through; below, a cell often
    still lies wholly in one leaf, and its rows then need no level pass at all."""
    feature, child = tree.feature.tolist(), tree.child_start.tolist()
    # Cell j of feature f holds (c[j-1], c[j]] (c = cuts[f]; c[-1] = -inf, c[len] = +inf). For a test at t,
    # cells below `split` lie at or below t, and the cell `split` is cut through unless c[split-1] == t.
    split, through = np.zeros(tree.node_count, dtype=np.intp), np.zeros(tree.node_count, dtype=bool)
    for f, c in enumerate(cuts):
        on_f = np.flatnonzero(tree.feature == f)
        t = tree.threshold[on_f]
        split[on_f] = np.searchsorted(c, t, side="right")
        below = c[np.maximum(split[on_f] - 1, 0)] if len(c) else np.full(len(on_f), -np.inf)
        through[on_f] = (split[on_f] == 0) | (below != t)
    split, through = split.tolist(), through.tolist()
    stack = [(0, [(0, len(c) + 1) for c in cuts])]  # (node, its box: (lo, hi) cell range per feature)
    while stack:
        node, box = stack.pop()
        f = feature[node]
        if f < 0:  # a leaf
            table[_cells(box, axes)] = node
            continue
        lo, hi = box[f]
        at = min(max(split[node], lo), hi)  # cells [lo, at) go left
        after = at + 1 if through[node] and lo <= split[node] < hi else at  # cells [after, hi) go right
        if after > at:  # the cell the threshold cuts through: its rows go on from this node
            table[_cells(box[:f] + [(at, after)] + box[f + 1:], axes)] = node
        if at > lo:
            stack.append((child[node], box[:f] + [(lo, at)] + box[f + 1:]))
        if hi > after:
            stack.append((child[node] + 1, box[:f] + [(after, hi)] + box[f + 1:]))
