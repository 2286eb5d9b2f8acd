"""A large tree in its model file: the flat node arrays of `structure.Tree`, packed (core.serialize),
instead of nested nodes.

The nested form (description.py) is what a person reads and what the page draws, a dict per node with the
gain of every attribute considered there. A fully grown tree of a continuous target has about as many
leaves as training rows: 70,000 nodes are 29 MB of nested JSON, each candidate gain written as 17 digits,
and seconds to write and to read back. Packed, each array is the bytes of its numbers in base64, written
and read without a Python step per node. Only the rows of `candidates` where some attribute was scored are
kept (a leaf that was never scored has none), with a mask saying which.

A forest of hundreds of such trees is hundreds of MB, and base64 costs time per byte, so nothing is
written twice or wider than it needs: each array in the narrowest type that holds its numbers exactly
(whole floats as integers), thresholds and gains only at the inner nodes (a leaf's are NaN), and no
parent, branch or depth, which the children give back as the file is read. Files written before, with
every array per node, read as they did.

The file is checked as it is read: a damaged one (children out of range or before their parent, a test
of an unknown column, arrays of different lengths) is a DataError, never a tree that loops or crashes.
A regression tree's node values (its mean targets) are kept as they are: its statistics are of the
target less an offset the tree does not keep.
"""

import numpy as np

from ...core import serialize
from ...core.errors import DataError
from ...core.file_fields import FIELD, damaged, require_array, require_dict, require_key, require_list
from .structure import LEAF, REASONS, Tree

_INTEGER_FIELDS = ("feature", "child_start", "n_children", "reason")
# Where each node hangs: read from the children as the file is read (files written before kept them).
_FAMILY_FIELDS = ("parent", "branch", "depth")
# NaN at every leaf: written at the inner nodes only, as "split_threshold" and "split_gain" (in node order)
_SPLIT_FIELDS = ("threshold", "gain")
WHOLE_BELOW = 2 ** 31  # floats that are all whole numbers below this are written as integers, exactly


def to_packed(tree, values=None, candidates=True):
    """The JSON-able state of `tree` and its per-node `values` (N,) if it has them: its arrays, packed
    where large (serialize.encode), each in the narrowest type that holds its numbers exactly.
    candidates=False leaves out the gains of the attributes each node scored (most of the file; an
    ensemble's trees are read for their answers, not their growth)."""
    arrays = {name: _narrowest(getattr(tree, name)) for name in _INTEGER_FIELDS}
    inner = tree.feature != LEAF
    for name in _SPLIT_FIELDS:
        array = getattr(tree, name)
        if np.isnan(array[~inner]).all():
            arrays[f"split_{name}"] = _exact(array[inner])
        else:  # a pruned leaf keeps the gain of the test it lost
            arrays[name] = _exact(array)
    arrays.update(impurity=_exact(tree.impurity), stats=_stat_rows(tree.stats),
                  values=None if values is None else _exact(values))
    if candidates:  # only the rows of the nodes where some attribute was scored
        scored = ~np.isnan(tree.candidates).all(axis=1)  # (N,)
        arrays.update(scored=scored, candidates=tree.candidates[scored])
    if tree.weighted is not None:  # what each node's rows weigh, when they were fitted with sample weights
        arrays["weighted"] = _exact(tree.weighted)
    if tree.takes_missing:  # the tests that learned where missing values go, and the side each sends them
        arrays["gap_nodes"] = np.flatnonzero(tree.gap_nodes)
        arrays["gap_sides_left"] = tree.missing_left[tree.gap_nodes]
    state = serialize.encode(arrays)
    state["left_values"] = {str(node): codes.tolist() for node, codes in tree.left_values.items()}
    return state


def _narrowest(values):
    """The integers in the smallest signed type that holds them (a depth or a branch fits in a byte)."""
    low, high = (int(values.min()), int(values.max())) if values.size else (0, 0)
    return values.astype(np.promote_types(np.min_scalar_type(min(low, -1)), np.min_scalar_type(-high - 1)))


def _exact(values):
    """Integers, and floats that are all whole (counts of rows, bootstrap weights), in the narrowest
    integer type; other floats as they are. The reader turns each array back into its own type, so every
    number reads back bit for bit (-0.0 would come back as 0.0: an array holding one stays float)."""
    values = np.asarray(values)
    if values.dtype.kind in "iu":
        return _narrowest(values)
    with np.errstate(invalid="ignore"):
        whole = (values.dtype.kind == "f" and np.isfinite(values).all() and (np.abs(values) < WHOLE_BELOW).all()
                 and (values == np.round(values)).all() and not (np.signbit(values) & (values == 0)).any())
    return _narrowest(values.astype(np.int64)) if whole else values


