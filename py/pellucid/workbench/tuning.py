"""Tuning one or two hyperparameters: every cell of a grid of their values scored by k-fold cross-validation,
as scikit-learn's GridSearchCV does, for the page to draw as a validation curve (one parameter) or a
heatmap (two), with the best cell marked.

Notes 000 ("Training, Validation, Testing"): choose hyperparameters on data the model was not fitted on, and
touch the test rows once at the end; notes 003 (section 2.1): without a validation set, the k folds stand
in for it. So every cell is scored on the same k folds (the page's k and seed, stratified as its evaluation
says), the preprocessing is fitted inside each fold on that fold's training rows, as training does, and
under a held-out split the test rows take no part: the folds are drawn from the training and validation
rows only, so the test score of the model trained afterwards is still honest.
"""

import itertools
import math
import warnings as _warnings

import numpy as np

from ..core.errors import DataError
from ..core.settings import CV_FOLDS
from ..evaluation import model_selection
from ..evaluation.model_selection import SCORERS
from ..learners import registry
from ..preprocessing import Pipeline
from ..tabular.dates import expand_dates
from . import prepare
from .training import check_evaluation, split_rows, within_row_limit
from ..host.progress import part, report
from .leaderboard import check_metric, metrics_for
from .runs import SUPERVISED, check_not_empty, check_two_classes, choose_columns, make_estimator
from .target_fit import check_target_kind, explain_stratify

MAX_PARAMS = 2
MAX_CELLS = 100  # k fits per cell: beyond this a grid takes too long in a browser tab


# --- the grid ------------------------------------------------------------------------------------------

def check_grid(learner, grid):
    """[(name, [values])]: the one or two parameters to tune with their values, each value checked against
    the parameter's rule; a DataError naming the first problem."""
    if not isinstance(grid, list) or not grid:
        raise DataError("Choose one or two hyperparameters to tune, each with the values to try "
                        "(a list like [{\"name\": \"max_depth\", \"values\": [1, 2, 3]}]).", field="grid")
    if len(grid) > MAX_PARAMS:
        raise DataError(f"Tune one or two hyperparameters at a time; {len(grid)} were given.", field="grid")
    rules = {name: rule for name, rule in learner.estimator._param_rules.items()
             if name != "trace" and rule.kind != "vector"}
    axes = []
    for entry in grid:
        if not isinstance(entry, dict) or set(entry) != {"name", "values"}:
            raise DataError(f"Each tuned hyperparameter is {{\"name\": ..., \"values\": [...]}}; got {entry!r}.",
                            field="grid")
        name, values = entry["name"], entry["values"]
        if name not in rules:
            raise DataError(f"{learner.label} has no hyperparameter {name!r} to tune; the ones it has are: "
                            f"{', '.join(rules)}.", field="grid")
        if name in (axis for axis, _ in axes):
            raise DataError(f"The hyperparameter {name!r} is chosen twice; choose two different ones.", field="grid")
        axes.append((name, _check_values(name, rules[name], values)))
    cells = math.prod(len(values) for _, values in axes)
    if cells > MAX_CELLS:
        raise DataError(f"The grid has {cells} cells ({' × '.join(str(len(v)) for _, v in axes)} values); "
                        f"at most {MAX_CELLS} are tried at once: list fewer values.", field="grid")
    return axes


def _check_values(name, rule, values):
    if not isinstance(values, list) or not values:
        raise DataError(f"Give at least one value of {name!r} to try, as a list; got {values!r}.",
                        field=f"grid.{name}")
    for value in values:
        try:
            rule.check(name, value)  # the message names the parameter, its range and the value
        except DataError as exc:
            exc.field = f"grid.{name}"  # a value tried, not the model's setting
            raise
    seen = []
    for value in values:
        if any(type(value) is type(other) and value == other for other in seen):
            raise DataError(f"The values of {name!r} list {value!r} twice; list each value once.",
                            field=f"grid.{name}")
        seen.append(value)
    return list(values)


def _tuned_field(field, cell):
    """A fold's failure about a tuned parameter is about the values tried (grid.<name>), else as it was."""
    name = field[len("params."):] if field and field.startswith("params.") else None
    return f"grid.{name}" if name in cell else field


def cells_of(axes):
    """Every combination of the values, the first parameter's changing slowest (row-major: a heatmap's rows
    are the first parameter's values, its columns the second's)."""
    names = [name for name, _ in axes]
    return [dict(zip(names, combo)) for combo in itertools.product(*(values for _, values in axes))]


# --- the rows and folds ------------------------------------------------------------------------------------

def tuning_rows(n, evaluation, labels):
    """0-based rows the folds are drawn from: all of them, or under a held-out split every row but the test
    rows (the same rows `train` holds out with the same seed)."""
    if evaluation["method"] != "split":
        return np.arange(n)
    parts = split_rows(n, evaluation["validation"], evaluation["test"], labels, evaluation["seed"])
    return np.sort(np.concatenate([parts["train"], parts["validation"]]))


def folds_of(rows, y, k, stratified, seed):
    """[(train, test)] as 0-based rows of the table: the page's k-fold splitter over `rows`."""
    splitter = (model_selection.StratifiedKFold if stratified else model_selection.KFold)(k, shuffle=True, seed=seed)
    return [(rows[train], rows[test]) for train, test in splitter.split(np.arange(len(rows)), y[rows])]


