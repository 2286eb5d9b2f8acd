"""max_features: the random subset of attributes each node is offered, as random forests need.

scikit-learn's meaning of the setting: None offers every feature; an int that many; a float that share
of them (at least one); "sqrt" and "log2" that function of the number of features (at least one). At
each node the offered attributes are drawn without replacement from those still open there (a multiway
categorical column tested above is not open), and IMPORTANCE is measured on them alone.

The draw is seeded by the tree's `seed` and the node's path from the root (the branch taken at each
level), not by the order nodes are grown in, so the readable grower (depth first) and the fast one
(level by level) offer every node the same attributes and grow the same tree, and the same seed grows
the same tree again. Unlike scikit-learn, a draw that meets only constant columns does not draw more.
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


def offered(open_attributes, k, seed, path):
    """The sorted attributes among `open_attributes` (sorted) that the node at `path` (branch indices
    from the root) is offered: k of them drawn without replacement, or all when k is None or not fewer."""
    open_attributes = np.asarray(open_attributes, dtype=np.intp)
    if k is None or k >= len(open_attributes):
        return open_attributes
    rng = np.random.default_rng([int(seed), len(path), *(int(b) for b in path)])
    return np.sort(open_attributes[rng.choice(len(open_attributes), size=k, replace=False)])
