"""Metrics: how good predictions are, for classifiers (accuracy, losses, confusion, precision/recall/F1,
log loss) and regressors (MSE, MAE, R^2), with JSON-able reports for the page's readout.

Definitions and argument order follow scikit-learn's `sklearn.metrics` (the tests compare against it);
the 0-1 and perceptron losses on scores are the ones of notes 004 ("Loss Function for Classification").
"""

import numpy as np

from ..core.errors import DataError
from ..core.scores import accuracy_score, r2_score  # noqa: F401 (metrics of their own, kept low)
from ..core.scores import label_pair as _pair, labels_1d as _labels_1d, number_pair as _numbers
from ..core.scores import same_length as _same_length


# --- reading inputs ------------------------------------------------------------------------------

def _py_list(values):
    return [v.item() if isinstance(v, np.generic) else v for v in values]


def _resolve_labels(y_true, y_pred, labels):
    """The label order: as given, or the sorted union of both arrays."""
    if labels is None:
        return np.unique(np.concatenate([y_true, y_pred]))
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size == 0:
        raise DataError("labels must be a non-empty list of class labels.")
    if (labels.dtype.kind in "US") != (y_true.dtype.kind in "US"):
        raise DataError(f"labels {_py_list(labels)} and the data's labels are of different kinds "
                        "(one text, one numbers).")
    if len(np.unique(labels)) != len(labels):
        raise DataError(f"labels must not repeat a value; got {_py_list(labels)}.")
    return labels


def _encode(y, labels):
    """Index of each value of y in labels, -1 where it is not among them."""
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    pos = np.clip(np.searchsorted(sorted_labels, y), 0, len(labels) - 1)  # (n,)
    found = sorted_labels[pos] == y
    return np.where(found, order[pos], -1)


# --- classification ------------------------------------------------------------------------------

def zero_one_loss(y_true, y_pred, normalize=True):
    """The 0-1 loss on labels: fraction (or number) of rows predicted wrongly; 1 - accuracy."""
    y_true, y_pred = _pair(y_true, y_pred)
    wrong = np.sum(y_true != y_pred)
    return float(wrong / len(y_true)) if normalize else int(wrong)


def _margins(scores, y):
    """y * w.x for labels in {-1, +1} (0/1 and booleans are read as -1/+1)."""
    scores = np.asarray(scores, dtype=float)
    y = _labels_1d(y, "y")
    if scores.ndim != 1:
        raise DataError(f"scores must be 1-D (w.x for each row); got shape {scores.shape}.")
    _same_length(scores, y, ("scores", "y"))
    if not np.all(np.isfinite(scores)):
        raise DataError("scores must be finite numbers.")
    if y.dtype.kind == "b":
        y = y.astype(float)
    values = set(np.unique(y).tolist()) if y.dtype.kind in "iuf" else {None}
    if not (values <= {-1, 1} or values <= {0, 1}):
        raise DataError(f"y must hold the labels -1 and +1 (or 0 and 1); found {_py_list(np.unique(y)[:5])}.")
    signs = np.where(y > 0, 1.0, -1.0)  # (n,)
    return signs * scores


def margin_zero_one_loss(scores, y, normalize=True):
    """Notes 004's 0-1 loss on scores: L(y, w.x) = 0 if y * w.x > 0, else 1 (a score of exactly 0 is
    a mistake). Labels are -1/+1 (0/1 accepted as -1/+1). Mean over rows, or the sum with normalize=False."""
    losses = (_margins(scores, y) <= 0).astype(float)
    return float(losses.mean()) if normalize else float(losses.sum())


def perceptron_loss(scores, y, normalize=True):
    """Notes 004's perceptron loss: L_P(y, w.x) = 0 if y * w.x > 0, else -y * w.x, i.e. max(0, -y w.x):
    how far on the wrong side of the boundary each mistake is. Labels are -1/+1 (0/1 accepted as -1/+1).
    Mean over rows, or the sum with normalize=False."""
    losses = np.maximum(0.0, -_margins(scores, y))  # (n,)
    return float(losses.mean()) if normalize else float(losses.sum())


