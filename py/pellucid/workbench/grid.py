"""Predictions over a grid of feature values, the features not varied held at their training mean
(numeric) or mode (categorical): what the decision boundary and the regression's fitted curve draw.

A grid's rows differ only in the varied features, and each of those takes few distinct values (200 on a
200 x 200 boundary), so the rows are prepared as a table of that many rows (`GridRows`) and expanded
again. Trees and logistic regression then predict from the varied columns alone: a tree routes the held
values once (learners/tree/held.py), logistic regression adds their part of theta^T x once
(logistic_fast.held_scores); categorical naive Bayes looks each column's terms up once per distinct value,
kernel regression sums its kernel per axis value (learners/kernels/kernel_lattice.py); all give what predict gives
on the whole grid (tests/unit/test_fast_paths.py, tests/unit/test_grid_held_columns.py).
"""

import numpy as np

from ..learners import registry
from ..learners.logistic.logistic_fast import held_scores
from ..tabular.features import numeric
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
    fast = _fast_path(estimator)
    if prepare is None and all(kinds[f] == "numeric" for f in features) and fast is None:
        X = np.column_stack([varying[f] if f in varying else np.full(_rows(varying), held[f])
                             for f in features])  # (m, d) a plain matrix: no per-column conversion
    else:
        rows = GridRows(features, varying, held, kinds, prepare)
        if fast is not None and all(kinds[f] == "numeric" for f in varying):
            predicted, p = fast(estimator, rows, proba)
            return (predicted, p) if proba else predicted
        X = rows.table()
    learner = registry.of(estimator)
    if proba and learner.predict_is_argmax_proba:  # one pass (e.g. one neighbour search), not two
        p = estimator.predict_proba(X)  # (m, C)
        return np.asarray(estimator.classes_)[np.argmax(p, axis=1)], p
    predicted = estimator.predict(X)
    if not proba:
        return predicted
    return predicted, (estimator.predict_proba(X) if learner.can("probabilities") else None)


def _rows(varying):
    return len(next(iter(varying.values())))


class GridRows:
    """The grid's rows as the model reads them, made from their few distinct values: the preparation
    (imputing, standardising, one-hot encoding) works column by column, so it is applied to a table with
    one row per distinct value of the varied feature that has most (the others repeat their last value)
    and each column is expanded to the grid again, giving the very numbers the whole grid would. A plane
    through more features (the PCA projection's) repeats no value: its rows are prepared as they are."""

    def __init__(self, features, varying, held, kinds, prepare):
        self.n_rows = _rows(varying)
        self.whole = len(varying) > 2  # not a lattice: no value repeats
        distinct = {f: (np.asarray(varying[f], dtype=float), np.arange(self.n_rows)) if self.whole
                    else np.unique(varying[f], return_inverse=True) for f in varying}
        self.inverse = {f: inverse.ravel() for f, (_, inverse) in distinct.items()}  # (m,) per varied feature
        r = max(len(values) for values, _ in distinct.values())
        columns = []
        for f in features:
            if f in varying:
                values = distinct[f][0]
                columns.append(np.concatenate([values, np.repeat(values[-1:], r - len(values))]))
            else:
                columns.append(np.full(r, held[f], dtype=float if kinds[f] == "numeric" else object))
        # Already as a table keeps them (floats; held text is a training value): no per-cell reading.
        few = Table._trusted(features, columns, [kinds[f] for f in features])
        self.few = few if prepare is None else prepare(few)  # (r rows) what the model reads

    def expand(self, matrix, names):
        """(held_row (D,), varied (v,), X_varied (m, v)) from `matrix` (r, D), the few rows as the model
        encodes them, its columns called `names`: the columns that vary, and their values on the grid."""
        varied = [j for j, name in enumerate(names) if name in self.inverse]
        X = np.empty((self.n_rows, len(varied)))  # (m, v)
        for i, j in enumerate(varied):
            X[:, i] = matrix[self.inverse[names[j]], j]
        return matrix[0], np.array(varied, dtype=np.intp), X

    def axes(self, matrix, names):
        """(held_row (D,), axes, spread) from `matrix` (r, D) as in `expand`: `axes` the (column, values (r,))
        of each varied column, `spread` their (m,) indices into those values for the grid's rows."""
        varied = [j for j, name in enumerate(names) if name in self.inverse]
        return (matrix[0], [(j, matrix[:, j]) for j in varied],
                tuple(self.inverse[names[j]] for j in varied))

    def table(self):
        """The whole grid as the model's input table (for a model without a fast path)."""
        if self.whole:
            return self.few
        names, kinds = self.few.columns, self.few.kinds
        data = [self.few.column(n)[self.inverse[n]] if n in self.inverse
                else np.full(self.n_rows, self.few.column(n)[0], dtype=self.few.column(n).dtype) for n in names]
        return Table._trusted(names, data, [kinds[n] for n in names])


