"""Logistic regression: maximum-likelihood sigmoid (binary) and softmax (multiclass) classifiers."""

import warnings

import numpy as np

from ...core.base import ClassifierMixin, Estimator
from ...core.errors import ConvergenceWarning, DataError
from ...core.file_fields import Array, Bool, Curve, Int, Labels, Optional, Real, Text, Texts, damaged
from ...core.sample_weight import check_sample_weight
from ...tabular.features import NUMERIC_STATE, fit_classes, numeric, with_bias
from ..shared.class_weights import CLASS_WEIGHT_RULE, check_saved_weights, class_weights
from . import logistic_fast
from .row_blocks import RowBlocks
from .sample_start import sample_start
from .newton_kept_hessian import newton_keeping_hessian
from ..shared.optim import as_list, gradient_descent, iteration_trace, lbfgs, newton
from ...core.params import Choice, Flag, Integer, Number

NEWTON_MAX_PARAMS = 1000  # above this many weights the (p x p) Hessian is dearer than L-BFGS
DEFAULT_MAX_ITER = {"newton": 100, "lbfgs": 1000, "gd": 1000}


class LogisticRegression(ClassifierMixin, Estimator):
    """Logistic regression fitted by maximum likelihood.

    Notes 001, "Logistic Regression": P(Y=1 | x) = sigma(theta^T x) with x_0 = 1, the log-likelihood
    LL(theta) = sum_i y_i log sigma(theta^T x_i) + (1 - y_i) log(1 - sigma(theta^T x_i)), its gradient
    sum_i (y_i - sigma(theta^T x_i)) x_i and "Gradient Ascent Optimization". Notes 000, "Logistic
    Regression": predict label 1 when h_w(x) > 0.5. Notes 004, "Extending LR to K > 2 classes": the
    softmax P(y = j | x) = exp(theta_j^T x) / sum_i exp(theta_i^T x), one theta_j per class.

    Binary targets use the sigmoid: the SECOND of the sorted classes (`classes_[1]`) plays y = 1.
    Three or more classes use the softmax with all K weight vectors.

    Objective (minimised; the negative of the averaged log-likelihood, plus an L2 penalty):
        loss(w) = -(1/n) LL(w) + (l2 / 2) * ||w||^2         (the biases are not penalised)
    This is scikit-learn's objective with C = 1 / (n * l2): `LogisticRegression(l2=a)` matches
    `sklearn.linear_model.LogisticRegression(C=1 / (n * a))`, and l2 = 0 matches `C=np.inf`. `C` may be
    given instead of l2, with scikit-learn's meaning: the fit then uses l2 = 1 / (n C) (`l2_` says which).

    class_weight="balanced" weighs each example of class c by s_c = n / (K n_c) in the log-likelihood,
    loss(w) = -(1/n) sum_i s_(y_i) log P(y_i | x_i) + (l2 / 2) ||w||^2, scikit-learn's class_weight with
    the same C (the weights add up to n, so the average stays an average). A dict {label: s_c} sets s_c
    for the classes it names (the others 1), as in scikit-learn; the loss is still divided by n.

    `fit(X, y, sample_weight=r)` weighs row i by r_i, as if it appeared r_i times: each example's term is
    multiplied by r_i (and by its class's weight, as scikit-learn multiplies them) and n becomes the total
    R = sum_i r_i, so `LogisticRegression(l2=a)` matches scikit-learn's with C = 1 / (R * a) and the same
    sample_weight. "balanced" then counts each class by its total weight: s_c = R / (K R_c).

    Solvers: "newton" (default) is Newton's method (iteratively reweighted least squares) with a
    backtracking line search, for binary and multiclass alike; when there are more than 1000 weights it
    switches to L-BFGS (`solver_` says which ran). "gd" is notes 001's full-batch gradient ascent on the
    averaged log-likelihood, w <- w + learning_rate * grad(LL/n - penalty). Both start at w = 0 and
    stop when every gradient component is at most `tol`, or after `max_iter` iterations (None: 100 for
    Newton, 1000 for L-BFGS and gradient ascent). On tens of thousands of rows, Newton fits without a
    trace start instead from the fit on a sample of the rows (sample_start.py) and keep a Hessian
    while the gradient falls fast (newton_kept_hessian.py): the same stopping test on all rows, fewer
    passes over all of them; `n_iter_` counts the steps over all rows. On large tables fits without a trace
    read X a block of rows at a time (row_blocks.py) and keep no copy of it.

    Softmax weights are only defined up to adding the same vector to every class (the probabilities do
    not change), so with l2 = 0 compare probabilities rather than coefficients; the reported weights are
    the representative whose class vectors sum to zero, as scikit-learn's are.

    When l2 = 0 and the fitted weights classify every training row correctly, the classes are linearly
    separable and the likelihood has no maximum: the weights grow without bound. The fit then stops at
    `tol`/`max_iter`, warns with `ConvergenceWarning`, sets `converged_ = False` and explains in `warnings_`.

    Fitted attributes: `classes_`, `class_weights_` (s_c per class, or None), `coef_` ((1, d) binary, (K, d)
    multiclass, over the encoded columns
    named by `feature_names_out_`), `intercept_` ((1,) or (K,)), `n_iter_`, `loss_curve_` (loss after each
    iteration), `converged_`, `warnings_`, `solver_`.

    Trace (`trace=True`): {"iter": t, "loss": loss(w_t), "weights": w_t} for t = 0 (all zeros) ..
    n_iter_, thinned to at most 200 evenly spaced rows that always include the first and the last.
    "weights" is [bias, w1..wd] for two classes and one such list per class for more.
    """

    _param_rules = {
        "l2": Number(0, None, help="L2 penalty (l2/2)||w||^2 on the weights (not the biases); C = 1/(n l2)"),
        "C": Number(0, None, low_open=True, none_ok=True, also=(float("inf"),),
                    help="scikit-learn's inverse penalty, instead of l2: l2 = 1/(n C) for n training rows "
                         "(None: l2 is used; inf: no penalty)"),
        "solver": Choice("newton", "gd", help="newton: Newton's method (IRLS), fast and exact; "
                                              "gd: gradient ascent on the log-likelihood"),
        "learning_rate": Number(0, None, low_open=True, help="Step size eta of gradient ascent"),
        "max_iter": Integer(1, None, none_ok=True, help="Most iterations (None: 100 Newton, 1000 gradient ascent)"),
        "tol": Number(0, None, low_open=True, help="Stop when every component of the gradient is below this"),
        "standardize": Flag(help="Scale numeric features to mean 0, sd 1 before fitting"),
        "class_weight": CLASS_WEIGHT_RULE,
        "trace": Flag(help="Record the weights and loss at each iteration"),
    }
    # What a model file holds (core.file_fields): the classes, one row of weights per class (one row for
    # two classes) over the encoded columns, and what the fit recorded.
    _state_fields = {**NUMERIC_STATE, "classes_": Labels(),
                     "class_weights_": Optional(Array("f", ("n_classes",), low=0)),
                     "coef_": Array("f", ("n_scores", "n_encoded")), "intercept_": Array("f", ("n_scores",)),
                     "solver_": Text("newton", "lbfgs", "gd"), "n_iter_": Int(0), "converged_": Bool(),
                     "loss_curve_": Curve(), "warnings_": Texts(),
                     "l2_": Optional(Real(low=0))}  # absent from files written before C was offered

    def __init__(self, l2=0.0, solver="newton", learning_rate=0.1, max_iter=None, tol=1e-6,
                 standardize=False, class_weight=None, C=None, trace=False):
        self.l2 = l2
        self.C = C
        self.solver = solver
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.standardize = standardize
        self.class_weight = class_weight
        self.trace = trace

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Fit the weights by maximum likelihood, each row weighing its `sample_weight` (None: 1); returns
        self."""
        self._check_params()
        X, y_index = fit_classes(self, X, y, feature_names, sample_weight, add_bias=False)  # (n, d), (n,) 0..K-1
        weights = check_sample_weight(sample_weight, len(y_index))  # (n,) or None
        n_classes = len(self.classes_)
        D = X.shape[1] + 1  # the weights of one score: the bias, then one per feature
        self.l2_ = self._penalty(len(X) if weights is None else float(np.sum(weights)))
        self.class_weights_ = class_weights(self.class_weight, y_index, self.classes_, weights)
        row_weights = _row_weights(self.class_weights_, y_index, weights)  # (n,) or None
        n_params = D * (1 if n_classes == 2 else n_classes)
        start = None  # w = 0
        if self.trace:  # the steps view: the formulas as written, on the rows f(x) = [1, x]
            Xb = with_bias(X)  # (n, D)
            objective = (binary_log_loss(Xb, y_index, self.l2_, row_weights) if n_classes == 2
                         else softmax_log_loss(Xb, y_index, n_classes, self.l2_, row_weights))
        else:  # the same numbers, fewer passes over the rows, and on many rows a nearer start
            rows = RowBlocks.of(X)  # [1, x]^T (D, n): kept when small, else a block at a time from X
            make_loss = self._fast_loss(n_classes)
            objective = make_loss(rows, y_index, row_weights)
            start = lambda: sample_start(make_loss, rows, y_index, n_classes, row_weights,  # noqa: E731
                                         objective[0], n_params, self.tol)
        solution = self._solve(objective, n_params, start)
        W = solution.w.reshape(-1, D)  # (1 or K, d + 1)
        if n_classes > 2:
            W = W - W.mean(axis=0)  # the representative with class vectors summing to zero
        self.intercept_, self.coef_ = W[:, 0].copy(), W[:, 1:].copy()
        self.n_iter_ = solution.n_iter
        self.loss_curve_ = [float(v) for v in solution.loss_curve]
        counted = slice(None) if weights is None else weights > 0  # rows of weight 0 say nothing of separation
        scores = Xb @ W.T if self.trace else rows.times(W).T  # (n, 1 or K)
        self._report_convergence(solution, scores[counted], y_index[counted])
        if self.trace:
            shape = (-1, D)
            view = as_list if n_classes == 2 else (lambda w: as_list(w.reshape(shape)))
            self.trace_ = iteration_trace(solution, view)
        return self

    def _penalty(self, n):
        """The l2 the fit uses: `l2`, or scikit-learn's C read as l2 = 1 / (n C) for n training rows."""
        if self.C is None:
            return float(self.l2)
        if self.l2:
            raise DataError(f"Give l2 or C, not both; got l2={self.l2!r} and C={self.C!r} (C = 1/(n l2)).",
                            field="params.C")
        return 0.0 if self.C == float("inf") else 1.0 / (n * float(self.C))

    def _fast_loss(self, n_classes):
        """make_loss(rows, y_index, row_weights) -> logistic_fast's (value_grad, hessian) on those rows (their
        (D, n) array or RowBlocks)."""
        if n_classes == 2:
            return lambda XbT, y_index, weights: logistic_fast.binary_log_loss(XbT, y_index, self.l2_, weights)
        return lambda XbT, y_index, weights: logistic_fast.softmax_log_loss(XbT, y_index, n_classes, self.l2_,
                                                                            weights)

    def _solve(self, objective, n_params, start=None):
        """Run the solver from w = 0; Newton from start() instead where that gives weights."""
        value_grad, hessian = objective
        self.solver_ = self.solver
        if self.solver == "newton" and n_params > NEWTON_MAX_PARAMS:
            self.solver_ = "lbfgs"
        max_iter = self.max_iter if self.max_iter is not None else DEFAULT_MAX_ITER[self.solver_]
        w0 = np.zeros(n_params)
        if self.solver_ == "newton":
            w_start = None if start is None else start()
            if w_start is not None:  # near the optimum already: the Hessian may be kept across steps
                return newton_keeping_hessian(value_grad, hessian, w_start, tol=self.tol, max_iter=max_iter)
            return newton(value_grad, hessian, w0, tol=self.tol, max_iter=max_iter, record=self.trace)
        if self.solver_ == "lbfgs":
            return lbfgs(value_grad, w0, tol=self.tol, max_iter=max_iter, record=self.trace)
        return gradient_descent(value_grad, w0, learning_rate=self.learning_rate, tol=self.tol,
                                max_iter=max_iter, stop_on="gradient", record=self.trace)

    def _report_convergence(self, solution, scores, y_index):
        """Set converged_/warnings_ and warn when the weights are not the maximum-likelihood ones (scores:
        theta^T f(x) of the rows that count, (n, 1 or K))."""
        self.warnings_ = []
        separable = self.l2_ == 0 and separates(scores, y_index)
        self.converged_ = bool(solution.converged and not separable)
        if separable:
            message = ("The classes are linearly separable in the training data, so the likelihood has no "
                       "maximum: the weights grow without bound the longer the solver runs (it stopped after "
                       f"{solution.n_iter} iterations). Set l2 > 0 for finite weights, or use only the "
                       "predicted classes, not the coefficients or probabilities.")
        elif not solution.converged:
            message = (f"The {self.solver_} solver stopped after {solution.n_iter} iterations before every "
                       f"gradient component fell below tol={self.tol}; raise max_iter"
                       + (" or learning_rate, or use solver='newton'." if self.solver_ == "gd" else "."))
        else:
            return
        self.warnings_.append(message)
        warnings.warn(message, ConvergenceWarning, stacklevel=3)

    def _check_state(self):
        if len(self.coef_) != (1 if len(self.classes_) == 2 else len(self.classes_)):
            raise damaged("state.coef_", f"must have one row of weights per class (one for two classes); got "
                                         f"{len(self.coef_)} rows for {len(self.classes_)} classes")
        check_saved_weights(self.class_weight, self.classes_, self.class_weights_)

    def decision_function(self, X):
        """theta^T x: (n,) for two classes (positive means classes_[1]), (n, K) for more."""
        X = numeric(self, X)  # (n, d)
        scores = X @ self.coef_.T + self.intercept_  # (n, 1 or K)
        return scores[:, 0] if len(self.classes_) == 2 else scores

    def predict_proba(self, X):
        """(n, K) class probabilities, columns in the order of `classes_`."""
        return self.proba_of_scores(self.decision_function(X))

    def predict_log_proba(self, X):
        """(n, K) log class probabilities, worked out from the scores (log-sigmoid, log-softmax) rather
        than as log(predict_proba), so a probability too small for a float still has its logarithm."""
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            return np.column_stack([-np.logaddexp(0.0, scores), -np.logaddexp(0.0, -scores)])  # (n, 2)
        top = scores.max(axis=1, keepdims=True)  # (n, 1) shift so exp cannot overflow
        return scores - (top + np.log(np.exp(scores - top).sum(axis=1, keepdims=True)))  # (n, K)

    def predict(self, X):
        """The most probable class (binary: classes_[1] when sigma(theta^T x) > 0.5)."""
        return self.class_of_scores(self.decision_function(X))

    def proba_of_scores(self, scores):
        """predict_proba of rows whose decision_function is `scores`."""
        if len(self.classes_) == 2:
            p = sigmoid(scores)  # (n,)
            return np.column_stack([1.0 - p, p])  # (n, 2)
        return softmax(scores)  # (n, K)

    def class_of_scores(self, scores):
        """predict of rows whose decision_function is `scores` (ties: the first class)."""
        index = (scores > 0).astype(int) if len(self.classes_) == 2 else np.argmax(scores, axis=1)
        return self.classes_[index]