def _stat_rows(stats):
    """A tree's (s, N) statistics: whole counts as one narrow integer array; floats row by row, so the
    count of rows among a regression node's sums is written as integers."""
    if stats.dtype.kind in "iu":
        return _narrowest(stats)
    return [_exact(row) for row in stats]


def _decoded(state, name):
    return serialize.decode(require_key(state, name, "nodes"), f"nodes.{name}")


def from_packed(state, categories, n_stats, n_counts=None, n_weighted=0):
    """(Tree, values or None) from `to_packed` output, checked against the columns' `categories` (None for
    a numeric one) and the number of statistics a node keeps (`n_stats`), the first `n_counts` of them
    (all by default) counts of rows; n_weighted > 0: the nodes' sample weights, (n_weighted, N), too.
    Files written before the family fields were left out, or before split_threshold, read as before."""
    n_counts = n_stats if n_counts is None else n_counts
    ints = {name: require_array(_decoded(state, name), f"nodes.{name}", "i", (None,)) for name in _INTEGER_FIELDS}
    n = len(ints["feature"])
    for name, array in ints.items():
        if array.shape != (n,):
            raise DataError(f"The tree's packed nodes are damaged: {name} does not hold one value per node.",
                            field=FIELD)
    left_values = {_node_id(node): require_array(codes, f"nodes.left_values.{node}", "i", (None,))
                   for node, codes in require_dict(_decoded(state, "left_values"), "nodes.left_values").items()}
    children = _check_children(ints["feature"], ints["child_start"], ints["n_children"], left_values, categories)
    if "parent" in state:  # an older file: its family is checked against the children
        family = {name: require_array(_decoded(state, name), f"nodes.{name}", "i", (n,)) for name in _FAMILY_FIELDS}
        _check_family(family, *children)
    else:
        family = _family(ints["feature"], ints["child_start"], ints["n_children"], *children)
    inner = ints["feature"] != LEAF
    split = {name: _per_node(state, name, inner) for name in _SPLIT_FIELDS}
    arrays = {name: _decoded(state, name) for name in ("impurity", "stats", "values")}
    arrays["stats"] = stats = _stats(arrays["stats"], n_stats, n_counts, n)
    _check_numbers(arrays, n_counts)
    tree = Tree(ints["feature"], split["threshold"], ints["child_start"], ints["n_children"], family["parent"],
                family["branch"], family["depth"], stats, split["gain"], _candidates(state, n, len(categories)),
                ints["reason"], left_values)
    tree.impurity = require_array(arrays["impurity"], "nodes.impurity", "f", (n,), finite=False, nan=True)
    if n_weighted:
        tree.weighted = _weights(state, n_weighted, n)
    if "gap_nodes" in state:
        _learned_sides(tree, state, n)
    _check_leaves(tree, categories)
    numeric_tests = (tree.feature != LEAF) & (np.array([c is None for c in categories] + [False])[tree.feature])
    if not np.isfinite(tree.threshold[numeric_tests]).all():
        raise DataError("The tree's packed nodes are damaged: a numeric test has no finite threshold.",
                        field=FIELD)
    values = arrays["values"]
    if values is not None and np.shape(values) != (n,):
        raise DataError("The tree's packed nodes are damaged: values does not hold one value per node.", field=FIELD)
    return tree, None if values is None else np.asarray(values, dtype=float)


def _per_node(state, name, inner):
    """(N,) floats written for every node (`name`) or for the inner nodes only ("split_" + name, NaN at
    the leaves)."""
    if name in state:
        return require_array(_decoded(state, name), f"nodes.{name}", "f", (len(inner),), finite=False, nan=True)
    at_inner = require_array(_decoded(state, f"split_{name}"), f"nodes.split_{name}", "f", (int(inner.sum()),),
                             finite=False, nan=True)
    full = np.full(len(inner), np.nan)
    full[inner] = at_inner
    return full


def _stats(stats, n_stats, n_counts, n):
    """The (n_stats, N) statistics in the type a grown tree keeps: whole counts of a classifier's classes
    as integers, a regression node's count and sums as floats (written as integers when all whole). A
    file holds them as one (n_stats, N) array or as a list of n_stats rows."""
    if isinstance(stats, list):
        stats = np.vstack([require_array(row, f"nodes.stats[{i}]", "f", (n,), finite=False, nan=True)
                           for i, row in enumerate(require_list(stats, "nodes.stats", n_stats))])
    if np.shape(stats) != (n_stats, n):
        raise DataError("The tree's packed nodes are damaged: stats have the wrong shape.", field=FIELD)
    stats = np.asarray(stats)
    if stats.dtype.kind not in "fiu":
        raise DataError("The tree's packed nodes are damaged: stats must hold numbers.", field=FIELD)
    if n_counts < n_stats:
        return stats.astype(float)
    return stats.astype(np.intp) if stats.dtype.kind in "iu" else stats


