"""Judging a trained run on rows its model did not see: out-of-fold predictions under k-fold, a
classifier's curves (ROC, precision-recall, calibration, the threshold table), and which features
matter (permutation importance, beside a tree's impurity importance).

Which rows judge a run: under a split, the test rows (else the validation rows); under k-fold, every
row, each predicted by the fold model that did not see it (the final model saw them all). With no
held-out rows at all ("none"), the training rows are used and the reply says the numbers are in-sample.
Every model here reads the user's columns through the run's preprocessing, refitted inside each fold
exactly as cross-validation refits it, so the numbers include it.
"""

import warnings

import numpy as np

from ..core.errors import DataError
from ..evaluation import cross_predict
from ..evaluation.model_selection import _labels, clone
from ..evaluation.importance import impurity_importance, permutation_importance
from ..evaluation.probability_report import probability_report
from ..preprocessing import Pipeline, Preprocessor
from . import prepare
from ..host.progress import part, report

MAX_IMPORTANCE_ROWS = 2000  # held-out rows permutation importance reads at most (sampled by the run's seed)
N_REPEATS = 5
MAX_BLOCKS = 64  # the most blocks of features a piece of the importance is one of
CALIBRATION_BINS = 10


# --- the rows that judge a run --------------------------------------------------------------------------

def _method(run):
    return (run.setup.get("evaluation") or {}).get("method", "none")


def _seed(run):
    return int((run.setup.get("evaluation") or {}).get("seed", 0))


def _check_data(run):
    if run.table is None:
        raise DataError("This model was imported without its data; train it on a loaded table to judge it.")
    if run.target is None:
        raise DataError(f"{run.label} learns no target, so there is nothing to judge its predictions against.")


def held_out(run):
    """(0-based rows, which): the rows a split run is judged on; "test", "validation", or "training" when
    the run kept no rows out (its numbers are then in-sample)."""
    for name in ("test", "validation"):
        rows = np.asarray(run.splits.get(name, []), dtype=np.intp)
        if len(rows):
            return rows, name
    return run.train_rows(), "training"


def _fold_pipeline(run):
    """The run's model behind an unfitted copy of its preprocessing, to be refitted in every fold."""
    # the same preparation the run's cross-validation fitted in each fold (one-hot included)
    choices = prepare.check_choices(run.setup.get("preprocessing"), run.learner)
    return Pipeline(prepare.unfitted(run.table.select(run.features), choices, run.learner), clone(run.estimator))


def fold_pairs(run):
    """[(train, test), ...]: the k-fold run's folds, the very ones its cross-validation scored."""
    evaluation = run.setup["evaluation"]
    stratified = evaluation["stratify"] and run.task == "classification"
    splitter = cross_predict.folds_for(run.estimator, evaluation["k"], stratified, True, evaluation["seed"])
    y = run.table.column(run.target)
    return [(np.asarray(tr), np.asarray(te)) for tr, te in splitter.split(run.table.select(run.features),
                                                                          _labels(y, len(y)))]


def out_of_fold(run):
    """For a k-fold run: {"predicted" (n,), "proba" (n, classes) or None, "classes", "fold" (n,) 0-based}:
    each row predicted by the model of the fold that held it out. Computed once per run, then kept."""
    if _method(run) != "kfold":
        raise DataError("Out-of-fold predictions come from k-fold cross-validation; this run was not "
                        "cross-validated.")
    _check_data(run)
    kept = run.out_of_fold
    if kept is not None:
        return kept
    report(0.05, "Predicting each fold's held-out rows")
    raw, y = run.table.select(run.features), run.table.column(run.target)
    model, pairs = _fold_pipeline(run), fold_pairs(run)
    with warnings.catch_warnings():  # the fold fits warned already, when the run was trained
        warnings.simplefilter("ignore")
        predicted, fold = cross_predict.cross_val_predict(model, raw, y, cv=pairs, return_folds=True)
        proba = classes = None
        if run.task == "classification" and run.learner.can("probabilities"):
            report(0.5, "Predicting each fold's held-out probabilities")
            proba = cross_predict.cross_val_predict(model, raw, y, cv=pairs, method="predict_proba")
            classes = np.unique(_labels(y, len(y)))
    kept = {"predicted": predicted, "proba": proba, "classes": classes, "fold": fold}
    run.out_of_fold = kept
    return kept


# --- curves -------------------------------------------------------------------------------------------