def _row_weights(class_weights_, y_index, weights):
    """(n,) each example's weight in the log-likelihood, its class's weight times its sample weight, scaled
    by n / sum(sample weights) so that dividing by n divides by the total weight; None when neither."""
    if class_weights_ is None and weights is None:
        return None
    rows = np.ones(len(y_index)) if class_weights_ is None else class_weights_[y_index]  # (n,)
    if weights is not None:
        rows = rows * weights * (len(weights) / weights.sum())
    return rows


def sigmoid(z):
    """sigma(z) = 1 / (1 + e^-z), computed without overflow."""
    return np.exp(-np.logaddexp(0.0, -z))


def softmax(Z):
    """Row-wise exp(z_j) / sum_i exp(z_i), shifted by the row maximum so exp cannot overflow."""
    E = np.exp(Z - Z.max(axis=1, keepdims=True))  # (n, K)
    return E / E.sum(axis=1, keepdims=True)


def separates(scores, y_index):
    """True when every row's own class strictly out-scores the others (the data are separated)."""
    if scores.shape[1] == 1:
        margin = np.where(y_index == 1, scores[:, 0], -scores[:, 0])  # (n,)
        return bool(np.all(margin > 0))
    own = scores[np.arange(len(y_index)), y_index]  # (n,)
    others = scores.copy()
    others[np.arange(len(y_index)), y_index] = -np.inf
    return bool(np.all(own > others.max(axis=1)))


