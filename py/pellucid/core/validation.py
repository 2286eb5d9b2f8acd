"""Input checking: turn what a caller passes as X and y into clean columns, or raise a DataError that says
which column or row is wrong, what was expected and what was found (after scikit-learn's validation.py).

X may be a 2-D array or list of rows, or a pellucid Table (anything with `.columns` and `.column(name)`).
Columns holding text are categorical (values kept as str); everything else is numeric (float64).
"""

import datetime
import numbers
import warnings

import numpy as np

from .errors import DataError, data_conversion_warning
from .settings import CATEGORICAL, MISSING_MARKERS as _MISSING_TEXT, NUMERIC  # noqa: F401 (defined once)


def is_missing(value):
    """True for None, NaN, pandas' NA and NaT, and the usual missing markers in text."""
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    if isinstance(value, numbers.Real):
        return value != value
    return isinstance(value, str) and value.strip().lower() in _MISSING_TEXT


class Columns:
    """A validated feature matrix whose columns may be numeric (float64) or categorical (object of str)."""

    def __init__(self, names, data, kinds):
        self.names, self.data, self.kinds = list(names), list(data), list(kinds)
        self.n_rows = len(data[0]) if data else 0

    @property
    def n_features(self):
        return len(self.names)

    @property
    def columns(self):
        """The column names (so Columns can be passed back wherever X is accepted)."""
        return self.names

    def column(self, name):
        return self.data[self.names.index(name)]

    def take(self, rows):
        """The same columns restricted to `rows` (an index array or boolean mask)."""
        return Columns(self.names, [col[rows] for col in self.data], self.kinds)

    def numeric_matrix(self, model="This model"):
        """An (n, d) float64 array; categorical columns are an error (encode them first)."""
        for name, kind in zip(self.names, self.kinds):
            if kind != NUMERIC:
                raise DataError(f"{model} needs numeric features, but column {name!r} holds text; "
                                "one-hot encode it or leave it out.")
        if not self.data:
            return np.empty((self.n_rows, 0))
        return np.column_stack(self.data).astype(float, copy=False)  # (n, d)


def _names_for(n_cols, feature_names):
    if feature_names is not None:
        names = [str(n) for n in feature_names]
        if len(names) != n_cols:
            raise DataError(f"feature_names has {len(names)} names but X has {n_cols} columns.")
    else:
        names = [f"x{j}" for j in range(n_cols)]
    if len(set(names)) != len(names):
        raise DataError(f"feature_names must be unique; got {names}.")
    return names


def is_table(X):
    """A pellucid Table or Columns: columns picked by name with `.column(name)`."""
    return hasattr(X, "columns") and hasattr(X, "column")


def is_frame(X):
    """A pandas DataFrame (told by its shape, without importing pandas)."""
    return hasattr(X, "columns") and hasattr(X, "iloc") and hasattr(X, "dtypes") and not is_table(X)


def frame_names(X):
    """A DataFrame's column names when all are text (as scikit-learn takes them), else None."""
    names = list(X.columns)
    return [str(n) for n in names] if names and all(isinstance(n, str) for n in names) else None


def _frame_column(series):
    """One DataFrame column as a numpy array; pandas' nullable numbers (Int64, boolean) become floats
    with NaN where they hold <NA>, so a missing value is never read as the text "<NA>"."""
    if getattr(series.dtype, "kind", "O") in "iufb":
        return series.to_numpy(dtype=float, na_value=np.nan)
    return np.asarray(series)


def _no_features(shape):
    return DataError(f"X has 0 feature(s) (shape={tuple(shape)}) while a minimum of 1 is required: "
                     "choose at least one feature column.")


def _raw_columns(X, feature_names):
    """Split X into (names, list of 1-D arrays) without judging the values yet."""
    if is_table(X):
        names = list(feature_names) if feature_names is not None else list(X.columns)
        return [str(n) for n in names], [np.asarray(X.column(n)) for n in names]
    if hasattr(X, "toarray") and hasattr(X, "nnz"):
        raise DataError("X is a sparse matrix, and pellucid needs dense data (sparse input is not "
                        "supported): pass X.toarray().")
    if is_frame(X):
        if X.shape[1] == 0:
            raise _no_features(X.shape)
        names = _names_for(X.shape[1], feature_names if feature_names is not None else frame_names(X))
        return names, [_frame_column(X.iloc[:, j]) for j in range(X.shape[1])]
    try:
        arr = np.asarray(X)
    except ValueError as exc:
        raise DataError(f"X must be a table or a 2-D array with rows of equal length ({exc}).") from exc
    if arr.ndim == 1 and arr.size and arr.dtype != object:
        raise DataError(f"X must be 2-D (rows x features); got a 1-D array of {arr.size} values. Reshape "
                        "your data: X.reshape(-1, 1) if it is one feature, X.reshape(1, -1) if it is one row.")
    if arr.ndim != 2:
        raise DataError(f"X must be 2-D (rows x features); got an array of shape {arr.shape}.")
    if arr.shape[1] == 0:
        raise _no_features(arr.shape)
    names = _names_for(arr.shape[1], feature_names)
    return names, [arr[:, j] for j in range(arr.shape[1])]