def _tree_grid(tree, rows, proba):
    """A tree on the grid: the held columns routed once, then only the varied ones row by row."""
    encoded = tree._encode(rows.few)  # (r, d) the few rows as the tree reads them (category codes)
    held_row, varied, X = rows.expand(encoded, tree.feature_names_in_)
    held = {j: held_row[j] for j in range(len(held_row)) if j not in set(varied.tolist())}
    nodes = tree.tree_.fixed(held, tree._is_categorical).apply(X)  # (m,) as tree.apply(grid)
    probabilities = tree.predict_proba_at(nodes) if proba and hasattr(tree, "predict_proba_at") else None
    return tree.predict_at(nodes), probabilities


def _forest_grid(forest, rows, proba):
    """A forest (or bagged trees) on the grid: each tree routes the held columns once, as _tree_grid, and
    the trees' answers are averaged as the forest averages them."""
    encoded = forest._encode(rows.few)  # (r, d) the few rows as every tree reads them
    held_row, varied, X = rows.expand(encoded, forest.feature_names_in_)
    held = {j: held_row[j] for j in range(len(held_row)) if j not in set(varied.tolist())}
    total = 0.0
    for tree in forest.estimators_:
        total = total + forest._tree_answer(tree, tree.tree_.fixed(held, tree._is_categorical).apply(X))
    predicted, probabilities = forest.answer_of_mean(total / len(forest.estimators_))
    return predicted, (probabilities if proba else None)


def _logistic_grid(model, rows, proba):
    """Logistic regression on the grid: the held columns' part of theta^T x added once."""
    encoded = numeric(model, rows.few)  # (r, D) the few rows one-hot encoded (and scaled) as the model does
    held_row, varied, X = rows.expand(encoded, model.feature_names_out_)
    scores = held_scores(model.coef_, model.intercept_, held_row, varied, X)
    return model.class_of_scores(scores), (model.proba_of_scores(scores) if proba else None)


def _neighbors_grid(model, rows, proba):
    """k-NN on the grid: the few rows encoded once and spread over the grid (reading and one-hot encoding
    every grid row cost more than the lattice search saves), then predict's and predict_proba's votes."""
    encoded = numeric(model, rows.few)  # (r, D) the few rows one-hot encoded (and scaled) as the model does
    held_row, varied, X = rows.expand(encoded, model.feature_names_out_)
    M = np.empty((rows.n_rows, len(held_row)))  # (m, D) the grid as the model reads it
    M[:] = held_row
    M[:, varied] = X
    votes = model.votes_of_encoded(M)  # (m, C)
    if not proba:
        return model.classes_[np.argmax(votes, axis=1)], None
    p = votes / votes.sum(axis=1, keepdims=True)  # as predict_proba, whose argmax predict_grid returns
    return np.asarray(model.classes_)[np.argmax(p, axis=1)], p


def _categorical_nb_grid(model, rows, proba):
    """Categorical naive Bayes on the grid: each column's log P(x_j | y) looked up for its few distinct values
    only (a numeric column of 35,000 distinct values is as many categories to search), then gathered over
    the grid and summed; a held column's terms are added once."""
    finite = np.zeros((rows.n_rows, len(model.classes_)))  # (m, C)
    n_zero = None if model.alpha > 0 else np.zeros_like(finite)
    for name, (fin, zero) in zip(model.feature_names_in_, model.column_log_terms(rows.few)):
        spread = rows.inverse.get(name, 0)  # (m,) each grid row's distinct value, or row 0 for a held column
        finite += fin[spread]
        if zero is not None:
            n_zero += zero[spread]
    jll = model.joint_of(finite, n_zero)  # (m, C)
    return model.classes_[np.argmax(jll, axis=1)], (model.proba_of_joint(jll) if proba else None)


def _kernel_grid(model, rows, proba):
    """Kernel regression on the grid: its sums over the stored rows worked out per axis value and combined
    (learners/kernels/kernel_lattice.py) instead of a kernel value for every grid point and stored row."""
    encoded = numeric(model, rows.few)  # (r, D) the few rows encoded as the model does
    held_row, axes, spread = rows.axes(encoded, model.feature_names_out_)
    if rows.whole or not 1 <= len(axes) <= 2:  # not a lattice (the PCA plane): the usual way
        return model.predict(rows.table()), None
    return model.lattice_predict(held_row, axes)[spread], None


def _fast_path(model):
    """The grid predictor for what the model is, known by what it offers (the registry alone names
    learner classes): a tree predicts from the node rows end in, logistic regression from its scores,
    k-NN from the votes of encoded rows."""
    if hasattr(model, "tree_") and hasattr(model, "predict_at"):
        return _tree_grid
    if hasattr(model, "answer_of_mean") and hasattr(model, "_tree_answer"):
        return _forest_grid
    if hasattr(model, "class_of_scores") and hasattr(model, "feature_names_out_"):
        return _logistic_grid
    if hasattr(model, "votes_of_encoded") and hasattr(model, "feature_names_out_"):
        return _neighbors_grid
    if hasattr(model, "column_log_terms"):
        return _categorical_nb_grid
    if hasattr(model, "lattice_predict") and hasattr(model, "feature_names_out_"):
        return _kernel_grid
    return None
