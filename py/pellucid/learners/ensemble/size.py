"""A forest too large for memory is refused before any tree is grown, with the size it would take.

The estimate is an upper bound per tree times the number of trees: a binary tree with L leaves has
2L - 1 nodes, and L is at most the rows (one per row, or one per min_samples_leaf rows), 2^max_depth and
max_leaf_nodes. Each node keeps a few numbers per class (counts, weights, probabilities) and about ten
more (its test, children, impurity, depth). Categorical columns split many ways can exceed the bound,
which is why it is generous rather than exact."""

from ...core.errors import DataError

MAX_FOREST_BYTES = 1024 ** 3  # the most an ensemble's trees may take: about a gigabyte
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
    """Raise a DataError on params.n_estimators when the trees could take more than MAX_FOREST_BYTES;
    n_values is the numbers each node keeps per class (1 for a regression target)."""
    nodes = 2 * max_leaves(n_rows, max_depth, min_samples_leaf, max_leaf_nodes) - 1
    size = n_estimators * nodes * (NODE_NUMBERS + 3 * n_values) * 8
    if size > MAX_FOREST_BYTES:
        raise DataError(f"{n_estimators} trees of up to {nodes:,} nodes each could take {size / 1024 ** 3:.1f} GB, "
                        f"more than the {MAX_FOREST_BYTES / 1024 ** 3:.0f} GB allowed: use fewer trees, or smaller "
                        "ones (max_depth, min_samples_leaf, max_leaf_nodes).", field="params.n_estimators")
