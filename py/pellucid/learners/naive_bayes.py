"""Naive Bayes: class priors times per-feature likelihoods, estimated by counting with Laplace smoothing.

The notes (seed 000 "Naive Bayes", "Maximum Likelihood for Naive Bayes", "Smoothing"; seed 001 section 2;
seed 002 sections 1-3; seed 003 section 2.3; seed 004 "Naive Bayes") predict

    prediction(f) = argmax_y  log P(Y=y) + sum_j log P(F_j = f_j | Y=y)

working in log space, as seed 001 advises, so that products of many small probabilities do not underflow.
Every conditional table is the Laplace estimate of strength k from seed 000,

    P_LAP,k(x | y) = (count(x, y) + k) / (count(y) + k |X|),

where |X| is the number of values the outcome can take; k = 0 is the maximum-likelihood estimate
(seed 000, seed 001 "MLE estimate") and k = 1 is seed 001's "Laplace MAP estimate" (count + 1) / (N + 2)
for a 0/1 feature. Seed 002 prints the smoothed Bernoulli denominator as 1 + count(y); that is a slip
(the estimates would not sum to one), and this module uses seed 000's count(y) + 2k.

The prior P(Y) is the maximum-likelihood estimate count(y) / N (seeds 000, 001, 002's unsmoothed phi_y,
and scikit-learn); it is never smoothed, so every class seen in training has a prior above zero.

Zero probabilities (k = 0). log 0 = -inf is kept exactly, without warnings or NaN: a class that gives
some feature value probability 0 gets joint log-probability -inf and cannot be predicted. If every
class gets probability 0 for a row, the classes with the fewest zero-probability features are compared
on the sum of their remaining terms (the others get -inf), so a prediction and probabilities still exist.
Ties between classes go to the first class in `classes_` (the smallest label).
"""

import numpy as np

from ..core.base import ClassifierMixin, Estimator
from ..core.errors import DataError
from ..tabular.features import one_row, read, read_fit
from .naive_bayes_math import (category_positions, class_sums, finite_and_zero, jsonable, normalise, safe_log,
                               laplace_estimate)
from ..core.params import Flag, Number
from ..core.validation import check_classes

_K_RULE = Number(0, help="Laplace smoothing strength k: act as if every outcome had been seen k more "
                         "times; k = 0 is the maximum-likelihood estimate, k = 1 is Laplace's rule.")
_TRACE_RULE = Flag(help="Record the count tables and the smoothed estimates for the chosen k.")


def _matrix(model, data):
    """(n, d) float matrix from an already numeric array or from Columns (text columns are an error)."""
    return data if isinstance(data, np.ndarray) else data.numeric_matrix(type(model).__name__)


