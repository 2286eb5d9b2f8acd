"""Training with an honest evaluation: a train/validation/test split or k-fold cross-validation, and the
TrainResult the page draws from (docs/bridge.md).

Splits come from `pellucid.model_selection` (seed 000: fit on training rows, choose on validation rows,
touch the test rows once); k-fold from its `cross_validate` (seed 003, section 2.1), after which the
final model is fitted on all rows for the drawings. `split_rows` is exactly what a generated script does.
"""

import math
import warnings as _warnings

import numpy as np

from ..evaluation import model_selection
from ..core.errors import DataError
from ..tabular.dates import expand_dates
from ..learners import registry
from ..core.settings import CV_FOLDS, DEFAULT_SPLIT
from .summaries import summary
from ..core.validation import check_target
from . import readouts
from .host import report
from . import prepare
from ..preprocessing import Pipeline
from .runs import SUPERVISED, Run, check_not_empty, check_two_classes, choose_columns, make_estimator

METHODS = ("split", "kfold", "none")


def _whole(value, name, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value != int(value) or not low <= value <= high:
        raise DataError(f"evaluation {name} must be a whole number from {low} to {high}; got {value!r}.")
    return int(value)


def check_evaluation(evaluation):
    """The evaluation settings with defaults filled in, or a DataError naming the bad one."""
    if evaluation is not None and not isinstance(evaluation, dict):
        raise DataError(f"evaluation must be settings like {{\"method\": \"split\", ...}}; got {evaluation!r}.")
    evaluation = dict(evaluation or {"method": "none"})
    method = evaluation.get("method", "none")
    if method not in METHODS:
        raise DataError(f"evaluation method must be one of {', '.join(METHODS)}; got {method!r}.")
    out = {"method": method, "stratify": bool(evaluation.get("stratify", True)),
           "seed": _whole(evaluation.get("seed", 0), "seed", 0, 2 ** 32 - 1)}
    if method == "split":
        parts = {p: _whole(evaluation.get(p, d), p, 0, 100) for p, d in DEFAULT_SPLIT.items()}
        if sum(parts.values()) != 100:
            raise DataError(f"The train, validation and test percentages must add up to 100; they add up "
                            f"to {sum(parts.values())}.")
        if parts["train"] == 0:
            raise DataError("The training part must have some rows: make train larger than 0%.")
        out.update(parts)
    elif method == "kfold":
        out["k"] = _whole(evaluation.get("k", CV_FOLDS["default"]), "k", CV_FOLDS["min"], CV_FOLDS["max"])
    return out


def split_rows(n, validation, test, stratify, seed):
    """{train, validation, test}: 0-based row indices drawn by train_val_test_split (or train_test_split
    when one held-out part is 0%); `stratify` is the labels to stratify by, or None."""
    rows = np.arange(n)
    val_size, test_size = validation / 100, test / 100
    if validation and test:
        train, val, tst = model_selection.train_val_test_split(
            rows, val_size=val_size, test_size=test_size, stratify=stratify, seed=seed)
    elif validation or test:
        train, held = model_selection.train_test_split(
            rows, test_size=val_size or test_size, stratify=stratify, seed=seed)
        val, tst = (held, rows[:0]) if validation else (rows[:0], held)
    else:
        train, val, tst = rows, rows[:0], rows[:0]
    return {"train": train, "validation": val, "test": tst}


def _stratify_by(estimator, evaluation, table, target):
    if evaluation["stratify"] and estimator.task == "classification":
        return table.column(target)
    return None


def train(table, target, features, model, params=None, evaluation=None, include_trace=False, preprocessing=None):
    """Fit `model` with the chosen evaluation and preprocessing ({standardize, impute}: workbench.prepare);
    (Run, TrainResult dict). Warnings raised while fitting (e.g. a solver that did not converge) are
    listed in the result's "warnings"."""
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        run, result = _train(table, target, features, model, params, evaluation, include_trace, preprocessing)
    for text in dict.fromkeys(str(w.message) for w in caught):
        if text not in result["warnings"]:
            result["warnings"].append(text)
    return run, result


def _train(table, target, features, model, params, evaluation, include_trace, preprocessing):
    estimator = make_estimator(model, params, trace=include_trace)
    estimator._check_params()
    features, target = choose_columns(table, estimator, model, target, features)
    table, features = expand_dates(table, features)  # a date is learned from as its parts, never as categories
    supervised = estimator.task in SUPERVISED
    check_not_empty(table, features + ([target] if supervised else []))
    learner = registry.get(model)
    choices = prepare.check_choices(preprocessing, learner)
    table, dropped = prepare.rows_to_keep(table, features, target if supervised else None, choices)
    if estimator.task == "classification":
        check_two_classes(table, target)
    evaluation = check_evaluation(evaluation)
    raw, n = table.select(features), table.n_rows
    y_raw = table.column(target) if supervised else None
    warnings, cv = [], None
    if evaluation["method"] == "split":
        splits = split_rows(n, evaluation["validation"], evaluation["test"],
                            _stratify_by(estimator, evaluation, table, target), evaluation["seed"])
    else:
        splits = {"train": np.arange(n), "validation": np.arange(0), "test": np.arange(0)}
    if evaluation["method"] == "kfold":
        if supervised:
            cv = _cross_validate(Pipeline(prepare.unfitted(raw, choices, learner), estimator), raw, y_raw, evaluation)
        else:
            warnings.append("k-fold cross-validation scores predictions of a target; a clustering or "
                            "a projection has none, so it was fitted on all rows without folds.")
    report(0.8 if cv else 0.1, "Training")
    train_rows = splits["train"]
    preprocessor = prepare.unfitted(raw, choices, learner).fit(raw.take(train_rows))
    X = preprocessor.transform(raw)
    estimator.fit(X.take(train_rows), None if y_raw is None else y_raw[train_rows])
    shown = prepare.steps(preprocessor, raw, choices, dropped)
    run = Run(estimator=estimator, model=model, features=features, target=target, table=table,
              splits=splits, setup={"evaluation": evaluation, "params": dict(params or {}),
                                    "preprocessing": choices},
              preprocessor=preprocessor, preprocessing=shown)
    result = {"label": run.label, "task": estimator.task, "capabilities": sorted(run.learner.capabilities),
              "model": readouts.compact_model(estimator),
              "summary": summary(estimator), "features": features, "target": target,
              "evaluation": evaluation, "splits": {k: (v + 1).tolist() for k, v in splits.items()},
              "warnings": warnings, "preprocessing": shown, "preprocessing_choices": choices,
              "rows_dropped": dropped["rows"]}
    if cv is not None:
        result["cv"] = cv
        result["final_model"] = "trained on all rows"
    result.update(_readouts(run, X, y_raw, warnings))
    if include_trace:
        result["trace"] = getattr(estimator, "trace_", None)
    report(1.0, "Training")
    return run, result


def _cross_validate(estimator, X, y_raw, evaluation):
    """Per-fold scores (accuracy or R^2), their mean and std, and each fold's test rows (1-based)."""
    report(0.05, f"Cross-validating ({evaluation['k']} folds)")
    out = model_selection.cross_validate(
        estimator, X, y_raw, k=evaluation["k"], stratified=evaluation["stratify"] and
        estimator.task == "classification", shuffle=True, seed=evaluation["seed"], return_indices=True)
    return {"k": out["k"], "scoring": out["scoring"], "splitter": out["splitter"], "scores": out["test_scores"],
            "mean": out["mean"], "std": out["std"],
            "folds": [(np.asarray(rows) + 1).tolist() for rows in out["test_rows"]]}


def _readouts(run, X, y_raw, warnings):
    """The task's metrics per split and its drawings."""
    estimator, splits = run.estimator, run.splits
    if estimator.task in SUPERVISED:
        y = check_target(y_raw, len(y_raw), task=estimator.task)
        predicted = run.predicted = estimator.predict(X)  # kept: the export reuses it, never predicts again
        out = {"metrics": readouts.supervised_metrics(estimator.task, y, predicted, splits),
               "predictions": readouts.predictions(run, y, predicted)}
        if estimator.task == "regression":
            out["fit_curve"] = readouts.fit_curve(run)
        return out
    if estimator.task == "projection":
        return {"metrics": readouts.pca_metrics(estimator, X, splits),
                "pca": readouts.pca_readout(estimator, X, run.table, run.target)}
    labels = readouts.cluster_labels(estimator, X, splits["train"])
    M = readouts.encoded(estimator, X)
    out = {"metrics": {name: readouts.cluster_readout(estimator, M[rows], labels[rows], warnings, name)
                       for name, rows in splits.items() if len(rows)},
           "clusters": readouts.clusters(estimator, M, labels)}
    if run.learner.can("dendrogram"):
        out["dendrogram"] = readouts.dendrogram(estimator)
    return out
