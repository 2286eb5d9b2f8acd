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
    fit (`sample`), or refuses a larger table.

    One worker's way: every cell's piece in turn on the folds drawn once, then their merge. The page's pool
    of workers runs the same pieces side by side (tune_piece) and merges them the same way (merge_tune)."""
    plan = _plan(table, target, features, model, params, evaluation, preprocessing, grid, metric, sample)
    n = len(plan["cells"])
    pieces = []
    for index in range(n):
        with part(index / n, (index + 1) / n, ""):  # each cell fills its share of the bar
            pieces.append(_scored_piece(plan, index))
        if "failure" in pieces[-1]:  # the cells after a failed one are not worth their fits
            raise _raised(pieces[-1]["failure"])
    return merge_tune(model, pieces, params, grid, metric)


def tune_piece(table, target, features, model, index, params=None, evaluation=None, preprocessing=None, grid=None,
               metric=None, sample=False):
    """One cell's share of `tune`: cell `index` of the grid (in grid order: cells_of) scored on every fold,
    exactly as tune does it, independent of the other cells. A dict: its "index", its "cell" (cells' entry
    of the reply) or the "failure" {message, field} tune would raise, the "warnings" its fits gave, and for
    the first cell (index 0) the "frame": the reply's parts every cell shares (its rows and folds)."""
    plan = _plan(table, target, features, model, params, evaluation, preprocessing, grid, metric, sample)
    n = len(plan["cells"])
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n:
        raise DataError(f"index must be a cell's place in the grid, 0 to {n - 1}.", field="grid")
    return _scored_piece(plan, index)


def merge_tune(model, pieces, params=None, grid=None, metric=None):
    """The TuneResult from the pieces of every cell (tune_piece, one a cell, in any order): the very reply
    tune gives. A failed cell raises its failure, the first in grid order, as tune would have."""
    learner, estimator, metric, axes = _checked_grid(model, params, grid, metric)
    n = math.prod(len(values) for _, values in axes)
    by_index = {piece.get("index"): piece for piece in pieces}
    if set(by_index) != set(range(n)) or len(pieces) != n:
        raise DataError("A tuning's pieces must be one for every cell of the grid.", field="grid")
    ordered = [by_index[i] for i in range(n)]
    failed = next((piece["failure"] for piece in ordered if "failure" in piece), None)
    if failed:
        raise _raised(failed)
    cells = [piece["cell"] for piece in ordered]
    scoring = next(m for m in metrics_for(estimator.task) if m["name"] == metric)
    best = best_cell(cells, scoring["greater_is_better"])
    return {"model": model, "label": learner.label, "task": estimator.task, "scoring": metric,
            "score_name": scoring["label"], "greater_is_better": scoring["greater_is_better"],
            "params": [{"name": name, "values": values} for name, values in axes],
            "fixed_params": {name: value for name, value in estimator.get_params().items()
                             if name != "trace" and name not in dict(axes)},
            "cells": cells, "best": {"index": best, **cells[best]}, **ordered[0]["frame"],
            "warnings": list(dict.fromkeys(w for piece in ordered for w in piece["warnings"]))}


def _raised(failure):
    """A piece's failure as the DataError tune raises for it."""
    return DataError(failure["message"], field=failure["field"])


def _checked_grid(model, params, grid, metric):
    """What the pieces and the merge agree on without the table: (learner, estimator, metric, axes)."""
    learner = registry.get(model)
    estimator = make_estimator(model, params)
    if estimator.task not in SUPERVISED:
        raise DataError(f"{learner.label} has no target to score, so there is nothing to tune it by: tuning "
                        "needs a classifier or a regressor.", field="model")
    estimator._check_params()
    return learner, estimator, check_metric(metric, estimator.task), check_grid(learner, grid)


def _plan(table, target, features, model, params, evaluation, preprocessing, grid, metric, sample):
    """The checked tuning every cell is scored by: the rows and folds, the unfitted pipeline of a cell,
    the scorer, and the frame (the reply's parts every cell shares)."""
    learner, estimator, metric, axes = _checked_grid(model, params, grid, metric)
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
    frame = {"k": k, "splitter": "StratifiedKFold" if stratified else "KFold", "seed": evaluation["seed"],
             "n_rows": int(len(rows)), "test_rows_left_out": int(table.n_rows - len(rows)),
             "folds": [(test + 1).tolist() for _, test in folds], "preprocessing": choices}
    return {"raw": raw, "y": y, "folds": folds, "cells": cells_of(axes), "score": SCORERS[metric][0],
            "pipeline_for": lambda cell: Pipeline(prepare.unfitted(raw, choices, learner),
                                                  make_estimator(model, {**(params or {}), **cell})),
            "frame": frame}


def _scored_piece(plan, index):
    """Cell `index` of the plan scored on every fold: its piece (see tune_piece)."""
    cell = plan["cells"][index]
    piece = {"index": index}
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        try:
            piece["cell"] = _score_cell(plan["raw"], plan["y"], plan["folds"], cell, plan["pipeline_for"],
                                        plan["score"])
        except DataError as exc:
            piece["failure"] = {"message": str(exc), "field": exc.field}
    piece["warnings"] = list(dict.fromkeys(str(w.message) for w in caught))
    if index == 0:
        piece["frame"] = plan["frame"]
    return piece


def _score_cell(raw, y, folds, cell, pipeline_for, score):
    """One cell: its params, each fold's validation score (`score(y_true, y_predicted)`), and the mean and
    (population) standard deviation of the training and validation scores over the folds. Progress is
    reported after every fit."""
    train_scores, validation_scores = [], []
    for f, (train, test) in enumerate(folds):
        model = pipeline_for(cell)
        label = f"Tuning: {_words(cell)}, fold {f + 1} of {len(folds)}"
        try:
            with part(f / len(folds), (f + 1) / len(folds), label):
                model.fit(raw.take(train), y[train])
        except DataError as exc:
            raise DataError(f"Fitting with {_words(cell)} on fold {f + 1} failed: {exc}",
                            field=_tuned_field(exc.field, cell)) from exc
        train_scores.append(float(score(y[train], model.predict(raw.take(train)))))
        validation_scores.append(float(score(y[test], model.predict(raw.take(test)))))
        report((f + 1) / len(folds), label)
    return {"params": cell, "validation_scores": validation_scores,
            "validation_mean": float(np.mean(validation_scores)),
            "validation_std": float(np.std(validation_scores)),
            "train_mean": float(np.mean(train_scores)), "train_std": float(np.std(train_scores))}


def best_cell(cells, greater_is_better=True):
    """The index of the cell with the best mean validation score (the highest, or the lowest for a loss);
    on a tie the first in grid order (with values listed simplest first, the simplest model)."""
    means = np.array([cell["validation_mean"] for cell in cells])
    return int(np.argmax(means) if greater_is_better else np.argmin(means))


def _words(cell):
    return ", ".join(f"{name} = {'none' if value is None else value}" for name, value in cell.items())
