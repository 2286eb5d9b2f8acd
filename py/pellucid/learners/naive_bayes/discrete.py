"""Naive Bayes on counted features: 0/1 features (Bernoulli), counts (multinomial) and categories, each a
table of Laplace-smoothed estimates P_LAP,k(x | y) = (count(x, y) + k) / (count(y) + k |X|) (notes 000
"Smoothing"). The notes' decision rule, the prior and the zero-probability fallback are described in
`base`; Gaussian naive Bayes is in `gaussian`.
"""

import numpy as np

from ...core import serialize
from ...core.errors import DataError
from ...core.params import Number
from ...tabular.features import read
from ...core.file_fields import Array, Custom, damaged, require_array, require_list
from . import categorical_fast
from .base import NB_STATE, _BaseNB, _K_RULE, _TRACE_RULE, _matrix
from .estimates import category_positions, class_sums, finite_and_zero, laplace_estimate, safe_log
from .sparse import is_sparse, sparse_position


class BernoulliNB(_BaseNB):
    """Naive Bayes with one Bernoulli per feature and class: P(x_j = 1 | y) (notes 002's Bernoulli event
    model; notes 001 section 2; notes 003 section 2.3 "a product of Bernoullis").

    A feature's absence counts as evidence too: a row contributes log P(x_j = 0 | y) for every absent
    feature. Features are 0/1, or binarised as x > `binarize`. Estimates are (count + k) / (N_y + 2k).
    X may be a scipy.sparse matrix, read without making it dense (then `binarize` must be None or >= 0).

    Fitted: `classes_`, `class_count_`, `class_log_prior_`, `counts_` (C, d, 2) with counts_[c, j, v] the
    number of class-c rows whose feature j equals v, `log_prob_` (C, d, 2) = log P(x_j = v | y), and
    `feature_log_prob_` (C, d) = log P(x_j = 1 | y) as in scikit-learn.

    trace_: [{"step": "prior", "classes", "class_count", "prior", "log_prior"}, then per feature
    {"step": "likelihood", "feature", "values": [0, 1], "counts": [[N(x=0), N(x=1)] per class],
    "totals": [N_y per class], "k", "n_values": 2, "estimates", "log_estimates"}].
    """

    _param_rules = {
        "alpha": _K_RULE,
        "binarize": Number(none_ok=True, help="A feature is present (1) when its value is above this "
                                               "threshold; None means the features are already 0/1."),
        "trace": _TRACE_RULE,
    }
    # A model file's state (core.file_fields): counts of 0 and 1 per class and column, and their log estimates.
    _state_fields = {**NB_STATE, "counts_": Array("f", ("n_classes", "n_features", 2), low=0),
                     "log_prob_": Array("f", ("n_classes", "n_features", 2), finite=False, high=0)}

    _sparse_ok = True

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True  # one bit per feature: as coarse as scikit-learn's own
        tags.input_tags.sparse = True
        return tags

    _renamed_params = {"k": "alpha"}  # before scikit-learn's name

    def __init__(self, alpha=1.0, binarize=0.0, trace=False):
        self.alpha = alpha
        self.binarize = binarize
        self.trace = trace

    def _prepare(self, columns):
        X = _matrix(self, columns)  # (n, d), or sparse
        if is_sparse(X):
            return self._binary_sparse(X)
        if self.binarize is not None:
            return X > self.binarize  # (n, d) bool: an eighth of a float copy (fit sums it a block at a time)
        bad = (X != 0) & (X != 1)
        if bad.any():
            row, col = np.argwhere(bad)[0]
            raise self._not_binary(row, col, X[row, col])
        return X

    def _binary_sparse(self, X):
        """A sparse X's 0/1 form, still sparse: only the stored entries are compared with the threshold."""
        if self.binarize is None:
            bad = (X.data != 0) & (X.data != 1)
            if bad.any():
                row, col = sparse_position(X, int(np.argmax(bad)))
                raise self._not_binary(row, col, X.data[bad][0])
            return X
        if self.binarize < 0:
            raise DataError(f"binarize={self.binarize:g} would make every zero of a sparse matrix present (1), "
                            "filling it in; use a threshold of 0 or more.", field="params.binarize")
        X.data = (X.data > self.binarize).astype(float)
        X.eliminate_zeros()
        return X

    def _not_binary(self, row, col, value):
        return DataError(f"BernoulliNB with binarize=None needs 0/1 features, but column "
                         f"{self.feature_names_in_[col]!r} holds {value:g} at row {row + 1}; "
                         "set binarize to a threshold to turn values into 0/1.")

    def _start_tables(self, X):
        self.counts_ = np.zeros((len(self.classes_), X.shape[1], 2))  # (C, d, 2)

    def _add_tables(self, X, codes, weights, before):
        ones = class_sums(X, codes, len(self.classes_), weights)  # (C, d) weight of the rows with x_j = 1
        rows = (self.class_count_ - before)[:, None]  # (C, 1) this chunk's weight per class
        self.counts_ = self.counts_ + np.stack([np.maximum(rows - ones, 0.0), ones], axis=2)  # (C, d, 2)

    def _estimate(self):
        self.log_prob_ = safe_log(laplace_estimate(self.counts_, self.class_count_[:, None, None], self.alpha, 2))

    @property
    def feature_log_prob_(self):
        return self.log_prob_[:, :, 1]

    @property
    def feature_count_(self):
        return self.counts_[:, :, 1]

    def _log_likelihood(self, X):
        # -inf entries are kept apart (counted in n_zero) so that 0 * -inf never makes NaN.
        absent_fin, absent_zero = finite_and_zero(self.log_prob_[:, :, 0])  # (C, d)
        present_fin, present_zero = finite_and_zero(self.log_prob_[:, :, 1])  # (C, d)
        # sum_j [x_j log p_j + (1 - x_j) log(1 - p_j)] = x . (log p - log(1 - p)) + sum_j log(1 - p_j)
        finite = np.asarray(X @ (present_fin - absent_fin).T) + absent_fin.sum(axis=1)  # (n, C)
        if not (present_zero.any() or absent_zero.any()):
            return finite, None
        return finite, np.asarray(X @ (present_zero - absent_zero).T) + absent_zero.sum(axis=1)  # (n, C)

    def _row_terms(self, columns):
        x = self._prepare(columns)[0].astype(int)  # (d,)
        return [self.log_prob_[:, j, x[j]] for j in range(len(x))]

    def _table_steps(self):
        return [self._table_step(j, [0, 1], self.counts_[:, j, :], self.class_count_, 2)
                for j in range(self.counts_.shape[1])]


