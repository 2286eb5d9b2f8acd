"""Routing rows through many numeric trees together: a boosted model's hundreds of shallow trees, a forest's
hundred deep ones.

Routing tree after tree (tree/routing.py) costs a few numpy calls per tree and level whatever the rows, and
a boosted model of 3 classes x 100 rounds has 300 trees of depth 3: on a few hundred rows that fixed cost
was nearly all of a prediction. Here the trees' nodes are laid end to end in one array of records (a
tree's child ids shifted by where its nodes start), and every (tree, row) pair moves down one level per
pass, all pairs of a block of rows at once: one pass per level of the deepest tree, not per tree.

A leaf points to itself with threshold +inf, so a pair that reached it stays there for the remaining
passes; in deep trees the pairs at a leaf are dropped every few levels, as a Router drops its rows. Every
test is numeric (x <= threshold: child 0), as in a Router; trees with a categorical test, and rows with a
missing value, take each tree's own route instead (`stacks`). Every pair ends in the node that the tree's
own `apply` gives the row (tests/unit/test_stacked_routes.py)."""

import numpy as np

from ..tree.routing import CHECK_EVERY
from ..tree.structure import LEAF, has_gaps
from .leaf_masks import LeafMasks, pays

# (tree, row) pairs moved down together: a block's arrays stay in the processor's cache between levels.
# On 10,000 rows, 300 trees of depth 3 and 100 trees grown in full, blocks of 2^15 to 2^17 pairs took
# about the same time and blocks of all rows twice as long (a shared machine: single runs varied by 2x)
BLOCK_PAIRS = 1 << 15


class StackedTrees:
    """The nodes of `trees` (structure.Tree, numeric tests only) as one array of 16-byte records."""

    def __init__(self, trees):
        counts = np.array([tree.node_count for tree in trees], dtype=np.intp)
        self.starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.intp)  # (T,) each tree's node 0
        self.nodes = np.empty(int(counts.sum()), dtype=[("threshold", float), ("left", np.int32),
                                                        ("feature", np.int32)])
        self.inner = np.empty(len(self.nodes), dtype=bool)  # (all nodes,) False at the leaves
        for start, tree in zip(self.starts, trees):
            leaf = tree.feature == LEAF
            own = slice(start, start + tree.node_count)
            self.inner[own] = ~leaf
            self.nodes["threshold"][own] = np.where(leaf, np.inf, tree.threshold)
            self.nodes["left"][own] = start + np.where(leaf, np.arange(tree.node_count), tree.child_start)
            self.nodes["feature"][own] = np.where(leaf, 0, tree.feature)
        self.levels = max(tree.max_depth() for tree in trees)

    def apply(self, X, rows):
        """(T, b) the node, in the whole array, where each of X's `rows` (a slice; X C-ordered) ends in each
        tree."""
        rows = np.arange(rows.start, rows.stop)
        d = X.shape[1]
        flat = X.ravel()  # x[r, f] is flat[r * d + f]
        node = np.repeat(self.starts, len(rows))  # (P,) every (tree, row) pair at its tree's root, tree-major
        offset = np.tile(rows * d, len(self.starts))  # (P,)
        end = np.empty(node.size, dtype=np.intp)
        pairs = np.arange(node.size)  # (P',) the pairs still moving
        for level in range(1, self.levels + 1):
            at = self.nodes[node]  # (P',) records
            node = np.add(at["left"], flat[offset + at["feature"]] > at["threshold"], dtype=np.intp)
            if level % CHECK_EVERY == 0 and level < self.levels:  # deep trees: drop the pairs at a leaf
                end[pairs] = node
                moving = np.flatnonzero(self.inner[node])
                pairs, node, offset = pairs[moving], node[moving], offset[moving]
        end[pairs] = node
        return end.reshape(len(self.starts), len(rows))

    def blocks(self, n):
        """Slices of rows 0..n-1 that make blocks of about BLOCK_PAIRS (tree, row) pairs."""
        size = max(1, BLOCK_PAIRS // len(self.starts))
        return [slice(start, min(n, start + size)) for start in range(0, n, size)]


def ends(router, X):
    """(T, n) int32: the node, in each tree's own ids, where every row of X (C-ordered) ends in each tree, by a
    StackedTrees or a LeafMasks (leaf_masks.py), a block of rows at a time."""
    out = np.empty((len(router.starts), len(X)), dtype=np.int32)  # a tree's nodes are far fewer than 2^31
    for block in router.blocks(len(X)):
        out[:, block] = router.apply(X, block) - router.starts[:, None]
    return out


def stacks(trees, X_encoded, is_categorical):
    """Whether `trees` can be routed together on X_encoded: every test numeric and no value missing."""
    return numeric_tests(trees, is_categorical) and not has_gaps(X_encoded)


def numeric_tests(trees, is_categorical):
    """Whether every test of `trees` is of a numeric column (is_categorical: the columns' kinds)."""
    is_categorical = np.asarray(is_categorical, dtype=bool)
    if not is_categorical.any():
        return True
    used = np.concatenate([tree.feature[tree.feature != LEAF] for tree in trees])
    return not is_categorical[used].any()


class StackCache:
    """An ensemble's StackedTrees (and its trees' node values), made on first use and kept while its trees
    are the same. The ensemble holds an empty one from the moment it has trees, so that predicting fills it
    in without changing the ensemble's own attributes (scikit-learn's checks say a prediction must not)."""

    def __init__(self):
        self._trees, self._stacked, self._values = [], None, None

    def __reduce__(self):
        return StackCache, ()  # a pickled ensemble leaves it out: it is remade from the trees on first use

    def of(self, trees):
        """How these fitted trees (DecisionTree estimators) are routed together: by masks of their leaves
        where those pay (leaf_masks.py: at most 64 leaves a tree, few features tested), else by their
        stacked nodes."""
        trees = list(trees)
        if len(trees) != len(self._trees) or any(a is not b for a, b in zip(trees, self._trees)):
            structures = [tree.tree_ for tree in trees]
            router = LeafMasks(structures) if pays(structures) else StackedTrees(structures)
            self._trees, self._stacked, self._values = trees, router, None
        return self._stacked

    def with_values(self, trees):
        """(the router of `of`, (all nodes,) each node's value) of these fitted regression trees."""
        stacked = self.of(trees)
        if self._values is None:
            self._values = np.concatenate([tree.predict_at(np.arange(tree.tree_.node_count)) for tree in trees])
        return stacked, self._values
