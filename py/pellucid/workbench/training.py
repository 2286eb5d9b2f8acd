"""Training with an honest evaluation: a train/validation/test split or k-fold cross-validation, and the
TrainResult the page draws from (docs/bridge.md).

Splits come from `pellucid.model_selection` (notes 000: fit on training rows, choose on validation rows,
touch the test rows once). Under k-fold (notes 003, section 2.1) one pass over the folds fits each fold's
model on the other folds and predicts its held-out rows: the per-fold scores, the metrics and the
confusion matrix all come from those out-of-fold predictions, never from a model that saw the row; the
final model is then fitted on all rows for the drawings. Each fold is a piece of its own
(workbench.fold_pieces): made here in turn, or side by side by the page's pool of workers (train_fold)
and handed to `train`. `split_rows` is exactly what a generated
script does. Every result says how long fitting and predicting took ("timing").
"""

import math
import time
import warnings as _warnings

import numpy as np

from ..evaluation import model_selection
from ..core.errors import DataError
from ..tabular.dates import expand_dates
from ..learners import registry
from ..core.settings import CV_FOLDS, CV_REPEATS, DEFAULT_SPLIT, SEED_MAX
from .summaries import summary
from ..core.validation import check_target
from . import readouts
from ..host.progress import part, report
from . import prepare, showing
from .judging import _fold_pipeline, fold_pairs
from . import fold_pieces, tree_pieces
from . import network_live, network_replay
from .network_view import network_view
from .runs import SUPERVISED, Run, check_not_empty, check_two_classes, choose_columns, make_estimator
from .target_fit import check_target_kind, explain_stratify

METHODS = ("split", "kfold", "none")


# The evaluation setting each value is, as a DataError's field: the split's parts share one.
_FIELDS = {"seed": "evaluation.seed", "k": "evaluation.k", "repeats": "evaluation.repeats", "train": "evaluation.split",
           "validation": "evaluation.split", "test": "evaluation.split"}


