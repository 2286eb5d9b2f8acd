"""Sparse count matrices (scipy.sparse, e.g. a CountVectorizer's output) for the naive Bayes models that
count features (multinomial, Bernoulli). A word-count matrix of a few thousand documents by tens of
thousands of words fits in memory only while sparse, so it is never densified: it is read with the
matrix's own methods (tocsr, its `data` array, `@`), and scipy is never imported here, so it stays out of
the package's dependencies."""

import numpy as np

from ...core.errors import DataError
from ...core.settings import CATEGORICAL, NUMERIC
from ...core.targets import check_target


def is_sparse(X):
    """A scipy.sparse matrix or array, told by its shape rather than by importing scipy."""
    return hasattr(X, "tocsr") and hasattr(X, "nnz")


def _checked(X):
    """X as a CSR matrix of floats with duplicate entries summed, its stored values finite."""
    if len(X.shape) != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise DataError(f"X must be a non-empty 2-D matrix; got a sparse matrix of shape {tuple(X.shape)}.")
    X = X.tocsr().astype(float)  # a new matrix: the caller's is never written to
    X.sum_duplicates()
    if not np.isfinite(X.data).all():
        raise DataError("X holds missing or infinite values; fill or drop them first.", field="features")
    return X


def read_sparse_fit(model, X, y):
    """(CSR X, y) for fit; sets the names (x0, x1, ...), kinds and count of the columns as `read_fit` does."""
    X = _checked(X)
    y = check_target(y, X.shape[0], task="classification")
    model.feature_names_in_ = [f"x{j}" for j in range(X.shape[1])]
    model.feature_kinds_ = [NUMERIC] * X.shape[1]
    model.n_features_in_ = X.shape[1]
    model._feature_names_from = None
    return X, y


def read_sparse(model, X):
    """CSR X at predict time (or a later partial_fit), with the fitted number of columns, all numeric."""
    model._check_fitted()
    if CATEGORICAL in model.feature_kinds_:
        raise DataError(f"{type(model).__name__} was fitted on text columns; a sparse matrix cannot hold them.")
    if len(X.shape) == 2 and X.shape[1] != model.n_features_in_:
        raise DataError(f"X has {X.shape[1]} features, but {type(model).__name__} is expecting "
                        f"{model.n_features_in_} features as input.")
    return _checked(X)


def sparse_position(X, k):
    """(row, column) of a CSR matrix's k-th stored entry, for messages that name where a bad value is."""
    return int(np.searchsorted(X.indptr, k, side="right") - 1), int(X.indices[k])
