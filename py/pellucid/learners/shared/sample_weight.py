"""Row weights passed to `fit` or `partial_fit`, read as scikit-learn reads them: None is 1 for every row,
a single number is that weight for every row, otherwise one finite, non-negative number per row. A row of
weight w counts as w copies of itself wherever a learner counts rows (naive Bayes), and scales its step
where a learner steps (the perceptron)."""

import numpy as np

from ...core.errors import DataError


def check_sample_weight(sample_weight, n_rows):
    """(n,) float weights for n_rows rows, or a DataError naming sample_weight and what is wrong."""
    if sample_weight is None:
        return np.ones(n_rows)
    try:
        w = np.asarray(sample_weight, dtype=float)
    except (TypeError, ValueError) as exc:
        raise DataError(f"sample_weight must be numbers, one per row ({exc}).") from exc
    if w.ndim == 0:
        w = np.full(n_rows, float(w))
    if w.ndim != 1:
        raise DataError(f"sample_weight must be 1-D, one weight per row; got an array of shape {w.shape}.")
    if len(w) != n_rows:
        raise DataError(f"sample_weight has {len(w)} weights, but X has {n_rows} rows: give one weight per row.")
    if not np.isfinite(w).all():
        row = int(np.flatnonzero(~np.isfinite(w))[0])
        raise DataError(f"sample_weight must be finite; it holds {w[row]} at row {row + 1}.")
    if (w < 0).any():
        row = int(np.flatnonzero(w < 0)[0])
        raise DataError(f"sample_weight must not be negative (a weight counts rows); it holds {w[row]:g} at "
                        f"row {row + 1}.")
    return w