def _whole(value, name, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value != int(value) or not low <= value <= high:
        raise DataError(f"evaluation {name} must be a whole number from {low} to {high}; got {value!r}.",
                        field=_FIELDS[name])
    return int(value)


def check_evaluation(evaluation):
    """The evaluation settings with defaults filled in, or a DataError naming the bad one."""
    if evaluation is not None and not isinstance(evaluation, dict):
        raise DataError(f"evaluation must be settings like {{\"method\": \"split\", ...}}; got {evaluation!r}.",
                        field="evaluation.method")
    evaluation = dict(evaluation or {"method": "none"})
    method = evaluation.get("method", "none")
    if method not in METHODS:
        raise DataError(f"evaluation method must be one of {', '.join(METHODS)}; got {method!r}.",
                        field="evaluation.method")
    out = {"method": method, "stratify": bool(evaluation.get("stratify", True)),
           "seed": _whole(evaluation.get("seed", 0), "seed", 0, SEED_MAX)}
    if method == "split":
        parts = {p: _whole(evaluation.get(p, d), p, 0, 100) for p, d in DEFAULT_SPLIT.items()}
        if sum(parts.values()) != 100:
            raise DataError(f"The train, validation and test percentages must add up to 100; they add up "
                            f"to {sum(parts.values())}.", field="evaluation.split")
        if parts["train"] == 0:
            raise DataError("The training part must have some rows: make train larger than 0%.",
                            field="evaluation.split")
        out.update(parts)
    elif method == "kfold":
        out["k"] = _whole(evaluation.get("k", CV_FOLDS["default"]), "k", CV_FOLDS["min"], CV_FOLDS["max"])
        repeats = _whole(evaluation.get("repeats", CV_REPEATS["default"]), "repeats", CV_REPEATS["min"],
                         CV_REPEATS["max"])
        if repeats > 1:  # left out at 1, so plain k-fold's settings read as they always have
            out["repeats"] = repeats
    return out


def evaluation_text(evaluation, task):
    """The evaluation in words as it was done, for the run history: "stratified" only where the split or
    the folds kept the classes' shares, which needs classes (a regression's or a clustering's never did),
    and no folds for a learner without a target (it is fitted on all rows)."""
    stratified = ", stratified" if evaluation["stratify"] and task == "classification" else ""
    seed = f", seed {evaluation['seed']}"
    if evaluation["method"] == "kfold":
        if task not in SUPERVISED:
            return f"all rows (k-fold needs a target to score){seed}"
        repeated = f" repeated {evaluation['repeats']} times" if evaluation.get("repeats", 1) > 1 else ""
        return f"{evaluation['k']}-fold cross-validation{repeated}{stratified}{seed}"
    if evaluation["method"] == "split":
        parts = [f"{evaluation[p]}% {p}" for p in ("validation", "test") if evaluation[p]]
        return f"held out {' and '.join(parts)}{stratified}{seed}" if parts else f"nothing held out{seed}"
    return "no held-out rows"


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


def train(table, target, features, model, params=None, evaluation=None, include_trace=False, preprocessing=None,
          sample=False, live=False, folds=None, trees=None):
    """Fit `model` with the chosen evaluation and preprocessing ({standardize, impute}: workbench.prepare);
    (Run, TrainResult dict). Warnings raised while fitting (e.g. a solver that did not converge) are
    listed in the result's "warnings". A learner with a row limit refuses a larger table unless `sample`,
    which trains it on a sample of that many rows drawn with the evaluation's seed (result "sample"). `live`:
    a small network's epochs carry frames of it as it learns (workbench.network_live). `folds`: under k-fold,
    the folds' pieces made elsewhere (train_fold, one for each fold, in any order): they are checked against
    this training's folds and only the final model is fitted here. `trees`: a forest's trees grown elsewhere
    (train_trees, ranges covering every tree once, in any order): its final model is assembled from them."""
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        run, result = _train(table, target, features, model, params, evaluation, include_trace, preprocessing,
                             sample, live, folds, trees)
    for text in dict.fromkeys(str(w.message) for w in caught):
        if text not in result["warnings"]:
            result["warnings"].append(text)
    return run, result


def cross_validated(table, target, features, model, params=None, evaluation=None, preprocessing=None,
                    sample=False, folds=None):
    """(run, result) of `train`'s k-fold cross-validation alone, for a learner with a target: the same
    plan, folds and out-of-fold predictions, its final model not fitted. What a comparison of learners
    scores (a compared row opens with Train, which fits it), a sixth of the work under 5 folds spared.
    result: its "label", "warnings", "evaluation", "sample", "cv" and "timing", as `train` gives them."""
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        run, _, warnings = plan_run(table, target, features, model, params, evaluation, False, preprocessing,
                                    sample)
        if run.setup["evaluation"]["method"] != "kfold" or run.task not in SUPERVISED:
            raise DataError("Cross-validation alone is for k-fold cross-validation of a learner with a target.",
                            field="evaluation.method")
        try:
            cv, run.out_of_fold = _cross_validate(run, _fold_pipeline(run), folds)
        except DataError as exc:  # a class too small for stratified folds, or a fold that failed
            explain_stratify(exc, run.table, run.target, run.label)
            raise
    warnings += [text for text in dict.fromkeys(str(w.message) for w in caught) if text not in warnings]
    result = {"label": run.label, "warnings": warnings, "evaluation": run.setup["evaluation"],
              "sample": run.setup["sample"], "cv": cv, "timing": _timing(cv, None, None, None, None)}
    return run, result


def plan_run(table, target, features, model, params=None, evaluation=None, include_trace=False,
             preprocessing=None, sample=False):
    """(run, dropped, warnings): everything a training decides before it fits anything, checked: the
    estimator, the columns, the rows kept (`dropped`: what preprocessing left out), the evaluation and its
    split, the seeded sample of a learner with a row limit. `train` fits the run it plans; a piece of work
    done in another worker (a fold, a shuffled feature) plans the very same run from the same arguments."""
    estimator = make_estimator(model, params, trace=include_trace)
    estimator._check_params()
    features, target = choose_columns(table, estimator, model, target, features)
    table, features = expand_dates(table, features)  # a date is learned from as its parts, never as categories
    supervised = estimator.task in SUPERVISED
    check_not_empty(table, features + ([target] if supervised else []), target)
    learner = registry.get(model)
    choices = prepare.check_choices(preprocessing, learner)
    table, dropped = prepare.rows_to_keep(table, features, target if supervised else None, choices)
    evaluation = check_evaluation(evaluation)
    if evaluation.get("repeats", 1) > 1:  # a run's views show one partition's out-of-fold predictions
        raise DataError("Repeated k-fold is for comparing learners (rank_learners); a trained model is "
                        "cross-validated once: set repeats to 1.", field="evaluation.repeats")
    table, sampled = within_row_limit(table, learner, sample, evaluation["seed"])
    if supervised:
        check_target_kind(table, target, estimator.task, learner.label)
    if estimator.task == "classification":
        check_two_classes(table, target)
    warnings = []
    if sampled:
        warnings.append(f"Trained on a random sample of {limit_phrase(sampled)}: {learner.label.lower()} works "
                        f"on up to {sampled['rows']:,} rows. The splits, scores and views are of the sample.")
    splits = _splits(table, target, estimator, learner, evaluation)
    run = Run(estimator=estimator, model=model, features=features, target=target, table=table,
              splits=splits, setup={"evaluation": evaluation, "params": dict(params or {}),
                                    "preprocessing": choices, "sample": sampled})
    return run, dropped, warnings


def _splits(table, target, estimator, learner, evaluation):
    """{train, validation, test} row numbers: the seeded split, or every row for training (k-fold, none)."""
    n = table.n_rows
    if evaluation["method"] != "split":
        return {"train": np.arange(n), "validation": np.arange(0), "test": np.arange(0)}
    try:
        return split_rows(n, evaluation["validation"], evaluation["test"],
                          _stratify_by(estimator, evaluation, table, target), evaluation["seed"])
    except DataError as exc:  # too few rows for the parts, or a class for a stratified split
        explain_stratify(exc, table, target, learner.label)
        exc.about("evaluation.split")
        raise


def _train(table, target, features, model, params, evaluation, include_trace, preprocessing, sample=False,
           live=False, folds=None, trees=None):
    run, dropped, warnings = plan_run(table, target, features, model, params, evaluation, include_trace,
                                      preprocessing, sample)
    estimator, table, features, target, splits = run.estimator, run.table, run.features, run.target, run.splits
    evaluation, choices, sampled = (run.setup[key] for key in ("evaluation", "preprocessing", "sample"))
    learner, supervised = run.learner, estimator.task in SUPERVISED
    raw, n = table.select(features), table.n_rows
    y_raw = table.column(target) if supervised else None
    cv, out_of_fold = None, None
    if folds is not None and not (evaluation["method"] == "kfold" and supervised):
        raise DataError("Fold pieces (folds) are for k-fold cross-validation of a learner with a target.",
                        field="evaluation.method")
    if evaluation["method"] == "kfold":
        if supervised:
            try:
                cv, out_of_fold = _cross_validate(run, _fold_pipeline(run), folds)
            except DataError as exc:  # a class too small for stratified folds, or a fold that failed
                explain_stratify(exc, table, target, learner.label)
                raise
            run.out_of_fold = out_of_fold  # what judging.out_of_fold keeps: curves and export read these
        else:
            warnings.append("k-fold cross-validation scores predictions of a target; a clustering or "
                            "a projection has none, so it was fitted on all rows without folds.")
    begun = 0.8 if cv or trees is not None else 0.1  # the bar from here on; below, the folds' or the pool's
    report(begun, "Training")
    train_rows = splits["train"]
    started, grown_seconds = time.perf_counter(), 0.0
    preprocessor, X = _prepared(run)
    run.preprocessor = preprocessor  # the live view draws through it while the network trains
    watching = network_live.live_view(run, estimator) if live and run.learner.can("network") else None
    recording = network_replay.watch(run, estimator, len(train_rows), watching)  # a small network's epochs, kept
    with part(begun, 0.95, "Training"):  # a learner's own reports (a forest's trees) fill it
        X_train, y_train = X.take(train_rows), None if y_raw is None else y_raw[train_rows]
        if trees is None:
            estimator.fit(X_train, y_train)
        else:  # the trees' time, spent in other workers, counts as this fit's
            grown_seconds = tree_pieces.fit_from_pieces(run, X_train, y_train, trees)
    fit_seconds = time.perf_counter() - started + grown_seconds
    shown = prepare.steps(preprocessor, raw, choices, dropped)
    run.preprocessor, run.preprocessing = preprocessor, shown
    result = {"label": run.label, "task": estimator.task, "capabilities": sorted(run.learner.capabilities),
              "model": readouts.compact_model(estimator),
              "summary": summary(estimator), "features": features, "target": target,
              "evaluation": evaluation, "evaluation_text": evaluation_text(evaluation, estimator.task),
              "splits": {k: (v + 1).tolist() for k, v in splits.items()},
              "warnings": warnings, "preprocessing": shown, "preprocessing_choices": choices,
              "rows_dropped": dropped["rows"], "sample": sampled}
    if cv is not None:
        result["cv"] = cv
        result["final_model"] = "trained on all rows"
    result.update(_readouts(run, X, y_raw, warnings, out_of_fold))
    result["timing"] = _timing(cv, fit_seconds, result.pop("predict_seconds", None), len(train_rows), n)
    if include_trace:
        result["trace"] = getattr(estimator, "trace_", None)
    result.update(showing.decisions(run, result))  # the views, the planes' axes: the page shows these
    if "network" in result["views"]:  # its units drawn over the plane the boundary opens on
        axes = result["default_axes"]["boundary"]
        result["network"] = network_view(run, axes["x"], axes["y"])
        result["network"]["replay"] = network_replay.keep(run, recording, len(train_rows))
    report(1.0, "Training")
    return run, result


def _prepared(run):
    """(preprocessor, X): the run's preprocessing fitted on its training rows, and every row prepared by it."""
    raw = run.table.select(run.features)
    preprocessor = prepare.unfitted(raw, run.setup["preprocessing"], run.learner).fit(raw.take(run.splits["train"]))
    return preprocessor, preprocessor.transform(raw)


def within_row_limit(table, learner, sample, seed):
    """(table, sample): the table itself when the learner takes this many rows (sample None), else a
    seeded random sample of its row limit (sample {rows, of, seed}) when `sample` asks for one; without
    it, a DataError saying the limit, before any work is done."""
    limit, n = learner.max_rows, table.n_rows
    if limit is None or n <= limit:
        return table, None
    if not sample:
        raise DataError(f"{learner.label} works on up to {limit:,} rows; this table has {n:,}. Train it on a "
                        f"random sample of {limit:,} rows (sample), or use a smaller table.", field="sample")
    rows = np.sort(np.random.default_rng(seed).choice(n, size=limit, replace=False))  # (limit,) in table order
    return table.take(rows), {"rows": limit, "of": n, "seed": seed}


def limit_phrase(sampled):
    """"5,000 of the table's 50,000 rows (seed 0)"."""
    return f"{sampled['rows']:,} of the table's {sampled['of']:,} rows (seed {sampled['seed']})"


def _timing(cv, fit_seconds, predict_seconds, fit_rows, predict_rows):
    """Seconds spent fitting (preprocessing included) and predicting: under k-fold the mean over the
    folds (each fold's model, its held-out rows), else the model shown (its training rows, every row; a
    clustering or a projection predicts no target: None)."""
    if cv is not None:
        return {"per_fold": True, "fit_seconds": float(np.mean(cv["fit_times"])),
                "predict_seconds": float(np.mean(cv["predict_times"]))}
    return {"per_fold": False, "fit_seconds": fit_seconds, "predict_seconds": predict_seconds,
            "fit_rows": int(fit_rows), "predict_rows": int(predict_rows)}


def _cross_validate(run, pipeline, pieces=None):
    """One pass over the run's folds: each fold's copy of `pipeline` (preprocessing refitted inside the
    fold) fitted on the other folds and predicting the rows it did not see, one piece a fold
    (workbench.fold_pieces), made here in turn or given (`pieces`, made by other workers). (cv,
    out_of_fold): cv has the per-fold scores (the model's own score, accuracy or R^2, on its held-out rows),
    their mean and population std, the fit and predict seconds and each fold's rows (1-based); out_of_fold
    is what judging.out_of_fold gives: {"predicted", "proba", "classes", "fold"}."""
    pairs = fold_pairs(run)
    if pieces is not None:
        pieces = fold_pieces.in_fold_order(pieces, pairs, fold_pieces.proba_classes(run))
    else:
        pieces = []
        for i in range(len(pairs)):
            report(0.8 * i / len(pairs), f"Cross-validating, fold {i + 1} of {len(pairs)}")
            with part(0.8 * i / len(pairs), 0.8 * (i + 1) / len(pairs), f"Fold {i + 1} of {len(pairs)}"):
                pieces.append(fold_pieces.fold_piece(run, pipeline, pairs, i))
    return fold_pieces.assembled(run, pairs, pieces)


def train_fold(table, target, features, model, index, params=None, evaluation=None, preprocessing=None,
               sample=False):
    """Fold `index`'s piece of the k-fold training `train` would do with the same arguments
    (workbench.fold_pieces.fold_piece): planned the same way, its model fitted exactly as that training's
    cross-validation fits it. The page's pool makes the folds side by side and gives them to `train`."""
    run, _, _ = plan_run(table, target, features, model, params, evaluation, False, preprocessing, sample)
    if run.setup["evaluation"]["method"] != "kfold" or run.task not in SUPERVISED:
        raise DataError("A fold's piece is of k-fold cross-validation of a learner with a target.",
                        field="evaluation.method")
    try:
        pairs = fold_pairs(run)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(pairs):
            raise DataError(f"index must be a fold's number, 0 to {len(pairs) - 1}.", field="evaluation.k")
        with part(0.0, 1.0, f"Fold {index + 1} of {len(pairs)}"):
            return fold_pieces.fold_piece(run, _fold_pipeline(run), pairs, index)
    except DataError as exc:  # as train explains it: a class too small for stratified folds
        explain_stratify(exc, run.table, run.target, run.label)
        raise


def train_trees(table, target, features, model, start, stop, params=None, evaluation=None, preprocessing=None,
                sample=False):
    """Trees start .. stop - 1 of the forest `train` fits with the same arguments (workbench.tree_pieces),
    planned the same way and grown on its final model's training rows, prepared as that fit prepares them.
    The page's pool grows the ranges side by side and gives them to `train` as `trees`."""
    run, _, _ = plan_run(table, target, features, model, params, evaluation, False, preprocessing, sample)
    tree_pieces.check_poolable(run)
    _, X = _prepared(run)
    rows = run.splits["train"]
    return tree_pieces.tree_piece(run, X.take(rows), run.table.column(run.target)[rows], start, stop)


def _readouts(run, X, y_raw, warnings, out_of_fold=None):
    """The task's metrics per split and its drawings. Under k-fold the metrics are those of the
    out-of-fold predictions, under "out_of_fold" (every row, each predicted by the fold model that did
    not see it); the predictions drawn are those too."""
    estimator, splits = run.estimator, run.splits
    if estimator.task in SUPERVISED:
        y = check_target(y_raw, len(y_raw), task=estimator.task)
        started = time.perf_counter()
        run.predicted = readouts.predict_rows(run, X)  # kept: the export reuses it, never predicts again
        predict_seconds = time.perf_counter() - started
        if out_of_fold is None:
            predicted, scored = run.predicted, splits
        else:
            predicted, scored = out_of_fold["predicted"], {"out_of_fold": splits["train"]}
        out = {"metrics": readouts.supervised_metrics(estimator.task, y, predicted, scored),
               "predictions": readouts.predictions(run, y, predicted),
               "predict_seconds": predict_seconds}  # taken out into "timing" by _train
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
           "clusters": {**readouts.clusters(estimator, M, labels),
                        "feature_means": readouts.feature_means(run, labels)}}
    if run.learner.can("dendrogram"):
        out["dendrogram"] = readouts.dendrogram(estimator)
    return out