class MultinomialNB(_BaseNB):
    """Naive Bayes for counts (notes 002's multinomial event model): each class is one distribution over
    the d features ("words"), P(j | y) = (count(j, y) + k) / (total count in y + k d); a row with counts
    x_j contributes sum_j x_j log P(j | y), so a word seen more often weighs more. X may be a scipy.sparse
    count matrix (a CountVectorizer's output), read without making it dense.

    Fitted: `classes_`, `class_count_`, `class_log_prior_`, `counts_` (C, d) summed feature values per
    class (scikit-learn's `feature_count_`), `totals_` (C,) and `feature_log_prob_` (C, d).

    trace_: the prior step, then per feature {"step": "likelihood", "feature", "values": [feature],
    "counts": [[count(j, y)] per class], "totals": [total count per class], "k", "n_values": d,
    "estimates", "log_estimates"}.
    """

    _param_rules = {"alpha": _K_RULE, "trace": _TRACE_RULE}
    # A model file's state (core.file_fields): each class's sums per column and their log estimates.
    _state_fields = {**NB_STATE, "counts_": Array("f", ("n_classes", "n_features"), low=0),
                     "totals_": Array("f", ("n_classes",), low=0),
                     "feature_log_prob_": Array("f", ("n_classes", "n_features"), finite=False, high=0)}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True  # counts: a negative value is refused
        tags.classifier_tags.poor_score = True  # as scikit-learn's own MultinomialNB is marked
        tags.input_tags.sparse = True
        return tags

    _renamed_params = {"k": "alpha"}  # before scikit-learn's name

    def __init__(self, alpha=1.0, trace=False):
        self.alpha = alpha
        self.trace = trace

    _sparse_ok = True

    def _prepare(self, columns):
        X = _matrix(self, columns)  # (n, d), or sparse
        values = X.data if is_sparse(X) else X  # a sparse matrix's stored entries are all its non-zeros
        if values.size and values.min() < 0:  # one pass, no (n, d) array of comparisons
            if is_sparse(X):
                row, col = sparse_position(X, int(np.argmax(values < 0)))
            else:
                row, col = np.argwhere(X < 0)[0]
            raise DataError(f"Negative values in data: MultinomialNB needs counts (values >= 0), but column "
                            f"{self.feature_names_in_[col]!r} holds {X[row, col]:g} at row {row + 1}.")
        return X

    def _start_tables(self, X):
        self.counts_ = np.zeros((len(self.classes_), X.shape[1]))  # (C, d)

    def _add_tables(self, X, codes, weights, before):
        self.counts_ = self.counts_ + class_sums(X, codes, len(self.classes_), weights)  # (C, d)

    def _estimate(self):
        self.totals_ = self.counts_.sum(axis=1)  # (C,)
        self.feature_log_prob_ = safe_log(laplace_estimate(self.counts_, self.totals_[:, None], self.alpha,
                                                           self.counts_.shape[1]))  # (C, d)

    @property
    def feature_count_(self):
        return self.counts_

    def _log_likelihood(self, X):
        finite, zero = finite_and_zero(self.feature_log_prob_)  # (C, d)
        if not zero.any():  # no estimate is 0 (k > 0, or every word seen in every class): no count of them
            return np.asarray(X @ finite.T), None  # (n, C)
        present = (X > 0).astype(float)  # (n, d), sparse where X is
        return np.asarray(X @ finite.T), np.asarray(present @ zero.T)  # (n, C), (n, C)

    def _row_terms(self, columns):
        x = self._prepare(columns)[0]  # (d,)
        # x_j log P(j | y); a count of 0 contributes nothing, even where P(j | y) = 0.
        return [x[j] * lp if x[j] > 0 else np.zeros_like(lp) for j, lp in enumerate(self.feature_log_prob_.T)]

    def _table_steps(self):
        d = self.counts_.shape[1]
        return [self._table_step(j, [self.feature_names_in_[j]], self.counts_[:, j:j + 1], self.totals_, d)
                for j in range(d)]


