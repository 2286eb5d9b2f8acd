"""The fitted tree as flat arrays (one entry per node), routing of rows through it, and its nested form.

Node 0 is the root; the children of an inner node are consecutive ids starting at `child_start`, and
always come after their parent, so walking ids downwards visits every child before its parent (the
bottom-up order pruning needs). A numeric test sends a row to child 0 when x <= threshold and child 1
otherwise; a multiway categorical test sends it to child `code` (the value's index among the training
values); a binary categorical test ("A in S") sends it to child 0 when its code is in the node's left
set (`left_values[node]`) and child 1 otherwise. A row whose categorical value was never seen in
training stops at that inner node.

A missing numeric value (NaN) follows its node's `missing_left`: the side that gained more when the
node's training rows had gaps in that column (`gap_nodes`; as scikit-learn's trees choose), else the side
that took more training rows. A test "x <= ALL_PRESENT" sends every present value left and the missing ones right.

Routing (`apply`) of a tree with numeric tests only is compiled once per tree into a `Router`
(routing.py): the top levels become one lookup in a table of boxes, the rest a tight loop over levels.
"""

import numpy as np

from .held import FixedTree
from .routing import Router

LEAF = -1
ALL_PRESENT = float(np.finfo(float).max)  # the threshold of a test "is x present?": every number is below it
# Why a node is a leaf; index into REASONS (kept as small ints in the arrays).
REASONS = ["pure", "no attributes", "max_depth", "min_samples_split", "no gain",
           "empty branch: plurality of parent", "pruned", "max_leaf_nodes"]
REASON = {name: i for i, name in enumerate(REASONS)}


def in_left_set(nodes, codes, left_values):
    """(m,) True where codes[i] is in the left set of node nodes[i] (left_values: node -> codes).
    Each (node, code) pair is one integer key, so all rows are tested by one sorted search."""
    nodes, codes = np.asarray(nodes, dtype=np.int64), np.asarray(codes, dtype=np.int64)
    if not left_values or not len(nodes):
        return np.zeros(len(nodes), dtype=bool)
    stride = max(max(int(np.max(v)) for v in left_values.values()), int(codes.max())) + 2
    keys = np.concatenate([node * stride + np.asarray(v, dtype=np.int64) for node, v in left_values.items()])
    return np.isin(nodes * stride + codes, keys)  # a code of -1 never matches: stride - 1 is no code


def has_gaps(X_encoded):
    """Whether some value is missing (NaN): a finite matrix sums to a number (its values are below 1e150)."""
    return bool(np.isnan(np.sum(X_encoded)))


