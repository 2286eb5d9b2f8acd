"""Routing the rows of one prediction through every tree of an ensemble: what all trees share is learned
of X once, not once per tree.

X is made a C-ordered float matrix once and searched once for missing values: without any, every tree
takes its fast route (tree/routing.py) without searching again; with some, the complete rows and the
others are split once, and each tree routes the first fast and the others level by level. Many rows
that hold some columns at one value (a decision boundary's grid: two features vary, the rest are held)
go through each tree's `FixedTree` (tree/held.py): the part of the tree those rows can reach, over the
varying columns alone, whose table of boxes often holds all of it. Up to STACKED_PAIRS (tree, row) pairs
of numeric trees go through all the trees together (stacked_routes.py), which skips each tree's fixed cost
per level. Every row ends in the node that the tree's own `apply` gives it
(tests/unit/test_forest_predict.py)."""

import numpy as np

from ..tree.routing import BOX_MIN_ROWS
from ..tree.structure import has_gaps
from .stacked_routes import StackCache, ends, numeric_tests

# Most (tree, row) pairs routed together: their (T, n) ends are kept at once, 4 bytes each (2^23 pairs:
# 32 MB, a 100-tree forest's 83,000 rows). Beyond that each tree's Router, with its table of boxes, routes
# them, keeping one tree's ends at a time. (100 trees grown in full, 50,000 rows, in Pyodide: 1.5 s
# together against 2.2-2.5 s tree by tree.)
STACKED_PAIRS = 1 << 23


def routed(trees, X_encoded, is_categorical, cache=None):
    """Each tree (a fitted DecisionTree) with the node every row ends in, tree after tree (a generator).
    `cache`: the ensemble's StackCache (stacked_routes.py), if it has one."""
    X_encoded = np.ascontiguousarray(X_encoded, dtype=float)
    if has_gaps(X_encoded):
        yield from _routed_with_gaps(trees, X_encoded, is_categorical)
        return
    held = held_columns(X_encoded, is_categorical)
    if held:
        varying = np.ascontiguousarray(X_encoded[:, [j for j in range(X_encoded.shape[1]) if j not in held]])
        for tree in trees:
            yield tree, tree.tree_.fixed(held, is_categorical).apply(varying)
        return
    if len(trees) * len(X_encoded) <= STACKED_PAIRS and numeric_tests([tree.tree_ for tree in trees],
                                                                        is_categorical):  # gaps: ruled out above
        yield from zip(trees, ends((cache or StackCache()).of(trees), X_encoded))
        return
    for tree in trees:
        yield tree, tree.tree_.apply(X_encoded, is_categorical, gaps=False)


def _routed_with_gaps(trees, X_encoded, is_categorical):
    incomplete = np.isnan(X_encoded).any(axis=1)  # (n,)
    whole, gappy = X_encoded[~incomplete], X_encoded[incomplete]
    for tree in trees:
        nodes = np.empty(len(X_encoded), dtype=np.intp)
        nodes[~incomplete] = tree.tree_.apply(whole, is_categorical, gaps=False)
        nodes[incomplete] = tree.tree_.apply(gappy, is_categorical, gaps=True)
        yield tree, nodes


def held_columns(X_encoded, is_categorical):
    """{column: value} of the columns every row of X holds at one value, when routing through FixedTrees
    pays: as many rows as make a Router build its table of boxes, some columns held and the others all
    numeric (a FixedTree's varying columns must be). {} otherwise."""
    if len(X_encoded) < BOX_MIN_ROWS:
        return {}
    held = (X_encoded == X_encoded[0]).all(axis=0)  # (d,)
    if not held.any() or held.all() or np.asarray(is_categorical, dtype=bool)[~held].any():
        return {}
    return {int(j): float(X_encoded[0, j]) for j in np.flatnonzero(held)}