def _penalty_mask(n_classes, n_cols):
    mask = np.ones((n_classes, n_cols))
    mask[:, 0] = 0.0  # biases are not penalised
    return mask.ravel()  # (n_classes * n_cols,)


def weighted_gram(XT, C):
    """(m, D, D): sum_i c_i x_i x_i^T / n for each row c of C (m, n); XT is (D, n). The blocks of the
    softmax Hessian, written as the formula."""
    return np.stack([(XT * c) @ XT.T for c in C]) / XT.shape[1]


def binary_log_loss(Xb, y01, l2, row_weights=None):
    """(value_grad, hessian) of -LL/n + (l2/2)||w||^2 for the sigmoid model (notes 001); row_weights
    (n,) weigh each example's term of LL (None: all 1). logistic_fast.binary_log_loss gives the same
    numbers with fewer passes over the rows (Newton fits without a trace use it)."""
    n = Xb.shape[0]
    y = y01.astype(float)  # (n,)
    s = np.ones(n) if row_weights is None else row_weights  # (n,)
    mask = _penalty_mask(1, Xb.shape[1])
    XbT = np.ascontiguousarray(Xb.T)  # (d + 1, n)
    cache = {}

    def value_grad(w):
        z = Xb @ w  # (n,)
        e = np.exp(-np.abs(z))  # (n,) in (0, 1]: no overflow either way
        softplus = np.maximum(z, 0.0) + np.log1p(e)  # log(1 + e^z) = -log(1 - sigma(z))
        p = np.where(z >= 0, 1.0, e) / (1.0 + e)  # (n,) sigma(z)
        cache["w"], cache["p"] = w, p
        loss = np.mean(s * (softplus - y * z)) + 0.5 * l2 * np.sum((mask * w) ** 2)
        return float(loss), Xb.T @ (s * (p - y)) / n + l2 * mask * w  # (d + 1,)

    def hessian(w):
        if cache.get("w") is not w:
            value_grad(w)
        p = cache["p"]  # (n,) from the last evaluation at w
        irls = s * p * (1.0 - p)  # (n,) Bernoulli variances (times the rows' weights): the IRLS weights
        return (XbT * irls) @ Xb / n + l2 * np.diag(mask)  # (d + 1, d + 1)

    return value_grad, hessian