def _candidates(state, n, n_features):
    """(N, d) the gains each node scored, NaN where none was: the file keeps the rows of the nodes marked
    in "scored"; a file without them (an ensemble's tree) scored none, read without the memory of N x d."""
    if "scored" not in state:
        return np.broadcast_to(np.nan, (n, n_features))
    scored = require_array(_decoded(state, "scored"), "nodes.scored", "b", (n,))
    rows = require_array(_decoded(state, "candidates"), "nodes.candidates", "f", (int(scored.sum()), n_features),
                         finite=False, nan=True)
    candidates = np.full((n, n_features), np.nan)
    candidates[scored] = rows
    return candidates


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


def _damaged(why):
    raise DataError(f"The tree's packed nodes are damaged: {why}.", field=FIELD)


def _check_children(feature, child_start, n_children, left_values, categories):
    """(inner ids, their numbers of children, each child's parent, the children in order), once the
    arrays are checked to make one tree rooted at node 0 whose tests read known columns; else DataError."""
    n = len(feature)
    if n == 0:
        _damaged("the tree has no nodes")
    inner = np.flatnonzero(feature != LEAF)  # (I,)
    f = feature[inner]
    if ((f < 0) | (f >= len(categories))).any() or (feature < LEAF).any():
        _damaged("a test reads a column the model does not have")
    width = n_children[inner]
    if (width < 2).any() or (child_start[inner] <= inner).any() or (child_start[inner] + width > n).any():
        _damaged("an inner node's children are out of range")
    n_values = np.array([0 if c is None else len(c) for c in categories])[f]  # (I,) 0 for a numeric test
    binary = (n_values == 0) | np.isin(inner, list(left_values))
    if (width[binary] != 2).any() or (width[~binary] != n_values[~binary]).any():
        _damaged("a test has the wrong number of branches")
    owner = np.repeat(inner, width)  # (N - 1,) the parent of each child, children in order
    kids = np.repeat(child_start[inner], width) + _within(width)
    if len(kids) != n - 1 or not np.array_equal(np.sort(kids), np.arange(1, n)):
        _damaged("the nodes are not one tree")
    return inner, width, owner, kids


def _family(feature, child_start, n_children, inner, width, owner, kids):
    """{"parent", "branch", "depth"} of every node, from the children (checked to make one tree). Parents
    come before their children, so the depths fill level by level from the root."""
    n = len(feature)
    parent, branch, depth = np.full(n, LEAF, dtype=np.intp), np.zeros(n, dtype=np.intp), np.zeros(n, dtype=np.intp)
    parent[kids], branch[kids] = owner, _within(width)
    level, d = np.zeros(1, dtype=np.intp), 0
    while level.size:
        level = level[feature[level] != LEAF]  # (a,) the level's inner nodes
        level = np.repeat(child_start[level], n_children[level]) + _within(n_children[level])  # their children
        d += 1
        depth[level] = d
    return {"parent": parent, "branch": branch, "depth": depth}


def _check_family(family, inner, width, owner, kids):
    """DataError unless the parents, branches and depths an older file holds agree with the children."""
    parent, branch, depth = family["parent"], family["branch"], family["depth"]
    if parent[0] != LEAF or depth[0] != 0:
        _damaged("node 0 is not a root")
    if not (np.array_equal(parent[kids], owner) and np.array_equal(branch[kids], _within(width))
            and np.array_equal(depth[kids], depth[owner] + 1)):
        _damaged("parents, branches or depths disagree with the children")


def _check_leaves(tree, categories):
    """DataError unless every leaf gives a known reason and every value set is of its column's categories."""
    n = tree.node_count
    leaves = tree.feature == LEAF
    if ((tree.reason[leaves] < 0) | (tree.reason[leaves] >= len(REASONS))).any():
        _damaged("a leaf's reason is unknown")
    for node, codes in tree.left_values.items():
        values = categories[tree.feature[node]] if 0 <= node < n and tree.feature[node] != LEAF else None
        if values is None or ((codes < 0) | (codes >= len(values))).any():
            _damaged(f"node {node}'s value set is not one of its column's categories")


def _within(width):
    """(sum(width),) 0, 1, ..., w - 1 for each w in `width`: each child's place among its siblings."""
    starts = np.repeat(np.cumsum(width) - width, width)
    return np.arange(int(width.sum())) - starts
