"""Curves for choosing hyperparameters and judging the amount of data: scores against one hyperparameter's
values (validation curve) and against the training-set size (learning curve), on held-out data.

Notes 000 ("Training, Validation, Testing"): fit on training data and choose hyperparameters (Laplace k,
tree depth, k of k-NN, learning rate) by the score on validation data; without validation data, the
folds of k-fold cross-validation (notes 003, section 2.1) stand in for it.
"""

import numbers

import numpy as np

from ..core.errors import DataError
from .model_selection import (_check_same_rows, _fit, _is_int, _jsonable, _labels, _score, _scoring,
                              _splitter, clone, cross_validate, take_rows)


def _holdout_or_kfold(X_val, y_val, k):
    if X_val is not None and k is not None:
        raise DataError("Give either validation data (X_val, y_val) or k for k-fold, not both.")
    if (X_val is None) != (y_val is None):
        raise DataError("Validation data need both X_val and y_val.")
    return ("holdout", None) if X_val is not None else ("k-fold", 5 if k is None else k)


def validation_curve(model, param, values, X, y, X_val=None, y_val=None, k=None, stratified=None,
                     shuffle=True, seed=0, scoring=None, feature_names=None):
    """Score each value of one hyperparameter (Laplace k, tree depth, k of k-NN, learning rate...) the
    notes' way: fit on the training data and score on the validation data (notes 000), or, without
    validation data, by k-fold cross-validation (k defaults to 5; the same folds for every value).

    Returns {"param", "values", "method", "k", "scoring", "greater_is_better", "train_scores",
    "val_scores", "val_std" (0 for holdout), "fit_times", "best_index", "best_value"}.
    """
    if param not in model.get_params():
        raise DataError(f"{type(model).__name__} has no parameter {param!r}; valid parameters are: "
                        f"{', '.join(model.get_params())}.")
    values = list(values)
    if not values:
        raise DataError(f"Give at least one value of {param!r} to try.")
    method, k = _holdout_or_kfold(X_val, y_val, k)
    name, greater = _scoring(model, scoring)
    out = {"param": param, "values": [_jsonable(v) for v in values], "method": method, "k": k,
           "scoring": name, "greater_is_better": greater, "train_scores": [], "val_scores": [],
           "val_std": [], "fit_times": []}
    for value in values:
        candidate = clone(model).set_params(**{param: value})
        if method == "holdout":
            out["fit_times"].append(_fit(candidate, X, y, feature_names, f"Fitting with {param}={value!r} failed"))
            out["train_scores"].append(_score(candidate, scoring, X, y))
            out["val_scores"].append(_score(candidate, scoring, X_val, y_val))
            out["val_std"].append(0.0)
            continue
        cv = cross_validate(candidate, X, y, k=k, stratified=stratified, shuffle=shuffle, seed=seed,
                            scoring=scoring, return_train_score=True, feature_names=feature_names)
        out["fit_times"].append(float(np.sum(cv["fit_times"])))
        out["train_scores"].append(float(np.mean(cv["train_scores"])))
        out["val_scores"].append(cv["mean"])
        out["val_std"].append(cv["std"])
    # The first best value on ties (the simplest model, when the values are listed simplest first).
    out["best_index"] = int(np.argmax(out["val_scores"]) if greater else np.argmin(out["val_scores"]))
    out["best_value"] = out["values"][out["best_index"]]
    return out


def _train_sizes(sizes, n_max):
    """Absolute training sizes: fractions in (0, 1] of n_max (rounded down, at least 1) or counts."""
    sizes = list(sizes)
    if not sizes:
        raise DataError("Give at least one training size.")
    out = []
    for s in sizes:
        if _is_int(s) and 1 <= s <= n_max:
            out.append(int(s))
        elif isinstance(s, numbers.Real) and not _is_int(s) and not isinstance(s, bool) and 0 < s <= 1:
            out.append(max(1, int(s * n_max)))
        else:
            raise DataError(f"Training sizes must be fractions in (0, 1] or row counts in [1, {n_max}]; "
                            f"got {s!r}.")
    return sorted(set(out))


def learning_curve(model, X, y, sizes=(0.1, 0.325, 0.55, 0.775, 1.0), X_val=None, y_val=None, k=None,
                   stratified=None, shuffle=True, seed=0, scoring=None, feature_names=None):
    """Training and validation scores as the training set grows: fit on the first m training rows (in
    an order shuffled by `seed`) for each size m, and score on those rows and on the validation data
    (or, without it, on each of k folds, the training rows being the other folds).

    Returns {"sizes", "method", "k", "scoring", "greater_is_better", "train_scores", "train_std",
    "val_scores", "val_std", "fit_times"}.
    """
    method, k = _holdout_or_kfold(X_val, y_val, k)
    name, greater = _scoring(model, scoring)
    n = _check_same_rows([X, y], ["X", "y"])
    rng = np.random.default_rng(seed)
    if method == "holdout":
        order = rng.permutation(n) if shuffle else np.arange(n)
        plans = [(order, X_val, y_val)]
    else:
        splitter = _splitter(model, k, stratified, shuffle, seed)
        plans = [(rng.permutation(train) if shuffle else train, take_rows(X, test), take_rows(y, test))
                 for train, test in splitter.split(X, _labels(y, n))]
    abs_sizes = _train_sizes(sizes, min(len(p[0]) for p in plans))
    train_scores = np.zeros((len(abs_sizes), len(plans)))  # (sizes, folds)
    val_scores = np.zeros_like(train_scores)
    fit_times = np.zeros_like(train_scores)
    for j, (order, X_held, y_held) in enumerate(plans):
        for i, m in enumerate(abs_sizes):
            rows = order[:m]
            candidate = clone(model)
            fit_times[i, j] = _fit(candidate, take_rows(X, rows), take_rows(y, rows), feature_names,
                                   f"Training on the first {m} rows failed")
            train_scores[i, j] = _score(candidate, scoring, take_rows(X, rows), take_rows(y, rows))
            val_scores[i, j] = _score(candidate, scoring, X_held, y_held)
    return {"sizes": abs_sizes, "method": method, "k": k, "scoring": name, "greater_is_better": greater,
            "train_scores": train_scores.mean(axis=1).tolist(), "train_std": train_scores.std(axis=1).tolist(),
            "val_scores": val_scores.mean(axis=1).tolist(), "val_std": val_scores.std(axis=1).tolist(),
            "fit_times": fit_times.sum(axis=1).tolist()}
