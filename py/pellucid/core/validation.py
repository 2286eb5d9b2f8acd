"""Input checking: turn what a caller passes as X into clean columns, or raise a DataError that says
which column or row is wrong, what was expected and what was found (after scikit-learn's validation.py).

X may be a 2-D array or list of rows, a pandas DataFrame, or a pellucid Table (anything with `.columns`
and `.column(name)`). Columns holding text are categorical (values kept as str); everything else is
numeric (float64). How one column's values are read is in `values`; the target y and the parameters
that depend on the data are checked in `targets` (both importable from here too).
"""

import sys
import warnings

import numpy as np

from .errors import DataError
from .settings import CATEGORICAL, NUMERIC
from .targets import check_classes, check_k_within_rows, check_target  # noqa: F401 (public here too)
from .values import (_as_categorical, _as_numeric, _first_bad_rows, _refuse_unreadable, _require_finite,
                     _require_workable_scale, _text_cells, is_table, workable_scale)  # noqa: F401


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


def check_X(X, feature_names=None, *, kinds=None, allow_missing=False):
    """Validate X into `Columns`. `kinds` forces each column's kind (as fitted); missing values and
    infinities are an error, but missing values are kept with `allow_missing` (True), and missing
    numbers only (NaN) with allow_missing="numbers" (what a tree takes)."""
    names, raw = _raw_columns(X, feature_names)
    if kinds is None and isinstance(getattr(X, "kinds", None), dict):
        kinds = [X.kinds[name] for name in names]  # a Table says how each column is to be read
    if kinds is not None and len(kinds) != len(raw):
        raise DataError(f"X has {len(raw)} features, but the model was fitted on {len(kinds)}.")
    return _judge(names, raw, kinds, allow_missing, fitting=True)


def names_source(X, feature_names):
    """Where fit found the column names: "frame" (a DataFrame's own), "given" (a table's, or the
    feature_names argument), or None (X had none, so the columns are x0, x1, ...)."""
    if feature_names is not None or is_table(X):
        return "given"
    return "frame" if is_frame(X) and frame_names(X) is not None else None


def names_at_predict(model, X):
    """The DataFrame names of X to hold to the fitted ones, or None when X is read by position.

    As scikit-learn, a model fitted without names reads a DataFrame by position and one fitted on a
    DataFrame reads an array by position, each with a UserWarning in scikit-learn's words. A model
    rebuilt from JSON has no record of where its names came from: it holds a DataFrame to them."""
    source = getattr(model, "_feature_names_from", "given")
    given = frame_names(X) if is_frame(X) else None
    if given is not None and source is None:
        warnings.warn(f"X has feature names, but {type(model).__name__} was fitted without feature names",
                      UserWarning, stacklevel=_caller_level())
        return None
    if given is None and source == "frame" and not is_table(X):
        warnings.warn(f"X does not have valid feature names, but {type(model).__name__} was fitted with "
                      "feature names", UserWarning, stacklevel=_caller_level())
    return given


def _caller_level():
    """The stacklevel of the first frame outside pellucid (for a warning from the caller of this
    function's caller): the warning names the line that called predict, however deep it was read."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_globals.get("__name__", "").startswith("pellucid."):
        frame, level = frame.f_back, level + 1
    return level


def check_X_fitted(model, X, *, allow_missing=False):
    """X at predict time, read the way `model`'s training data was: a table's columns picked by name, a
    DataFrame's required to be the fitted columns in the fitted order (`names_at_predict`), an array's
    taken by position; the same number of columns and the same kinds. The Columns carry the fitted
    names."""
    fitted = list(model.feature_names_in_)
    if is_table(X):
        return _judge(*_raw_columns(X, fitted), model.feature_kinds_, allow_missing, fitting=False)
    names, raw = _raw_columns(X, None)
    given = names_at_predict(model, X)
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
        cells = _text_cells(col)  # a list when every cell is a str or None: nothing there to refuse
        if cells is None:
            _refuse_unreadable(name, col)
        wanted = kinds[j] if kinds is not None else None
        numeric = None if wanted == CATEGORICAL else _as_numeric(name, col, cells)
        if wanted == NUMERIC and numeric is None:
            raise DataError(f"Column {name!r} must be numeric, as when the model was fitted, but it holds text.")
        if numeric is not None:
            _require_finite(name, numeric, bool(allow_missing))
            if fitting:
                _require_workable_scale(name, numeric)
            data.append(numeric)
            found_kinds.append(NUMERIC)
        else:
            values, missing = _as_categorical(col, cells)
            if missing.any() and allow_missing is not True:
                raise DataError(f"Column {name!r} has {int(missing.sum())} missing values (rows "
                                f"{_first_bad_rows(missing)}); drop those rows or fill them first.")
            data.append(values)
            found_kinds.append(CATEGORICAL)
    return Columns(names, data, found_kinds)


def check_X_y(X, y, feature_names=None, *, task):
    """Validate features and target together."""
    columns = check_X(X, feature_names)
    return columns, check_target(y, columns.n_rows, task=task)
