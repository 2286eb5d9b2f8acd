"""The values a boosted tree's nodes predict when the loss, not the tree, decides them: the tree's
structure comes from growing a regression tree on the negative gradient r, and each node's value is the
loss's Newton step from the rows that reach it (losses.py), factor * sum(w num) / sum(w den).

scikit-learn replaces the values of the leaves only; every node gets its step here, so a row that an
unseen categorical value stops at an inner node is answered on the loss's scale too. A node no training
row of the round reaches (an empty branch, or out of the subsample) takes its parent's value, as the
tree's own means do."""

import numpy as np

from .losses import TINY_HESSIAN


def node_sums(tree, leaves, values):
    """(N,) the sum of `values` (n,) over the rows under each node, from the leaf each row ends in."""
    sums = np.bincount(leaves, weights=values, minlength=tree.node_count).astype(float)
    for depth in range(int(tree.depth.max()), 0, -1):  # children before their parents
        at = np.flatnonzero(tree.depth == depth)
        np.add.at(sums, tree.parent[at], sums[at])
    return sums


def newton_steps(tree, leaves, numerator, denominator, weights, factor):
    """(N,) factor * sum(w numerator) / sum(w denominator) over the rows under each node (0 where the
    denominator is below TINY_HESSIAN); `weights` (n,) are 0 for rows left out of the round."""
    top = node_sums(tree, leaves, weights * numerator)
    bottom = node_sums(tree, leaves, weights * denominator)
    safe = np.abs(bottom) >= TINY_HESSIAN
    return np.where(safe, factor * top / np.where(safe, bottom, 1.0), 0.0)
