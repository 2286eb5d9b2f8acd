"""A large tree in its model file: the flat node arrays of `structure.Tree`, packed (core.serialize),
instead of nested nodes.

The nested form (description.py) is what a person reads and what the page draws, a dict per node with the
gain of every attribute considered there. A fully grown tree of a continuous target has about as many
leaves as training rows: 70,000 nodes are 29 MB of nested JSON, each candidate gain written as 17 digits,
and seconds to write and to read back. Packed, each array is the bytes of its numbers in base64, written
and read without a Python step per node. Only the rows of `candidates` where some attribute was scored are
kept (a leaf that was never scored has none), with a mask saying which.

The file is checked as it is read: a damaged one (children out of range or before their parent, a test
of an unknown column, arrays of different lengths) is a DataError, never a tree that loops or crashes.
A regression tree's node values (its mean targets) are kept as they are: its statistics are of the
target less an offset the tree does not keep.
"""

import numpy as np

from ...core import serialize
from ...core.errors import DataError
from ...core.file_fields import FIELD, damaged, require_array, require_dict, require_key
from .structure import LEAF, REASONS, Tree

_INTEGER_FIELDS = ("feature", "child_start", "n_children", "parent", "branch", "depth", "reason")


def to_packed(tree, values=None, candidates=True):
    """The JSON-able state of `tree` and its per-node `values` (N,) if it has them: its arrays, packed
    where large (serialize.encode). candidates=False leaves out the gains of the attributes each node
    scored (most of the file; an ensemble's trees are read for their answers, not their growth)."""
    scored = ~np.isnan(tree.candidates).all(axis=1) if candidates else np.zeros(tree.node_count, bool)  # (N,)
    arrays = {name: _narrowest(getattr(tree, name)) for name in _INTEGER_FIELDS}
    arrays.update(threshold=tree.threshold, gain=tree.gain, impurity=tree.impurity, stats=tree.stats,
                  scored=scored, candidates=tree.candidates[scored], values=values)
    if tree.weighted is not None:  # what each node's rows weigh, when they were fitted with sample weights
        arrays["weighted"] = tree.weighted
    if tree.takes_missing:  # the tests that learned where missing values go, and the side each sends them
        arrays["gap_nodes"] = np.flatnonzero(tree.gap_nodes)
        arrays["gap_sides_left"] = tree.missing_left[tree.gap_nodes]
    state = serialize.encode(arrays)
    state["left_values"] = {str(node): codes.tolist() for node, codes in tree.left_values.items()}
    return state


def _narrowest(values):
    """The integers in the smallest signed type that holds them (a depth or a branch fits in a byte)."""
    low, high = (int(values.min()), int(values.max())) if len(values) else (0, 0)
    return values.astype(np.promote_types(np.min_scalar_type(min(low, -1)), np.min_scalar_type(-high - 1)))


def from_packed(state, categories, n_stats, n_counts=None, n_weighted=0):
    """(Tree, values or None) from `to_packed` output, checked against the columns' `categories` (None for
    a numeric one) and the number of statistics a node keeps (`n_stats`), the first `n_counts` of them
    (all by default) counts of rows; n_weighted > 0: the nodes' sample weights, (n_weighted, N), too."""
    fields = [*_INTEGER_FIELDS, "threshold", "gain", "impurity", "stats", "scored", "candidates", "left_values",
              "values"]
    for name in fields:
        require_key(state, name, "nodes")
    # "values" is null but in a regression tree, whose node means the statistics do not give back
    arrays = serialize.decode({k: state[k] for k in fields if k != "left_values"}, "nodes")
    n = len(require_array(arrays["feature"], "nodes.feature", "i", (None,)))
    per_node = [*_INTEGER_FIELDS, "threshold", "gain", "impurity", "scored"]
    for name in per_node + (["values"] if arrays["values"] is not None else []):
        if np.shape(arrays[name]) != (n,):
            raise DataError(f"The tree's packed nodes are damaged: {name} does not hold one value per node.",
                            field=FIELD)
    _check_numbers(arrays, n_stats if n_counts is None else n_counts)
    scored = np.asarray(arrays["scored"], dtype=bool)
    if np.shape(arrays["stats"]) != (n_stats, n) or np.shape(arrays["candidates"]) != (scored.sum(), len(categories)):
        raise DataError("The tree's packed nodes are damaged: stats or candidates have the wrong shape.",
                        field=FIELD)
    candidates = np.full((n, len(categories)), np.nan)
    candidates[scored] = arrays["candidates"]
    left_values = {_node_id(node): require_array(codes, f"nodes.left_values.{node}", "i", (None,))
                   for node, codes in require_dict(serialize.decode(state["left_values"], "nodes.left_values"),
                                                   "nodes.left_values").items()}
    tree = Tree(*(arrays[name] for name in ("feature", "threshold", "child_start", "n_children", "parent",
                                            "branch", "depth")),
                arrays["stats"], arrays["gain"], candidates, arrays["reason"], left_values)
    tree.impurity = np.asarray(arrays["impurity"], dtype=float)
    if n_weighted:
        tree.weighted = _weights(state, n_weighted, n)
    if "gap_nodes" in state:
        _learned_sides(tree, state, n)
    _check_structure(tree, categories)
    numeric_tests = (tree.feature != LEAF) & (np.array([c is None for c in categories] + [False])[tree.feature])
    if not np.isfinite(tree.threshold[numeric_tests]).all():
        raise DataError("The tree's packed nodes are damaged: a numeric test has no finite threshold.",
                        field=FIELD)
    return tree, arrays["values"]