def _categories(value, path, dims):
    """CategoricalNB's categories_: per column, its different values sorted (texts for a categorical
    column, finite numbers for a numeric one), as predict finds a value by binary search."""
    columns = require_list(value, path, dims.sizes.get("n_features"))
    kinds = dims.values["feature_kinds_"]
    checked = []
    for j, (cats, kind) in enumerate(zip(columns, kinds)):
        at = f"{path}[{j}]"
        if kind == "categorical":
            cats = np.asarray(require_list(cats, at), dtype=object)
            if not all(isinstance(c, str) for c in cats):
                raise damaged(at, "must hold the texts a categorical column took")
        else:
            cats = require_array(cats, at, "f", (None,))
        if len(cats) == 0 or (len(cats) > 1 and not all(a < b for a, b in zip(cats[:-1], cats[1:]))):
            raise damaged(at, "must list the column's different values in sorted order")
        checked.append(cats)
    return checked


def _count_tables(value, path, dims):
    """CategoricalNB's counts_: per column, a (classes, categories) table of counts."""
    tables = require_list(value, path, dims.sizes.get("n_features"))
    categories = dims.values.get("categories_") or []
    return [require_array(table, f"{path}[{j}]", "f", (dims.sizes["n_classes"], len(cats)), low=0)
            for j, (table, cats) in enumerate(zip(tables, categories))]


