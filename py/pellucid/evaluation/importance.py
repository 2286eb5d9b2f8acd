"""Which features matter: permutation importance for any fitted model, and a tree's impurity importance.

Permutation importance of feature j on held-out rows (X, y): shuffle column j, so it no longer carries
information about y while keeping its values, and see how much the score drops:
    importance_j = score(X, y) - score(X with column j permuted, y)
(for a loss, where lower is better, the rise: loss(permuted) - loss(X)). Repeating the shuffle
n_repeats times gives a mean and a spread. The permutations are drawn exactly as scikit-learn's
permutation_importance draws them for the same seed, so the numbers agree with it.

Impurity importance of a tree: the total decrease of impurity, weighted by the rows it concerns, at
the nodes that test feature j, as a share of all features' decrease (scikit-learn's
feature_importances_, which the tree computes itself). It reflects training rows only, which is why
held-out permutation importance is shown next to it.
"""

import numpy as np

from ..core.errors import DataError
from ..core.settings import SEED_MAX
from ..tabular.table import Table
from .model_selection import n_rows
from .scoring import get_scorer

INT32_LIMIT = np.iinfo(np.int32).max + 1  # scikit-learn draws each column's seed below 2^31


class _Columns:
    """Read and replace one column of X, a 2-D array or a Table, without touching the caller's X."""

    def __init__(self, X):
        self.X = X
        if isinstance(X, Table):
            self.names = X.columns
        else:
            X = np.asarray(X)
            if X.ndim != 2:
                raise DataError(f"X must be a table or a 2-D array (rows x features); got shape {X.shape}.")
            self.names = None
        self.n_columns = len(self.names) if self.names is not None else X.shape[1]

    def column(self, j):
        return self.X.column(self.names[j]) if self.names is not None else np.asarray(self.X)[:, j]

    def with_column(self, j, values):
        if self.names is None:
            X = np.array(self.X, copy=True)
            X[:, j] = values
            return X
        columns = {name: (values if i == j else self.X.column(name)) for i, name in enumerate(self.names)}
        return Table(columns, kinds=self.X.kinds)


def _feature_names(model, columns):
    if columns.names is not None:
        return list(columns.names)
    names = getattr(model, "feature_names_in_", None)
    if names is not None and len(names) == columns.n_columns:
        return list(names)
    return [f"x{j}" for j in range(columns.n_columns)]


def _check_repeats(n_repeats, seed):
    if isinstance(n_repeats, bool) or not isinstance(n_repeats, (int, np.integer)) or n_repeats < 1:
        raise DataError(f"n_repeats must be a whole number >= 1; got {n_repeats!r}.")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= SEED_MAX:
        raise DataError(f"seed must be a whole number from 0 to {SEED_MAX}; got {seed!r}.")


def _check_columns(columns, n_columns):
    """The columns to shuffle: every one, or those given, each a column of X once."""
    if columns is None:
        return list(range(n_columns))
    chosen = list(columns)
    whole = all(isinstance(j, (int, np.integer)) and not isinstance(j, bool) and 0 <= j < n_columns for j in chosen)
    if not whole or len(set(chosen)) != len(chosen):
        raise DataError(f"columns must be distinct column numbers from 0 to {n_columns - 1}; got {chosen!r}.")
    return [int(j) for j in chosen]


def _permuted_scores(model, columns, j, y, scorer, column_seed, n_repeats):
    """Scores with column j shuffled n_repeats times. As in scikit-learn, one index permutation is
    shuffled again before each repeat and applied to the column as left by the previous repeat."""
    rng = np.random.RandomState(column_seed)
    order = np.arange(n_rows(columns.X))
    values = np.array(columns.column(j), copy=True)
    scores = []
    for _ in range(n_repeats):
        rng.shuffle(order)
        values = values[order]
        scores.append(scorer(model, columns.with_column(j, values), y))
    return np.array(scores)  # (n_repeats,)


def permutation_importance(model, X, y, scoring=None, n_repeats=5, seed=0, progress=None, columns=None):
    """Permutation importance of every column of X for a fitted model, on the rows given (use held-out
    rows: on training rows it also rewards what the model memorised).

    scoring: None (accuracy for a classifier, R^2 for a regressor), a name from
    scoring.scorer_names(), or a callable scorer(model, X, y). seed: the same integer as scikit-learn's
    random_state gives the same permutations.

    Returns {"features", "scoring", "greater_is_better", "baseline", "n_repeats", "seed",
    "importances" (features x repeats), "importances_mean", "importances_std" (population std over
    repeats)}: positive means the model relies on the feature, near 0 (within the spread) that it does
    not, negative that shuffling happened to help.

    progress: None, or a callback given the fraction of the columns done after each column (the page's
    progress bar: on many rows, each column costs n_repeats predictions).

    columns: None (every column), or the 0-based columns to shuffle, in order: the reply then holds theirs
    alone. Every column's shuffles are drawn from the same seed, whatever the other columns, so shuffling
    a block of the columns here and the rest elsewhere gives the very numbers of shuffling them all."""
    _check_repeats(n_repeats, seed)
    columns_of = _Columns(X)
    if n_rows(X) != n_rows(y):
        raise DataError(f"Found input variables with inconsistent numbers of samples: X has {n_rows(X)} "
                        f"rows, y has {n_rows(y)}.")
    shuffled = _check_columns(columns, columns_of.n_columns)
    scorer = get_scorer(model, scoring)
    baseline = scorer(model, X, y)
    # One seed, reused for every column; int64 as on 64-bit platforms, so wasm32 draws the same.
    column_seed = np.random.RandomState(seed).randint(INT32_LIMIT, dtype=np.int64)
    permuted = []
    for done, j in enumerate(shuffled, 1):
        permuted.append(_permuted_scores(model, columns_of, j, y, scorer, column_seed, n_repeats))
        if progress is not None:
            progress(done / len(shuffled))
    permuted = np.array(permuted).reshape(len(shuffled), n_repeats)  # (features, repeats), also for none
    drop = baseline - permuted if scorer.greater_is_better else permuted - baseline
    names = _feature_names(model, columns_of)
    return {"features": [names[j] for j in shuffled], "scoring": scorer.name,
            "greater_is_better": scorer.greater_is_better, "baseline": float(baseline),
            "n_repeats": int(n_repeats), "seed": int(seed), "importances": drop.tolist(),
            "importances_mean": drop.mean(axis=1).tolist(), "importances_std": drop.std(axis=1).tolist()}


def impurity_importance(tree_model):
    """A fitted decision tree's impurity importance per feature: its feature_importances_ (the tree
    layer's learners/tree/importance.py, scikit-learn's meaning), by feature name.

    Returns {"features", "importances"}."""
    if getattr(tree_model, "tree_", None) is None or getattr(tree_model.tree_, "impurity", None) is None:
        raise DataError(f"{type(tree_model).__name__} is not a fitted decision tree; impurity importance "
                        "needs one (permutation importance works for any model).")
    return {"features": list(tree_model.feature_names_in_),
            "importances": np.asarray(tree_model.feature_importances_, dtype=float).tolist()}
