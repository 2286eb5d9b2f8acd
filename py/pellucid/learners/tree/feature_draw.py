"""max_features: the random subset of attributes each node is offered, as random forests need.

scikit-learn's meaning of the setting: None offers every feature; an int that many; a float that share
of them (at least one); "sqrt" and "log2" that function of the number of features (at least one). At
each node the offered attributes are drawn without replacement from those still open there (a multiway
categorical column tested above is not open), and IMPORTANCE is measured on them alone.

How a node draws: every node has a 64-bit key, the root's from the tree's `seed` and each child's from
its parent's key and the branch taken; each attribute gets a pseudo-random number from the node's key
and the attribute's index, and the node is offered the k open attributes with the smallest numbers,
which is a uniform draw of k of them without replacement. The draw so depends on the node's place in
the tree, not on the order nodes are grown in: the readable grower (depth first) and the fast one (level
by level, every node of a level hashed at once) offer every node the same attributes and grow the same
tree, and the same seed grows the same tree again. Unlike scikit-learn, a draw that meets only constant
columns does not draw more.
"""

import math
import numbers

import numpy as np

from ...core.errors import DataError
from ...core.params import Choice


class MaxFeaturesRule(Choice):
    """None, "sqrt", "log2", a whole number >= 1 or a share in (0, 1]. Described to the page as the
    choice of None, "sqrt" or "log2"; a number is for the Python API."""

    def __init__(self, **kwargs):
        super().__init__("sqrt", "log2", none_ok=True, **kwargs)

    def _check_value(self, name, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            super()._check_value(name, value)
            return
        if isinstance(value, numbers.Integral):
            ok = value >= 1
        else:
            ok = math.isfinite(value) and 0.0 < value <= 1.0
        if not ok:
            raise DataError(f"Parameter {name!r} must be {self.expectation()}; got {value!r}.",
                            field=f"params.{name}")

    def expectation(self):
        return "None, 'sqrt', 'log2', a whole number >= 1 or a share in (0, 1]"


def n_offered(max_features, n_features):
    """How many attributes a node is offered, or None for all of them (max_features=None)."""
    if max_features is None:
        return None
    if max_features == "sqrt":
        return max(1, int(math.sqrt(n_features)))
    if max_features == "log2":
        return max(1, int(math.log2(n_features)))
    if isinstance(max_features, numbers.Integral):
        if max_features > n_features:
            raise DataError(f"max_features is {max_features}, but X has only {n_features} features.",
                            field="params.max_features")
        return int(max_features)
    return max(1, int(max_features * n_features))


# splitmix64 (Steele, Lea and Flood, 2014): a fast 64-bit mix whose outputs pass statistical tests of
# randomness; numpy's uint64 arithmetic wraps modulo 2**64 as the mix needs.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1, _MIX_2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _mix(x):
    """splitmix64 of each uint64 in the array x."""
    z = np.array(x, dtype=np.uint64, ndmin=1) + _GOLDEN  # arrays: scalars would warn as they wrap
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


def root_key(seed):
    """The root node's key, from the tree's seed."""
    return _mix(np.array([int(seed) % 2 ** 64], dtype=np.uint64))[0]


def child_keys(parent_keys, branches):
    """The keys of children: each from its parent's key and the index of the branch leading to it."""
    return _mix(np.array(parent_keys, dtype=np.uint64, ndmin=1) ^ _mix(np.array(branches, dtype=np.uint64) + 1))


def attribute_numbers(node_keys, n_attributes):
    """(nodes, d) the pseudo-random number of every attribute at every node."""
    attributes = np.arange(n_attributes, dtype=np.uint64) * _GOLDEN
    return _mix(np.asarray(node_keys, dtype=np.uint64)[:, None] + attributes[None, :])


def offered_mask(node_keys, open_, k):
    """(nodes, d) which attributes each node is offered: its k open attributes (open_, (nodes, d) bool)
    with the smallest numbers, or every open one when k is None or not fewer."""
    if k is None or k >= open_.shape[1]:
        return open_
    numbers = attribute_numbers(node_keys, open_.shape[1])
    numbers[~open_] = np.iinfo(np.uint64).max  # closed attributes sort last: taken only if too few are open
    kth_smallest = np.partition(numbers, k - 1, axis=1)[:, k - 1:k]
    return open_ & (numbers <= kth_smallest)


def offered(open_attributes, k, node_key, n_attributes):
    """The sorted attributes among `open_attributes` that the node with `node_key` is offered (one node
    of offered_mask; n_attributes: the table's number of attributes)."""
    open_ = np.zeros((1, n_attributes), dtype=bool)
    open_[0, np.asarray(open_attributes, dtype=np.intp)] = True
    return np.flatnonzero(offered_mask([node_key], open_, k)[0])


def number_level(grower, parent, branch, count):
    """(count,) the ids of a new level's nodes, numbered on from the grower's n_nodes; where features are
    drawn at each node (max_features), each node's draw key is derived from its parent's and its branch
    (the root's from the seed), so a node is offered the same features whichever grower grows it."""
    ids = np.arange(grower.n_nodes, grower.n_nodes + count)
    grower.n_nodes += count
    if grower.n_offered is not None:
        keys = child_keys(grower.keys[parent], branch) if parent[0] >= 0 else np.array([root_key(grower.seed)])
        grower.keys = np.concatenate([grower.keys, keys])
    return ids
