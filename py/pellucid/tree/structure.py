"""The fitted tree as flat arrays (one entry per node), routing of rows through it, and its nested form.

Node 0 is the root; the children of an inner node are consecutive ids starting at `child_start`, and
always come after their parent, so walking ids downwards visits every child before its parent (the
bottom-up order pruning needs). A numeric test sends a row to child 0 when x <= threshold and child 1
otherwise; a categorical test sends it to child `code` (the value's index among the training values).
A row whose categorical value was never seen in training stops at that inner node.
"""

import numpy as np

LEAF = -1
# Why a node is a leaf; index into REASONS (kept as small ints in the arrays).
REASONS = ["pure", "no attributes", "max_depth", "min_samples_split", "no gain",
           "empty branch: plurality of parent", "pruned"]
REASON = {name: i for i, name in enumerate(REASONS)}


class Tree:
    """Flat node arrays: structure (feature, threshold, child_start, n_children, parent, branch, depth),
    training statistics (`stats`, (s, nodes)), and what was measured when growing (gain, candidates)."""

    FIELDS = ("feature", "threshold", "child_start", "n_children", "parent", "branch", "depth",
              "gain", "reason")

    def __init__(self, feature, threshold, child_start, n_children, parent, branch, depth, stats,
                 gain, candidates, reason):
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
        self.impurity = None  # (N,) set by the estimator once the tree is final

    @property
    def node_count(self):
        return len(self.feature)

    @property
    def samples(self):
        return self.stats[0] if self.stats.dtype.kind == "f" else self.stats.sum(axis=0)

    def is_leaf(self, node):
        return self.feature[node] == LEAF

    def children(self, node):
        start = int(self.child_start[node])
        return range(start, start + int(self.n_children[node]))

    def max_depth(self):
        return int(self.depth.max())

    def apply(self, X_encoded, is_categorical):
        """The node where each row ends: a leaf, or an inner node whose categorical value is unseen.
        Rows move down one level per pass, all at once."""
        n = X_encoded.shape[0]
        node = np.zeros(n, dtype=np.intp)  # (n,)
        active = np.arange(n)
        is_categorical = np.asarray(is_categorical, dtype=bool)
        while active.size:
            at = node[active]  # (a,)
            f = self.feature[at]
            inner = f != LEAF
            active, at, f = active[inner], at[inner], f[inner]
            if not active.size:
                break
            value = X_encoded[active, f]  # (a,)
            categorical = is_categorical[f]
            step = np.where(categorical, value, value > self.threshold[at])
            moves = ~(categorical & (value < 0))
            active, at, step = active[moves], at[moves], step[moves]
            node[active] = self.child_start[at] + step.astype(np.intp)
        return node

    def prune_to_leaf(self, node):
        self.feature[node] = LEAF
        self.threshold[node] = np.nan
        self.child_start[node] = -1
        self.n_children[node] = 0
        self.reason[node] = REASON["pruned"]

    def compact(self):
        """Drop nodes no longer reachable from the root (after pruning), keeping the id order."""
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

