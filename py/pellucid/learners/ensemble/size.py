"""A forest too large for memory is refused: at once when even its largest possible trees are far beyond
the limit, else after its first tree, from the room that tree takes, before the others are grown. Either
way the message gives the size it would take and the limit, and nothing the caller had is changed.

The bound before training is an upper bound per tree times the number of trees: a binary tree with L
leaves has 2L - 1 nodes, and L is at most the rows (one per row, or one per min_samples_leaf rows),
2^max_depth and max_leaf_nodes. Each node keeps a few numbers per class (counts, weights, probabilities)
and about ten more (its test, children, impurity, depth). Real trees are far smaller than that bound (a
bootstrap sample holds about 63% of the rows, and a leaf is pure long before it holds one row), so the
bound only refuses what could never fit (MAX_BOUND_BYTES); the first tree's real size decides the rest."""

import numpy as np

from ...core.errors import DataError

MAX_FOREST_BYTES = 1024 ** 3  # the most an ensemble's trees may take: about a gigabyte
MAX_BOUND_BYTES = 16 * MAX_FOREST_BYTES  # the bound refuses at once only far beyond it
NODE_NUMBERS = 10  # numbers of 8 bytes each node keeps besides those per class


def max_leaves(n_rows, max_depth, min_samples_leaf, max_leaf_nodes):
    """The most leaves one tree can have."""
    leaves = max(1, n_rows // max(1, min_samples_leaf))
    if max_depth is not None:
        leaves = min(leaves, 2 ** min(max_depth, 62))
    if max_leaf_nodes is not None:
        leaves = min(leaves, max_leaf_nodes)
    return leaves


def check_size(n_estimators, n_rows, n_values, max_depth, min_samples_leaf, max_leaf_nodes):
    """Raise a DataError on params.n_estimators when even the largest trees the settings allow could not
    come near the limit being met; n_values is the numbers each node keeps per class (1 for a regression
    target)."""
    nodes = 2 * max_leaves(n_rows, max_depth, min_samples_leaf, max_leaf_nodes) - 1
    size = n_estimators * nodes * (NODE_NUMBERS + 3 * n_values) * 8
    if size > MAX_BOUND_BYTES:
        raise _too_large(f"{n_estimators} trees of up to {nodes:,} nodes each could take {_gb(size)}")


def check_projected(n_estimators, first_tree):
    """Raise a DataError on params.n_estimators when n_estimators trees the size of `first_tree` (a fitted
    tree: the room its node arrays take) would exceed MAX_FOREST_BYTES."""
    one = tree_bytes(first_tree)
    if n_estimators * one > MAX_FOREST_BYTES:
        raise _too_large(f"The first tree took {one / 1024 ** 2:.1f} MB, so {n_estimators} such trees would "
                         f"take {_gb(n_estimators * one)}")


def tree_bytes(tree):
    """The bytes of the node arrays a forest keeps of a fitted tree: all but the gains of every candidate
    (growers.forget_candidates)."""
    return sum(value.nbytes for name, value in vars(tree.tree_).items()
               if isinstance(value, np.ndarray) and name != "candidates")


def _gb(size):
    return f"{size / 1024 ** 3:.1f} GB"


def _too_large(said):
    return DataError(f"{said}, more than the {MAX_FOREST_BYTES / 1024 ** 3:.0f} GB allowed: use fewer trees, or "
                     "smaller ones (max_depth, min_samples_leaf, max_leaf_nodes).", field="params.n_estimators")
