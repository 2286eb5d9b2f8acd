"""The fitted tree as flat arrays (one entry per node), routing of rows through it, and its nested form.

Node 0 is the root; the children of an inner node are consecutive ids starting at `child_start`, and
always come after their parent, so walking ids downwards visits every child before its parent (the
bottom-up order pruning needs). A numeric test sends a row to child 0 when x <= threshold and child 1
otherwise; a multiway categorical test sends it to child `code` (the value's index among the training
values); a binary categorical test ("A in S") sends it to child 0 when its code is in the node's left
set (`left_values[node]`) and child 1 otherwise. A row whose categorical value was never seen in
training stops at that inner node.

Routing (`apply`) of a tree with numeric tests only is compiled once per tree into a `Router`: the top
levels become one lookup in a table of boxes, the rest a tight loop over levels (see `Router`).
"""

import numpy as np

LEAF = -1
# Why a node is a leaf; index into REASONS (kept as small ints in the arrays).
REASONS = ["pure", "no attributes", "max_depth", "min_samples_split", "no gain",
           "empty branch: plurality of parent", "pruned", "max_leaf_nodes"]
REASON = {name: i for i, name in enumerate(REASONS)}
BOX_CELLS = 1 << 18  # most cells in a Router's table of boxes (8 bytes each)
BOX_MIN_ROWS = 4096  # a Router builds its table of boxes when asked to route at least this many rows
CHECK_EVERY = 4  # levels a Router descends between drops of the rows that reached a leaf


def in_left_set(nodes, codes, left_values):
    """(m,) True where codes[i] is in the left set of node nodes[i] (left_values: node -> codes).
    Each (node, code) pair is one integer key, so all rows are tested by one sorted search."""
    nodes, codes = np.asarray(nodes, dtype=np.int64), np.asarray(codes, dtype=np.int64)
    if not left_values or not len(nodes):
        return np.zeros(len(nodes), dtype=bool)
    stride = max(max(int(np.max(v)) for v in left_values.values()), int(codes.max())) + 2
    keys = np.concatenate([node * stride + np.asarray(v, dtype=np.int64) for node, v in left_values.items()])
    return np.isin(nodes * stride + codes, keys)  # a code of -1 never matches: stride - 1 is no code


