"""Which leaf each row reaches in many small trees, by masks of leaves instead of a walk down each tree:
the idea of QuickScorer (Lucchese et al., 2015), written for numpy.

Number a tree's leaves from left to right. A test x_f <= t that fails (x_f > t) makes every leaf of its left
subtree unreachable; the leaf a row reaches is the leftmost one that no failed test of the tree rules out,
whatever the tests on other paths said. So give each test a mask: a bit per leaf of its tree, 0 for the
leaves of its left subtree. A row's exit leaf in a tree is the lowest set bit of the AND of the masks of
all that tree's tests the row fails.

Which tests a row fails on feature f depends only on where x_f falls among the thresholds on f: sorted,
they are the first searchsorted(thresholds, x_f) of them. So for each feature the masks of its tests,
sorted by threshold, are ANDed cumulatively once, into a table with a row per prefix and a column per
tree; a row's answer is then one lookup in each feature's table and an AND across the features, for all
trees at once, in the narrowest unsigned type that holds a tree's leaves. A boosted model's hundreds of
trees of depth 3 to 6 (8 to 64 leaves) are routed in a few numpy calls per feature, not per tree and level.

Only numeric tests and complete rows (`ensemble.stacked_routes.stacks`), trees of at most 64 leaves, and
only where the trees test few features (`pays`). Every row ends in the leaf the tree's own `apply` gives it
(tests/unit/test_leaf_masks.py)."""

import numpy as np

from ..tree.structure import LEAF

MAX_LEAVES = 64  # a tree's leaves must fit the bits of one unsigned word
BLOCK_BYTES = 1 << 18  # the masks ANDed at once for a block of rows: a block stays in the processor's cache


def fits(trees):
    """Whether every tree (structure.Tree) has at most MAX_LEAVES leaves."""
    return all(int((tree.feature == LEAF).sum()) <= MAX_LEAVES for tree in trees)


def pays(trees):
    """Whether masks route `trees` faster than their stacked nodes (stacked_routes.py): masks cost a lookup
    and an AND of a word per tree for each feature the trees test, the nodes a few gathers per tree for
    each level. Measured (the grid's tables, 100 to 300 trees): depth 3 testing 20 features, masks 41 ms
    against 70 ms on 10,000 rows; testing 145 to 272 features, masks 2 to 5 times slower; a forest of depth
    6 testing 20 features in 8-byte words, about even. So masks when features x word bytes <= 16 x depth."""
    if not fits(trees):
        return False
    tested = len(np.unique(np.concatenate([tree.feature[tree.feature != LEAF] for tree in trees])))
    leaves = max(int((tree.feature == LEAF).sum()) for tree in trees)
    word_bytes = next(b for b in (1, 2, 4, 8) if 8 * b >= leaves)
    return tested * word_bytes <= 16 * max(tree.max_depth() for tree in trees)


class LeafMasks:
    """For `trees` (structure.Tree, numeric tests, at most 64 leaves each): per feature, its tests'
    thresholds sorted and the cumulative AND of their masks; per tree, the node id of each leaf."""

    def __init__(self, trees):
        counts = [tree.node_count for tree in trees]
        self.starts = np.cumsum([0] + counts[:-1]).astype(np.intp)  # (T,) each tree's node 0 among all trees' nodes
        leaves = max(int((tree.feature == LEAF).sum()) for tree in trees)
        self.word = next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if np.iinfo(t).bits >= leaves)
        self.leaf_nodes = np.zeros((len(trees), leaves), dtype=np.intp)  # (T, L) each leaf's id, in all the nodes
        tests = []  # (feature, threshold, tree, mask) of every test
        for t, tree in enumerate(trees):
            order, first_leaf, count = _leaves_in_order(tree)
            self.leaf_nodes[t, :len(order)] = self.starts[t] + np.asarray(order, dtype=np.intp)
            for node in np.flatnonzero(tree.feature != LEAF):
                left = int(tree.child_start[node])  # child 0: the side a passed test goes
                lost = _bits(int(first_leaf[left]), int(first_leaf[left] + count[left]))
                tests.append((int(tree.feature[node]), float(tree.threshold[node]), t, ~np.uint64(lost)))
        self.features = self._tables(tests, len(trees))

    def _tables(self, tests, n_trees):
        """[(feature, (p,) sorted thresholds, (p + 1, T) cumulative ANDs of their masks)] for each tested
        feature: row j holds, for every tree, the AND of the masks of the feature's first j tests."""
        tables = []
        for f in sorted({feature for feature, *_ in tests}):
            mine = sorted((threshold, t, mask) for feature, threshold, t, mask in tests if feature == f)
            thresholds = np.array([threshold for threshold, _, _ in mine])
            table = np.full((len(mine) + 1, n_trees), np.iinfo(np.uint64).max, dtype=np.uint64)
            table[np.arange(1, len(mine) + 1), [t for _, t, _ in mine]] = [mask for _, _, mask in mine]
            np.bitwise_and.accumulate(table, axis=0, out=table)
            tables.append((f, thresholds, table.astype(self.word)))  # the bits past a tree's leaves dropped
        return tables

    def blocks(self, n):
        """Slices of rows 0..n-1, each small enough that its masks (rows x trees words) stay in cache."""
        size = max(1, BLOCK_BYTES // (len(self.starts) * np.dtype(self.word).itemsize))
        return [slice(start, min(n, start + size)) for start in range(0, n, size)]

    def apply(self, X, rows):
        """(T, b) the node, among all trees' nodes, where each of X's `rows` (a slice) ends in each tree."""
        reachable = np.full((rows.stop - rows.start, len(self.starts)), np.iinfo(self.word).max, dtype=self.word)
        for f, thresholds, table in self.features:
            failed = np.searchsorted(thresholds, X[rows, f], side="left")  # (b,) tests with t < x_f
            reachable &= table[failed]
        return self.leaf_nodes[np.arange(len(self.starts)), _lowest_bit(reachable)].T  # (T, b)


def _lowest_bit(words):
    """Index of the lowest set bit of each (nonzero) word: x & -x isolates it, a power of two that a float
    holds exactly, and frexp reads its exponent."""
    alone = words & (~words + words.dtype.type(1))
    return np.frexp(alone.astype(float))[1] - 1


def _bits(lo, hi):
    """The word with bits lo..hi-1 set."""
    return ((1 << hi) - 1) ^ ((1 << lo) - 1)


def _leaves_in_order(tree):
    """(the tree's leaves, left to right; (N,) index of the first leaf at or below each node; (N,) how many
    leaves lie at or below each node)."""
    order, first_leaf, stack = [], np.zeros(tree.node_count, dtype=np.intp), [0]
    while stack:
        node = stack.pop()
        first_leaf[node] = len(order)
        if tree.feature[node] == LEAF:
            order.append(node)
        else:
            start = int(tree.child_start[node])
            stack.extend(range(start + int(tree.n_children[node]) - 1, start - 1, -1))  # child 0 on top
    count = (tree.feature == LEAF).astype(np.intp)
    for node in range(tree.node_count - 1, 0, -1):  # a child's id is above its parent's: counted first
        count[tree.parent[node]] += count[node]
    return order, first_leaf, count
