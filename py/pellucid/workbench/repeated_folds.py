"""Repeated k-fold for Compare learners: the folds of every repeat of a trained k-fold run, and the
scores of the repeats after the first, each fold's model fitted exactly as the run's own cross-validation
fitted its folds (the preprocessing refitted inside the fold).

The first repeat is the run's own k folds (its seed), scored when it was trained; repeat j reshuffles the
rows with `splits.repeat_seed(seed, j)`. So one repeat is plain k-fold, and every learner of a comparison
is scored on the same r * k folds, which is what makes their scores paired.
"""

import warnings

import numpy as np

from ..core.errors import DataError
from ..evaluation.model_selection import SCORERS, _labels
from ..evaluation.splits import RepeatedKFold, RepeatedStratifiedKFold
from ..host.progress import report
from .judging import _fold_pipeline


def repeat_pairs(run, repeats):
    """[(train, test)] of the r * k folds, repeat by repeat (0-based row indices, intp); the first k are
    the run's own folds (judging.fold_pairs)."""
    evaluation = run.setup["evaluation"]
    stratified = evaluation["stratify"] and run.task == "classification"
    splitter = (RepeatedStratifiedKFold if stratified else RepeatedKFold)(evaluation["k"], repeats, evaluation["seed"])
    y = run.table.column(run.target)
    return [(np.asarray(train, dtype=np.intp), np.asarray(test, dtype=np.intp))
            for train, test in splitter.split(run.table.select(run.features), _labels(y, len(y)))]


def repeat_scores(run, pairs, metrics, k):
    """({metric: [score per pair]}, [warning texts]): the run's learner fitted on each pair's training
    rows and scored on its held-out rows by every scorer in `metrics`. `pairs` are folds of the repeats
    after the first, k to a repeat (for the progress and the messages): one piece each (repeat_piece), in
    turn, merged (merged_scores)."""
    pieces = []
    for i in range(len(pairs)):
        report(i / len(pairs), f"Cross-validating, {_where(i, k)}")
        pieces.append(repeat_piece(run, pairs, i, metrics, k))
    return merged_scores(pieces, metrics)


def repeat_piece(run, pairs, i, metrics, k):
    """Pair `i`'s share of repeat_scores, independent of the others: {"scores": {metric: score}, "warnings"}."""
    raw, y = run.table.select(run.features), run.table.column(run.target)
    train, test = pairs[i]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = _fold_pipeline(run).fit(raw.take(train), y[train])
        except DataError as exc:
            raise DataError(f"Fitting the model for {_where(i, k)} failed: {exc}", field=exc.field) from exc
        predicted = model.predict(raw.take(test))
    return {"scores": {name: float(SCORERS[name][0](y[test], predicted)) for name in metrics},
            "warnings": [str(w.message) for w in caught]}


def merged_scores(pieces, metrics):
    """repeat_scores' reply from its pieces, in pair order: every metric's scores, the warnings once each."""
    scores = {name: [piece["scores"][name] for piece in pieces] for name in metrics}
    return scores, list(dict.fromkeys(text for piece in pieces for text in piece["warnings"]))


def _where(i, k):
    return f"repeat {i // k + 2}, fold {i % k + 1} of {k}"


def fold_sizes(pairs):
    """{"train": [rows per fold], "test": [...]}: what the corrected t-test's n_test/n_train is read from."""
    return {"train": [int(len(train)) for train, _ in pairs], "test": [int(len(test)) for _, test in pairs]}