class Tree:
    """Flat node arrays: structure (feature, threshold, child_start, n_children, parent, branch, depth),
    training statistics (`stats`, (s, nodes)), and what was measured when growing (gain, candidates).
    Binary categorical tests keep their left set in `left_values` (node -> sorted value codes)."""

    FIELDS = ("feature", "threshold", "child_start", "n_children", "parent", "branch", "depth",
              "gain", "reason")

    def __init__(self, feature, threshold, child_start, n_children, parent, branch, depth, stats,
                 gain, candidates, reason, left_values=None):
        self.feature = np.asarray(feature, dtype=np.intp)  # (N,) -1 for leaves
        self.threshold = np.asarray(threshold, dtype=float)  # (N,) NaN unless a numeric test
        self.child_start = np.asarray(child_start, dtype=np.intp)  # (N,)
        self.n_children = np.asarray(n_children, dtype=np.intp)  # (N,)
        self.parent = np.asarray(parent, dtype=np.intp)  # (N,) -1 for the root
        self.branch = np.asarray(branch, dtype=np.intp)  # (N,) which child of its parent
        self.depth = np.asarray(depth, dtype=np.intp)  # (N,)
        self.stats = np.asarray(stats)  # (s, N) class counts or count/sum/sum of squares
        self.gain = np.asarray(gain, dtype=float)  # (N,) NaN for leaves
        self.candidates = np.asarray(candidates, dtype=float)  # (N, d) NaN where not considered
        self.reason = np.asarray(reason, dtype=np.intp)  # (N,) -1 for inner nodes
        self.left_values = {int(k): np.asarray(v, dtype=np.intp) for k, v in (left_values or {}).items()}
        self.impurity = None  # (N,) set by the estimator once the tree is final
        self.class_weights = None  # (k,) weight of each class's examples (class_weight="balanced"), or None
        self._router = None  # compiled routing of a numeric tree, built on first use

    @property
    def node_count(self):
        return len(self.feature)

    @property
    def samples(self):
        return self.stats[0] if self.stats.dtype.kind == "f" else self.stats.sum(axis=0)

    @property
    def weighted_samples(self):
        """(N,) how much each node's examples weigh: their number, or with class weights the sum of
        their classes' weights (what impurity decreases are weighted by)."""
        if self.class_weights is None:
            return self.samples
        return self.class_weights @ self.stats

    def is_leaf(self, node):
        return self.feature[node] == LEAF

    def children(self, node):
        start = int(self.child_start[node])
        return range(start, start + int(self.n_children[node]))

    def max_depth(self):
        return int(self.depth.max())

    def apply(self, X_encoded, is_categorical):
        """The node where each row ends: a leaf, or an inner node whose categorical value is unseen."""
        is_categorical = np.asarray(is_categorical, dtype=bool)
        kinds = is_categorical.tobytes()  # the router is compiled for one set of column kinds
        if self._router is None or self._router.kinds != kinds:
            if is_categorical[self.feature[self.feature != LEAF]].any():
                return self._apply_levels(X_encoded, is_categorical)
            self._router = Router(self, kinds)
        return self._router.apply(X_encoded)

    def _apply_levels(self, X_encoded, is_categorical):
        """Any tree: rows move down one level per pass, all at once."""
        n = X_encoded.shape[0]
        node = np.zeros(n, dtype=np.intp)  # (n,)
        active = np.arange(n)
        while active.size:
            at = node[active]  # (a,)
            f = self.feature[at]
            inner = f != LEAF
            active, at, f = active[inner], at[inner], f[inner]
            if not active.size:
                break
            step, moves = self.route_step(at, X_encoded[active, f], is_categorical)
            active, at, step = active[moves], at[moves], step[moves]
            node[active] = self.child_start[at] + step
        return node

    def route_step(self, at, value, is_categorical):
        """(child index, moves) for rows at inner nodes `at` with `value` in their nodes' test column:
        moves is False where a categorical value was unseen in training (the row stops there)."""
        categorical = is_categorical[self.feature[at]]
        step = np.where(categorical, value, value > self.threshold[at]).astype(np.intp)
        if self.left_values:
            binary = categorical & np.isin(at, list(self.left_values))
            step[binary] = ~in_left_set(at[binary], value[binary].astype(np.intp), self.left_values)
        return step, ~(categorical & (value < 0))

    def prune_to_leaf(self, node, reason="pruned"):
        self._router = None
        self.feature[node] = LEAF
        self.threshold[node] = np.nan
        self.child_start[node] = -1
        self.n_children[node] = 0
        self.reason[node] = REASON[reason]
        self.left_values.pop(int(node), None)

    def compact(self):
        """Drop nodes no longer reachable from the root (after pruning), keeping the id order."""
        self._router = None
        if (self.feature[self.parent[1:]] != LEAF).all():  # no node hangs below a leaf: all reachable
            return self
        keep = np.zeros(self.node_count, dtype=bool)
        keep[0] = True
        for i in range(self.node_count):  # parents come before children
            if keep[i] and self.feature[i] != LEAF:
                keep[self.children(i)] = True
        if keep.all():
            return self
        new_id = np.cumsum(keep) - 1  # (N,)
        for name in self.FIELDS:
            setattr(self, name, getattr(self, name)[keep])
        self.stats = self.stats[:, keep]
        self.candidates = self.candidates[keep]
        if self.impurity is not None:
            self.impurity = self.impurity[keep]
        inner = self.feature != LEAF
        self.child_start = np.where(inner, new_id[np.maximum(self.child_start, 0)], -1)
        self.parent = np.where(self.parent >= 0, new_id[np.maximum(self.parent, 0)], -1)
        self.left_values = {int(new_id[i]): v for i, v in self.left_values.items() if keep[i]}
        return self

    def preorder(self):
        """Node ids in the order the recursive DECISION-TREE-LEARNING would create them."""
        order, stack = [], [0]
        while stack:
            i = stack.pop()
            order.append(i)
            if self.feature[i] != LEAF:
                stack.extend(reversed(self.children(i)))
        return order



