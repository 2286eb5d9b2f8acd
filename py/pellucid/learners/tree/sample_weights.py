"""sample_weight of a tree's fit, checked: one finite weight per row, none negative, not all zero.

A weight w makes a row count as w rows in every impurity, gain, leaf value and importance, as in
scikit-learn: integer weights grow the tree that repeating each row that many times grows, and a row of
weight 0 is left out, as if it were not there (it neither moves a threshold nor counts toward a leaf's
size). Leaf sizes (min_samples_split, min_samples_leaf) count the other rows, as scikit-learn's do.
"""

import numpy as np

from ...core.errors import DataError


def check_sample_weight(sample_weight, n_rows):
    """(n_rows,) float weights, or None when none were given."""
    if sample_weight is None:
        return None
    try:
        weights = np.asarray(sample_weight, dtype=float)
    except (TypeError, ValueError):
        raise DataError("sample_weight must hold numbers, one weight per row.") from None
    if weights.ndim != 1 or len(weights) != n_rows:
        raise DataError(f"sample_weight must give one weight per row: X has {n_rows} rows, sample_weight "
                        f"has shape {weights.shape}.")
    if not np.isfinite(weights).all():
        raise DataError("sample_weight must hold finite numbers; it holds NaN or infinity.")
    if (weights < 0).any():
        row = int(np.flatnonzero(weights < 0)[0])
        raise DataError(f"sample_weight must not be negative; row {row} weighs {weights[row]:g}.")
    if not weights.sum() > 0:
        raise DataError("sample_weight must give some row a positive weight; all weights are zero.")
    return weights.copy()  # never the caller's array


def drop_weightless(X, y, sample_weight):
    """(X, y, sample_weight) without the rows of weight 0: scikit-learn grows its tree without them."""
    if sample_weight is None or (sample_weight > 0).all():
        return X, y, sample_weight
    keep = sample_weight > 0
    return X[keep], y[keep], sample_weight[keep]
