"""Pruning a grown tree: the chi-squared test of notes 000 and reduced-error pruning on validation data
of notes 004. Both work bottom-up (node ids downwards visit children before parents) and turn an inner
node into a leaf that predicts the plurality of its own training examples."""

import numpy as np

from .chi2 import chi2_sf, deviation
from .structure import LEAF


def chi2_prune(tree, alpha):
    """Notes 000: "starting from nodes that have only leaf descendants, we perform statistical tests
    (for example chi^2 test) ... If they are deemed unimportant, we replace them with a leaf node. We
    continue this process until either all nodes with only leaf descendants have been pruned or they
    have been considered significant". A split is kept when its p-value is below alpha. With sample
weights the table counts each row as its weight (a frequency: weight 3 is three rows).

    Returns one record per test: (node, Delta, dof, p_value, pruned)."""
    records = []
    for i in range(tree.node_count - 1, -1, -1):
        if tree.feature[i] == LEAF:
            continue
        kids = tree.children(i)
        if (tree.feature[kids.start:kids.stop] != LEAF).any():
            continue  # a child survived its own test, so this split stays
        counts = tree.stats if tree.weighted is None else tree.weighted  # rows, or what they weigh
        delta, dof = deviation(counts[:, kids.start:kids.stop].T)  # (branches, classes)
        p_value = chi2_sf(delta, dof) if dof > 0 else 1.0
        pruned = p_value >= alpha
        if pruned:
            tree.prune_to_leaf(i)
        records.append((i, delta, dof, p_value, pruned))
    return records


def _visits(tree, X_encoded, is_categorical):
    """(rows, nodes): every node each row passes through on its way down, root included."""
    n = X_encoded.shape[0]
    node = np.zeros(n, dtype=np.intp)
    active = np.arange(n)
    rows, nodes = [active], [node.copy()]
    while active.size:
        at = node[active]
        f = tree.feature[at]
        inner = f != LEAF
        active, at, f = active[inner], at[inner], f[inner]
        step, moves = tree.route_step(at, X_encoded[active, f], is_categorical)
        active, at, step = active[moves], at[moves], step[moves]
        node[active] = tree.child_start[at] + step
        rows.append(active)
        nodes.append(node[active])
    return np.concatenate(rows), np.concatenate(nodes)


def reduced_error_prune(tree, X_val, y_val, is_categorical, prediction):
    """Notes 004, "Pruning decision trees": replace a subtree by a leaf when the validation error does
    not increase. y_val holds class indices (-1 for a label never seen in training: always an error);
    prediction[i] is the class index node i would predict as a leaf.

    Returns one record per inner node: (node, errors of the subtree, errors as a leaf, pruned)."""
    N = tree.node_count
    rows, nodes = _visits(tree, X_val, np.asarray(is_categorical, dtype=bool))
    reached = np.bincount(nodes, minlength=N)  # (N,) validation rows reaching each node
    right = np.bincount(nodes[y_val[rows] == prediction[nodes]], minlength=N)  # (N,)
    as_leaf = reached - right  # (N,) errors if the node predicted its plurality
    # Rows whose categorical value was unseen in training stop at an inner node and are judged there.
    end = tree.apply(X_val, is_categorical)
    stopped = tree.feature[end] != LEAF
    stop_errors = np.bincount(end[stopped], weights=(y_val[stopped] != prediction[end[stopped]]),
                              minlength=N)
    subtree = as_leaf.astype(float)
    records = []
    for i in range(N - 1, -1, -1):
        if tree.feature[i] == LEAF:
            continue
        kids = tree.children(i)
        before = stop_errors[i] + subtree[kids.start:kids.stop].sum()
        pruned = as_leaf[i] <= before
        if pruned:
            tree.prune_to_leaf(i)
        subtree[i] = as_leaf[i] if pruned else before
        records.append((i, int(before), int(as_leaf[i]), bool(pruned)))
    return records
