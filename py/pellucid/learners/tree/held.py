"""The tree as seen by rows that agree on every column but a few: what a decision boundary routes.

On a boundary grid two numeric features vary and every other column is held at one value, so a node
testing a held column sends all the rows the same way (or stops them all there, for a category unseen in
training). `FixedTree` routes the held values once, through `Tree.route_step` as `Tree.apply` would, and
keeps the part of the tree those rows can reach, with the held tests spliced out: a numeric tree over the
varying columns alone, routed by the compiled `Router` (on a grid its table of boxes often holds the
whole tree). Each of its nodes is a node of the full tree (`origin`), and every row ends in the node of
the full tree that `Tree.apply` gives it (tests/unit/test_fast_paths.py).
"""

import numpy as np

from .routing import Router

LEAF = -1  # a leaf's feature, as in structure.py


class FixedTree:
    """The reachable part of `tree` for rows whose columns in `held` ({column: encoded value}) all hold
    that value. Its features are the other columns, renumbered 0, 1, ... in column order (`varying`);
    each must be numeric."""

    def __init__(self, tree, held, is_categorical):
        is_categorical = np.asarray(is_categorical, dtype=bool)
        d = len(is_categorical)
        value = np.zeros(d)  # (d,) the held value of each held column
        fixed = np.zeros(d, dtype=bool)
        for column, v in held.items():
            value[column], fixed[column] = v, True
        self.varying = np.flatnonzero(~fixed)  # (v,) the columns X_varying holds, in order
        if is_categorical[self.varying].any():
            raise ValueError("FixedTree routes numeric varying columns only.")
        passes = _held_destinations(tree, value, fixed, is_categorical)  # (N,)
        renumber = np.full(d, -1, dtype=np.intp)
        renumber[self.varying] = np.arange(len(self.varying))
        self.origin, self.feature, self.threshold, self.child_start, self.depth = _reachable(
            tree, passes, tests_varying=(tree.feature != LEAF) & ~fixed[np.maximum(tree.feature, 0)],
            renumber=renumber)
        self.node_count = len(self.origin)
        self.router = Router(self)

    def max_depth(self):
        return int(self.depth.max())

    def apply(self, X_varying):
        """(m,) the node of the full tree where each row ends; X_varying: (m, v) the varying columns."""
        return self.origin[self.router.apply(np.asarray(X_varying, dtype=float))]


def _held_destinations(tree, value, fixed, is_categorical):
    """(N,) where a row at each node goes on before meeting a test of a varying column: itself for a leaf,
    a varying test or a held test that stops the rows; otherwise the node its held tests lead to."""
    node = np.arange(tree.node_count)
    at = np.flatnonzero((tree.feature != LEAF) & fixed[np.maximum(tree.feature, 0)])  # held tests
    step, moves = tree.route_step(at, value[tree.feature[at]], is_categorical)
    node[at[moves]] = tree.child_start[at[moves]] + step[moves]
    while True:  # follow chains of held tests by pointer jumping: about log2(depth) passes
        jumped = node[node]
        if np.array_equal(jumped, node):
            return node
        node = jumped


def _reachable(tree, passes, tests_varying, renumber):
    """(origin, feature, threshold, child_start, depth): the nodes reachable from the root when held
    tests are passed through, level by level, children consecutive after their parent."""
    origin, feature, threshold, child_start, depth = [], [], [], [], []
    level, start = np.array([passes[0]]), 0  # the nodes of one level, and the id of its first
    while level.size:
        below = start + len(level)  # the id of the first node of the level below
        splits = tests_varying[level]  # (l,)
        inner = level[splits]
        starts = np.full(len(level), -1, dtype=np.intp)
        starts[splits] = below + 2 * np.arange(len(inner))
        origin.append(level)
        feature.append(np.where(splits, renumber[np.maximum(tree.feature[level], 0)], LEAF))
        threshold.append(np.where(splits, tree.threshold[level], np.nan))
        child_start.append(starts)
        depth.append(np.full(len(level), len(depth), dtype=np.intp))
        level = np.empty(2 * len(inner), dtype=np.intp)  # numeric tests: children x <= t, then x > t
        level[0::2] = passes[tree.child_start[inner]]
        level[1::2] = passes[tree.child_start[inner] + 1]
        start = below
    return tuple(np.concatenate(parts) for parts in (origin, feature, threshold, child_start, depth))
