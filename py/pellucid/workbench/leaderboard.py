"""Compare learners: several learners trained on the same rows, the same preprocessing and the same split
or folds (one seed), ranked by a metric, as Weka's Experimenter and Orange's Test & Score do.

Each learner is trained exactly as the `train` command trains it (workbench.training), with the same
seed, so `train` with a row's model and params makes that very model again for the page to open; under
k-fold only its folds are fitted (training.cross_validated), the final model being Train's to fit then.
Under k-fold a learner's score is the mean
and population spread of the metric over the folds, each fold scored on its own held-out rows by the
model that did not see them (as scikit-learn's cross_val_score); under a split it is the held-out score
(test rows, else validation rows; with none, the training rows, said to be in-sample). Repeated k-fold
(evaluation "repeats" r > 1) scores each learner on the r * k folds of `repeated_folds`, all learners on the
same ones; every row then says, per metric, whether it differs from the best by more than chance
(`versus_best`: the corrected resampled t-test over the paired fold scores).
"""

import numpy as np

from ..core.descriptor import Task
from ..core.errors import DataError
from ..core.settings import RANK_METRICS
from ..evaluation.model_selection import SCORERS
from ..learners import registry
from . import training
from ..host.progress import part, report
from ..evaluation.significance import LEVEL
from .judging import held_out
from . import ranking_folds, repeated_folds, versus_best

# The metrics a ranking can use, per task, with their names on the page (those the scorers know): one
# table with the page's, which reads it from settings.json.
METRICS = {task: tuple((name, label) for name, label, _ in rows) for task, rows in RANK_METRICS.items()}


def metrics_for(task):
    """[{name, label, greater_is_better}] of the metrics that rank learners of `task`."""
    return [{"name": name, "label": label, "greater_is_better": SCORERS[name][2]}
            for name, label in METRICS.get(task, ()) if name in SCORERS and not SCORERS[name][1]]


def check_learners(learners):
    """(descriptors, task): the named learners, all known, none twice, all of one supervised task; a
    DataError naming the one that is not."""
    if not isinstance(learners, (list, tuple)) or not learners:
        raise DataError("Choose at least one learner to compare (for example every learner of this task).",
                        field="learners")
    chosen = [registry.get(name) for name in learners]  # an unknown name: a DataError listing the known ones
    twice = sorted({d.name for d in chosen if sum(e.name == d.name for e in chosen) > 1})
    if twice:
        raise DataError(f"{', '.join(twice)} is chosen more than once; compare each learner once.", field="learners")
    task = Task(chosen[0].task)
    if not task.supervised:
        raise DataError(f"{chosen[0].label} is a {task.value} learner: comparing ranks learners by how well "
                        "they predict a target, so choose classifiers or regressors.", field="learners")
    other = next((d for d in chosen if d.task != task), None)
    if other is not None:
        raise DataError(f"{other.label} ({other.name}) is a {Task(other.task).value} learner, but the others "
                        f"are {task.value} learners: compare learners of one task.", field="learners")
    return chosen, task.value


def check_metric(metric, task):
    names = [m["name"] for m in metrics_for(task)]
    if metric is None:
        return names[0]
    if metric not in names:
        raise DataError(f"metric {metric!r} does not rank {task} learners; choose one of: {', '.join(names)}.",
                        field="metric")
    return metric


def rank_learners(table, target, features, learners, evaluation=None, preprocessing=None, params=None,
                     metric=None, sample=False):
    """Train each of `learners` (names) on `table` as `train` would, with `params[name]` where given (the
    page's current model keeps its settings) and its defaults otherwise; rank them by `metric`. A learner
    with a row limit below the table's rows trains on its seeded sample when `sample` (its row says so),
    and is otherwise left out with the reason; one that fails is listed last with its message. When no
    learner trains, the first failure (or the row limit) is raised. The reply: docs/bridge.md.

    One worker's way: every learner's piece in turn, then their merge. The page's pool of workers runs the
    same pieces side by side (rank_piece) and merges them the same way (merge_pieces)."""
    n = len(check_learners(learners)[0])  # a bad list is refused before any learner trains
    pieces = []
    for i in range(n):
        with part(i / n, (i + 1) / n, ""):  # each piece fills its share of the bar, labelled by its learner
            pieces.append(rank_piece(table, target, features, learners, i, evaluation, preprocessing, params,
                                     metric, sample))
    report(1.0, "Compared")
    return merge_pieces(learners, pieces, evaluation, metric)


