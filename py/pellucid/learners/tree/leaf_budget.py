"""max_leaf_nodes: best-first growth, as scikit-learn grows a tree when the number of leaves is capped.

Best-first growth keeps a frontier of leaves and always splits the one whose best split lowers the
tree's total impurity most (samples * gain: the decrease weighted by the node's share of the rows,
or of the weight when classes are weighted),
until the tree has max_leaf_nodes leaves. A node's best split depends only on its own rows, never on
the order nodes are split in, so the fully grown tree already holds every split best-first growth
could make: growing it first and then choosing splits best-first from the root gives the same tree.
A multiway split adds (branches - 1) leaves; one that would pass the cap is skipped for smaller ones.
"""

import numpy as np

from .structure import LEAF

RELATIVE_TIE = 1e-9  # priorities this close tie, and the earlier node (breadth-first id) goes first


def limit_leaves(tree, max_leaf_nodes):
    """Cut the grown `tree` back to the splits best-first growth makes within max_leaf_nodes leaves;
    the nodes left unsplit become leaves (reason "max_leaf_nodes"). Returns the compacted tree."""
    priority = tree.weighted_samples * np.nan_to_num(tree.gain, nan=0.0)  # (N,) total impurity decrease
    kept = np.zeros(tree.node_count, dtype=bool)
    frontier = [0] if tree.feature[0] != LEAF else []
    leaves = 1
    while frontier:
        scores = priority[frontier]
        best = scores.max()
        ties = np.flatnonzero(scores >= best - RELATIVE_TIE * abs(best))
        node = min(frontier[i] for i in ties)
        frontier.remove(node)
        added = int(tree.n_children[node]) - 1
        if leaves + added > max_leaf_nodes:
            continue
        kept[node] = True
        leaves += added
        frontier += [c for c in tree.children(node) if tree.feature[c] != LEAF]
    for node in np.flatnonzero((tree.feature != LEAF) & ~kept):
        tree.prune_to_leaf(node, reason="max_leaf_nodes")
    return tree.compact()