def _compact(table):
    """A count table in the smallest unsigned type that holds it exactly, or as it is when not whole."""
    if np.all(table == np.round(table)):
        return table.astype(np.min_scalar_type(int(table.max(initial=0))))
    return table


def _merged(old_cats, old_table, cats, table):
    """The union of two sorted category lists and the two count tables (C, n) added over it."""
    old_cats = old_cats.astype(str) if old_cats.dtype == object else old_cats
    union = np.union1d(old_cats, cats)
    merged = np.zeros((table.shape[0], len(union)))  # (C, n_union)
    merged[:, np.searchsorted(union, old_cats)] += old_table
    merged[:, np.searchsorted(union, cats)] += table
    return union, merged


class CategoricalNB(_BaseNB):
    """Naive Bayes with one categorical table P(x_j = v | y) per feature (notes 000's Laplace estimate with
    |X| = the number of categories of feature j seen in training; notes 001 section 2 for many values).

    Every column is read as categories (text columns; a numeric column's distinct values). A category
    not seen in training gets the smoothed count-0 estimate k / (N_y + k |X_j|) when k > 0; when k = 0
    it would get probability 0 in every class, so that feature is left out of the sum for that row
    (`explain` marks it "ignored").

    Fitted: `classes_`, `class_count_`, `class_log_prior_`, `categories_` (list of d arrays),
    `counts_` (list of (C, n_j) tables, scikit-learn's `category_count_`) and `log_prob_` (list of
    (C, n_j) log-estimate tables, scikit-learn's `feature_log_prob_`); `n_categories_` (d,) counts them.

    trace_: the prior step, then per feature {"step": "likelihood", "feature", "values": categories,
    "counts": (C, n_j) table, "totals": [N_y], "k", "n_values": n_j, "estimates", "log_estimates"}.
    """

    _param_rules = {"alpha": _K_RULE, "trace": _TRACE_RULE}
    # A model file's state (core.file_fields): each column's categories, sorted, and a count per class and
    # category; the log estimates are made again from the counts.
    _state_fields = {**NB_STATE, "categories_": Custom(_categories), "counts_": Custom(_count_tables)}

    _renamed_params = {"k": "alpha"}  # before scikit-learn's name

    def __init__(self, alpha=1.0, trace=False):
        self.alpha = alpha
        self.trace = trace

    def _prepare(self, columns):
        """The columns, each a 1-D array: a numeric matrix as its (d, n) transpose, a view (categorical_fast
        reads it a block of rows at a time; a transposed copy of all of it took a third of predict's time);
        text as fixed-width str, which sorts and compares fast."""
        if isinstance(columns, np.ndarray):
            return columns.T
        return [col.astype(str) if col.dtype == object else col for col in columns.data]

    def _start_tables(self, data):
        self.categories_ = [None] * len(data)  # the first chunk's categories come in _add_tables
        self.counts_ = [None] * len(data)

    def _add_tables(self, data, codes, weights, before):
        n_classes = len(self.classes_)
        counted = weights > 0  # a row of weight 0 brings no category either: as if it were not there
        if not counted.all():
            data, codes, weights = [col[counted] for col in data], codes[counted], weights[counted]
        for j, col in enumerate(data):
            cats, inverse = np.unique(col, return_inverse=True)
            table = np.bincount(codes * len(cats) + inverse, weights, minlength=n_classes * len(cats))
            table = table.reshape(n_classes, len(cats))  # (C, n_j)
            if self.categories_[j] is not None:  # a later chunk: merge the categories seen so far
                cats, table = _merged(self.categories_[j], self.counts_[j], cats, table)
            self.categories_[j] = cats.astype(object) if cats.dtype.kind == "U" else cats
            self.counts_[j] = table

    def _estimate(self):
        self.log_prob_ = [self._log_estimates(table) for table in self.counts_]

    def _log_estimates(self, table):
        """(C, n_j) log P_LAP,k(x_j = v | y) from the feature's count table, |X_j| its n_j categories."""
        return safe_log(laplace_estimate(table, self.class_count_[:, None], self.alpha, table.shape[1]))

    # A model file keeps the counts, and not the estimates the counts give again: with a numeric column's
    # 35,000 distinct values as categories, that halves a file of tens of MB. Whole counts are written in
    # the smallest unsigned type that holds them (uint8 when no category is seen 256 times); counts of
    # fractional row weights (sample_weight) stay floats.

    def _state_to_dict(self):
        state = {k: getattr(self, k) for k in self.fitted_attributes() if k not in ("trace_", "log_prob_")}
        state["counts_"] = [_compact(table) for table in self.counts_]
        return {"state": serialize.encode(state)}

    def _state_from_dict(self, d):
        super()._state_from_dict(d)  # the counts, checked (_count_tables)
        self.log_prob_ = [self._log_estimates(table) for table in self.counts_]

    @property
    def feature_log_prob_(self):
        return self.log_prob_

    @property
    def category_count_(self):
        return self.counts_

    @property
    def n_categories_(self):
        """(d,) the number of categories of each feature seen in training."""
        return np.array([len(cats) for cats in self.categories_], dtype=int)

    def _column_terms(self, j, col):
        """(n, C) log P(x_j | y) for one column and (n,) whether each value was seen in training; an
        unseen category gets log k/(N_y + k n_j), or 0 (left out) when k = 0."""
        cats = self.categories_[j]
        cats = cats.astype(str) if cats.dtype == object else cats
        pos = category_positions(cats, col)  # (n,)
        seen = cats[pos] == col  # (n,)
        terms = self.log_prob_[j].T[pos]  # (n, C)
        if not seen.all():
            unseen = self.alpha / (self.class_count_ + self.alpha * len(cats)) if self.alpha > 0 else 1.0
            terms[~seen] = safe_log(unseen)
        return terms, seen

    def column_log_terms(self, X):
        """Per feature j, in order: ((n, C) log P(x_j | y) with log 0 read as 0, (n, C) 1 where it was log 0,
        or None when k > 0, where no estimate is 0). Summed over j they are the rows' log-likelihood; a grid
        of few distinct values per column (workbench/grid.py) looks them up once per value."""
        return self._terms(self._prepare(read(self, X)))

    def _terms(self, data):
        for j, col in enumerate(data):
            log_p, _ = self._column_terms(j, col)  # (n, C)
            yield (log_p, None) if self.alpha > 0 else finite_and_zero(log_p)  # only k = 0 has log 0 = -inf

    def _log_likelihood(self, data):
        if not self.trace:  # all the columns at once where their categories allow (the same numbers)
            found = categorical_fast.log_likelihood(data, self.categories_, self.log_prob_, self.class_count_,
                                                    self.alpha)
            if found is not None:
                return found
        finite = np.zeros((len(data[0]), len(self.classes_)))  # (n, C)
        n_zero = None if self.alpha > 0 else np.zeros_like(finite)
        for fin, zero in self._terms(data):
            finite += fin
            if zero is not None:
                n_zero += zero
        return finite, n_zero

    def _row_terms(self, columns):
        terms = []
        for j, col in enumerate(self._prepare(columns)):
            log_p, seen = self._column_terms(j, col)
            terms.append(log_p[0] if seen[0] or self.alpha > 0 else None)
        return terms

    def _table_steps(self):
        return [self._table_step(j, cats, self.counts_[j], self.class_count_, len(cats))
                for j, cats in enumerate(self.categories_)]

