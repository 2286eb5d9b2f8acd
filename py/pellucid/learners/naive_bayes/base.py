"""What every naive Bayes learner shares: the maximum-likelihood prior, the log-space argmax, the
probabilities, `explain` and the trace of the count tables (the event models are in `discrete` and
`gaussian`).

Naive Bayes: class priors times per-feature likelihoods, estimated by counting with Laplace smoothing.

The notes (notes 000 "Naive Bayes", "Maximum Likelihood for Naive Bayes", "Smoothing"; notes 001 section 2;
notes 002 sections 1-3; notes 003 section 2.3; notes 004 "Naive Bayes") predict

    prediction(f) = argmax_y  log P(Y=y) + sum_j log P(F_j = f_j | Y=y)

working in log space, as notes 001 advises, so that products of many small probabilities do not underflow.
Every conditional table is the Laplace estimate of strength k from notes 000,

    P_LAP,k(x | y) = (count(x, y) + k) / (count(y) + k |X|),

where |X| is the number of values the outcome can take; k = 0 is the maximum-likelihood estimate
(notes 000, notes 001 "MLE estimate") and k = 1 is notes 001's "Laplace MAP estimate" (count + 1) / (N + 2)
for a 0/1 feature. Notes 002 prints the smoothed Bernoulli denominator as 1 + count(y); that is a slip
(the estimates would not sum to one), and this module uses notes 000's count(y) + 2k.

The prior P(Y) is the maximum-likelihood estimate count(y) / N (notes 000, 001, 002's unsmoothed phi_y,
and scikit-learn); it is never smoothed, so every class seen in training has a prior above zero.

Zero probabilities (k = 0). log 0 = -inf is kept exactly, without warnings or NaN: a class that gives
some feature value probability 0 gets joint log-probability -inf and cannot be predicted. If every
class gets probability 0 for a row, the classes with the fewest zero-probability features are compared
on the sum of their remaining terms (the others get -inf), so a prediction and probabilities still exist.
Ties between classes go to the first class in `classes_` (the smallest label).
"""

import numpy as np

from ...core.base import ClassifierMixin, Estimator
from ...core.errors import DataError
from ...core.file_fields import Array, Labels
from ...core.params import Flag, Number
from ...core.validation import check_classes, check_target
from ...tabular.features import COLUMNS_STATE, one_row, read, read_fit
from ..shared.partial_fit import check_same_classes, class_codes, first_classes
from ...core.sample_weight import weights_or_ones
from .estimates import jsonable, laplace_estimate, normalise, safe_log
from .sparse import is_sparse, read_sparse, read_sparse_fit

_K_RULE = Number(0, label="k", help="Laplace smoothing strength k (scikit-learn's alpha): act as if every "
                                    "outcome had been seen k more times; k = 0 is the maximum-likelihood "
                                    "estimate, k = 1 is Laplace's rule.")
_TRACE_RULE = Flag(help="Record the count tables and the smoothed estimates for the chosen k.")


def _matrix(model, data):
    """(n, d) float matrix from an already numeric array or from Columns (text columns are an error); a
    sparse matrix (multinomial and Bernoulli) stays sparse."""
    return data if isinstance(data, np.ndarray) or is_sparse(data) else data.numeric_matrix(type(model).__name__)


def _n_rows(data):
    return data.n_rows if hasattr(data, "n_rows") else data.shape[0]


# What every naive Bayes model file holds (core.file_fields): its columns, classes and prior.
NB_STATE = {**COLUMNS_STATE, "classes_": Labels(), "class_count_": Array("f", ("n_classes",), low=0),
            "class_log_prior_": Array("f", ("n_classes",), finite=False, high=0)}


class _BaseNB(ClassifierMixin, Estimator):
    """What every naive Bayes shares: the MLE prior, the log-space argmax, probabilities and `explain`.

    Training counts: `fit` counts the data from nothing, `partial_fit` adds a chunk to the counts so far
    (scikit-learn's contract: the classes are named on the first call), and fitting chunk by chunk gives
    the model `fit` gives on all the rows. A row of weight w (`sample_weight`) counts as w rows."""

    _sparse_ok = False  # a scipy.sparse count matrix is read as it is (multinomial and Bernoulli)

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Count the training data into the prior and the per-feature tables."""
        self._check_params()
        data, y = self._read_fit(X, y, feature_names)
        self.classes_ = check_classes(y)
        self._learn(data, y, sample_weight, first=True)
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Add a chunk of rows to the counts; `classes` (every label there will be) on the first call."""
        self._check_params()
        first = "classes_" not in vars(self)
        if first:
            classes = first_classes(classes)
            data, y = self._read_fit(X, y, None)
            self.classes_ = classes
        else:
            check_same_classes(classes, self.classes_)
            data = self._sparse_or(X, read)
            y = check_target(y, _n_rows(data), task="classification")
        self._learn(data, y, sample_weight, first=first)
        return self

    def _read_fit(self, X, y, feature_names):
        if self._sparse_ok and is_sparse(X):
            return read_sparse_fit(self, X, y)
        return read_fit(self, X, y, feature_names, task="classification")

    def _sparse_or(self, X, reader):
        """X at predict time (or a later partial_fit): a sparse matrix as it is where the model takes one."""
        return read_sparse(self, X) if self._sparse_ok and is_sparse(X) else reader(self, X)

    def _learn(self, data, y, sample_weight, first):
        """Add the rows (data, y) of weights `sample_weight` to the counts (from zero when `first`), then
        make the prior and the estimates from the counts."""
        codes = class_codes(self.classes_, y)  # (n,) class index of each row
        weights = weights_or_ones(sample_weight, len(codes))  # (n,)
        X = self._prepare(data)
        if first:
            self.class_count_ = np.zeros(len(self.classes_))  # (C,)
            self._start_tables(X)
        before = self.class_count_.copy()
        self.class_count_ = self.class_count_ + np.bincount(codes, weights, minlength=len(self.classes_))
        if not self.class_count_.sum() > 0:
            raise DataError("sample_weight is zero for every row: there is nothing to count.")
        self._add_tables(X, codes, weights, before)
        self.class_log_prior_ = safe_log(self.class_count_ / self.class_count_.sum())  # (C,)
        self._estimate()
        if self.trace:
            self.trace_ = [self._prior_step()] + self._table_steps()

    @property
    def class_prior_(self):
        """(C,) P(y), the share of the (weighted) training rows in each class."""
        return np.exp(self.class_log_prior_)

    # --- prediction ------------------------------------------------------------------------------

    def _joint_log_likelihood(self, X):
        """(n, C) log P(y) + sum_j log P(x_j | y), with the all-zero fallback described in the module."""
        self._check_fitted()
        return self.joint_of(*self._log_likelihood(self._prepare(self._sparse_or(X, read))))

    def joint_of(self, finite, n_zero):
        """(n, C) joint log-likelihoods from the rows' summed log P(x_j | y): `finite`, the sum of the finite
        terms (n, C), and `n_zero`, how many terms were log 0 (n, C), or None when none can be."""
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
        return self.proba_of_joint(self._joint_log_likelihood(X))

    @staticmethod
    def proba_of_joint(jll):
        """(n, C) P(y | x) from the joint log-likelihoods (n, C)."""
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
        estimates = laplace_estimate(counts, np.asarray(totals)[:, None], self.alpha, n_values)  # (C, V)
        return jsonable({"step": "likelihood", "feature": self.feature_names_in_[j], "values": values,
                      "counts": counts, "totals": totals, "k": float(self.alpha), "n_values": int(n_values),
                      "estimates": estimates, "log_estimates": safe_log(estimates)})
