"""Row weights given to `fit` (scikit-learn's `sample_weight`): checked once, with the message naming them.

A weight w_i counts row i as if it appeared w_i times: integer weights give the model the rows repeated
that many times, and a weight of 0 leaves the row out of what is learned. The weights must be finite,
not negative and not all zero (nothing would be learned from such rows, silently). The page gives no
weights (they come from Python code), so the errors name `sample_weight` in their message and no field.
"""

import numbers

import numpy as np

from .errors import DataError


def check_sample_weight(sample_weight, n_rows):
    """(n,) float weights, or None for none given (every row weighs 1). A single number weighs every row
    alike; anything else must be one finite, non-negative number per row, not all zero."""
    if sample_weight is None:
        return None
    if isinstance(sample_weight, numbers.Real) and not isinstance(sample_weight, bool):
        sample_weight = np.full(n_rows, float(sample_weight))
    try:
        weights = np.asarray(sample_weight, dtype=float)
    except (TypeError, ValueError):
        raise DataError("sample_weight must hold one number per row; got values that are not numbers.") from None
    if weights.ndim != 1 or len(weights) != n_rows:
        raise DataError(f"sample_weight must hold one number per row of X, one weight per row: X has {n_rows} "
                        f"rows, sample_weight has shape {weights.shape}.")
    if not np.all(np.isfinite(weights)):
        row = int(np.flatnonzero(~np.isfinite(weights))[0])
        raise DataError(f"sample_weight must be finite; row {row} weighs {weights[row]}.")
    if np.any(weights < 0):
        row = int(np.flatnonzero(weights < 0)[0])
        raise DataError(f"sample_weight must not be negative; row {row} weighs {weights[row]:g} (a weight counts "
                        "the row that many times).")
    if n_rows and not np.any(weights > 0):
        raise DataError("sample_weight is zero for every row, so there is nothing to learn from.")
    return weights.copy() if weights is sample_weight else weights  # never the caller's array


def weights_or_ones(sample_weight, n_rows):
    """check_sample_weight's (n,) weights, with every row weighing 1 when none were given: for learners
    that count (naive Bayes) or step (the perceptron) by a weight on every row."""
    weights = check_sample_weight(sample_weight, n_rows)
    return np.ones(n_rows) if weights is None else weights