class _BaseNB(ClassifierMixin, Estimator):
    """What every naive Bayes shares: the MLE prior, the log-space argmax, probabilities and `explain`."""

    def fit(self, X, y, feature_names=None):
        """Count the training data into the prior and the per-feature tables."""
        self._check_params()
        data, y = read_fit(self, X, y, feature_names, task="classification")
        self.classes_ = check_classes(y)
        codes = np.searchsorted(self.classes_, y)  # (n,) class index of each row
        self.class_count_ = np.bincount(codes, minlength=len(self.classes_)).astype(float)  # (C,)
        self.class_log_prior_ = np.log(self.class_count_ / self.class_count_.sum())  # (C,)
        self._fit_tables(self._prepare(data), codes)
        if self.trace:
            self.trace_ = [self._prior_step()] + self._table_steps()
        return self

    # --- prediction ------------------------------------------------------------------------------

    def _joint_log_likelihood(self, X):
        """(n, C) log P(y) + sum_j log P(x_j | y), with the all-zero fallback described in the module."""
        self._check_fitted()
        finite, n_zero = self._log_likelihood(self._prepare(read(self, X)))
        jll = self.class_log_prior_ + finite  # (n, C)
        if n_zero is not None and n_zero.any():
            fewest = n_zero.min(axis=1, keepdims=True)  # (n, 1)
            jll = np.where(n_zero == fewest, jll, -np.inf)
        return jll

    def predict_log_proba(self, X):
        """(n, C) log P(y | x), normalised in log space (log-sum-exp)."""
        return normalise(self._joint_log_likelihood(X))

    def predict_proba(self, X):
        """(n, C) P(y | x); columns follow `classes_`."""
        jll = self._joint_log_likelihood(X)
        p = np.exp(jll - jll.max(axis=1, keepdims=True))  # (n, C), the largest is 1
        return p / p.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The class with the highest P(y) prod_j P(x_j | y) (first class on a tie)."""
        self._check_fitted()
        return self.classes_[np.argmax(self._joint_log_likelihood(X), axis=1)]

    def explain(self, x_row):
        """How one row is decided: its log-probability sum per class, term by term (prior, then each feature).

        Returns {"classes", "terms": [{"term", "feature", "value", "log_prob": [per class]}], "total",
        "log_proba", "proba", "prediction", "all_classes_impossible"} (true when every total is -inf and
        the module's fallback decided); -inf appears as the string "-inf"."""
        self._check_fitted()
        columns = one_row(self, x_row)
        terms = [{"term": "prior", "feature": None, "value": None, "log_prob": self.class_log_prior_}]
        for j, (name, log_p) in enumerate(zip(self.feature_names_in_, self._row_terms(columns))):
            value = columns.data[j][0]
            entry = {"term": f"{name} = {value}", "feature": name, "value": value, "log_prob": log_p}
            if log_p is None:
                entry.update(log_prob=np.zeros(len(self.classes_)), ignored=True)
            terms.append(entry)
        total = np.sum([t["log_prob"] for t in terms], axis=0)  # (C,)
        jll = self._joint_log_likelihood(columns)  # (1, C)
        log_proba = normalise(jll)[0]
        return jsonable({"classes": self.classes_, "terms": terms, "total": total, "log_proba": log_proba,
                      "proba": np.exp(log_proba), "prediction": self.classes_[int(np.argmax(jll[0]))],
                      "all_classes_impossible": bool(np.all(np.isneginf(total)))})

    def _prior_step(self):
        return jsonable({"step": "prior", "classes": self.classes_, "class_count": self.class_count_,
                      "prior": np.exp(self.class_log_prior_), "log_prior": self.class_log_prior_})

    def _table_step(self, j, values, counts, totals, n_values):
        """One feature's count table (C, V) and its Laplace estimates, as the trace shows them."""
        estimates = laplace_estimate(counts, np.asarray(totals)[:, None], self.k, n_values)  # (C, V)
        return jsonable({"step": "likelihood", "feature": self.feature_names_in_[j], "values": values,
                      "counts": counts, "totals": totals, "k": float(self.k), "n_values": int(n_values),
                      "estimates": estimates, "log_estimates": safe_log(estimates)})


class BernoulliNB(_BaseNB):
    """Naive Bayes with one Bernoulli per feature and class: P(x_j = 1 | y) (seed 002's Bernoulli event
    model; seed 001 section 2; seed 003 section 2.3 "a product of Bernoullis").

    A feature's absence counts as evidence too: a row contributes log P(x_j = 0 | y) for every absent
    feature. Features are 0/1, or binarised as x > `binarize`. Estimates are (count + k) / (N_y + 2k).

    Fitted: `classes_`, `class_count_`, `class_log_prior_`, `counts_` (C, d, 2) with counts_[c, j, v] the
    number of class-c rows whose feature j equals v, `log_prob_` (C, d, 2) = log P(x_j = v | y), and
    `feature_log_prob_` (C, d) = log P(x_j = 1 | y) as in scikit-learn.

    trace_: [{"step": "prior", "classes", "class_count", "prior", "log_prior"}, then per feature
    {"step": "likelihood", "feature", "values": [0, 1], "counts": [[N(x=0), N(x=1)] per class],
    "totals": [N_y per class], "k", "n_values": 2, "estimates", "log_estimates"}].
    """

    _param_rules = {
        "k": _K_RULE,
        "binarize": Number(none_ok=True, help="A feature is present (1) when its value is above this "
                                               "threshold; None means the features are already 0/1."),
        "trace": _TRACE_RULE,
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True  # one bit per feature: as coarse as scikit-learn's own
        return tags

    def __init__(self, k=1.0, binarize=0.0, trace=False):
        self.k = k
        self.binarize = binarize
        self.trace = trace

    def _prepare(self, columns):
        X = _matrix(self, columns)  # (n, d)
        if self.binarize is not None:
            return (X > self.binarize).astype(float)
        bad = (X != 0) & (X != 1)
        if bad.any():
            row, col = np.argwhere(bad)[0]
            raise DataError(f"BernoulliNB with binarize=None needs 0/1 features, but column "
                            f"{self.feature_names_in_[col]!r} holds {X[row, col]:g} at row {row + 1}; "
                            "set binarize to a threshold to turn values into 0/1.")
        return X

    def _fit_tables(self, X, codes):
        ones = class_sums(X, codes, len(self.classes_))  # (C, d)
        self.counts_ = np.stack([self.class_count_[:, None] - ones, ones], axis=2)  # (C, d, 2)
        self.log_prob_ = safe_log(laplace_estimate(self.counts_, self.class_count_[:, None, None], self.k, 2))

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
        finite = X @ (present_fin - absent_fin).T + absent_fin.sum(axis=1)  # (n, C)
        if not (present_zero.any() or absent_zero.any()):
            return finite, None
        return finite, X @ (present_zero - absent_zero).T + absent_zero.sum(axis=1)  # (n, C)

    def _row_terms(self, columns):
        x = self._prepare(columns)[0].astype(int)  # (d,)
        return [self.log_prob_[:, j, x[j]] for j in range(len(x))]

    def _table_steps(self):
        return [self._table_step(j, [0, 1], self.counts_[:, j, :], self.class_count_, 2)
                for j in range(self.counts_.shape[1])]


class MultinomialNB(_BaseNB):
    """Naive Bayes for counts (seed 002's multinomial event model): each class is one distribution over
    the d features ("words"), P(j | y) = (count(j, y) + k) / (total count in y + k d); a row with counts
    x_j contributes sum_j x_j log P(j | y), so a word seen more often weighs more.

    Fitted: `classes_`, `class_count_`, `class_log_prior_`, `counts_` (C, d) summed feature values per
    class (scikit-learn's `feature_count_`), `totals_` (C,) and `feature_log_prob_` (C, d).

    trace_: the prior step, then per feature {"step": "likelihood", "feature", "values": [feature],
    "counts": [[count(j, y)] per class], "totals": [total count per class], "k", "n_values": d,
    "estimates", "log_estimates"}.
    """

    _param_rules = {"k": _K_RULE, "trace": _TRACE_RULE}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True  # counts: a negative value is refused
        tags.classifier_tags.poor_score = True  # as scikit-learn's own MultinomialNB is marked
        return tags

    def __init__(self, k=1.0, trace=False):
        self.k = k
        self.trace = trace

    def _prepare(self, columns):
        X = _matrix(self, columns)  # (n, d)
        if (X < 0).any():
            row, col = np.argwhere(X < 0)[0]
            raise DataError(f"Negative values in data: MultinomialNB needs counts (values >= 0), but column "
                            f"{self.feature_names_in_[col]!r} holds {X[row, col]:g} at row {row + 1}.")
        return X

    def _fit_tables(self, X, codes):
        self.counts_ = class_sums(X, codes, len(self.classes_))  # (C, d)
        self.totals_ = self.counts_.sum(axis=1)  # (C,)
        self.feature_log_prob_ = safe_log(laplace_estimate(self.counts_, self.totals_[:, None], self.k,
                                                       self.counts_.shape[1]))  # (C, d)

    @property
    def feature_count_(self):
        return self.counts_

    def _log_likelihood(self, X):
        finite, zero = finite_and_zero(self.feature_log_prob_)  # (C, d)
        return X @ finite.T, ((X > 0) @ zero.T if zero.any() else None)  # (n, C), (n, C)

    def _row_terms(self, columns):
        x = self._prepare(columns)[0]  # (d,)
        # x_j log P(j | y); a count of 0 contributes nothing, even where P(j | y) = 0.
        return [x[j] * lp if x[j] > 0 else np.zeros_like(lp) for j, lp in enumerate(self.feature_log_prob_.T)]

    def _table_steps(self):
        d = self.counts_.shape[1]
        return [self._table_step(j, [self.feature_names_in_[j]], self.counts_[:, j:j + 1], self.totals_, d)
                for j in range(d)]


class CategoricalNB(_BaseNB):
    """Naive Bayes with one categorical table P(x_j = v | y) per feature (seed 000's Laplace estimate with
    |X| = the number of categories of feature j seen in training; seed 001 section 2 for many values).

    Every column is read as categories (text columns; a numeric column's distinct values). A category
    not seen in training gets the smoothed count-0 estimate k / (N_y + k |X_j|) when k > 0; when k = 0
    it would get probability 0 in every class, so that feature is left out of the sum for that row
    (`explain` marks it "ignored").

    Fitted: `classes_`, `class_count_`, `class_log_prior_`, `categories_` (list of d arrays),
    `counts_` (list of (C, n_j) tables, scikit-learn's `category_count_`) and `log_prob_` (list of
    (C, n_j) log-estimate tables, scikit-learn's `feature_log_prob_`).

    trace_: the prior step, then per feature {"step": "likelihood", "feature", "values": categories,
    "counts": (C, n_j) table, "totals": [N_y], "k", "n_values": n_j, "estimates", "log_estimates"}.
    """

    _param_rules = {"k": _K_RULE, "trace": _TRACE_RULE}

    def __init__(self, k=1.0, trace=False):
        self.k = k
        self.trace = trace

    def _prepare(self, columns):
        """The columns as a list of 1-D arrays; text as fixed-width str, which sorts and compares fast."""
        if isinstance(columns, np.ndarray):
            return list(np.ascontiguousarray(columns.T))  # contiguous columns search faster
        return [col.astype(str) if col.dtype == object else col for col in columns.data]

    def _fit_tables(self, data, codes):
        n_classes = len(self.classes_)
        self.categories_, self.counts_, self.log_prob_ = [], [], []
        for col in data:
            cats, inverse = np.unique(col, return_inverse=True)
            table = np.bincount(codes * len(cats) + inverse, minlength=n_classes * len(cats))
            table = table.reshape(n_classes, len(cats)).astype(float)  # (C, n_j)
            cats = cats.astype(object) if cats.dtype.kind == "U" else cats
            self.categories_.append(cats)
            self.counts_.append(table)
            self.log_prob_.append(safe_log(laplace_estimate(table, self.class_count_[:, None], self.k, len(cats))))

    @property
    def feature_log_prob_(self):
        return self.log_prob_

    @property
    def category_count_(self):
        return self.counts_

    def _column_terms(self, j, col):
        """(n, C) log P(x_j | y) for one column and (n,) whether each value was seen in training; an
        unseen category gets log k/(N_y + k n_j), or 0 (left out) when k = 0."""
        cats = self.categories_[j]
        cats = cats.astype(str) if cats.dtype == object else cats
        pos = category_positions(cats, col)  # (n,)
        seen = cats[pos] == col  # (n,)
        terms = self.log_prob_[j].T[pos]  # (n, C)
        if not seen.all():
            unseen = self.k / (self.class_count_ + self.k * len(cats)) if self.k > 0 else 1.0
            terms[~seen] = safe_log(unseen)
        return terms, seen

    def _log_likelihood(self, data):
        finite = np.zeros((len(data[0]), len(self.classes_)))  # (n, C)
        n_zero = np.zeros_like(finite) if self.k == 0 else None  # only k = 0 has log 0 = -inf
        for j, col in enumerate(data):
            log_p, _ = self._column_terms(j, col)  # (n, C)
            if n_zero is None:
                finite += log_p
            else:
                fin, zero = finite_and_zero(log_p)
                finite += fin
                n_zero += zero
        return finite, n_zero

    def _row_terms(self, columns):
        terms = []
        for j, col in enumerate(self._prepare(columns)):
            log_p, seen = self._column_terms(j, col)
            terms.append(log_p[0] if seen[0] or self.k > 0 else None)
        return terms

    def _table_steps(self):
        return [self._table_step(j, cats, self.counts_[j], self.class_count_, len(cats))
                for j, cats in enumerate(self.categories_)]


class GaussianNB(_BaseNB):
    """Naive Bayes with a normal distribution per feature and class (like scikit-learn's GaussianNB; the
    notes' tables become a mean and a variance per class and feature, both maximum-likelihood estimates).

    log P(x_j | y) = -1/2 log(2 pi var_jy) - (x_j - mean_jy)^2 / (2 var_jy); every variance is increased
    by `var_smoothing` times the largest feature variance, so a feature constant within a class does
    not give a zero variance.

    Fitted: `classes_`, `class_count_`, `class_log_prior_`, `theta_` (C, d) means, `var_` (C, d)
    smoothed variances, `epsilon_`.

    trace_: the prior step, then per feature {"step": "gaussian", "feature", "mean": [per class],
    "var": [per class], "epsilon"}.
    """

    _param_rules = {
        "var_smoothing": Number(0, help="Fraction of the largest feature variance added to every variance, "
                                        "for stability."),
        "trace": Flag(help="Record the per-class means and variances."),
    }

    def __init__(self, var_smoothing=1e-9, trace=False):
        self.var_smoothing = var_smoothing
        self.trace = trace

    def _prepare(self, columns):
        return _matrix(self, columns)  # (n, d)

    def _fit_tables(self, X, codes):
        n_c = self.class_count_[:, None]  # (C, 1)
        self.theta_ = class_sums(X, codes, len(self.classes_)) / n_c  # (C, d)
        residual = X - self.theta_[codes]  # (n, d); two passes, as np.var does, for accuracy
        spread = class_sums(residual * residual, codes, len(self.classes_)) / n_c  # (C, d) MLE variances
        # Each feature's variance over all rows, from the classes' means and spreads (no pass over X):
        # var = sum_c n_c (spread_c + (mean_c - mean)^2) / n.
        mean = (n_c * self.theta_).sum(axis=0) / n_c.sum()  # (d,)
        overall = (n_c * (spread + (self.theta_ - mean) ** 2)).sum(axis=0) / n_c.sum()  # (d,)
        self.epsilon_ = float(self.var_smoothing * overall.max())
        self.var_ = spread + self.epsilon_  # (C, d)
        if (self.var_ <= 0).any():
            c, j = np.argwhere(self.var_ <= 0)[0]
            raise DataError(f"Column {self.feature_names_in_[j]!r} is constant within class "
                            f"{self.classes_[c]!r} and var_smoothing adds nothing; raise var_smoothing "
                            "above 0 or leave the column out.")

    def _log_likelihood(self, X):
        jll = np.empty((X.shape[0], len(self.classes_)))  # (n, C)
        for c in range(len(self.classes_)):
            Z = (X - self.theta_[c]) / np.sqrt(self.var_[c])  # (n, d) standardised distances
            jll[:, c] = -0.5 * np.sum(np.log(2 * np.pi * self.var_[c])) - 0.5 * np.einsum("ij,ij->i", Z, Z)
        return jll, None

    def _row_terms(self, columns):
        x = self._prepare(columns)[0]  # (d,)
        log_p = -0.5 * np.log(2 * np.pi * self.var_) - 0.5 * (x - self.theta_) ** 2 / self.var_  # (C, d)
        return list(log_p.T)

    def _table_steps(self):
        return [jsonable({"step": "gaussian", "feature": name, "mean": self.theta_[:, j], "var": self.var_[:, j],
                       "epsilon": self.epsilon_}) for j, name in enumerate(self.feature_names_in_)]
