"""Gaussian naive Bayes: the notes' naive Bayes (notes 000 "Naive Bayes", notes 004 "Naive Bayes") with a
normal distribution per feature and class in place of the count tables (the shared prior, argmax and
explain are in `base`).
"""

import numpy as np

from ...core.errors import DataError
from ...core.params import Flag, Number
from ...core.file_fields import Array, Real, damaged
from . import gaussian_fast
from .base import NB_STATE, _BaseNB, _matrix
from .estimates import class_square_sums, class_sums, jsonable


class GaussianNB(_BaseNB):
    """Naive Bayes with a normal distribution per feature and class (like scikit-learn's GaussianNB; the
    notes' tables become a mean and a variance per class and feature, both maximum-likelihood estimates).

    log P(x_j | y) = -1/2 log(2 pi var_jy) - (x_j - mean_jy)^2 / (2 var_jy); every variance is increased
    by `var_smoothing` times the largest feature variance, so a feature constant within a class does
    not give a zero variance.

    Fitted: `classes_`, `class_count_`, `class_log_prior_` (and `class_prior_`), `theta_` (C, d) means,
    `var_` (C, d) smoothed variances, `epsilon_`. With row weights (or chunk by chunk) the means and
    variances are those of the rows counted as often as their weights; epsilon_ is taken from the
    variance of all the rows so counted (scikit-learn's from the last chunk's, unweighted; they differ by
    a part in 10^9 of a variance).

    trace_: the prior step, then per feature {"step": "gaussian", "feature", "mean": [per class],
    "var": [per class], "epsilon"}.
    """

    _param_rules = {
        "var_smoothing": Number(0, help="Fraction of the largest feature variance added to every variance, "
                                        "for stability."),
        "trace": Flag(help="Record the per-class means and variances."),
    }
    # A model file's state (core.file_fields): a mean and a positive variance per class and column.
    _state_fields = {**NB_STATE, "theta_": Array("f", ("n_classes", "n_features")),
                     "var_": Array("f", ("n_classes", "n_features"), low=0), "epsilon_": Real(low=0)}

    def _check_state(self):
        if not (self.var_ > 0).all():
            raise damaged("state.var_", "must hold positive variances")

    def __init__(self, var_smoothing=1e-9, trace=False):
        self.var_smoothing = var_smoothing
        self.trace = trace

    def _prepare(self, columns):
        return _matrix(self, columns)  # (n, d)

    def _start_tables(self, X):
        shape = (len(self.classes_), X.shape[1])
        self.theta_, self.var_, self.epsilon_ = np.zeros(shape), np.zeros(shape), 0.0  # (C, d) each

    def _add_tables(self, X, codes, weights, before):
        """Merge this chunk's weighted means and spreads per class into those so far (Chan, Golub and
        LeVeque's pairwise update), so chunks give the means and variances of all their rows together."""
        n_classes = len(self.classes_)
        n_old, n_new = before[:, None], (self.class_count_ - before)[:, None]  # (C, 1) weights so far, in chunk
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(n_new > 0, class_sums(X, codes, n_classes, weights) / n_new, 0.0)  # (C, d)
            # two passes, as np.var does, for accuracy: the sums of squared residuals from the class means
            spread = np.where(n_new > 0, class_square_sums(X, codes, mean, weights) / n_new, 0.0)
            old_spread = np.maximum(self.var_ - self.epsilon_, 0.0)  # (C, d) the MLE variances so far
            n = n_old + n_new
            merged_mean = (n_old * self.theta_ + n_new * mean) / n
            merged_spread = (n_old * old_spread + n_new * spread + n_old * n_new / n * (mean - self.theta_) ** 2) / n
        first = n_old == 0  # a class's first rows: this chunk's figures as they are, without rounding
        self.theta_ = np.where(first, mean, np.where(n_new > 0, merged_mean, self.theta_))
        self._spread = np.where(first, spread, np.where(n_new > 0, merged_spread, old_spread))

    def _estimate(self):
        # Each feature's variance over all rows, from the classes' means and spreads (no pass over X):
        # var = sum_c n_c (spread_c + (mean_c - mean)^2) / n.
        n_c = self.class_count_[:, None]  # (C, 1)
        mean = (n_c * self.theta_).sum(axis=0) / n_c.sum()  # (d,)
        overall = (n_c * (self._spread + (self.theta_ - mean) ** 2)).sum(axis=0) / n_c.sum()  # (d,)
        self.epsilon_ = float(self.var_smoothing * overall.max())
        self.var_ = self._spread + self.epsilon_  # (C, d)
        if (self.var_ <= 0).any():
            c, j = np.argwhere(self.var_ <= 0)[0]
            if self.class_count_[c] == 0:
                raise DataError(f"Class {self.classes_[c]!r} has no rows yet and var_smoothing adds nothing, "
                                "so its variances are 0; raise var_smoothing above 0.")
            raise DataError(f"Column {self.feature_names_in_[j]!r} is constant within class "
                            f"{self.classes_[c]!r} and var_smoothing adds nothing; raise var_smoothing "
                            "above 0 or leave the column out.")

    def _log_likelihood(self, X):
        compute = log_likelihood if self.trace else gaussian_fast.log_likelihood
        return compute(X, self.theta_, self.var_), None

    def _row_terms(self, columns):
        x = self._prepare(columns)[0]  # (d,)
        log_p = -0.5 * np.log(2 * np.pi * self.var_) - 0.5 * (x - self.theta_) ** 2 / self.var_  # (C, d)
        return list(log_p.T)

    def _table_steps(self):
        return [jsonable({"step": "gaussian", "feature": name, "mean": self.theta_[:, j], "var": self.var_[:, j],
                       "epsilon": self.epsilon_}) for j, name in enumerate(self.feature_names_in_)]


def log_likelihood(X, theta, var):
    """(n, C): log P(x | y = c) = sum_j -1/2 log(2 pi var_cj) - (x_j - theta_cj)^2 / (2 var_cj), class by
    class over the standardised distances (gaussian_fast.py computes it; this is what it must equal)."""
    jll = np.empty((X.shape[0], len(theta)))  # (n, C)
    for c in range(len(theta)):
        Z = (X - theta[c]) / np.sqrt(var[c])  # (n, d) standardised distances
        jll[:, c] = -0.5 * np.sum(np.log(2 * np.pi * var[c])) - 0.5 * np.einsum("ij,ij->i", Z, Z)
    return jll
