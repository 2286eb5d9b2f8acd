"""Routing rows through many small numeric trees together: a boosted model's hundreds of shallow trees.

Routing tree after tree (tree/routing.py) costs a few numpy calls per tree and level whatever the rows, and
a boosted model of 3 classes x 100 rounds has 300 trees of depth 3: on a few hundred rows that fixed cost
was nearly all of a prediction. Here the trees' nodes are laid end to end in one array of records (a
tree's child ids shifted by where its nodes start), and every (tree, row) pair moves down one level per
pass, all pairs of a block of rows at once: one pass per level of the deepest tree, not per tree.

A leaf points to itself with threshold +inf, so a pair that reached it stays there for the remaining
passes. Every test is numeric (x <= threshold: child 0), as in a Router; trees with a categorical test,
and rows with a missing value, take each tree's own route instead (`stacks`). Every pair ends in the node
that the tree's own `apply` gives the row (tests/unit/test_stacked_routes.py)."""

import numpy as np

from ..tree.structure import LEAF, has_gaps

# (tree, row) pairs moved down together: a block's arrays stay in the processor's cache between levels
# (300 trees x 512 rows was the fastest block measured on 10,000 rows)
BLOCK_PAIRS = 1 << 17


class StackedTrees:
    """The nodes of `trees` (structure.Tree, numeric tests only) as one array of 16-byte records."""

    def __init__(self, trees):
        counts = np.array([tree.node_count for tree in trees], dtype=np.intp)
        self.starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.intp)  # (T,) each tree's node 0
        self.nodes = np.empty(int(counts.sum()), dtype=[("threshold", float), ("left", np.int32),
                                                        ("feature", np.int32)])
        for start, tree in zip(self.starts, trees):
            leaf = tree.feature == LEAF
            own = slice(start, start + tree.node_count)
            self.nodes["threshold"][own] = np.where(leaf, np.inf, tree.threshold)
            self.nodes["left"][own] = start + np.where(leaf, np.arange(tree.node_count), tree.child_start)
            self.nodes["feature"][own] = np.where(leaf, 0, tree.feature)
        self.levels = max(tree.max_depth() for tree in trees)

    def apply(self, X, rows):
        """(T, len(rows)) the node, in the whole array, where each of X's `rows` ends in each tree."""
        d = X.shape[1]
        flat = X.ravel()  # X is C-ordered: x[r, f] is flat[r * d + f]
        offset = rows * d  # (b,)
        node = np.repeat(self.starts[:, None], len(rows), axis=1)  # (T, b) every pair at its tree's root
        for _ in range(self.levels):
            at = self.nodes[node]  # (T, b) records
            node = np.add(at["left"], flat[offset + at["feature"]] > at["threshold"], dtype=np.intp)
        return node

    def blocks(self, n):
        """Slices of rows 0..n-1 that make blocks of about BLOCK_PAIRS (tree, row) pairs."""
        size = max(1, BLOCK_PAIRS // len(self.starts))
        return [slice(start, min(n, start + size)) for start in range(0, n, size)]


def stacks(trees, X_encoded, is_categorical):
    """Whether `trees` can be routed together on X_encoded: every test numeric and no value missing."""
    is_categorical = np.asarray(is_categorical, dtype=bool)
    if not is_categorical.any():
        return not has_gaps(X_encoded)
    used = np.concatenate([tree.feature[tree.feature != LEAF] for tree in trees])
    return not is_categorical[used].any() and not has_gaps(X_encoded)


class StackCache:
    """A boosted model's StackedTrees and its trees' node values side by side, made on first use. The model
    holds an empty one from the moment it has trees, so that predicting fills it in without changing the
    model's own attributes (scikit-learn's checks say a prediction must not)."""

    def __init__(self):
        self._made = None  # (the estimators array it was made of, StackedTrees, (total nodes,) values)

    def of(self, estimators):
        """(StackedTrees, values) of the fitted regression trees in `estimators` (an array of them)."""
        if self._made is None or self._made[0] is not estimators:
            trees = estimators.ravel()
            values = np.concatenate([tree.predict_at(np.arange(tree.tree_.node_count)) for tree in trees])
            self._made = estimators, StackedTrees([tree.tree_ for tree in trees]), values
        return self._made[1:]