def curves(run, pos_label=None):
    """The probability report (evaluation.probability_report) of a classifier on its held-out rows, with
    "rows" ("test", "validation", "out_of_fold" or "training"), "n_rows" and "in_sample"."""
    _check_data(run)
    if run.task != "classification" or not run.learner.can("probabilities"):
        raise DataError(f"{run.label} gives no class probabilities, so it has no ROC, precision-recall or "
                        "calibration curves.")
    if _method(run) == "kfold":
        oof = out_of_fold(run)
        y, proba, classes, which = run.table.column(run.target), oof["proba"], oof["classes"], "out_of_fold"
    else:
        rows, which = held_out(run)
        y = run.table.column(run.target)[rows]
        proba, classes = run.estimator.predict_proba(run.model_input(rows)), run.estimator.classes_
    labels = _labels(y, len(y))
    reply = probability_report(labels, proba, classes, pos_label=pos_label, n_bins=CALIBRATION_BINS)
    reply.update(rows=which, n_rows=int(len(labels)), in_sample=which == "training")
    return reply


# --- which features matter -------------------------------------------------------------------------------

def _fitted_pipeline(run):
    """The run's fitted model reading the user's columns through its fitted preprocessing."""
    pipeline = Pipeline(run.preprocessor or Preprocessor().fit(run.table.select(run.features)), run.estimator)
    pipeline.fitted_ = True
    return pipeline


def _sample(rows, limit, seed):
    if len(rows) <= limit:
        return rows
    return np.sort(np.random.default_rng(seed).choice(rows, size=limit, replace=False))


def _summarise(features, drops, scoring, baseline):
    """Mean and population std over every repeat (of every fold), largest mean first."""
    drops = np.asarray(drops)  # (features, repeats)
    mean, std = drops.mean(axis=1), drops.std(axis=1)
    order = np.argsort(-mean, kind="stable")
    return {"features": [features[j] for j in order], "mean": mean[order].tolist(), "std": std[order].tolist(),
            "scoring": scoring, "baseline": baseline}


def _features_done(fraction):
    report(fraction, f"{round(100 * fraction)}% of the features shuffled")


def importance(run, n_repeats=N_REPEATS, max_rows=MAX_IMPORTANCE_ROWS):
    """Permutation importance of every feature (the user's columns, before preprocessing) on held-out rows,
    n_repeats shuffles seeded by the run's seed; under k-fold, each fold model on its own held-out rows.
    At most `max_rows` rows are read (sampled with the run's seed; "sampled" says so). For a tree, its
    impurity importance too ("impurity", from the training rows).

    One worker's way: every piece (importance_piece: a fold, or the fitted model, with every feature) in
    turn, then their merge. The page's pool of workers runs the same pieces, cut finer into blocks of
    features, side by side, and merges them the same way (merge_importance)."""
    _check_data(run)
    n = piece_count(run)
    pieces = []
    for index in range(n):
        with part(index / n, (index + 1) / n, _piece_words(run, index, n)):
            pieces.append(importance_piece(run, index, 1, n_repeats, max_rows))
    report(1.0, "Permutation importance")
    return merge_importance(run, pieces)


def _piece_words(run, index, n):
    return f"Permutation importance, fold {index + 1} of {n}" if _method(run) == "kfold" else "Permutation importance"


def piece_count(run, blocks=1):
    """How many pieces `importance` is cut into: one a fold (under k-fold; else one for the fitted model),
    times the `blocks` the features are cut into."""
    return (run.setup["evaluation"]["k"] if _method(run) == "kfold" else 1) * blocks


def _check_blocks(blocks):
    """The blocks to cut the features into: more than there are features leaves some empty (a page that cuts
    them need not know how many a date column becomes)."""
    if isinstance(blocks, bool) or not isinstance(blocks, int) or not 1 <= blocks <= MAX_BLOCKS:
        raise DataError(f"blocks must be a whole number from 1 to {MAX_BLOCKS}, the features to cut into; "
                        f"got {blocks!r}.")
    return blocks


def importance_piece(run, index, blocks=1, n_repeats=N_REPEATS, max_rows=MAX_IMPORTANCE_ROWS):
    """Piece `index` of `importance`, with the features cut into `blocks` runs of consecutive ones (as numpy's
    array_split cuts them): fold `index // blocks` under k-fold (its model refitted, its held-out rows
    sampled), else the run's fitted model on its held-out rows, with block `index % blocks` of the features
    shuffled, exactly as importance shuffles them (every feature's shuffles come from the run's seed alone).
    A dict: {index, blocks, fold (None without folds), features (the block's), drops (features x repeats),
    baseline, scoring, n_rows (read), n_held_out, rows (which), n_repeats, seed}."""
    _check_data(run)
    blocks = _check_blocks(blocks)
    n = piece_count(run, blocks)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
        raise DataError(f"index must be a piece's place, 0 to {n - 1}.")
    fold, block = divmod(index, blocks)
    seed = _seed(run)
    model, rows, which, n_total = _judged_by(run, fold, max_rows, seed)
    columns = np.array_split(np.arange(len(run.features)), blocks)[block].tolist()
    out = permutation_importance(model, run.table.select(run.features).take(rows), run.table.column(run.target)[rows],
                                 n_repeats=n_repeats, seed=seed, progress=_features_done, columns=columns)
    return {"index": index, "blocks": blocks, "fold": fold if which == "out_of_fold" else None,
            "features": out["features"], "drops": out["importances"], "baseline": out["baseline"],
            "scoring": out["scoring"], "n_rows": int(len(rows)), "n_held_out": int(n_total), "rows": which,
            "n_repeats": int(n_repeats), "seed": seed}