def _cell_codes(y_true, y_pred, labels):
    t, p = _encode(y_true, labels), _encode(y_pred, labels)
    keep = (t >= 0) & (p >= 0)  # rows whose labels are both listed (others are left out, as in sklearn)
    return np.where(keep, t * len(labels) + p, -1)  # (n,)


def confusion_matrix(y_true, y_pred, labels=None):
    """(matrix, labels): matrix[i, j] counts rows of true class labels[i] predicted as labels[j].
    Labels default to the sorted union of both arrays; rows whose labels are not listed are left out."""
    y_true, y_pred = _pair(y_true, y_pred)
    labels = _resolve_labels(y_true, y_pred, labels)
    codes = _cell_codes(y_true, y_pred, labels)
    k = len(labels)
    matrix = np.bincount(codes[codes >= 0], minlength=k * k).reshape(k, k)  # (k, k)
    return matrix, _py_list(labels)


def confusion_details(y_true, y_pred, labels=None):
    """The confusion matrix with, for each cell, the (0-based) row indices that fell in it, so the page
    can list the misclassified rows: {"labels", "matrix", "rows": rows[i][j] = [row indices]}."""
    y_true, y_pred = _pair(y_true, y_pred)
    labels = _resolve_labels(y_true, y_pred, labels)
    codes = _cell_codes(y_true, y_pred, labels)
    k = len(labels)
    kept = np.flatnonzero(codes >= 0)
    order = kept[np.argsort(codes[kept], kind="stable")]  # row indices grouped by cell, in row order
    counts = np.bincount(codes[kept], minlength=k * k)  # (k*k,)
    groups = np.split(order, np.cumsum(counts)[:-1])
    rows = [[groups[i * k + j].tolist() for j in range(k)] for i in range(k)]
    return {"labels": _py_list(labels), "matrix": counts.reshape(k, k).tolist(), "rows": rows}


def _safe_divide(num, den):
    return np.divide(num, den, out=np.zeros_like(num, dtype=float), where=den > 0)


def precision_recall_f1(y_true, y_pred, labels=None):
    """Per-class precision tp/(tp+fp), recall tp/(tp+fn), F1 = 2tp/(2tp+fp+fn) and support, with their
    macro averages (plain mean over classes, F1 averaged per class as in sklearn) and support-weighted
    averages. Where a denominator is 0 (a class never predicted, or never present) the value is 0, as
    with sklearn's zero_division=0; the classes affected are listed under "zero_division"."""
    y_true, y_pred = _pair(y_true, y_pred)
    labels = _resolve_labels(y_true, y_pred, labels)
    t, p = _encode(y_true, labels), _encode(y_pred, labels)  # -1 for labels not listed
    k = len(labels)
    # Counted over all rows, so a listed label predicted for a row of an unlisted class is a false positive.
    tp = np.bincount(t[(t == p) & (t >= 0)], minlength=k).astype(float)  # (k,)
    predicted, support = np.bincount(p[p >= 0], minlength=k), np.bincount(t[t >= 0], minlength=k)  # (k,), (k,)
    labels = _py_list(labels)
    precision = _safe_divide(tp, predicted)
    recall = _safe_divide(tp, support)
    f1 = _safe_divide(2 * tp, predicted + support)
    weights = support / support.sum() if support.sum() else np.zeros(len(labels))
    undefined = {"precision": [lab for lab, d in zip(labels, predicted) if d == 0],
                 "recall": [lab for lab, d in zip(labels, support) if d == 0]}
    return {"labels": labels, "precision": precision.tolist(), "recall": recall.tolist(),
            "f1": f1.tolist(), "support": support.tolist(),
            "macro": {"precision": float(precision.mean()), "recall": float(recall.mean()), "f1": float(f1.mean())},
            "weighted": {"precision": float(weights @ precision), "recall": float(weights @ recall),
                         "f1": float(weights @ f1)},
            "zero_division": undefined}


