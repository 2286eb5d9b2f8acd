"""Checking the target y against X, and the parameters that depend on the data (there must be two classes
to tell apart, no more clusters than rows), with messages that say what was found.
"""

import numbers
import warnings

import numpy as np

from .errors import DataError, data_conversion_warning
from .values import (_TO_STR, _as_numeric, _first_bad_rows, _missing_mask, _refuse_unreadable, _require_finite,
                     _require_workable_scale, is_table, one_column)


def check_target(y, n_rows, *, task):
    """y as a 1-D array with one value per row; floats for regression, labels for classification."""
    if y is None:
        raise DataError("This model requires y to be passed, but the target y is None: it learns from "
                        "labelled examples.")
    if not is_table(y):
        y = np.asarray(y)
    if not is_table(y) and y.ndim == 2 and y.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected; it is read as one value "
                      "per row (pass y.ravel() to say so).", data_conversion_warning(), stacklevel=3)
    y = one_column(y)
    if y.ndim != 1:
        raise DataError(f"y must be 1-D (one value per row); got shape {y.shape}.")
    if len(y) != n_rows:
        raise DataError(f"Found input variables with inconsistent numbers of samples: X has {n_rows} rows, "
                        f"y has {len(y)}.")
    _refuse_unreadable("target", y)
    if y.dtype.kind in "fiub":  # numeric: only NaN can be missing, decided in one pass
        missing = np.isnan(y) if y.dtype.kind == "f" else np.zeros(len(y), dtype=bool)
    else:
        missing = _missing_mask(y)
    if missing.any():
        raise DataError(f"The target has {int(missing.sum())} missing values (rows "
                        f"{_first_bad_rows(missing)}); drop those rows first.")
    if task == "regression":
        numeric = y.astype(float) if y.dtype.kind in "fiub" else _as_numeric("target", y)
        if numeric is None:
            raise DataError("The target must be numeric for regression, but it holds text; "
                            "choose a classifier for a categorical target.")
        _require_finite("target", numeric)
        _require_workable_scale("target", numeric)
        return numeric
    return _class_labels(y)


def _class_labels(y):
    """Class labels: whole-number floats become integers (when int64 holds them all), text stays text;
    fractional or infinite floats are refused, since they are a quantity rather than classes. Labels held
    as Python objects keep their values (`_object_labels`)."""
    if y.dtype.kind == "O":
        y = _object_labels(y)
    if y.dtype.kind == "f":
        _require_finite("target", y)
        fractional = y != np.round(y)
        if fractional.any():
            raise DataError(f"The target holds continuous values (for example {y[fractional][0]:g} at row "
                            f"{_first_bad_rows(fractional, 1)}), but a classifier needs class labels; choose "
                            "a regression model, or bin the target into classes first.")
        if np.all(np.abs(y) < 2.0 ** 63):
            y = y.astype(np.int64)
    return y


def _object_labels(y):
    """An object array of labels as the array of their own values, so that equal labels are one class and
    predictions equal the labels they were trained on (as np.unique and scikit-learn's unique_labels see
    them): all text stays text; all numbers become numbers (1 and 1.0 one class); text beside numbers
    is refused, as scikit-learn refuses it, since "1" and 1 would otherwise be one class or two by
    accident. Other objects are told apart by their text."""
    cells = y.tolist()
    types = set(map(type, cells))
    text = {t for t in types if issubclass(t, str)}
    if types == text:
        return np.asarray(cells, dtype=str)
    quantities = {t for t in types if issubclass(t, numbers.Number)}
    if text and quantities:
        first_text = next(v for v in cells if isinstance(v, str))
        first_number = next(v for v in cells if isinstance(v, numbers.Number))
        raise DataError(f"Mix of label input types (string and number): the target holds text such as "
                        f"{first_text!r} and numbers such as {first_number!r}; make every label text, or "
                        "every label a number.", field="target")
    if types == quantities:
        values = np.asarray(cells)
        return values if values.dtype.kind in "biuf" else np.array([float(v) for v in cells])
    return np.asarray(_TO_STR(y), dtype=str)


def check_classes(y, minimum=2):
    """The sorted distinct labels of y, with a clear error when there are too few to learn from."""
    classes = np.unique(y)
    if len(classes) < minimum:
        found = ", ".join(repr(c.item() if hasattr(c, "item") else c) for c in classes)
        raise DataError(f"The target has {len(classes)} class ({found}); at least {minimum} classes "
                        "are needed to learn to tell them apart.")
    return classes


def check_k_within_rows(k, n_rows):
    """A clustering cannot make more clusters than it has rows."""
    if k > n_rows:
        raise DataError(f"Parameter 'n_clusters' (k) must be at most the number of rows (n_samples={n_rows}); "
                        f"got {k}: choose a smaller k or use more rows.", field="params.n_clusters")
