"""The calibration (reliability) curve: when a classifier says "70% positive", are about 70% of those rows
positive?

The predicted probabilities p_i of the positive class are cut into bins; in each bin b with rows B,
the curve's point is (mean predicted probability (1/|B|) sum_{i in B} p_i, fraction of positives
(1/|B|) sum_{i in B} [y_i = positive]). A well-calibrated model's points lie on the diagonal.
Bins and their edges follow scikit-learn's calibration_curve, whose numbers the tests compare against.
"""

import numpy as np

from ..core.errors import DataError
from .ranking import binary_truth, read_scores

STRATEGIES = ("uniform", "quantile")


def _bin_edges(prob, n_bins, strategy):
    """n_bins + 1 edges: equal widths over [0, 1] ("uniform"), or the quantiles of the predicted
    probabilities, so each bin holds about as many rows ("quantile")."""
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    if strategy == "quantile":
        return np.percentile(prob, np.linspace(0, 1, n_bins + 1) * 100)
    raise DataError(f"strategy must be one of {', '.join(STRATEGIES)}; got {strategy!r}.")


def calibration_bins(y_true, y_prob, pos_label=None, n_bins=5, strategy="uniform"):
    """Everything the reliability diagram shows: {"edges" (n_bins + 1 edges), "count" (rows per bin,
    all bins), and, for the non-empty bins only, "bin" (their index), "prob_true" (fraction of positive
    rows) and "prob_pred" (mean predicted probability), plus "pos_label"}.

    A row goes to bin b when edges[b] < p <= edges[b+1] (the first bin also takes p = edges[0]); with
    quantile edges, rows at a repeated quantile all go to the first of the equal edges' bins."""
    is_positive, pos_label = binary_truth(y_true, pos_label)
    prob = read_scores(y_prob, len(is_positive), "y_prob")
    if prob.ndim != 1:
        raise DataError(f"y_prob must be one probability per row (the positive class's); got shape {prob.shape}.")
    if prob.min() < 0 or prob.max() > 1:
        raise DataError("y_prob has values outside [0, 1]; a calibration curve needs probabilities.")
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise DataError(f"n_bins must be a whole number >= 1; got {n_bins!r}.")
    edges = _bin_edges(prob, int(n_bins), strategy)
    bin_of_row = np.searchsorted(edges[1:-1], prob)  # (n,) inner edges only: values at an edge go left
    count = np.bincount(bin_of_row, minlength=n_bins)
    prob_sum = np.bincount(bin_of_row, weights=prob, minlength=n_bins)
    positives = np.bincount(bin_of_row, weights=is_positive.astype(float), minlength=n_bins)
    filled = count != 0  # empty bins have no point on the curve
    return {"pos_label": pos_label, "strategy": strategy, "edges": edges, "count": count,
            "bin": np.flatnonzero(filled), "prob_true": positives[filled] / count[filled],
            "prob_pred": prob_sum[filled] / count[filled]}


def calibration_curve(y_true, y_prob, pos_label=None, n_bins=5, strategy="uniform"):
    """(prob_true, prob_pred) for the non-empty bins, in bin order: the fraction of positive rows and the
    mean predicted probability of the positive class in each. Bins are "uniform" (equal widths over
    [0, 1]) or "quantile" (about equal row counts). See calibration_bins for the bin edges and counts."""
    bins = calibration_bins(y_true, y_prob, pos_label, n_bins, strategy)
    return bins["prob_true"], bins["prob_pred"]