def _refuse_unreadable(name, col):
    """Complex numbers and dates have no faithful reading as a number or a category: refuse them rather
    than drop an imaginary part or make one category per date."""
    if col.dtype.kind == "c" or (col.dtype == object and any(isinstance(v, complex) for v in col.tolist())):
        raise DataError(f"Complex data not supported: column {name!r} holds complex numbers; pass their "
                        "real parts or magnitudes explicitly.")
    dates = (datetime.date, datetime.time, datetime.timedelta, np.datetime64, np.timedelta64)
    if col.dtype.kind in "mM" or (col.dtype == object and any(isinstance(v, dates) for v in col.tolist())):
        raise DataError(f"Column {name!r} holds dates or times, which pellucid reads neither as numbers nor "
                        "as categories; convert them first (for example to days since a start date).")


def _as_numeric(name, col):
    """col as float64, or None if some value is text that is not a number."""
    if col.dtype.kind in "fiub":
        return col.astype(float)
    out = np.empty(len(col))
    for i, v in enumerate(col):
        if is_missing(v):
            out[i] = np.nan
            continue
        if isinstance(v, bool):
            return None
        try:
            out[i] = float(v)
        except (TypeError, ValueError, OverflowError):
            return None
    return out


_TO_STR = np.frompyfunc(str, 1, 1)


def _missing_mask(col, text=None):
    """(n,) is_missing of every value, with the text test run once per distinct str(value).

    A missing value's str is a missing marker or "None", so only the rows with such text can be missing;
    for text columns that decides, otherwise is_missing decides those few rows (b"NA" is not missing)."""
    is_text = col.dtype.kind == "U"
    markers = _MISSING_TEXT if is_text else _MISSING_TEXT | {"none", "<na>", "nat"}
    if text is None:
        text = col if col.dtype.kind == "U" else _TO_STR(col)  # (n,) str(v)
    text = np.asarray(text, dtype=str)  # fixed-width text sorts fast
    distinct, inverse = np.unique(text, return_inverse=True)
    marker = np.array([v.strip().lower() in markers for v in distinct.tolist()], dtype=bool)
    candidates = np.flatnonzero(marker[inverse.ravel()])
    missing = np.zeros(len(col), dtype=bool)
    if is_text:
        missing[candidates] = True
    else:
        missing[candidates] = [is_missing(v) for v in col[candidates].tolist()]
    return missing


def _as_categorical(col):
    """(values, missing): the values as an object array of str (None where missing), and the mask."""
    if col.dtype.kind == "U":
        out = col.astype(object)  # (n,) Python str
    else:
        out = _TO_STR(col).astype(object, copy=False)  # (n,) str(v), as a caller would write it
    missing = _missing_mask(col, out)
    out[missing] = None
    return out, missing


def _first_bad_rows(mask, limit=3):
    rows = np.flatnonzero(mask)[:limit] + 1
    return ", ".join(str(r) for r in rows)


def check_X(X, feature_names=None, *, kinds=None, allow_missing=False):
    """Validate X into `Columns`. `kinds` forces each column's kind (as fitted); missing values and
    infinities are an error unless `allow_missing`."""
    names, raw = _raw_columns(X, feature_names)
    if kinds is None and isinstance(getattr(X, "kinds", None), dict):
        kinds = [X.kinds[name] for name in names]  # a Table says how each column is to be read
    if kinds is not None and len(kinds) != len(raw):
        raise DataError(f"X has {len(raw)} features, but the model was fitted on {len(kinds)}.")
    return _judge(names, raw, kinds, allow_missing, fitting=True)


def check_X_fitted(model, X, *, allow_missing=False):
    """X at predict time, read the way `model`'s training data was: a table's columns picked by name, a
    DataFrame's required to be the fitted columns in the fitted order, an array's taken by position;
    the same number of columns and the same kinds. The Columns carry the fitted names."""
    fitted = list(model.feature_names_in_)
    if is_table(X):
        return _judge(*_raw_columns(X, fitted), model.feature_kinds_, allow_missing, fitting=False)
    names, raw = _raw_columns(X, None)
    given = frame_names(X) if is_frame(X) else None
    if given is not None and given != fitted:
        raise DataError(_names_differ(given, fitted))
    if len(raw) != len(fitted):
        raise DataError(f"X has {len(raw)} features, but {type(model).__name__} is expecting {len(fitted)} "
                        "features as input (as many as it was fitted on).")
    return _judge(fitted, raw, model.feature_kinds_, allow_missing, fitting=False)