def log_loss(y_true, proba, labels=None):
    """Cross-entropy -(1/n) sum_i log p_i(y_i) of predicted probabilities. `proba` has one column per
    label in sorted order (or in the order of `labels`), or is 1-D: the probability of the second label.
    Probabilities are clipped to [eps, 1 - eps] with eps the float64 machine epsilon, as in sklearn."""
    y_true = _labels_1d(y_true, "y_true")
    proba = np.asarray(proba, dtype=float)
    if proba.ndim == 1:
        proba = np.column_stack([1 - proba, proba])  # (n, 2)
    if proba.ndim != 2:
        raise DataError(f"proba must be (n_rows, n_classes); got shape {proba.shape}.")
    _same_length(y_true, proba, ("y_true", "proba"))
    if not np.all(np.isfinite(proba)) or proba.min() < 0 or proba.max() > 1:
        raise DataError("proba must hold probabilities in [0, 1].")
    labels = np.unique(y_true) if labels is None else _resolve_labels(y_true, y_true, labels)
    if len(labels) < 2:
        raise DataError(f"y_true holds one label only ({_py_list(labels)}); pass labels=[...] to name them all.")
    if proba.shape[1] != len(labels):
        raise DataError(f"proba has {proba.shape[1]} columns but there are {len(labels)} labels "
                        f"{_py_list(labels)}; pass labels=[...] in the order of proba's columns.")
    index = _encode(y_true, labels)
    if np.any(index < 0):
        raise DataError(f"y_true holds {_py_list(np.unique(y_true[index < 0])[:5])}, not among the labels "
                        f"{_py_list(labels)}.")
    eps = np.finfo(float).eps
    p_true = np.clip(proba[np.arange(len(y_true)), index], eps, 1 - eps)  # (n,)
    return float(-np.mean(np.log(p_true)))


# --- regression ----------------------------------------------------------------------------------

def mean_squared_error(y_true, y_pred):
    """(1/n) sum (y - y_hat)^2."""
    y_true, y_pred = _numbers(y_true, y_pred)
    return float(np.mean((y_true - y_pred) ** 2))


def mean_absolute_error(y_true, y_pred):
    """(1/n) sum |y - y_hat|."""
    y_true, y_pred = _numbers(y_true, y_pred)
    return float(np.mean(np.abs(y_true - y_pred)))


# --- reports for the page ------------------------------------------------------------------------

def classification_report_dict(y_true, y_pred, labels=None, proba=None):
    """Everything the page shows for a classifier: accuracy, 0-1 loss, per-class precision/recall/F1
    with macro and weighted averages, the confusion matrix with its rows, and log loss if `proba` given
    (columns in the order of `labels`, or of the sorted labels of y_true)."""
    details = confusion_details(y_true, y_pred, labels)
    scores = precision_recall_f1(y_true, y_pred, details["labels"])
    per_class = [{"label": lab, "precision": p, "recall": r, "f1": f, "support": s}
                 for lab, p, r, f, s in zip(scores["labels"], scores["precision"], scores["recall"],
                                            scores["f1"], scores["support"])]
    report = {"task": "classification", "n": int(len(np.asarray(y_true))),
              "accuracy": accuracy_score(y_true, y_pred), "zero_one_loss": zero_one_loss(y_true, y_pred),
              "per_class": per_class, "macro": scores["macro"], "weighted": scores["weighted"],
              "zero_division": scores["zero_division"], "confusion": details}
    if proba is not None:
        report["log_loss"] = log_loss(y_true, proba, labels)
    return report


def regression_report_dict(y_true, y_pred):
    """Everything the page shows for a regressor: MSE, RMSE, MAE and R^2."""
    mse = mean_squared_error(y_true, y_pred)
    return {"task": "regression", "n": int(len(np.asarray(y_true))), "mse": mse, "rmse": float(np.sqrt(mse)),
            "mae": mean_absolute_error(y_true, y_pred), "r2": r2_score(y_true, y_pred)}
