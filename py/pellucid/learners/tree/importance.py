"""Impurity importance of a grown tree: scikit-learn's feature_importances_ (mean decrease in impurity).

For feature j, the sum over the inner nodes v that test j of

    w_v imp(v) - sum_{children c} w_c imp(c)

(w = what the training rows reaching the node weigh: their number, or the sum of their class weights;
imp = the node's entropy, Gini impurity or variance), divided by the sum over all features so the
values add up to 1. A tree that never splits gives all zeros, as scikit-learn's does.
"""

import numpy as np

from .structure import LEAF


def impurity_decrease(tree, n_features):
    """(n_features,) each feature's share of the tree's total weighted impurity decrease."""
    cost = np.asarray(tree.weighted_samples, dtype=float) * np.asarray(tree.impurity, dtype=float)  # (N,)
    decrease = np.zeros(n_features)
    for node in np.flatnonzero(tree.feature != LEAF):
        decrease[tree.feature[node]] += cost[node] - cost[tree.children(node)].sum()
    total = decrease.sum()
    return decrease / total if total > 0 else decrease