def _plan(learners, evaluation, params, metric):
    """The checked comparison every piece and the merge agree on: (chosen descriptors, task, metric,
    params, evaluation without its repeats, repeats)."""
    chosen, task = check_learners(learners)
    metric = check_metric(metric, task)
    params = _check_params(params, chosen)
    evaluation = training.check_evaluation(evaluation)
    repeats = evaluation.pop("repeats", 1)  # train cross-validates once; the repeats after it are scored here
    return chosen, task, metric, params, evaluation, repeats


def rank_piece(table, target, features, learners, index, evaluation=None, preprocessing=None, params=None,
               metric=None, sample=False, folds=None):
    """One learner's share of a comparison: learner `index` of `learners` trained and scored on all its
    folds (of every repeat), exactly as rank_learners does it, independent of the others. A dict: its
    "index", its "row" (a failed one when it did not train, with the "failure" {message, field} to raise
    should no learner train), and, when it trained, the "baseline" scored on its run's rows and folds and
    the "sample" that run was on (None: every row). `folds`: under k-fold, its rank_fold_piece replies, one
    for each fold of every repeat, made elsewhere: nothing is fitted again."""
    chosen, task, _, params, evaluation, repeats = _plan(learners, evaluation, params, metric)
    learner = _chosen(chosen, index)
    if folds is not None:
        folds = ranking_folds.in_order(folds, index, _fold_count(evaluation, repeats))
    label = f"{learner.label} ({index + 1} of {len(chosen)})"
    report(0.0, label)
    try:
        row, run = _ranked_learner(table, target, features, learner, params.get(learner.name), evaluation,
                                   preprocessing, sample, repeats, task, (0.0, 1.0, label), folds)
    except DataError as exc:
        return {"index": index, "row": _failed_row(learner, params.get(learner.name), exc, table.n_rows),
                "failure": {"message": str(exc), "field": exc.field}}
    return {"index": index, "row": row, "baseline": baseline_row(run, task, repeats),
            "sample": run.setup.get("sample") or None}


def rank_fold_piece(table, target, features, learners, index, fold, evaluation=None, preprocessing=None,
                    params=None, metric=None, sample=False):
    """One fold of one learner's share of a comparison under k-fold (workbench.ranking_folds): fold `fold`
    (0 to repeats * k - 1) of learner `index`, fitted exactly as rank_piece fits it. {"index", "fold",
    "piece"}, or {"index", "fold", "failure"} when the learner could not be trained on it."""
    chosen, task, _, params, evaluation, repeats = _plan(learners, evaluation, params, metric)
    learner = _chosen(chosen, index)
    count = _fold_count(evaluation, repeats)
    if isinstance(fold, bool) or not isinstance(fold, int) or not 0 <= fold < count:
        raise DataError(f"fold must be a fold's number, 0 to {count - 1}.", field="evaluation.k")
    report(0.0, f"{learner.label} ({index + 1} of {len(chosen)}), fold {fold + 1} of {count}")
    metrics = [m["name"] for m in metrics_for(task)]
    piece = ranking_folds.learner_fold(table, target, features, learner, params.get(learner.name), evaluation,
                                       preprocessing, bool(sample), repeats, metrics, fold)
    return {"index": index, **piece}


def _chosen(chosen, index):
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(chosen):
        raise DataError(f"index must be a learner's place in the list, 0 to {len(chosen) - 1}.", field="learners")
    return chosen[index]


def _fold_count(evaluation, repeats):
    """How many fold pieces a learner's comparison has: k of every repeat; a DataError outside k-fold."""
    if evaluation["method"] != "kfold":
        raise DataError("A comparison is cut into folds under k-fold cross-validation only.",
                        field="evaluation.method")
    return evaluation["k"] * repeats


