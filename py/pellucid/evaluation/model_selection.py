"""Honest evaluation: k-fold cross-validation, the fitting and scoring it repeats, and the splits it
uses (from `splits`, importable from here too; the curves for choosing hyperparameters on held-out data
are in `curves`).

Notes 000 ("Training, Validation, Testing"): fit on training data, choose hyperparameters (Laplace k, tree
depth, k of k-NN, learning rate) by accuracy on validation data, and touch the test set once at the end.
Notes 003 (section 2.1): partition the sample randomly into k equal parts S_1..S_k, train on S - S_i, test
on S_i, and estimate the error as (1/k) sum_i error_i. Names follow scikit-learn; every random choice is
made by `np.random.default_rng(seed)`, and the caller's arrays and model are never changed.
"""

import time

import numpy as np

from . import metrics
from .imbalance import balanced_accuracy_score
from ..core import base
from ..core.base import Estimator
from ..core.errors import DataError
from .splits import (KFold, StratifiedKFold, _check_same_rows, _is_int, _labels,  # noqa: F401 (public here too)
                     n_rows, take_rows, train_test_split, train_val_test_split)


# --- fitting and scoring -------------------------------------------------------------------------

def clone(estimator):
    """A new, unfitted estimator of the same class with the same hyperparameters (deep-copied), keeping
    its metadata requests (`set_fit_request`) and output setting (`set_output`)."""
    if not isinstance(estimator, Estimator):
        raise DataError(f"clone expects a pellucid estimator; got {type(estimator).__name__}.")
    return base.clone(estimator)


def _macro(which):
    return lambda y_true, y_pred: metrics.precision_recall_f1(y_true, y_pred)["macro"][which]


# name -> (metric, uses predict_proba, greater is better)
SCORERS = {
    "accuracy": (metrics.accuracy_score, False, True),
    "balanced_accuracy": (balanced_accuracy_score, False, True),
    "zero_one_loss": (metrics.zero_one_loss, False, False),
    "precision_macro": (_macro("precision"), False, True),
    "recall_macro": (_macro("recall"), False, True),
    "f1_macro": (_macro("f1"), False, True),
    "log_loss": (metrics.log_loss, True, False),
    "mean_squared_error": (metrics.mean_squared_error, False, False),
    "mean_absolute_error": (metrics.mean_absolute_error, False, False),
    "r2": (metrics.r2_score, False, True),
}


def _scoring(model, scoring):
    """(name, greater_is_better) for a scoring choice; None means the model's own score."""
    if scoring is None:
        return {"classification": "accuracy", "regression": "r2"}.get(getattr(model, "task", None), "score"), True
    if scoring not in SCORERS:
        raise DataError(f"Unknown scoring {scoring!r}; choose one of: {', '.join(SCORERS)}.")
    return scoring, SCORERS[scoring][2]


def _score(model, scoring, X, y):
    if scoring is None:
        return float(model.score(X, y))
    metric, needs_proba, _ = SCORERS[scoring]
    if needs_proba:
        return float(metric(y, model.predict_proba(X), labels=getattr(model, "classes_", None)))
    return float(metric(y, model.predict(X)))


def _fit(model, X, y, feature_names, context=None, params=None):
    """Fit (with `params`, fit's metadata such as sample_weight) and return the seconds it took; a
    DataError says which fit failed (`context`)."""
    extra = dict(params or {})
    if feature_names is not None:
        extra["feature_names"] = feature_names
    start = time.perf_counter()
    try:
        model.fit(X, y, **extra)
    except DataError as exc:
        if context is None:
            raise
        raise DataError(f"{context}: {exc}") from exc
    return time.perf_counter() - start


def _fold_params(params, n, rows):
    """fit's metadata for the rows `rows`: a value with one entry per row (sample_weight) is cut to them,
    any other passed whole (scikit-learn's rule for cross_validate's params)."""
    return {name: take_rows(value, rows) if _per_row(value, n) else value for name, value in params.items()}


def _per_row(value, n):
    return hasattr(value, "__len__") and not isinstance(value, (str, dict)) and len(value) == n


def _splitter(model, k, stratified, shuffle, seed):
    if stratified is None:
        stratified = getattr(model, "task", None) == "classification"
    return (StratifiedKFold if stratified else KFold)(k, shuffle=shuffle, seed=seed)


def cross_validate(model, X, y, k=10, stratified=None, shuffle=True, seed=0, scoring=None,
                   return_train_score=False, return_indices=False, feature_names=None, params=None):
    """k-fold cross-validation (notes 003, section 2.1): for each fold i, fit a fresh copy of `model` on
    the other folds and score it on fold i. Folds are stratified for classifiers unless
    `stratified=False`, and the rows are shuffled first (the notes partition *randomly*; sklearn's
    cross_validate does not shuffle by default). `scoring` is None (the model's score: accuracy or
    R^2) or a name in SCORERS; losses are reported as they are (lower is better, see
    "greater_is_better"), not negated as in sklearn. The caller's model is left unfitted.

    Returns {"k", "splitter", "scoring", "greater_is_better", "test_scores", "mean", "std" (population),
    "fit_times", "score_times", "fold_sizes", ...}; for accuracy also the notes' "errors" and
    "mean_error" = (1/k) sum_i error_i; optionally "train_scores" and "test_rows" (indices per fold).

    `params` go to every fold's fit, as scikit-learn's cross_validate(params=...): {"sample_weight": w}
    weighs the rows, each fold's model getting the weights of its training rows. Scores are unweighted.
    """
    name, greater = _scoring(model, scoring)
    n = _check_same_rows([X, y], ["X", "y"])
    params = _check_params_dict(params)
    splitter = _splitter(model, k, stratified, shuffle, seed)
    out = {"k": _jsonable(k), "splitter": type(splitter).__name__, "shuffle": bool(shuffle), "seed": seed,
           "scoring": name, "greater_is_better": greater, "test_scores": [], "fit_times": [],
           "score_times": [], "fold_sizes": []}
    if return_train_score:
        out["train_scores"] = []
    if return_indices:
        out["test_rows"] = []
    for train, test in splitter.split(X, _labels(y, n)):
        fold_model = clone(model)
        X_train, y_train = take_rows(X, train), take_rows(y, train)
        out["fit_times"].append(_fit(fold_model, X_train, y_train, feature_names,
                                     params=_fold_params(params, n, train)))
        start = time.perf_counter()
        out["test_scores"].append(_score(fold_model, scoring, take_rows(X, test), take_rows(y, test)))
        out["score_times"].append(time.perf_counter() - start)
        out["fold_sizes"].append({"train": int(len(train)), "test": int(len(test))})
        if return_train_score:
            out["train_scores"].append(_score(fold_model, scoring, X_train, y_train))
        if return_indices:
            out["test_rows"].append(test.tolist())
    scores = np.array(out["test_scores"])
    out["mean"], out["std"] = float(scores.mean()), float(scores.std())
    if name == "accuracy":
        out["errors"] = (1.0 - scores).tolist()
        out["mean_error"] = float(np.mean(1.0 - scores))
    return out


def _check_params_dict(params):
    if params is None:
        return {}
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        raise DataError(f"params must be a dict of fit's arguments by name, such as {{'sample_weight': w}}; "
                        f"got {type(params).__name__}.")
    return params


def _jsonable(value):
    return value.item() if isinstance(value, np.generic) else value.tolist() if isinstance(value, np.ndarray) else value