class Router:
    """A numeric tree compiled for routing many rows (every test is x_f <= threshold).

    The top levels, down to a depth K chosen so that their thresholds fit BOX_CELLS cells, cut the space
    into a grid of boxes: on each feature the sorted thresholds of the top levels split the axis into
    intervals, and the tree sends all points of a box (one interval per feature) to the same node at
    depth <= K. So a row's node at that depth is one lookup: a binary search per feature (compiled
    np.searchsorted) gives its interval, and `table` maps the box to the node. Below, rows descend one
    level per pass; each pass fetches the nodes' (threshold, left child, feature) records in one
    gather. Leaves point to themselves with threshold +inf, so finished rows can stay in the pass and
    are only dropped every CHECK_EVERY levels. The result is the same node as one test at a time.

    Gathers use fancy indexing rather than np.take: in Pyodide's numpy take is several times slower.
    The table is built on the first call with at least BOX_MIN_ROWS rows; until then rows start at the
    root. A tree with few distinct thresholds per feature (many features) may get an empty table."""

    def __init__(self, tree, kinds=b""):
        self.kinds = kinds  # the column kinds (Tree.apply's is_categorical, as bytes) it was built for
        leaf = tree.feature == LEAF
        self.leaf = leaf  # (N,)
        # (N,) one 16-byte record per node: numpy copies records of 16 bytes fast, 24-byte ones slowly
        self.nodes = np.empty(tree.node_count, dtype=[("threshold", float), ("left", np.int32),
                                                      ("feature", np.int32)])
        self.nodes["threshold"] = np.where(leaf, np.inf, tree.threshold)  # a leaf's test says "left" ...
        self.nodes["left"] = np.where(leaf, np.arange(tree.node_count), tree.child_start)  # ... to itself
        self.nodes["feature"] = np.where(leaf, 0, tree.feature)
        self.tree = tree
        self.cuts, self.table = [], np.zeros(1, dtype=np.intp)  # no boxes yet: every row starts at the root

    def apply(self, X):
        n, d = X.shape
        if n >= BOX_MIN_ROWS and not self.cuts:  # the table costs about as much as routing a few
            self.cuts, self.table = box_table(self.tree)  # thousand rows, so it is built when it pays
        cell = np.zeros(n, dtype=np.intp)  # (n,) the row's box, as a flat index into table
        for f, cuts in enumerate(self.cuts):
            if len(cuts):
                cell *= len(cuts) + 1
                cell += np.searchsorted(cuts, X[:, f])  # number of cuts below x: x > cuts[j] iff > j
        end = self.table[cell]  # (n,) the node at depth <= K
        rows = np.flatnonzero(~self.leaf[end])  # (a,) rows still at an inner node
        node = end[rows]  # (a,)
        flat = np.ascontiguousarray(X).ravel()  # (n * d,) x[r, f] is flat[r * d + f]
        offset = rows * d  # (a,)
        level = 0
        while rows.size:
            at = self.nodes[node]  # (a,) records
            right = flat[offset + at["feature"]] > at["threshold"]  # (a,)
            node = np.add(at["left"], right, dtype=np.intp)  # (a,) the child: left, or the one after it
            level += 1
            if level % CHECK_EVERY == 0:
                done = self.leaf[node]  # (a,)
                finished, kept = np.flatnonzero(done), np.flatnonzero(~done)
                end[rows[finished]] = node[finished]
                rows, node, offset = rows[kept], node[kept], offset[kept]
        return end


def box_table(tree):
    """(cuts, table) for the top levels of the tree: cuts[f] the sorted thresholds on feature f of the
    inner nodes above depth K, table the node of each box, flattened. K is chosen within BOX_CELLS cells
    to save the most level passes net: each feature with cuts costs a binary search, about one pass."""
    d = int(tree.feature.max()) + 1
    inner = tree.feature != LEAF
    cuts, depth, saved = [np.empty(0)] * max(d, 1), 0, 0
    for k in range(1, tree.max_depth() + 1):
        top = inner & (tree.depth < k)
        more = [np.unique(tree.threshold[top & (tree.feature == f)]) for f in range(d)]
        if np.prod([len(c) + 1.0 for c in more]) > BOX_CELLS:
            break
        if k - sum(len(c) > 0 for c in more) > saved:
            cuts, depth, saved = more, k, k - sum(len(c) > 0 for c in more)
    table = np.empty([len(c) + 1 for c in cuts], dtype=np.intp)
    _fill_boxes(tree, cuts, depth, table)
    return cuts, table.ravel()


def _fill_boxes(tree, cuts, depth, table):
    """Write every node that ends the descent above `depth` (a leaf, or a node at that depth) into its box."""
    top = np.flatnonzero((tree.feature != LEAF) & (tree.depth < depth))
    cut = np.zeros(tree.node_count, dtype=np.intp)  # (N,) a top node's test as a cell index: x <= t below
    for f, c in enumerate(cuts):
        on_f = top[tree.feature[top] == f]
        cut[on_f] = np.searchsorted(c, tree.threshold[on_f]) + 1
    feature, child, cut = tree.feature.tolist(), tree.child_start.tolist(), cut.tolist()
    is_top = np.zeros(tree.node_count, dtype=bool)
    is_top[top] = True
    is_top = is_top.tolist()
    stack = [(0, [(0, s) for s in table.shape])]  # (node, its box: (lo, hi) cell range per feature)
    while stack:
        node, box = stack.pop()
        if not is_top[node]:  # a leaf above `depth`, or a node at it: the descent through the table ends
            table[tuple(slice(lo, hi) for lo, hi in box)] = node
            continue
        f = feature[node]
        lo, hi = box[f]
        left, right = list(box), list(box)
        left[f], right[f] = (lo, cut[node]), (cut[node], hi)
        stack += [(child[node], left), (child[node] + 1, right)]