def _names_differ(given, fitted):
    """What differs between a DataFrame's columns and the fitted ones (scikit-learn's wording)."""
    message = "The feature names should match those that were passed during fit.\n"
    unseen = [n for n in given if n not in fitted]
    missing = [n for n in fitted if n not in given]
    if unseen:
        message += "Feature names unseen at fit time:\n" + "".join(f"- {n}\n" for n in unseen[:5])
    if missing:
        message += "Feature names seen at fit time, yet now missing:\n" + "".join(f"- {n}\n" for n in missing[:5])
    if not unseen and not missing:
        message += "Feature names must be in the same order as they were in fit.\n"
    return message


def _judge(names, raw, kinds, allow_missing, fitting):
    """The raw columns read as numbers or categories (as `kinds` says, when given), or a DataError.
    Training data must be at a workable scale; a query far outside it is still answered."""
    if not raw:
        raise _no_features((0, 0))
    if len(raw[0]) == 0:
        raise DataError(f"X is empty: it has 0 rows and {len(raw)} columns; at least one row is needed.")
    data, found_kinds = [], []
    for j, (name, col) in enumerate(zip(names, raw)):
        _refuse_unreadable(name, col)
        wanted = kinds[j] if kinds is not None else None
        numeric = None if wanted == CATEGORICAL else _as_numeric(name, col)
        if wanted == NUMERIC and numeric is None:
            raise DataError(f"Column {name!r} must be numeric, as when the model was fitted, but it holds text.")
        if numeric is not None:
            if not allow_missing:
                _require_finite(name, numeric)
            if fitting:
                _require_workable_scale(name, numeric)
            data.append(numeric)
            found_kinds.append(NUMERIC)
        else:
            values, missing = _as_categorical(col)
            if missing.any() and not allow_missing:
                raise DataError(f"Column {name!r} has {int(missing.sum())} missing values (rows "
                                f"{_first_bad_rows(missing)}); drop those rows or fill them first.")
            data.append(values)
            found_kinds.append(CATEGORICAL)
    return Columns(names, data, found_kinds)


# Learners square and multiply values: in float64 that overflows for magnitudes beyond 1e150, so a
# column living at such a scale is refused rather than mislearned.
_LARGEST = 1e150


def workable_scale(M):
    """Whether every column of the finite matrix M (n, d) is at a scale the learners can compute with."""
    top = np.abs(M).max(axis=0)  # (d,)
    return bool(np.all(top <= _LARGEST))


def _require_workable_scale(name, values):
    finite = np.abs(values[np.isfinite(values)])
    top = finite.max() if finite.size else 0.0
    if top > _LARGEST:
        raise DataError(f"Column {name!r} holds values of magnitude {top:.3g}; learners square and multiply "
                        "values, which in float64 overflows beyond 1e150: rescale "
                        "the column (for example, change its units).")


def _require_finite(name, values):
    nan = np.isnan(values)
    if nan.any():
        raise DataError(f"Column {name!r} has {int(nan.sum())} missing values (NaN, rows "
                        f"{_first_bad_rows(nan)}); drop those rows or fill them first.")
    inf = np.isinf(values)
    if inf.any():
        raise DataError(f"Column {name!r} has infinite values (rows {_first_bad_rows(inf)}).")


def one_column(data):
    """A one-column table or an (n, 1) array as a 1-D numpy array; anything else as np.asarray(data)."""
    if is_table(data) and len(data.columns) == 1:
        data = data.column(data.columns[0])
    values = np.asarray(data)
    return values[:, 0] if values.ndim == 2 and values.shape[1] == 1 else values


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
    fractional or infinite floats are refused, since they are a quantity rather than classes."""
    if y.dtype.kind == "f":
        _require_finite("target", y)
        fractional = y != np.round(y)
        if fractional.any():
            raise DataError(f"The target holds continuous values (for example {y[fractional][0]:g} at row "
                            f"{_first_bad_rows(fractional, 1)}), but a classifier needs class labels; choose "
                            "a regression model, or bin the target into classes first.")
        if np.all(np.abs(y) < 2.0 ** 63):
            y = y.astype(np.int64)
    if y.dtype.kind == "O":
        y = np.asarray(_TO_STR(y), dtype=str)
    return y


def check_X_y(X, y, feature_names=None, *, task):
    """Validate features and target together."""
    columns = check_X(X, feature_names)
    return columns, check_target(y, columns.n_rows, task=task)


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
        raise DataError(f"Parameter 'k' must be at most the number of rows (n_samples={n_rows}); got {k}: "
                        "choose a smaller k or use more rows.")
