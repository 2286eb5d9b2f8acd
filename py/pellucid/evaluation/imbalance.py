"""Imbalanced targets: a score that a model predicting only the common class cannot game, and class
weights that make every class count as much in training.

When 95% of rows are one class, predicting it always scores 0.95 accuracy. Balanced accuracy is the
mean of the per-class recalls instead, so that model scores 1/k. Balanced class weights
w_c = n / (k n_c) give each class the same total weight n / k (n rows, k classes, n_c rows of class c).
Both match scikit-learn (balanced_accuracy_score; class_weight="balanced" in compute_class_weight).
"""

import numpy as np

from ..core.errors import DataError
from .metrics import _pair, _py_list, confusion_matrix, _labels_1d


def balanced_accuracy_score(y_true, y_pred, adjusted=False):
    """(1/k) sum_c recall_c = (1/k) sum_c TP_c / n_c over the k classes present in y_true (a label that
    is only predicted, never true, has no recall and is left out). With adjusted=True the score is
    rescaled so that chance (1/k) maps to 0 and perfect to 1: (score - 1/k) / (1 - 1/k)."""
    y_true, y_pred = _pair(y_true, y_pred)
    matrix, _ = confusion_matrix(y_true, y_pred)
    support = matrix.sum(axis=1)  # (labels,) rows of each label in y_true
    present = support > 0
    recall = np.diag(matrix)[present] / support[present]
    score = float(recall.mean())
    if adjusted:
        chance = 1.0 / len(recall)
        score = (score - chance) / (1.0 - chance) if chance < 1 else 0.0
    return score


def _classes(y, classes):
    found = np.unique(y)
    if classes is None:
        return found
    classes = np.asarray(classes)
    if len(np.unique(classes)) != len(classes):
        raise DataError(f"classes must not repeat a value; got {_py_list(classes)}.")
    extra = np.setdiff1d(found, classes)
    if len(extra):
        raise DataError(f"y holds {_py_list(extra[:5])}, not among the classes {_py_list(classes)}.")
    unseen = np.setdiff1d(classes, found)
    if len(unseen):
        raise DataError(f"Class {_py_list(unseen[:1])[0]!r} has no rows, so it has no balanced weight.")
    return classes


def balanced_class_weights(y, classes=None):
    """{class: n / (k n_c)} for the classes of y (sorted), or for `classes` in their order (every one
    must have rows in y): rare classes weigh more, and each class's rows weigh n / k in total."""
    y = _labels_1d(y, "y")
    classes = _classes(y, classes)
    counts = np.array([np.sum(y == c) for c in classes.tolist()], dtype=float)  # (k,)
    weights = len(y) / (len(classes) * counts)
    return dict(zip(_py_list(classes), weights.tolist()))


def balanced_sample_weights(y):
    """One weight per row, n / (k n_c) for a row of class c: what a learner that takes per-row weights
    uses for class_weight="balanced". The weights sum to n."""
    y = _labels_1d(y, "y")
    classes, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    return (len(y) / (len(classes) * counts))[codes.reshape(-1)]