class Tree:
    """Flat node arrays: structure (feature, threshold, child_start, n_children, parent, branch, depth),
    training statistics (`stats`, (s, nodes)), and what was measured when growing (gain, candidates).
    Binary categorical tests keep their left set in `left_values` (node -> sorted value codes)."""

    FIELDS = ("feature", "threshold", "child_start", "n_children", "parent", "branch", "depth",
              "gain", "reason", "missing_left", "gap_nodes")

    def __init__(self, feature, threshold, child_start, n_children, parent, branch, depth, stats,
                 gain, candidates, reason, left_values=None, missing_left=None, gap_nodes=None):
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
        # (N,) where a missing value goes at each numeric test; None: the side that took more training rows
        # (read once the statistics are final: a grower's hold sample weights beside the counts)
        self._missing_left = None if missing_left is None else np.asarray(missing_left, dtype=bool)
        # (N,) the inner nodes whose training rows had gaps in the tested column: their side was learned
        self.gap_nodes = np.zeros(len(self.feature), dtype=bool) if gap_nodes is None else np.asarray(gap_nodes, bool)
        self.impurity = None  # (N,) set by the estimator once the tree is final
        self.class_weights = None  # (k,) weight of each class's examples (class_weight="balanced"), or None
        # With sample weights: (k, N) each class's sum of sample weights, or (1, N) a regression node's
        # sum of weights; None when every row weighs 1 (the counts in `stats` are then the weights).
        self.weighted = None
        self._router = None  # compiled routing of a numeric tree, built on first use
        self._fixed = None  # (held values, FixedTree) of the last `fixed` call

    @property
    def node_count(self):
        return len(self.feature)

    @property
    def samples(self):
        return self.stats[0] if self.stats.dtype.kind == "f" else self.stats.sum(axis=0)

    @property
    def weighted_samples(self):
        """(N,) how much each node's examples weigh: their number, or their sum of sample weights, times
        their classes' weights if any (what impurity decreases are weighted by)."""
        if self.class_weights is None:
            return self.samples if self.weighted is None else self.weighted.sum(axis=0)
        return self.class_weights @ (self.stats if self.weighted is None else self.weighted)

    @property
    def missing_left(self):
        if self._missing_left is None:
            self._missing_left = self.more_rows_left()
            learned = getattr(self, "_learned", None)  # a model file's sides (learned_sides), if any
            if learned is not None:
                self._missing_left[learned[0]] = learned[1]
        return self._missing_left

    @missing_left.setter
    def missing_left(self, value):
        self._missing_left = np.asarray(value, dtype=bool)

    def more_rows_left(self):
        """(N,) True at the numeric tests whose first child holds more training rows than the second:
        where a missing value goes when the node's training rows had none in its column (as the growers
        set it; a categorical test reads no missing_left)."""
        inner = (self.feature != LEAF) & ~np.isnan(self.threshold)
        first = np.where(inner, self.child_start, 0)
        second = np.minimum(first + 1, self.node_count - 1)
        return inner & (self.samples[first] > self.samples[second])

    @property
    def takes_missing(self):
        """Whether some test learned where missing values go (the tree met gaps)."""
        return bool(self.gap_nodes.any())

    def learned_sides(self, nodes, left):
        """Set the side of the `gap_nodes` a model file names (`left`: whether each sends them left); every
        other node keeps the side of more training rows, read once the statistics are final."""
        self._missing_left = None  # made on first use: the default sides, then these
        self._learned = (np.asarray(nodes, dtype=np.intp), np.asarray(left, dtype=bool))
        self.gap_nodes[self._learned[0]] = True

    def is_leaf(self, node):
        return self.feature[node] == LEAF

    def children(self, node):
        start = int(self.child_start[node])
        return range(start, start + int(self.n_children[node]))

    def max_depth(self):
        return int(self.depth.max())

    def apply(self, X_encoded, is_categorical, gaps=None):
        """The node where each row ends: a leaf, or an inner node whose categorical value is unseen.
        `gaps`: whether X_encoded holds a missing value, if the caller knows (a forest asks once for all
        its trees); None: found out here."""
        is_categorical = np.asarray(is_categorical, dtype=bool)
        if gaps is None:
            gaps = has_gaps(X_encoded)
        if gaps:
            return self._apply_with_gaps(X_encoded, is_categorical)
        kinds = is_categorical.tobytes()  # the router is compiled for one set of column kinds
        if self._router is None or self._router.kinds != kinds:
            if is_categorical[self.feature[self.feature != LEAF]].any():
                return self._apply_levels(X_encoded, is_categorical)
            self._router = Router(self, kinds)
        return self._router.apply(X_encoded)

    def _apply_with_gaps(self, X_encoded, is_categorical):
        """`apply` when some values are missing: the complete rows by the fast route, the others level by level."""
        incomplete = np.isnan(X_encoded).any(axis=1)  # (n,)
        node = np.empty(len(X_encoded), dtype=np.intp)
        if not incomplete.all():
            node[~incomplete] = self.apply(X_encoded[~incomplete], is_categorical, gaps=False)
        node[incomplete] = self._apply_levels(X_encoded[incomplete], is_categorical)
        return node

    def fixed(self, held, is_categorical):
        """The FixedTree (held.py) of rows whose columns in `held` ({column: encoded value}) hold those
        values. The last one is kept: a boundary is asked for again with the same held values."""
        key = (tuple(sorted(held.items())), np.asarray(is_categorical, dtype=bool).tobytes())
        if self._fixed is None or self._fixed[0] != key:
            self._fixed = key, FixedTree(self, held, is_categorical)
        return self._fixed[1]

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
        missing = np.isnan(value) & ~categorical
        if missing.any():
            step[missing] = ~self.missing_left[at[missing]]
        if self.left_values:
            binary = categorical & np.isin(at, list(self.left_values))
            step[binary] = ~in_left_set(at[binary], value[binary].astype(np.intp), self.left_values)
        return step, ~(categorical & (value < 0))

    def prune_to_leaf(self, node, reason="pruned"):
        self._router = self._fixed = None
        self.feature[node] = LEAF
        self.threshold[node] = np.nan
        self.child_start[node] = -1
        self.n_children[node] = 0
        self.missing_left[node] = False
        self.gap_nodes[node] = False
        self.reason[node] = REASON[reason]
        self.left_values.pop(int(node), None)

    def compact(self):
        """Drop nodes no longer reachable from the root (after pruning), keeping the id order."""
        self._router = self._fixed = None
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
        if self.weighted is not None:
            self.weighted = self.weighted[:, keep]
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
