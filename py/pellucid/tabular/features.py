"""How every learner reads X: the one reader of a caller's X, at fit time and at predict time. A tree
takes the validated columns as they are (`fit_columns`); learners that need numbers get them with
categorical columns one-hot encoded and numeric ones standardised when asked (`fit_numeric`); at predict
time X is read exactly as in training (`columns_for_predict`, `numeric`). The rules themselves (what is
missing, numeric, at a workable scale) are core.validation's.

At fit time a model records `feature_names_in_`, `feature_kinds_` and `n_features_in_` (and, for a
numeric matrix, its fitted `encoder_` and `feature_names_out_`). At predict time a table's columns are
picked by name and an array's are taken by position and given the fitted names; a wrong number of
columns says "X has 3 features, but LinearRegression is expecting 2 features as input".

A plain finite numeric ndarray (the common case) is read without splitting it into columns: the matrix
may then be X itself, so callers only read it and never write into it.
"""

from types import SimpleNamespace

import numpy as np

from .encoding import FeatureEncoder
from ..core.errors import DataError
from ..core.file_fields import Custom, Int, Kinds, Names, damaged, require_names
from ..core.sample_weight import check_sample_weight
from ..core.validation import _names_for as names_for
from ..core.values import finite_and_workable_at_once
from ..core.validation import (CATEGORICAL, NUMERIC, Columns, check_classes, check_target, check_X, check_X_fitted,
                               names_at_predict, names_source, workable_scale)


def _plain_matrix(X):
    """X as float64 (not copied if it already is) when it is a non-empty 2-D numeric array without NaN
    or infinity and at a workable scale, else None (then `check_X` reads it and explains what is wrong)."""
    if not isinstance(X, np.ndarray) or X.ndim != 2 or X.size == 0 or X.dtype.kind not in "fiub":
        return None
    M = np.asarray(X, dtype=float)  # (n, d)
    if finite_and_workable_at_once(M):  # the common case, in one pass
        return M
    if not np.isfinite(np.sum(M)) and not np.isfinite(M).all():  # a finite sum is the cheap first check
        return None
    return M if workable_scale(M) else None


# --- what a model file holds of it -----------------------------------------------------------------

def _encoder(value, path, dims):
    if not isinstance(value, FeatureEncoder):
        raise damaged(path, "must be a fitted feature encoder")
    value.check_against(dims.values["feature_names_in_"], dims.values["feature_kinds_"], path)
    dims.bind("n_encoded", len(value.output_names), path)
    return value


def _names_out(value, path, dims):
    if require_names(value, path, unique=False) != dims.values["encoder_"].output_names:
        raise damaged(path, "must name the encoder's output columns")
    return list(value)


# The state `read_fit` sets, as a model file holds it (core.file_fields specs); "n_features" is the number
# of input columns. `NUMERIC_STATE` adds what `fit_numeric` sets: "n_encoded" columns after encoding.
COLUMNS_STATE = {"feature_names_in_": Names("n_features"), "feature_kinds_": Kinds("n_features"),
                 "n_features_in_": Int(1, dim="n_features")}
NUMERIC_STATE = {**COLUMNS_STATE, "encoder_": Custom(_encoder), "feature_names_out_": Custom(_names_out)}


# --- fit -------------------------------------------------------------------------------------------

def read_fit(model, X, y=None, feature_names=None, *, task=None):
    """(data, y) for fit: data is the float matrix of a plain numeric array, else the checked Columns;
    y is checked for `task` ("classification" or "regression"; None: no target).

    Sets `feature_names_in_`, `feature_kinds_` and `n_features_in_`."""
    M = _plain_matrix(X)
    gaps = _takes_missing(model)
    if M is not None:
        # every column of a finite numeric array reads as a number (check_X would judge each column of a
        # row to say so: most of a fit's time on a wide table); only the names are left to read
        data, names, kinds = M, names_for(M.shape[1], feature_names), [NUMERIC] * M.shape[1]
    else:
        data = check_X(X, feature_names, allow_missing=gaps)
        names, kinds = data.names, data.kinds
    y = None if task is None else check_target(y, len(M) if M is not None else data.n_rows, task=task)
    model.feature_names_in_ = list(names)
    model.feature_kinds_ = list(kinds)
    model.n_features_in_ = len(names)
    model._feature_names_from = names_source(X, feature_names)  # to warn as scikit-learn at predict time
    return data, y


def fit_columns(model, X, y=None, feature_names=None, *, task=None):
    """(Columns, y): `read_fit`, with the data always as validated Columns (numeric or categorical)."""
    data, y = read_fit(model, X, y, feature_names, task=task)
    return _as_columns(model, data), y


