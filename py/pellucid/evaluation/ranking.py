"""What ROC and precision-recall curves are made of: which rows are positive, and, for every threshold t
on the score, how many positive and negative rows score at least t.

A classifier with probabilities ranks the rows by its score s_i for the positive class; predicting
"positive" for every row with s_i >= t gives, at each t, true positives TP(t) and false positives FP(t).
Only the distinct scores matter as thresholds: rows with tied scores are on the same side of every t,
so they enter the counts together (scikit-learn's rule, which the tests compare against).
"""

import numpy as np

from ..core.errors import DataError
from .metrics import _labels_1d, _py_list


def read_scores(y_score, n, name="y_score"):
    """The scores as a float array of shape (n,) or (n, k), finite, one row per label."""
    try:
        scores = np.asarray(y_score, dtype=float)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{name} must be numbers (a score or probability per row).") from exc
    if scores.ndim == 2 and scores.shape[1] == 1:
        scores = scores[:, 0]
    if scores.ndim not in (1, 2):
        raise DataError(f"{name} must have one score per row (or one column per class); got shape "
                        f"{scores.shape}.")
    if len(scores) != n:
        raise DataError(f"Found input variables with inconsistent numbers of samples: y_true has {n} "
                        f"values, {name} has {len(scores)}.")
    if not np.all(np.isfinite(scores)):
        raise DataError(f"{name} has missing or infinite values; every row needs a finite score.")
    return scores


def read_truth(y_true):
    """The true labels, 1-D, booleans read as 0/1."""
    y = _labels_1d(y_true, "y_true")
    return y.astype(int) if y.dtype.kind == "b" else y


def positive_label(y, pos_label):
    """The label counted as positive: the one given, or 1 when y holds only 0/1 or -1/+1 (as in
    scikit-learn, which asks for pos_label otherwise)."""
    labels = np.unique(y)
    if pos_label is not None:
        if len(labels) == 2 and pos_label not in labels.tolist():
            raise DataError(f"pos_label={pos_label!r} is not one of the labels {_py_list(labels)}.")
        return pos_label
    if len(labels) > 2:
        raise DataError(f"y_true holds {len(labels)} classes {_py_list(labels[:6])}; say which one is "
                        "positive (pos_label=...) to look at it against the rest.")
    numeric = y.dtype.kind in "iuf"
    values = set(labels.tolist()) if numeric else set()
    if numeric and (values <= {0, 1} or values <= {-1, 1}):
        return 1
    raise DataError(f"y_true holds the labels {_py_list(labels)}; say which one is positive "
                    "(pos_label=...).")


def binary_truth(y_true, pos_label=None):
    """(is_positive (n,) bool, pos_label) for the rows of y_true."""
    y = read_truth(y_true)
    pos_label = positive_label(y, pos_label)
    return y == pos_label, pos_label


def counts_at_thresholds(is_positive, scores):
    """(fp, tp, thresholds): for each distinct score t, in decreasing order, the number of negative and
    positive rows whose score is >= t. Both counts rise to the class totals at the lowest score."""
    order = np.argsort(-scores, kind="stable")  # highest score first
    sorted_scores = scores[order]
    sorted_positive = is_positive[order].astype(float)
    last_of_each_score = np.r_[np.flatnonzero(np.diff(sorted_scores)), len(scores) - 1]
    tp = np.cumsum(sorted_positive)[last_of_each_score]
    fp = 1.0 + last_of_each_score - tp  # rows so far minus positives so far
    return fp, tp, sorted_scores[last_of_each_score]


def confusion_at_thresholds(y_true, y_score, pos_label=None):
    """For a binary target, the confusion counts at every threshold the scores allow, so a threshold
    slider can redraw the confusion matrix without refitting: predicting positive when score >= t,
    returns {"thresholds" (decreasing distinct scores), "tn", "fp", "fn", "tp"} as arrays, plus
    "pos_label". Same numbers as scikit-learn's confusion_matrix_at_thresholds."""
    is_positive, pos_label = binary_truth(y_true, pos_label)
    scores = read_scores(y_score, len(is_positive))
    if scores.ndim != 1:
        raise DataError(f"y_score must be one score per row (the positive class's); got shape {scores.shape}.")
    fp, tp, thresholds = counts_at_thresholds(is_positive, scores)
    return {"pos_label": pos_label, "thresholds": thresholds, "tn": fp[-1] - fp, "fp": fp,
            "fn": tp[-1] - tp, "tp": tp}


def one_vs_rest(y_true, y_score, labels, probabilities=True):
    """(y, scores (n, k), classes) for one-vs-rest scoring of k >= 3 classes: the classes are `labels`
    (in the order of the score columns) or the sorted labels of y_true. With `probabilities` each row's
    scores must sum to 1, as scikit-learn asks for multiclass ROC AUC."""
    y = read_truth(y_true)
    scores = read_scores(y_score, len(y))
    if scores.ndim != 2:
        raise DataError(f"y_true holds more than two classes, so y_score needs one column per class; "
                        f"got shape {scores.shape}.")
    classes = np.unique(y) if labels is None else np.asarray(labels)
    if labels is not None:
        if len(np.unique(classes)) != len(classes):
            raise DataError(f"labels must not repeat a value; got {_py_list(classes)}.")
        unknown = np.setdiff1d(y, classes)
        if len(unknown):
            raise DataError(f"y_true holds {_py_list(unknown[:5])}, not among the labels {_py_list(classes)}.")
    if len(classes) != scores.shape[1]:
        raise DataError(f"y_score has {scores.shape[1]} columns but there are {len(classes)} classes "
                        f"{_py_list(classes[:6])}; give one column per class (labels=[...] names them).")
    if probabilities and not np.allclose(1, scores.sum(axis=1)):
        raise DataError("For more than two classes y_score must hold probabilities: each row's values "
                        "should sum to 1.")
    return y, scores, classes


def average_over_classes(per_class, support, average):
    """Combine one-vs-rest values: "macro" (plain mean), "weighted" (by each class's row count), or
    None (the per-class values)."""
    if average is None:
        return np.asarray(per_class)
    if average == "macro":
        return float(np.mean(per_class))
    if average == "weighted":
        return float(np.average(per_class, weights=support))
    raise DataError(f"average must be 'macro', 'weighted', 'micro' or None; got {average!r}.")


def one_vs_rest_average(y, y_score, labels, average, binary, name, probabilities=True):
    """A binary measure `binary(is_positive, scores)` taken one-vs-rest: class c positive against the
    rest, on its column of y_score; combined by `average` ("micro": every (row, class) pair pooled).
    `name` says what the measure is in the error for a class with no rows."""
    y, scores, classes = one_vs_rest(y, y_score, labels, probabilities=probabilities)
    onehot = y[:, None] == classes[None, :]  # (n, k)
    if average == "micro":
        return binary(onehot.ravel(), scores.ravel())
    support = onehot.sum(axis=0)
    absent = classes[support == 0]
    if len(absent):
        raise DataError(f"Class {absent[:1].tolist()[0]!r} has no rows in y_true, so its {name} is not defined.")
    return average_over_classes([binary(onehot[:, j], scores[:, j]) for j in range(len(classes))], support, average)