def _learned_sides(tree, state, n):
    """The sides learned at the nodes whose rows had gaps (`gap_nodes`, `gap_sides_left`), checked."""
    nodes = require_array(serialize.decode(require_key(state, "gap_nodes", "nodes"), "nodes.gap_nodes"),
                          "nodes.gap_nodes", "i", (None,), low=0, high=n - 1)
    left = require_array(serialize.decode(require_key(state, "gap_sides_left", "nodes"), "nodes.gap_sides_left"),
                         "nodes.gap_sides_left", "b", (len(nodes),))
    tree.learned_sides(nodes, left)


def _weights(state, n_weighted, n):
    """The (n_weighted, n) sums of sample weights of the nodes: finite and not negative."""
    weighted = serialize.decode(require_key(state, "weighted", "nodes"), "nodes.weighted")
    weighted = require_array(weighted, "nodes.weighted", "f", (n_weighted, n))
    if not np.isfinite(weighted).all() or (weighted < 0).any():
        raise DataError("The tree's packed nodes are damaged: weighted must hold finite numbers, not negative.",
                        field=FIELD)
    return np.asarray(weighted, dtype=float)


def _node_id(key):
    """A node's number, written as a key of left_values."""
    if not (isinstance(key, str) and key.isdigit()):
        raise damaged(f"nodes.left_values.{key}", "must be keyed by node numbers")
    return int(key)


def _check_numbers(arrays, n_counts):
    """The statistics finite, the counts among them whole and not negative, the node values finite."""
    stats = np.asarray(arrays["stats"])
    values = arrays["values"]
    if stats.dtype.kind not in "fiu" or not np.isfinite(stats).all() or (stats[:n_counts] < 0).any() \
            or (stats[:n_counts] != np.round(stats[:n_counts])).any():
        raise DataError("The tree's packed nodes are damaged: stats must hold finite numbers, and counts "
                        "that are whole and not negative.", field=FIELD)
    if values is not None and (np.asarray(values).dtype.kind not in "fiu" or not np.isfinite(values).all()):
        raise DataError("The tree's packed nodes are damaged: values must hold finite numbers.", field=FIELD)


def _check_structure(tree, categories):
    """DataError unless the arrays make one tree rooted at node 0 whose tests read known columns."""
    def damaged(why):
        raise DataError(f"The tree's packed nodes are damaged: {why}.", field=FIELD)
    n = tree.node_count
    if n == 0 or tree.parent[0] != LEAF or tree.depth[0] != 0:
        damaged("node 0 is not a root")
    inner = np.flatnonzero(tree.feature != LEAF)  # (I,)
    f = tree.feature[inner]
    if ((f < 0) | (f >= len(categories))).any() or (tree.feature < LEAF).any():
        damaged("a test reads a column the model does not have")
    width = tree.n_children[inner]
    if (width < 2).any() or (tree.child_start[inner] <= inner).any() or (tree.child_start[inner] + width > n).any():
        damaged("an inner node's children are out of range")
    n_values = np.array([0 if c is None else len(c) for c in categories])[f]  # (I,) 0 for a numeric test
    binary = (n_values == 0) | np.isin(inner, list(tree.left_values))
    if (width[binary] != 2).any() or (width[~binary] != n_values[~binary]).any():
        damaged("a test has the wrong number of branches")
    owner = np.repeat(inner, width)  # (N - 1,) the parent of each child, children in order
    kids = np.repeat(tree.child_start[inner], width) + _within(width)
    if len(kids) != n - 1 or not np.array_equal(np.sort(kids), np.arange(1, n)):
        damaged("the nodes are not one tree")
    if not (np.array_equal(tree.parent[kids], owner) and np.array_equal(tree.branch[kids], _within(width))
            and np.array_equal(tree.depth[kids], tree.depth[owner] + 1)):
        damaged("parents, branches or depths disagree with the children")
    leaves = tree.feature == LEAF
    if ((tree.reason[leaves] < 0) | (tree.reason[leaves] >= len(REASONS))).any():
        damaged("a leaf's reason is unknown")
    for node, codes in tree.left_values.items():
        values = categories[tree.feature[node]] if 0 <= node < n and tree.feature[node] != LEAF else None
        if values is None or ((codes < 0) | (codes >= len(values))).any():
            damaged(f"node {node}'s value set is not one of its column's categories")


def _within(width):
    """(sum(width),) 0, 1, ..., w - 1 for each w in `width`: each child's place among its siblings."""
    starts = np.repeat(np.cumsum(width) - width, width)
    return np.arange(int(width.sum())) - starts