def merge_pieces(learners, pieces, evaluation=None, metric=None):
    """The ranking of `learners` from their pieces (rank_piece, one for every learner, in any order): the
    very reply rank_learners gives."""
    chosen, task, metric, _, _, repeats = _plan(learners, evaluation, None, metric)
    by_index = {piece["index"]: piece for piece in pieces}
    if sorted(by_index) != list(range(len(chosen))) or len(pieces) != len(chosen):
        raise DataError("A comparison's pieces must be one for every learner.", field="learners")
    ordered = [by_index[i] for i in range(len(chosen))]
    trained = [piece for piece in ordered if "failure" not in piece]
    if not trained:
        failure = ordered[0]["failure"]
        raise DataError(failure["message"], field=failure["field"])
    rows = [piece["row"] for piece in ordered]
    # The reply's rows, split and baseline are those of the whole table: a learner on its sample is the
    # exception its row marks, unless every learner trained on a sample.
    whole = next((piece for piece in trained if not piece["sample"]), trained[0])
    scored = next((piece["row"] for piece in trained if piece["row"]["sample"] is None), trained[0]["row"])
    ranked, baseline = rank(rows, metric), whole["baseline"]
    names = [m["name"] for m in metrics_for(task)]
    versus_best.mark(ranked, baseline, whole["sample"], names)
    shown = dict(scored["evaluation"], **({"repeats": repeats} if scored["scored_on"] == "folds" else {}))
    return {"task": task, "metric": metric, "metrics": metrics_for(task), "evaluation": shown,
            "scored_on": scored["scored_on"], "n_rows": scored["n_rows"], "rows": ranked, "baseline": baseline,
            "significance": {"test": versus_best.TEST, "level": LEVEL, "n_folds": len(baseline_folds(baseline)),
                             "possible": scored["scored_on"] == "folds"}}


def _ranked_learner(table, target, features, learner, params, evaluation, preprocessing, sample, repeats, task,
                    progress, folds=None):
    """(row, run) of one learner: trained as `train` would (under k-fold its first k folds only: the ranking
    needs no final model), then scored on the folds of the other repeats; its progress (start, end, label)
    fills that share of the bar, the repeats after the first taking their part of it. `folds`: its fold
    pieces in fold order (ranking_folds), made elsewhere."""
    start, end, prefix = progress
    first = start + (end - start) / repeats
    k = evaluation.get("k")
    given = None if folds is None else ranking_folds.training_folds(folds, k)
    with part(start, first, prefix):
        if evaluation["method"] == "kfold":  # scored on its folds alone: the row opens with Train, which fits it
            run, result = training.cross_validated(table, target, features, learner.name, params, evaluation,
                                                   preprocessing, bool(sample), given)
        else:
            run, result = training.train(table, target, features, learner.name, params, evaluation, False,
                                         preprocessing, bool(sample))
    if repeats == 1 or result.get("cv") is None:
        return _row(run, result, task), run
    pairs = repeated_folds.repeat_pairs(run, repeats)
    metrics = [m["name"] for m in metrics_for(task)]
    if folds is not None:
        extra, said = ranking_folds.repeat_scores(folds, k, metrics)
    else:
        with part(first, end, prefix):
            extra, said = repeated_folds.repeat_scores(run, pairs[k:], metrics, k)
    result["warnings"] += [text for text in said if text not in result["warnings"]]
    return _row(run, result, task, extra, repeated_folds.fold_sizes(pairs)), run


def rank(rows, metric):
    """The rows best first by the mean of `metric` (lower first for a loss), then those left out for their
    row limit, then failed ones, ties in the order the learners were chosen; each with its 1-based "rank"
    (None when it was not scored)."""
    greater = SCORERS[metric][2]
    ok = [row for row in rows if "scores" in row]
    ok.sort(key=lambda row: -row["scores"][metric]["mean"] if greater else row["scores"][metric]["mean"])
    for place, row in enumerate(ok, 1):
        row["rank"] = place
    left_out = [dict(row, rank=None) for row in rows if "left_out" in row]
    failed = [dict(row, rank=None) for row in rows if "error" in row]
    return ok + left_out + failed


def _check_params(params, chosen):
    if params is None:
        return {}
    if not isinstance(params, dict) or not all(isinstance(v, dict) for v in params.values()):
        raise DataError("params must map a learner's name to its settings, like {\"GaussianNB\": {}}.",
                        field="params")
    names = {d.name for d in chosen}
    return {name: values for name, values in params.items() if name in names}


# --- one learner's row ------------------------------------------------------------------------------

