"""Predictions over a grid of feature values, the features not varied held at their training mean
(numeric) or mode (categorical): what the decision boundary and the regression's fitted curve draw."""

import numpy as np

from ..learners import registry
from ..tabular.table import Table


def held_values(run, exclude=()):
    """{feature: value} for the features not drawn: mean (numeric) or mode (categorical) over the
    training rows. Worked out once per run (every boundary and curve asks again, and the training rows of a
    50,000-row table take a while to gather and count)."""
    if run.held is None:
        run.held = _training_summaries(run)
    return {name: value for name, value in run.held.items() if name not in exclude}


def _training_summaries(run):
    train = run.table.take(run.train_rows())
    held = {}
    for name in run.features:
        values = train.column(name)
        if train.kinds[name] == "numeric":
            held[name] = float(np.nanmean(values))
        else:
            present = values[np.not_equal(values, None)]
            distinct, first, counts = np.unique(present, return_index=True, return_counts=True)
            best = counts == counts.max()
            held[name] = str(distinct[best][np.argmin(first[best])])  # ties: the value seen first
    return held


def predict_grid(estimator, features, varying, held, kinds, proba=False, prepare=None):
    """Predictions for rows whose `varying` columns take the given arrays and the others their held value;
    with proba=True, (predict, predict_proba or None). The grid is in the user's units; `prepare` (a
    run's `prepare`) maps its rows to what the model reads, as the training rows were."""
    m = len(next(iter(varying.values())))
    if prepare is None and all(kinds[f] == "numeric" for f in features):  # a plain matrix: no per-column conversion
        X = np.empty((m, len(features)))  # (m, d)
        for j, f in enumerate(features):
            X[:, j] = varying[f] if f in varying else held[f]
    else:
        columns = {f: varying[f] if f in varying else np.full(m, held[f], dtype=object if
                                                               kinds[f] != "numeric" else float)
                   for f in features}
        # Already as a table keeps them (floats; held text is a training value): no per-cell reading of the
        # 40,000 copies of each held category.
        X = Table._trusted(features, [np.asarray(columns[f], dtype=float) if kinds[f] == "numeric" else columns[f]
                                      for f in features], [kinds[f] for f in features])
        if prepare is not None:
            X = prepare(X)
    learner = registry.of(estimator)
    if proba and learner.predict_is_argmax_proba:  # one pass (e.g. one neighbour search), not two
        p = estimator.predict_proba(X)  # (m, C)
        return np.asarray(estimator.classes_)[np.argmax(p, axis=1)], p
    predicted = estimator.predict(X)
    if not proba:
        return predicted
    return predicted, (estimator.predict_proba(X) if learner.can("probabilities") else None)
