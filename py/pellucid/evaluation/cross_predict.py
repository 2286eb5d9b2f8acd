"""Out-of-fold predictions: under k-fold cross-validation, each row predicted by the one model that did
not see it in training (scikit-learn's cross_val_predict).

With folds S_1..S_k (notes 003, section 2.1), the model fitted on S - S_i predicts the rows of S_i. Every
row is in exactly one test fold, so every row gets one honest prediction, and the whole table's
confusion matrix, ROC curve or residuals can be drawn from data no model was fitted on. (A score
computed on all out-of-fold predictions at once is not the mean of the per-fold scores that
cross_validate reports; both are honest.)
"""

import numpy as np

from ..core.errors import DataError
from .model_selection import KFold, StratifiedKFold, clone, n_rows, take_rows
from .scoring import task_of
from .splits import _labels as labels_of

METHODS = ("predict", "predict_proba")


def _labels(y, n):
    return labels_of(y, n, "y")


def folds_for(model, k=5, stratified=None, shuffle=True, seed=0):
    """The splitter cross_validate uses for the same arguments: stratified for classifiers unless
    stratified=False, rows shuffled by `seed` first."""
    if stratified is None:
        stratified = task_of(model).value == "classification"
    return (StratifiedKFold if stratified else KFold)(k, shuffle=shuffle, seed=seed)


def _test_folds(cv, X, y, n):
    """[(train, test), ...] from a splitter (anything with split(X, y)) or a list of index pairs; every
    row must be in exactly one test fold."""
    pairs = [(np.asarray(train, dtype=int), np.asarray(test, dtype=int))
             for train, test in (cv.split(X, y) if hasattr(cv, "split") else cv)]
    times_tested = np.bincount(np.concatenate([test for _, test in pairs]), minlength=n) if pairs else []
    if len(times_tested) != n or np.any(times_tested != 1):
        raise DataError("cross_val_predict needs folds whose test rows cover every row exactly once "
                        "(a k-fold partition).")
    return pairs


def _fit(model, X, y, feature_names, fold):
    extra = {} if feature_names is None else {"feature_names": feature_names}
    try:
        return model.fit(X, y, **extra)
    except DataError as exc:
        raise DataError(f"Fitting the model for fold {fold + 1} failed: {exc}") from exc


def _proba_in_columns(fold_model, X_test, classes):
    """The fold model's probabilities placed in the columns of all classes: a class missing from the
    fold's training rows gets probability 0 (as in scikit-learn)."""
    proba = np.asarray(fold_model.predict_proba(X_test), dtype=float)  # (m, fold classes)
    out = np.zeros((len(proba), len(classes)))
    columns = np.searchsorted(classes, _labels(fold_model.classes_, len(fold_model.classes_)))
    out[:, columns] = proba
    return out


def cross_val_predict(model, X, y, k=5, method="predict", stratified=None, shuffle=True, seed=0, cv=None,
                      feature_names=None, return_folds=False):
    """One prediction per row, each from the model fitted on the other folds.

    method "predict" gives labels (or values, for a regressor), shape (n,); "predict_proba" gives
    class probabilities, shape (n, classes), columns in the sorted order of all of y's classes. The
    folds are cross_validate's for the same k, stratified, shuffle and seed (see folds_for), or `cv`:
    a splitter with split(X, y) or a list of (train_rows, test_rows) pairs covering every row once.
    The caller's model is left unfitted. With return_folds=True, returns (predictions, fold) where
    fold[i] is the number (0-based) of the fold whose model predicted row i."""
    if method not in METHODS:
        raise DataError(f"method must be one of {', '.join(METHODS)}; got {method!r}.")
    if method == "predict_proba" and not hasattr(model, "predict_proba"):
        raise DataError(f"{type(model).__name__} gives no probabilities; use method='predict'.")
    n = n_rows(X)
    labels = _labels(y, n)
    pairs = _test_folds(folds_for(model, k, stratified, shuffle, seed) if cv is None else cv, X, labels, n)
    classes = np.unique(labels) if method == "predict_proba" else None
    parts, fold = [], np.empty(n, dtype=int)
    for i, (train, test) in enumerate(pairs):
        fold_model = _fit(clone(model), take_rows(X, train), take_rows(y, train), feature_names, i)
        X_test = take_rows(X, test)
        parts.append(fold_model.predict(X_test) if classes is None
                     else _proba_in_columns(fold_model, X_test, classes))
        fold[test] = i
    tested = np.concatenate([test for _, test in pairs])
    predictions = np.concatenate(parts)[np.argsort(tested)]  # back to the rows' order
    return (predictions, fold) if return_folds else predictions