def softmax_log_loss(Xb, y_index, n_classes, l2, row_weights=None):
    """(value_grad, hessian) of -LL/n + (l2/2)||W||^2 for the softmax model (notes 004), W flat (K*(d+1),).
    row_weights (n,) weigh each example's term of LL (None: all 1). logistic_fast.softmax_log_loss gives
    the same numbers with fewer passes over the rows (Newton fits without a trace use it)."""
    n, D = Xb.shape
    s = np.ones(n) if row_weights is None else row_weights  # (n,)
    K = n_classes
    XbT = np.ascontiguousarray(Xb.T)  # (D, n): class-major layout keeps the reductions over K fast
    Yt = np.zeros((K, n))
    Yt[y_index, np.arange(n)] = 1.0  # (K, n) one-hot targets
    mask = _penalty_mask(K, D)
    pairs = [(k, c) for k in range(K) for c in range(k, K)]
    cache = {}

    def value_grad(w):
        Z = w.reshape(K, D) @ XbT  # (K, n) scores theta_k^T x_i
        top = Z.max(axis=0)  # (n,) shift so exp cannot overflow
        E = np.exp(Z - top)  # (K, n)
        total = E.sum(axis=0)  # (n,)
        P = E / total  # (K, n) softmax probabilities
        cache["w"], cache["P"] = w, P
        log_norm = np.log(total) + top  # (n,) log sum_k exp(z_k)
        loss = np.mean(s * (log_norm - Z[y_index, np.arange(n)])) + 0.5 * l2 * np.sum((mask * w) ** 2)
        G = ((P - Yt) * s) @ Xb / n  # (K, D)
        return float(loss), G.ravel() + l2 * mask * w  # (K * D,)

    def hessian(w):
        if cache.get("w") is not w:
            value_grad(w)
        P = cache["P"]  # (K, n) from the last evaluation at w
        # H[(k,a),(c,b)] = (1/n) sum_i s_i P_ik (delta_kc - P_ic) x_ia x_ib: one weighted Gram matrix per
        # pair k <= c, the rest by symmetry.
        weights = np.stack([s * P[k] * ((k == c) - P[c]) for k, c in pairs])  # (n_pairs, n)
        grams = weighted_gram(XbT, weights)  # (n_pairs, D, D)
        H = np.empty((K * D, K * D))
        for j, (k, c) in enumerate(pairs):
            H[k * D:(k + 1) * D, c * D:(c + 1) * D] = grams[j]
            H[c * D:(c + 1) * D, k * D:(k + 1) * D] = grams[j].T
        return H + l2 * np.diag(mask)  # (K * D, K * D)

    return value_grad, hessian
