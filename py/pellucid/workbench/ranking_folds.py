"""A comparison under k-fold cut finer than a learner: one piece a fold of one learner, so the page's pool
keeps its workers busy to the end however slow one learner is. Fold f of a learner is, for f < k, fold f of
the k-fold training `train` does (workbench.fold_pieces, through training.train_fold), and for f >= k the
fold of a later repeat that repeated_folds scores (repeat_piece). A learner's piece (leaderboard.rank_piece)
given its r * k fold pieces fits no fold again: `train` assembles the first k, the later ones are its repeat
scores, so its row is the one it has in one worker.

A fold that fails (or a learner that is left out for its row limit, which every fold of it says) carries the
failure {message, field}; the learner's piece raises the one a single worker would have met first: a fold of
its training before the repeats after it.
"""

from ..core.errors import DataError
from ..core.jsonable import tagged, untag
from . import fold_pieces, repeated_folds, training


def learner_fold(table, target, features, learner, params, evaluation, preprocessing, sample, repeats, metrics,
                 fold):
    """Fold `fold` (0 to repeats * k - 1) of `learner`'s comparison: {"fold", "piece"} (a fold piece of its
    training, or {"scores", "warnings"} of a later repeat's fold), or {"fold", "failure"}."""
    k = evaluation["k"]
    try:
        if fold < k:
            piece = training.train_fold(table, target, features, learner.name, fold, params, evaluation,
                                        preprocessing, sample)
        else:
            run, _, _ = training.plan_run(table, target, features, learner.name, params, evaluation, False,
                                          preprocessing, sample)
            later = repeated_folds.repeat_pairs(run, repeats)[k:]
            piece = repeated_folds.repeat_piece(run, later, fold - k, metrics, k)
    except DataError as exc:
        return {"fold": fold, "failure": {"message": str(exc), "field": exc.field}}
    return {"fold": fold, "piece": piece}


def in_order(folds, index, count):
    """The fold pieces of learner `index`, checked to be one for each of its `count` folds, in fold order."""
    if not isinstance(folds, list) or not all(isinstance(f, dict) and "fold" in f and f.get("index") == index
                                              for f in folds) \
            or sorted(f["fold"] for f in folds) != list(range(count)):
        raise DataError(f"folds must be learner {index}'s rank_fold_piece replies, one for each of its {count} "
                        "folds.", field="learners")
    return sorted(folds, key=lambda f: f["fold"])


def training_folds(folds, k):
    """The fold pieces of the learner's training (the first k), for train; the first failure among them raised."""
    _raise_first_failure(folds[:k])
    return [f["piece"] for f in folds[:k]]


def repeat_scores(folds, k, metrics):
    """repeated_folds.repeat_scores' reply from the later repeats' fold pieces; the first failure raised."""
    _raise_first_failure(folds[k:])
    return repeated_folds.merged_scores([f["piece"] for f in folds[k:]], metrics)


def _raise_first_failure(folds):
    failed = next((f["failure"] for f in folds if "failure" in f), None)
    if failed is not None:
        raise DataError(failed["message"], field=failed["field"])


# --- across the wire ----------------------------------------------------------------------------------------

def sent(fold, k):
    """A fold piece as plain data: a training fold's as fold_pieces sends it, a repeat's scores tagged."""
    if "piece" not in fold:
        return fold
    piece = fold_pieces.sent(fold["piece"]) if fold["fold"] < k else tagged(fold["piece"])
    return {**fold, "piece": piece}


def received(folds, evaluation):
    """The fold pieces `sent` wrote, as learner_fold made them (`evaluation`: the comparison's, for its k)."""
    evaluation = training.check_evaluation(evaluation)
    if evaluation["method"] != "kfold":
        raise DataError("A comparison is cut into folds under k-fold cross-validation only.",
                        field="evaluation.method")
    k = evaluation["k"]
    if not isinstance(folds, list) or not all(_well_formed(f, k) for f in folds):
        raise DataError("folds must be the list of rank_fold_piece replies of one learner.", field="learners")
    made = [f for f in folds if "piece" in f and f["fold"] < k]
    back = dict(zip((id(f) for f in made), fold_pieces.received([f["piece"] for f in made])))
    return [f if "piece" not in f else {**f, "piece": back[id(f)] if f["fold"] < k else _scores_back(f["piece"])}
            for f in folds]


def _well_formed(fold, k):
    if not isinstance(fold, dict) or isinstance(fold.get("fold"), bool) or not isinstance(fold.get("fold"), int):
        return False
    if "piece" not in fold:
        return isinstance(fold.get("failure"), dict)
    piece = fold["piece"]
    return isinstance(piece, dict) and (fold["fold"] < k or isinstance(piece.get("scores"), dict))


def _scores_back(piece):
    return {**piece, "scores": {name: untag(value) for name, value in piece["scores"].items()}}