def _row(run, result, task, extra=None, sizes=None):
    """The ranking's row of one trained run: every metric's per-fold (or held-out) scores, mean and std;
    `extra` ({metric: scores}) are those of the folds of the repeats after the first, `sizes` the
    training and held-out rows of every fold (repeated_folds.fold_sizes)."""
    y = run.table.column(run.target)
    if result.get("cv") is not None:
        oof = run.out_of_fold  # the fold models' predictions, made when the run was cross-validated
        groups = [np.flatnonzero(oof["fold"] == i) for i in range(result["cv"]["k"])]
        predicted, scored_on, n_rows = oof["predicted"], "folds", len(y)
        trained_on = [len(y) - len(rows) for rows in groups]
    else:
        rows, scored_on = held_out(run)
        groups, predicted, n_rows, trained_on = [rows], run.predicted, len(rows), [len(run.train_rows())]
    scores = {}
    for m in metrics_for(task):
        per_group = [float(SCORERS[m["name"]][0](y[rows], predicted[rows])) for rows in groups]
        per_group += (extra or {}).get(m["name"], [])
        scores[m["name"]] = {"folds": per_group, "mean": float(np.mean(per_group)),
                             "std": float(np.std(per_group)) if len(per_group) > 1 else None}
    timing = result["timing"]
    return {"model": run.model, "label": run.label, "params": _params_of(run),
            "scores": scores, "fit_seconds": timing["fit_seconds"], "predict_seconds": timing["predict_seconds"],
            "per_fold": timing["per_fold"], "fit_rows": timing.get("fit_rows"),
            "predict_rows": timing.get("predict_rows"),
            "warnings": result["warnings"], "evaluation": result["evaluation"],
            "scored_on": scored_on, "n_rows": int(n_rows), "sample": result["sample"],
            "fold_sizes": sizes or {"train": [int(n) for n in trained_on], "test": [int(len(g)) for g in groups]}}


def _scored_groups(run, repeats=1):
    """[(training rows, scored rows)] of a run: one pair per fold (of every repeat) under k-fold, else its
    split's."""
    oof = run.out_of_fold
    if run.setup["evaluation"]["method"] == "kfold" and oof is not None and repeats > 1:
        return repeated_folds.repeat_pairs(run, repeats)
    if run.setup["evaluation"]["method"] == "kfold" and oof is not None:
        return [(np.flatnonzero(oof["fold"] != i), np.flatnonzero(oof["fold"] == i))
                for i in range(run.setup["evaluation"]["k"])]
    return [(run.train_rows(), held_out(run)[0])]


def baseline_row(run, task, repeats=1):
    """What a model that learned nothing scores on the same rows and folds as the learners: it predicts
    its training rows' most frequent class (the first in sorted order on a tie) or their mean target,
    scikit-learn's DummyClassifier(strategy="most_frequent") and DummyRegressor(). A learner ranked below
    it has learned nothing that helps on these rows."""
    y = run.table.column(run.target)
    if task == "classification":  # each class as its place in sorted order: every metric the same, faster
        classes, y = np.unique(y, return_inverse=True)
        n_classes, y = len(classes), y.ravel()
    per_metric = {m["name"]: [] for m in metrics_for(task)}
    groups = _scored_groups(run, repeats)
    for train, scored in groups:
        if task == "classification":
            guess = int(np.argmax(np.bincount(y[train], minlength=n_classes)))  # the first on a tie
        else:
            guess = float(np.mean(y[train].astype(float)))
        predicted = np.full(len(scored), guess, dtype=y.dtype if task == "classification" else float)
        for name, values in per_metric.items():
            values.append(float(SCORERS[name][0](y[scored], predicted)))
    label = "Baseline: the most frequent class" if task == "classification" else "Baseline: the mean target"
    return {"model": None, "label": label, "baseline": True, "fold_sizes": repeated_folds.fold_sizes(groups),
            "scores": {name: {"folds": values, "mean": float(np.mean(values)),
                              "std": float(np.std(values)) if len(values) > 1 else None}
                       for name, values in per_metric.items()}}


def baseline_folds(baseline):
    """The baseline's scores of one metric: one a fold (of every repeat), or the one held-out score."""
    return next(iter(baseline["scores"].values()))["folds"]


def _failed_row(learner, params, exc, n_rows):
    """A learner that did not train: left out for its row limit (the sample was not asked for), with the
    reason, or failed, with its message."""
    row = {"model": learner.name, "label": learner.label, "params": dict(params or {})}
    if exc.field == "sample":
        return {**row, "left_out": f"works on up to {learner.max_rows:,} rows; this table has {n_rows:,}. Use a "
                                   f"sample for learners with a row limit to rank it on {learner.max_rows:,} rows."}
    return {**row, "error": str(exc)}


def _params_of(run):
    """The learner's whole settings (defaults included), as the CSV and the page name them."""
    return {name: value for name, value in run.estimator.get_params().items() if name != "trace"}