def fit_numeric(model, X, y=None, feature_names=None, *, task=None, standardize=False, sample_weight=None):
    """(M, y): X validated and encoded into an (n, d) float matrix, y checked for `task`. Standardising
    uses the weighted means and sds when `sample_weight` (checked by core.sample_weight) is given.

    Sets `feature_names_in_`, `feature_kinds_`, `n_features_in_`, `encoder_` and `feature_names_out_`."""
    data, y = read_fit(model, X, y, feature_names, task=task)
    columns = _as_columns(model, data)
    weights = check_sample_weight(sample_weight, columns.n_rows)
    model.encoder_ = FeatureEncoder(standardize=standardize).fit(columns, weights)
    model.feature_names_out_ = list(model.encoder_.output_names)
    return _encode(model.encoder_, data), y


def fit_classes(model, X, y, feature_names=None, sample_weight=None, add_bias=True):
    """The linear classifiers' opening (logistic regression, the perceptron): X encoded (standardised
    when model.standardize), `classes_` set, and (F, y_index): the rows with the constant feature 1
    first, F = [1, x] (n, d + 1) (without add_bias, the encoded X itself), and each row's class number
    0..K-1 (n,)."""
    X, y = fit_numeric(model, X, y, feature_names, task="classification", standardize=model.standardize,
                       sample_weight=sample_weight)
    model.classes_ = check_classes(y)
    return with_bias(X) if add_bias else X, np.searchsorted(model.classes_, y)


def with_bias(X):
    """Prepend the constant feature 1, so w[0] is the bias (intercept) as in the notes."""
    return np.hstack([np.ones((X.shape[0], 1)), X])  # (n, d + 1)


def bias_rows(X):
    """with_bias(X) transposed, made directly: (d + 1, n), the constant 1 and then each feature as one
    contiguous row (the layout the fast losses read), with no (n, d + 1) copy on the way."""
    out = np.empty((X.shape[1] + 1, X.shape[0]))
    out[0] = 1.0
    out[1:] = X.T
    return out


def matrix(X, feature_names=None):
    """X validated and encoded as `fit_numeric` would, for functions with no model to remember how."""
    return fit_numeric(SimpleNamespace(), X, feature_names=feature_names)[0]  # (n, d)


# --- predict ---------------------------------------------------------------------------------------

def _takes_missing(model):
    """check_X's allow_missing for `model`: "numbers" when it takes missing numbers (NaN) in X (a tree sends
    them down the side that gained more), else False."""
    return "numbers" if getattr(model, "takes_missing_values", False) else False


def columns_for_predict(model, X):
    """X as Columns read the way the training data was: the same names, kinds and order."""
    return check_X_fitted(model, X, allow_missing=_takes_missing(model))


def read(model, X):
    """X at predict time: the float matrix of a plain numeric array shaped like the training data when
    every fitted column is numeric, else `columns_for_predict`."""
    model._check_fitted()
    M = _plain_matrix(X)
    if M is not None and M.shape[1] == len(model.feature_kinds_) and CATEGORICAL not in model.feature_kinds_:
        names_at_predict(model, X)  # warns when the model was fitted on a DataFrame
        return M
    return columns_for_predict(model, X)


def numeric(model, X):
    """X read and encoded exactly as the training rows were: an (n, d) float matrix (maybe X itself)."""
    data = read(model, X)  # checks that the model is fitted
    return _encode(model.encoder_, data)


def one_row(model, x_row):
    """One row (a dict by feature name, a flat list, or a one-row table) as Columns."""
    model._check_fitted()
    if isinstance(x_row, dict):
        missing = [n for n in model.feature_names_in_ if n not in x_row]
        if missing:
            raise DataError(f"The row has no value for feature(s) {', '.join(missing)}.")
        x_row = [x_row[n] for n in model.feature_names_in_]
    if not hasattr(x_row, "column") and np.ndim(x_row) == 1:
        row = np.empty((1, len(x_row)), dtype=object)
        row[0, :] = list(x_row)
        x_row = row
    columns = columns_for_predict(model, x_row)
    if columns.n_rows != 1:
        raise DataError(f"explain takes one row; got {columns.n_rows}.")
    return columns


def _as_columns(model, data):
    """`read_fit`'s data as Columns: a plain matrix is split into its columns (views, not copies)."""
    if isinstance(data, Columns):
        return data
    return Columns(model.feature_names_in_, list(data.T), model.feature_kinds_)


def _encode(encoder, data):
    """The encoder applied to Columns, or to an all-numeric matrix without splitting it into columns."""
    if isinstance(data, Columns):
        return encoder.transform(data)  # (n, d)
    if not encoder.means:
        return data
    means = np.array([encoder.means[n] for n in encoder.input_names])  # (d,)
    scales = np.array([encoder.scales[n] for n in encoder.input_names])  # (d,)
    return (data - means) / scales  # (n, d), a new array
