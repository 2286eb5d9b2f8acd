"""Everything the page draws from a classifier's probabilities on held-out (or out-of-fold) rows, as one
JSON-able reply: ROC and precision-recall curves with their areas, the calibration curve, and, for two
classes, the confusion counts at every threshold so a slider can redraw the confusion matrix and its
metrics in the page without asking Python again.

Two classes: the curves are the positive class's (the second of `classes`, as predict_proba orders
them, unless `pos_label` says otherwise). More classes: one curve per class against the rest, with
macro and weighted averages of the areas. Areas are computed on every threshold; the curves and the
threshold table sent to the page are thinned to at most `max_points` points (evenly spread over the
thresholds, the ends kept), which a drawing of a few hundred pixels cannot tell apart.
"""

import numpy as np

from ..core.errors import DataError
from ..core.jsonable import plain
from .calibration import calibration_bins
from .precision_recall import average_precision_score, precision_recall_curve
from .ranking import read_scores, read_truth
from .roc import roc_auc_score, roc_curve


def _thin(arrays, max_points):
    """The same evenly spread entries of every array (first and last kept), at most max_points."""
    n = len(arrays[0])
    if max_points is None or n <= max_points:
        return arrays
    keep = np.unique(np.round(np.linspace(0, n - 1, max_points)).astype(int))
    return [a[keep] for a in arrays]


def _class_curves(is_positive, scores, n_bins, max_points):
    """ROC, precision-recall and calibration of one class against the rest."""
    fpr, tpr, roc_thresholds = _thin(roc_curve(is_positive, scores), max_points)
    precision, recall, pr_thresholds = precision_recall_curve(is_positive, scores)
    # precision/recall have one more entry than thresholds (the end point); thin them with a stand-in.
    precision, recall, pr_thresholds = _thin([precision, recall, np.r_[pr_thresholds, np.inf]], max_points)
    calibration = calibration_bins(is_positive, scores, n_bins=n_bins)
    return {"roc": {"fpr": fpr, "tpr": tpr, "thresholds": roc_thresholds,
                    "auc": roc_auc_score(is_positive, scores)},
            "precision_recall": {"precision": precision, "recall": recall, "thresholds": pr_thresholds,
                                 "average_precision": average_precision_score(is_positive, scores),
                                 "prevalence": float(np.mean(is_positive))},
            "calibration": {key: calibration[key] for key in ("edges", "count", "bin", "prob_true", "prob_pred")}}


# predict takes the first class of the highest probability, so at a tie of two classes (probability exactly
# 0.5) the positive class wins only when it is the first column. The slider's table keeps that one rule at
# every threshold, and always holds 0.5 itself, so its counts there are the confusion matrix of predict.
DEFAULT_THRESHOLD = 0.5


def _threshold_table(is_positive, scores, column, max_points):
    """{"thresholds" (decreasing), "tn", "fp", "fn", "tp", "comparison", "default_index"}: the counts when
    predicting positive for a score above t ("above": the positive class is the second column) or at
    least t ("at least": it is the first), t over the distinct scores, DEFAULT_THRESHOLD and the end
    (0 or 1) where every row, or none, is called positive."""
    above = column != 0
    end = 0.0 if above else 1.0
    thresholds = np.unique(np.r_[scores, DEFAULT_THRESHOLD, end])[::-1]  # (m,) decreasing
    side = "right" if above else "left"  # searchsorted "right" counts scores <= t, "left" scores < t

    def called(sorted_scores):  # how many of these scores are called positive at each threshold
        return len(sorted_scores) - np.searchsorted(sorted_scores, thresholds, side=side)

    tp = called(np.sort(scores[is_positive])).astype(float)
    fp = called(np.sort(scores[~is_positive])).astype(float)
    n_pos, n_neg = float(is_positive.sum()), float(len(is_positive) - is_positive.sum())
    default = int(np.flatnonzero(thresholds == DEFAULT_THRESHOLD)[0])
    keep = _thinned_indices(len(thresholds), max_points, default)
    return {"thresholds": thresholds[keep], "tn": (n_neg - fp)[keep], "fp": fp[keep], "fn": (n_pos - tp)[keep],
            "tp": tp[keep], "comparison": "above" if above else "at least",
            "default_index": int(np.searchsorted(keep, default))}


def _thinned_indices(n, max_points, must_keep):
    """Evenly spread indices of n entries (the ends kept), at most about max_points, with must_keep among them."""
    if max_points is None or n <= max_points:
        return np.arange(n)
    return np.unique(np.r_[np.round(np.linspace(0, n - 1, max_points - 1)).astype(int), must_keep])


def _column_of(classes, pos_label):
    if pos_label is None:
        return 1
    matches = np.flatnonzero(classes == pos_label)
    if not len(matches):
        raise DataError(f"pos_label={pos_label!r} is not one of the classes {classes.tolist()}.")
    return int(matches[0])


def _averages(per_class, key, area):
    """Macro and support-weighted means of an area over the classes that have rows."""
    present = [c for c in per_class if "note" not in c]
    if not present:
        return {"macro": None, "weighted": None}
    values = np.array([c[key][area] for c in present])
    support = np.array([c["support"] for c in present])
    return {"macro": float(values.mean()), "weighted": float(values @ support / support.sum())}


def probability_report(y_true, proba, classes, pos_label=None, n_bins=10, max_points=1000):
    """{"classes", "binary", and for two classes "pos_label", "curves" (the positive class's roc,
    precision_recall and calibration) and "thresholds" (tn/fp/fn/tp when predicting pos_label at
    threshold t by predict's rule, t over the distinct scores and 0.5, decreasing: _threshold_table);
    for more, "per_class" ([{"class", "support", roc, precision_recall, calibration}], or {"class",
    "support": 0, "note"} for a class with no rows here), "roc_auc" and "average_precision" ({"macro",
    "weighted"} over the classes with rows, equal to roc_auc_score's and average_precision_score's
    one-vs-rest averages when every class has rows)}.

    proba: (n, k) probabilities with columns in the order of `classes` (the model's classes_)."""
    y = read_truth(y_true)
    proba = read_scores(proba, len(y), "proba")
    classes = np.asarray(classes)
    if proba.ndim != 2 or proba.shape[1] != len(classes) or len(classes) < 2:
        raise DataError(f"proba must have one column per class ({len(classes)} classes); got shape "
                        f"{proba.shape}.")
    report = {"classes": classes, "binary": len(classes) == 2}
    if len(classes) == 2:
        column = _column_of(classes, pos_label)
        is_positive, scores = y == classes[column], proba[:, column]
        report.update(pos_label=classes[column], curves=_class_curves(is_positive, scores, n_bins, max_points),
                      thresholds=_threshold_table(is_positive, scores, column, max_points))
        return plain(report)
    per_class = []
    for j, c in enumerate(classes.tolist()):
        support = int(np.sum(y == c))
        if support in (0, len(y)):
            note = "no rows here" if support == 0 else "the only class here"
            per_class.append({"class": c, "support": support, "note": f"{c!r} is {note}: it has no curves."})
        else:
            per_class.append({"class": c, "support": support,
                              **_class_curves(y == c, proba[:, j], n_bins, max_points)})
    report.update(per_class=per_class, roc_auc=_averages(per_class, "roc", "auc"),
                  average_precision=_averages(per_class, "precision_recall", "average_precision"))
    return plain(report)
