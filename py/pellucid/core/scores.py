"""The two scores every estimator's `score` gives: accuracy for a classifier, R^2 for a regressor, with the
checks of their inputs. They sit here, below the estimators (core.base), so that the estimator contract needs
nothing from evaluation; `pellucid.evaluation.metrics` offers them with the other metrics.
"""

import numpy as np

from .errors import DataError
from .values import is_missing


def labels_1d(y, name):
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise DataError(f"{name} must be 1-D (one value per row); got shape {y.shape}.")
    if y.size == 0:
        raise DataError(f"{name} is empty: at least one row is needed.")
    if y.dtype.kind == "O":
        if set(map(type, y.tolist())) == {str}:  # text labels, the usual case: none missing, one kind
            return y.astype(str)  # (told at C speed: a comparison scores every metric of every fold this way)
        if any(is_missing(v) for v in y.tolist()):
            raise DataError(f"{name} has missing values; drop those rows first.")
        kinds = {isinstance(v, str) for v in y.tolist()}
        if len(kinds) > 1:
            raise DataError(f"{name} mixes text and numbers; labels must be of one kind.")
        y = y.astype(str) if kinds == {True} else np.array(y.tolist())
    elif y.dtype.kind == "f" and np.isnan(y).any():
        raise DataError(f"{name} has missing values (NaN); drop those rows first.")
    return y


def same_length(a, b, names=("y_true", "y_pred")):
    if len(a) != len(b):
        raise DataError(f"Found input variables with inconsistent numbers of samples: "
                        f"{names[0]} has {len(a)} values, {names[1]} has {len(b)}.")


def label_pair(y_true, y_pred):
    y_true, y_pred = labels_1d(y_true, "y_true"), labels_1d(y_pred, "y_pred")
    same_length(y_true, y_pred)
    text = (y_true.dtype.kind in "US", y_pred.dtype.kind in "US")
    if text[0] != text[1]:
        raise DataError("y_true and y_pred hold different kinds of labels (one text, one numbers); "
                        "they must be comparable.")
    return y_true, y_pred


def accuracy_score(y_true, y_pred, normalize=True):
    """Fraction (or, with normalize=False, number) of rows whose predicted label equals the true one."""
    y_true, y_pred = label_pair(y_true, y_pred)
    correct = np.sum(y_true == y_pred)
    return float(correct / len(y_true)) if normalize else int(correct)


def number_pair(y_true, y_pred):
    out = []
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        y = labels_1d(y, name)
        if y.dtype.kind not in "biuf":
            raise DataError(f"{name} must be numbers for a regression metric; found text.")
        y = y.astype(float)
        if not np.all(np.isfinite(y)):
            raise DataError(f"{name} has infinite values.")
        out.append(y)
    same_length(*out)
    return out


def r2_score(y_true, y_pred):
    """Coefficient of determination 1 - sum (y - y_hat)^2 / sum (y - mean y)^2. For constant y_true
    (no variance to explain) it is 1.0 for perfect predictions and 0.0 otherwise, as in sklearn; unlike
    sklearn, which gives NaN for a single row, that rule applies there too (the result stays JSON-able)."""
    y_true, y_pred = number_pair(y_true, y_pred)
    residual = np.sum((y_true - y_pred) ** 2)
    total = np.sum((y_true - y_true.mean()) ** 2)
    if total == 0:
        return 1.0 if residual == 0 else 0.0
    return float(1.0 - residual / total)