def _judged_by(run, fold, max_rows, seed):
    """(model, rows read, which rows, rows held out) of a piece: under k-fold the model of `fold` refitted on
    the other folds and a sample of its held-out rows (an equal share of max_rows a fold), else the run's
    fitted model and a sample of its held-out rows."""
    if _method(run) != "kfold":
        all_rows, which = held_out(run)
        return _fitted_pipeline(run), _sample(all_rows, max_rows, seed), which, len(all_rows)
    pairs = fold_pairs(run)
    train, test = pairs[fold]
    report(0.0, "refitting its model")
    with warnings.catch_warnings():  # the fold fits warned already, when the run was trained
        warnings.simplefilter("ignore")
        model = _fold_pipeline(run).fit(run.table.select(run.features).take(train), run.table.column(run.target)[train])
    return model, _sample(test, max(1, max_rows // len(pairs)), seed), "out_of_fold", run.table.n_rows


def merge_importance(run, pieces):
    """The reply of `importance` from its pieces (importance_piece, every one once, all cut into the same
    blocks, in any order): the very reply importance gives. The run is the page's (its fitted tree gives the
    impurity importance); pieces that are not every piece of this run once are a DataError."""
    _check_data(run)
    per_fold = _pieces_by_fold(run, pieces)
    first = per_fold[0][0]
    drops = np.hstack([np.vstack([_drops(piece) for piece in fold]) for fold in per_fold])  # (features, repeats)
    baseline = float(np.mean([fold[0]["baseline"] for fold in per_fold]))
    n_used, n_total, which = sum(fold[0]["n_rows"] for fold in per_fold), first["n_held_out"], first["rows"]
    summary = _summarise(list(run.features), drops, first["scoring"], baseline)
    reply = {"permutation": {**summary, "n_repeats": first["n_repeats"], "seed": first["seed"]},
             "rows": which, "n_rows": int(n_used), "sampled": bool(n_used < n_total), "n_held_out": int(n_total),
             "in_sample": which == "training", "impurity": None}
    if run.learner.can("tree") and getattr(run.estimator, "tree_", None) is not None:
        reply["impurity"] = impurity_importance(run.estimator)
    return reply


def _drops(piece):
    return np.asarray(piece["drops"], dtype=float).reshape(len(piece["features"]), piece["n_repeats"])


def _pieces_by_fold(run, pieces):
    """[[the pieces of a fold, block by block], ...] (one fold without folds), checked to be every piece of
    this run once: one count of blocks, the run's seed and held-out rows, and blocks that together are the
    run's features."""
    wrong = DataError("An importance's pieces must be every importance_piece of this model once, cut into the "
                      "same blocks.")
    if not isinstance(pieces, list) or not pieces or not all(isinstance(piece, dict) for piece in pieces):
        raise wrong
    blocks = pieces[0].get("blocks")
    by_index = {piece.get("index"): piece for piece in pieces}
    every = set(range(piece_count(run, blocks))) if isinstance(blocks, int) else None
    if len(by_index) != len(pieces) or set(by_index) != every:
        raise wrong
    held = run.table.n_rows if _method(run) == "kfold" else len(held_out(run)[0])
    if any((piece.get("blocks"), piece.get("seed"), piece.get("n_held_out")) != (blocks, _seed(run), held)
           for piece in pieces):
        raise wrong
    ordered = [by_index[i] for i in range(len(pieces))]
    per_fold = [ordered[start:start + blocks] for start in range(0, len(ordered), blocks)]
    if any([name for piece in fold for name in piece["features"]] != list(run.features) for fold in per_fold):
        raise wrong
    return per_fold


# --- the predictions export under k-fold --------------------------------------------------------------

def out_of_fold_columns(run):
    """The columns a k-fold run's predictions export holds instead of the final model's in-sample
    predictions: [(name, values, kind)]: "prediction", "P(<class>)" when the model gives probabilities,
    and "fold" (1-based: the fold whose model, which did not see the row, predicted it)."""
    oof = out_of_fold(run)
    columns = [("prediction", oof["predicted"], "categorical" if run.task == "classification" else "numeric")]
    if oof["proba"] is not None:
        columns += [(f"P({label})", oof["proba"][:, j], "numeric") for j, label in enumerate(oof["classes"].tolist())]
    columns.append(("fold", oof["fold"] + 1, "numeric"))
    return columns
