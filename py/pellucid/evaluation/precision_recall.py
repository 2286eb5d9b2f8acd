"""The precision-recall curve and average precision: how pure the rows called positive stay as the
threshold is lowered to find more of the positives (the view to take when positives are rare).

At threshold t (predict positive when score >= t): precision P(t) = TP / (TP + FP), recall
R(t) = TP / (TP + FN). Average precision is the step-wise area AP = sum_n (R_n - R_{n-1}) P_n over the
thresholds in decreasing order: each gain in recall weighted by the precision reached there, with no
interpolation between points (scikit-learn's definition; the tests compare against it).
"""

import numpy as np

from ..core.errors import DataError
from .ranking import binary_truth, counts_at_thresholds, one_vs_rest_average, read_scores, read_truth


def _curve(is_positive, scores, drop_intermediate=False):
    """(precision, recall, thresholds) in scikit-learn's layout: thresholds increase; precision and
    recall have one more entry, the end point (recall 0, precision 1) that has no threshold."""
    fp, tp, thresholds = counts_at_thresholds(is_positive, scores)
    if drop_intermediate and len(fp) > 2:
        # Among points of equal recall (a vertical run of the curve) keep the first and last only.
        keep = np.flatnonzero(np.r_[True, np.logical_or(np.diff(tp[:-1]), np.diff(tp[1:])), True])
        fp, tp, thresholds = fp[keep], tp[keep], thresholds[keep]
    called = tp + fp
    precision = np.divide(tp, called, out=np.zeros_like(tp), where=called != 0)
    recall = tp / tp[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]


def _has_positives(is_positive, what):
    if not is_positive.any():
        raise DataError(f"y_true has no positive rows, so the {what} is not defined (recall divides by "
                        "the number of positives).")


def precision_recall_curve(y_true, y_score, pos_label=None, drop_intermediate=False):
    """(precision, recall, thresholds): precision[i] and recall[i] when rows with score >= thresholds[i]
    are called positive. thresholds are the distinct scores in increasing order; precision and recall
    end with the extra point (1, 0), so the curve reaches the precision axis. Tied scores make one
    point. drop_intermediate keeps only the first and last of points with equal recall.

    y_score is the score of the positive class, pos_label (1 by default for 0/1 or -1/+1 labels)."""
    is_positive, _ = binary_truth(y_true, pos_label)
    scores = read_scores(y_score, len(is_positive))
    if scores.ndim != 1:
        raise DataError(f"y_score must be one score per row (the positive class's); got shape {scores.shape}.")
    _has_positives(is_positive, "precision-recall curve")
    return _curve(is_positive, scores, drop_intermediate)


def _binary_ap(is_positive, scores):
    precision, recall, _ = _curve(is_positive, scores)
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))  # clip the -0.0 of rounding


def average_precision_score(y_true, y_score, pos_label=None, average="macro", labels=None):
    """Average precision AP = sum_n (R_n - R_{n-1}) P_n, the thresholds taken from the highest score
    down (a step function, not interpolated).

    Two classes: y_score is the score of pos_label (default 1 for 0/1 or -1/+1 labels), or two
    columns of which the second, the greater label's, is used.

    More classes (one-vs-rest): y_score has a column per class (in the order of `labels`, or sorted);
    class c's AP treats c as positive and the rest as negative, combined by `average`: "macro" (plain
    mean), "weighted" (by each class's row count), "micro" (all (row, class) pairs pooled), or None
    (per-class values)."""
    y = read_truth(y_true)
    classes = np.unique(y)
    if len(classes) <= 2 and (labels is None or len(labels) <= 2):
        scores = read_scores(y_score, len(y))
        if scores.ndim == 2:
            if scores.shape[1] != 2:
                raise DataError(f"y_true has two classes but y_score has {scores.shape[1]} columns.")
            pos_label, scores = (classes[-1] if pos_label is None else pos_label), scores[:, 1]
        is_positive, _ = binary_truth(y, pos_label)
        _has_positives(is_positive, "average precision")
        return _binary_ap(is_positive, scores)
    if pos_label is not None:
        raise DataError("pos_label applies to two classes only; with more, every class takes its turn "
                        "as the positive one.")
    return one_vs_rest_average(y, y_score, labels, average, _binary_ap, "average precision", probabilities=False)
