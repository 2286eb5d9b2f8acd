"""The ROC curve and the area under it: how well a classifier's scores rank positive rows above negative
ones, whatever threshold is later chosen.

At threshold t (predict positive when score >= t) the true positive rate is TPR(t) = TP(t) / P and the
false positive rate FPR(t) = FP(t) / N, with P and N the numbers of positive and negative rows. The
curve joins (FPR, TPR) over all thresholds, from (0, 0) (t = +inf: nothing predicted positive) to
(1, 1). Its area AUC = integral of TPR d(FPR), by the trapezoidal rule, is the chance that a random
positive row scores higher than a random negative one (ties count one half). Numbers match
scikit-learn's roc_curve and roc_auc_score, ties included.
"""

import numpy as np

from ..core.errors import DataError
from .metrics import _py_list
from .ranking import (binary_truth, counts_at_thresholds, one_vs_rest_average, read_scores,
                      read_truth)


def _both_classes(is_positive, what):
    if is_positive.all() or not is_positive.any():
        which = "negative" if is_positive.all() else "positive"
        raise DataError(f"y_true has no {which} rows, so the {what} is not defined; it needs rows of both "
                        "classes.")


def _corners_only(fp, tp):
    """Indices of the points where the curve turns: a point on a straight line between its neighbours
    draws nothing (scikit-learn's drop_intermediate); the two ends are always kept."""
    turns = np.logical_or(np.diff(fp, 2), np.diff(tp, 2))
    return np.flatnonzero(np.r_[True, turns, True])


def roc_curve(y_true, y_score, pos_label=None, drop_intermediate=True):
    """(fpr, tpr, thresholds), arrays of equal length: fpr[i] = FP/N and tpr[i] = TP/P when rows with
    score >= thresholds[i] are called positive. thresholds decrease from +inf (the point (0, 0)) through
    the distinct scores; tied scores make one point. With drop_intermediate, points lying on a straight
    segment between their neighbours are left out (the curve and its area do not change).

    y_score is the score (e.g. probability) of the positive class, pos_label; it defaults to 1 when
    y_true holds 0/1 or -1/+1."""
    is_positive, _ = binary_truth(y_true, pos_label)
    scores = read_scores(y_score, len(is_positive))
    if scores.ndim != 1:
        raise DataError(f"y_score must be one score per row (the positive class's); got shape {scores.shape}.")
    _both_classes(is_positive, "ROC curve")
    fp, tp, thresholds = counts_at_thresholds(is_positive, scores)
    if drop_intermediate and len(fp) > 2:
        keep = _corners_only(fp, tp)
        fp, tp, thresholds = fp[keep], tp[keep], thresholds[keep]
    fp, tp = np.r_[0.0, fp], np.r_[0.0, tp]
    return fp / fp[-1], tp / tp[-1], np.r_[np.inf, thresholds]


def auc(x, y):
    """Area under the polyline through the points (x[i], y[i]) by the trapezoidal rule,
    sum_i (x[i+1] - x[i]) (y[i] + y[i+1]) / 2; x must be monotonic (increasing or decreasing)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.ndim != 1 or x.shape != y.shape or len(x) < 2:
        raise DataError(f"auc needs two 1-D arrays of equal length >= 2; got shapes {x.shape} and {y.shape}.")
    dx = np.diff(x)
    direction = 1.0
    if np.any(dx < 0):
        if not np.all(dx <= 0):
            raise DataError("x must be monotonic (only increasing or only decreasing) for auc.")
        direction = -1.0
    return float(direction * np.sum(dx * (y[1:] + y[:-1]) / 2.0))


def _binary_auc(is_positive, scores):
    fp, tp, _ = counts_at_thresholds(is_positive, scores)
    return auc(np.r_[0.0, fp] / fp[-1], np.r_[0.0, tp] / tp[-1])


def _second_column(scores, y):
    """Binary scores: a column per class is allowed; the second is the greater label's."""
    if scores.ndim == 2:
        if scores.shape[1] != 2:
            raise DataError(f"y_true has two classes but y_score has {scores.shape[1]} columns.")
        return scores[:, 1]
    return scores


def roc_auc_score(y_true, y_score, average="macro", labels=None):
    """Area under the ROC curve.

    Two classes: y_score is the score of the greater (second sorted) label, or two columns of which the
    second is used; the result is that label's AUC.

    More classes (one-vs-rest): y_score has a probability column per class (classes in the order of
    `labels`, or sorted). Class c's AUC treats c as positive and every other class as negative, and
    they are combined by `average`: "macro" (1/k) sum_c AUC_c, "weighted" sum_c (n_c / n) AUC_c,
    "micro" the AUC of all (row, class) pairs pooled, or None (the per-class values)."""
    y = read_truth(y_true)
    classes = np.unique(y)
    if len(classes) < 2:
        raise DataError(f"y_true holds one class only ({_py_list(classes)}), so ROC AUC is not defined; "
                        "it needs rows of at least two classes.")
    if len(classes) == 2 and (labels is None or len(labels) == 2):
        return _binary_auc(y == classes[1], _second_column(read_scores(y_score, len(y)), y))
    return one_vs_rest_average(y, y_score, labels, average, _binary_auc, "one-vs-rest AUC")