def _folds_k(evaluation):
    """k: the evaluation's, or the page's k sent beside a split (the default when it sent none)."""
    k = evaluation.get("k", CV_FOLDS["default"]) if isinstance(evaluation, dict) else CV_FOLDS["default"]
    return check_evaluation({"method": "kfold", "k": k})["k"]


# --- tuning ----------------------------------------------------------------------------------------------

def tune(table, target, features, model, params=None, evaluation=None, preprocessing=None, grid=None, metric=None,
         sample=False):
    """Score every cell of `grid` ([{name, values}], one or two parameters; the model's other parameters are
    `params`) by k-fold cross-validation on `metric` (one of the ranking's: accuracy or R² by default);
    the TuneResult (docs/bridge.md). A learner with a row limit tunes on the seeded sample `train` would
    fit (`sample`), or refuses a larger table."""
    learner = registry.get(model)
    estimator = make_estimator(model, params)
    if estimator.task not in SUPERVISED:
        raise DataError(f"{learner.label} has no target to score, so there is nothing to tune it by: tuning "
                        "needs a classifier or a regressor.", field="model")
    estimator._check_params()
    metric = check_metric(metric, estimator.task)
    axes = check_grid(learner, grid)
    k = _folds_k(evaluation)
    evaluation = check_evaluation(evaluation)
    table, _ = within_row_limit(table, learner, sample, evaluation["seed"])
    features, target = choose_columns(table, estimator, model, target, features)
    table, features = expand_dates(table, features)
    check_not_empty(table, features + [target], target)
    choices = prepare.check_choices(preprocessing, learner)
    table, _ = prepare.rows_to_keep(table, features, target, choices)
    check_target_kind(table, target, estimator.task, learner.label)
    classification = estimator.task == "classification"
    if classification:
        check_two_classes(table, target)
    stratified = evaluation["stratify"] and classification
    y = table.column(target)
    try:
        rows = tuning_rows(table.n_rows, evaluation, y if stratified else None)
        folds = folds_of(rows, y, k, stratified, evaluation["seed"])
    except DataError as exc:  # a class too small to stratify by
        explain_stratify(exc, table, target, learner.label)
        raise
    raw = table.select(features)
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        cells = _score_cells(raw, y, folds, cells_of(axes), lambda cell: Pipeline(
            prepare.unfitted(raw, choices, learner), make_estimator(model, {**(params or {}), **cell})),
            SCORERS[metric][0])
    scoring = next(m for m in metrics_for(estimator.task) if m["name"] == metric)
    best = best_cell(cells, scoring["greater_is_better"])
    return {"model": model, "label": learner.label, "task": estimator.task, "scoring": metric,
            "score_name": scoring["label"], "greater_is_better": scoring["greater_is_better"],
            "params": [{"name": name, "values": values} for name, values in axes],
            "fixed_params": {name: value for name, value in estimator.get_params().items()
                             if name != "trace" and name not in dict(axes)},
            "cells": cells, "best": {"index": best, **cells[best]},
            "k": k, "splitter": "StratifiedKFold" if stratified else "KFold", "seed": evaluation["seed"],
            "n_rows": int(len(rows)), "test_rows_left_out": int(table.n_rows - len(rows)),
            "folds": [(test + 1).tolist() for _, test in folds], "preprocessing": choices,
            "warnings": list(dict.fromkeys(str(w.message) for w in caught))}


def _score_cells(raw, y, folds, cells, pipeline_for, score):
    """Per cell: its params, each fold's validation score (`score(y_true, y_predicted)`), and the mean and
    (population) standard deviation of the training and validation scores over the folds. Progress is
    reported after every fit."""
    out, fits = [], len(cells) * len(folds)
    for c, cell in enumerate(cells):
        train_scores, validation_scores = [], []
        for f, (train, test) in enumerate(folds):
            model = pipeline_for(cell)
            done = c * len(folds) + f
            try:
                with part(done / fits, (done + 1) / fits, f"Tuning: {_words(cell)}, fold {f + 1} of {len(folds)}"):
                    model.fit(raw.take(train), y[train])
            except DataError as exc:
                raise DataError(f"Fitting with {_words(cell)} on fold {f + 1} failed: {exc}",
                                field=_tuned_field(exc.field, cell)) from exc
            train_scores.append(float(score(y[train], model.predict(raw.take(train)))))
            validation_scores.append(float(score(y[test], model.predict(raw.take(test)))))
            report((done + 1) / fits, f"Tuning: {_words(cell)}, fold {f + 1} of {len(folds)}")
        out.append({"params": cell, "validation_scores": validation_scores,
                    "validation_mean": float(np.mean(validation_scores)),
                    "validation_std": float(np.std(validation_scores)),
                    "train_mean": float(np.mean(train_scores)), "train_std": float(np.std(train_scores))})
    return out


def best_cell(cells, greater_is_better=True):
    """The index of the cell with the best mean validation score (the highest, or the lowest for a loss);
    on a tie the first in grid order (with values listed simplest first, the simplest model)."""
    means = np.array([cell["validation_mean"] for cell in cells])
    return int(np.argmax(means) if greater_is_better else np.argmin(means))


def _words(cell):
    return ", ".join(f"{name} = {'none' if value is None else value}" for name, value in cell.items())
