"""Linear regression (least squares): the normal equation or gradient descent on the L2 loss."""

import warnings

import numpy as np

from ...core.base import Estimator, RegressorMixin
from ...core.errors import ConvergenceWarning
from ...core.file_fields import Array, Bool, Curve, Int, Real, Texts
from ...core.sample_weight import check_sample_weight
from ...tabular.features import NUMERIC_STATE, fit_numeric, numeric, with_bias
from ..shared.gram_fast import gram
from ..shared.optim import as_list, gradient_descent, iteration_trace
from ...core.params import Choice, Flag, Integer, Number


class LinearRegression(RegressorMixin, Estimator):
    """Least-squares linear regression h_w(x) = w0 + w1 x1 + ... + wd xd.

    Notes 000, "Linear Regression": the L2 loss 1/2 ||y - Xw||^2, its closed-form minimiser (the normal
    equation) and "Algorithm 1: Least squares gradient descent"; notes 004, "Gradient Descent
    Computation" (theta starts at 0). Categorical columns are one-hot encoded and, with
    `standardize=True`, numeric ones scaled to mean 0 and sd 1; `coef_` refers to the encoded columns,
    named by `feature_names_out_`.

    Objective (averaged over the n samples so a learning rate does not depend on n):
        J(w) = 1/(2n) * sum_i (y_i - h_w(x_i))^2 + (l2 / 2) * ||w_1..d||^2      (the bias w0 is not penalised)
    Its minimiser equals scikit-learn's `Ridge(alpha=n * l2)` (and `LinearRegression()` when l2 = 0).

    `fit(X, y, sample_weight=s)` weighs row i by s_i, as if it appeared s_i times: the squared errors are
    summed with the weights and n becomes the total weight S = sum_i s_i, so the minimiser is
    `Ridge(alpha=S * l2)` fitted with the same sample_weight (standardising uses the weighted means and sds).

    solver="normal" solves the normal equation X^T X w = X^T y on centred data (which fixes the
    intercept) with one step of residual refinement, and hands ill-conditioned or singular problems to
    SVD-based `np.linalg.lstsq`; X^T X is never inverted. solver="gd" starts at w = 0 and steps
    w <- w - learning_rate * grad J(w) until the loss changes by at most `tol` or `max_iter` steps;
    a diverging run raises DataError naming the learning rate.

    Fitted attributes: `coef_` (d,), `intercept_`, `n_iter_` (0 for the normal equation),
    `loss_curve_` (J after each gd step; empty for the normal equation), `converged_`, `warnings_`.

    Trace (`trace=True`), a list of dicts:
      gd: {"iter": t, "loss": J(w_t), "weights": [w0, w1, ..., wd]} for t = 0 (the start, all zeros)
          .. n_iter_, thinned to at most 200 evenly spaced rows that always include the first and the last;
      then, for both solvers, a final {"normal_equation": [w0, w1, ..., wd]}, the closed-form answer to
      compare the descent with.
    """

    _param_rules = {
        "solver": Choice("normal", "gd", help="normal: solve the normal equation in closed form; "
                                              "gd: gradient descent on the L2 loss"),
        "learning_rate": Number(0, None, low_open=True, help="Step size alpha of gradient descent"),
        "max_iter": Integer(1, None, help="Most gradient-descent steps"),
        "tol": Number(0, None, help="Gradient descent stops when the loss changes by less than this"),
        "l2": Number(0, None, help="L2 penalty (l2/2)||w||^2 on the weights (not the bias); 0 = plain least squares"),
        "standardize": Flag(help="Scale numeric features to mean 0, sd 1 before fitting"),
        "trace": Flag(help="Record the weights and loss at each gradient-descent step"),
    }
    # What a model file holds (core.file_fields): one weight per encoded column and a finite intercept;
    # the rest records the fit.
    _state_fields = {**NUMERIC_STATE, "coef_": Array("f", ("n_encoded",)), "intercept_": Real(),
                     "n_iter_": Int(0), "converged_": Bool(), "loss_curve_": Curve(), "warnings_": Texts()}

    def __init__(self, solver="normal", learning_rate=0.01, max_iter=1000, tol=1e-8, l2=0.0,
                 standardize=False, trace=False):
        self.solver = solver
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.l2 = l2
        self.standardize = standardize
        self.trace = trace

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Fit the weights to the encoded X and numeric target y, each row weighing its `sample_weight`
        (None: 1); returns self."""
        self._check_params()
        X, y = fit_numeric(self, X, y, feature_names, task="regression", standardize=self.standardize,
                           sample_weight=sample_weight)  # (n, d), (n,)
        weights = check_sample_weight(sample_weight, len(y))  # (n,) or None
        self.warnings_ = []
        if self.solver == "normal":
            w = normal_equation(X, y, self.l2, weights)
            self.n_iter_, self.loss_curve_, self.converged_ = 0, [], True
            trace = []
        else:
            w, trace = self._fit_gd(X, y, weights)
        self.intercept_, self.coef_ = float(w[0]), w[1:]
        if self.trace:
            self.trace_ = trace + [{"normal_equation": as_list(normal_equation(X, y, self.l2, weights))}]
        return self

    def _fit_gd(self, X, y, weights=None):
        Xb = with_bias(X)  # (n, d + 1)
        solution = gradient_descent(least_squares_loss(Xb, y, self.l2, weights), np.zeros(Xb.shape[1]),
                                    learning_rate=self.learning_rate, tol=self.tol,
                                    max_iter=self.max_iter, stop_on="loss_change", record=self.trace)
        self.n_iter_, self.converged_ = solution.n_iter, solution.converged
        self.loss_curve_ = [float(v) for v in solution.loss_curve]
        if not solution.converged:
            message = (f"Gradient descent stopped after max_iter={self.max_iter} steps while the loss was "
                       f"still changing by more than tol={self.tol}; raise max_iter or learning_rate, "
                       "or use standardize=True.")
            self.warnings_.append(message)
            warnings.warn(message, ConvergenceWarning, stacklevel=3)
        trace = iteration_trace(solution, as_list) if self.trace else []
        return solution.w, trace

    def predict(self, X):
        """h_w(x) for every row of X."""
        X = numeric(self, X)  # (n, d)
        return X @ self.coef_ + self.intercept_  # (n,)


def least_squares_loss(Xb, y, l2, weights=None):
    """value_grad(w) of J(w) = 1/(2n)||y - Xb w||^2 + (l2/2)||w[1:]||^2, Xb with the bias column first;
    with row `weights` s (n,), J(w) = 1/(2S) sum_i s_i (y_i - xb_i w)^2 + (l2/2)||w[1:]||^2, S = sum_i s_i."""
    total = Xb.shape[0] if weights is None else float(weights.sum())
    mask = np.ones(Xb.shape[1])
    mask[0] = 0.0  # the bias is not penalised

    def value_grad(w):
        residual = Xb @ w - y  # (n,)
        weighted = residual if weights is None else weights * residual  # (n,)
        penalty = mask * w  # (d + 1,)
        loss = 0.5 * (weighted @ residual) / total + 0.5 * l2 * (penalty @ penalty)
        return float(loss), Xb.T @ weighted / total + l2 * penalty  # (d + 1,)

    return value_grad


def normal_equation(X, y, l2=0.0, weights=None):
    """[w0, w1..wd] minimising J: the normal equation X^T X w = X^T y (+ n l2 w), solved with care.

    With row `weights` s, the weighted normal equation X^T S X w = X^T S y (+ sum(s) l2 w): the means
    are weighted and the centred rows multiplied by sqrt(s_i), after which the steps below are the same.

    Centring removes the (unpenalised) intercept from the system: w0 = mean(y) - mean(x) . w. The
    centred system is solved directly (X^T X is never inverted) and refined once with the residual
    (corrected semi-normal equations); if X^T X is singular or so ill-conditioned that the refinement
    still moves w (and at once when l2 = 0 and there are no more rows than columns, where X^T X is
    singular), the least-squares problem goes to SVD-based `np.linalg.lstsq` instead, with rows
    sqrt(n l2) I appended when l2 > 0, which gives the minimum-norm answer for collinear columns.

    Both solve for v = w * x_scale / y_scale on the columns and target divided by powers of two near
    their size (`_unit_scales`): exact divisions, after which X^T X neither underflows (features near
    1e-157 square to below float64's smallest normal number) nor overflows, so the weights are as
    accurate at any scale as at 1. A column's scale is at least sqrt(n l2), the size of its penalty row,
    so the penalty on v, n l2 / x_scale^2, is at most 1 however small the column."""
    n, d = X.shape
    x_mean, y_mean, Xc, yc, total = _centred(X, y, weights)
    alpha = total * float(l2)  # a float: a whole l2 such as 10**30 given as a Python int has no numpy sqrt
    top, bottom = _column_extremes(Xc)  # (d,), (d,)
    x_scale = _unit_scales(np.maximum(np.maximum(top, -bottom), np.sqrt(alpha)))  # (d,)
    y_scale = float(_unit_scales(np.abs(yc).max()))
    t = yc / y_scale  # (n,)
    penalty = alpha / x_scale ** 2 if alpha > 0 else np.zeros(d)  # (d,) the penalty on v = w * x_scale / y_scale
    # Without a penalty and with no more rows than columns, the centred X^T X (d, d) has rank at most
    # n - 1 < d: it is singular, and building it (d^2 numbers) only to find that out costs the most.
    singular = alpha == 0 and n <= d
    v = Z = None
    if not singular:
        # Z (n, d) is made in Xc's own pages: at 10^6 x 20 a second copy was 160 MB of fresh memory and
        # half of the fit's time
        Z, Xc = _divide_in_place(Xc, x_scale), None
        v = _solve_normal(Z, t, penalty)
    if v is None and alpha == 0:
        # Collinear columns: the minimum-norm answer in the data's own units, as scikit-learn's, which a
        # scale per column would change; one power of two for every column keeps it.
        common = x_scale.max()
        if Xc is None:  # it became Z: centred again, the same numbers
            Z, Xc = None, _centred(X, y, weights)[2]
        v = _lstsq(_divide_in_place(Xc, common), t, penalty) * x_scale / common
    elif v is None:
        v = _lstsq(Z, t, penalty)  # with a penalty the answer is unique: no norm to keep
    w = v / x_scale * y_scale  # (d,)
    return np.concatenate([[y_mean - x_mean @ w], w])  # (d + 1,)


def _centred(X, y, weights):
    """(x_mean (d,), y_mean, Xc (n, d), yc (n,), total weight): X and y less their (weighted) means, the
    rows times sqrt(s_i) when weighted. Xc is a new array the caller may write over."""
    n = len(X)
    if weights is None:
        x_mean, y_mean = np.ones(n) @ X / n, y.mean()  # (d,), scalar (X.mean(axis=0) is slower on (n, d))
        return x_mean, y_mean, X - x_mean, y - y_mean, n
    total = float(weights.sum())
    x_mean, y_mean = weights @ X / total, weights @ y / total  # (d,), scalar: the weighted means
    root = np.sqrt(weights)  # (n,)
    return x_mean, y_mean, (X - x_mean) * root[:, None], (y - y_mean) * root, total


def _column_extremes(M):
    """(M.max(axis=0), M.min(axis=0)) of the (n, d) matrix M, the same numbers, faster on a narrow one.

    numpy reduces a C-ordered matrix along axis 0 a row (d values) at a time, slowly when d is small
    (10^6 x 20: 0.09 s a reduction). Its rows are contiguous, so k of them at a time are one row of k d
    values: the reduction runs over about 1,000 columns, then over the k groups (0.04 s)."""
    n, d = M.shape
    k = max(1, 1024 // max(d, 1)) if M.flags.c_contiguous else 1
    whole = n // k * k
    extremes = []
    for reduce, start in ((np.max, -np.inf), (np.min, np.inf)):
        grouped = reduce(M[:whole].reshape(-1, k * d), axis=0, initial=start).reshape(k, d)
        extremes.append(reduce(np.vstack([grouped, M[whole:]]), axis=0, initial=start))
    return extremes


def _divide_in_place(M, scales):
    """M / scales (powers of two, one per column or one for all) written over M. The product by their
    reciprocals gives the same numbers (both are exact but for one rounding of the same value) and is the
    cheaper operation; a reciprocal too large for a float (a scale below 2^-1024) keeps the division."""
    with np.errstate(over="ignore"):
        inverse = 1.0 / scales
    if np.all(np.isfinite(inverse)):
        M *= inverse
    else:
        M /= scales
    return M


def _unit_scales(size):
    """The power of two at or just above each positive `size` (1 for a zero size): dividing by it is exact
    and leaves the largest magnitude in [0.5, 1)."""
    _, exponent = np.frexp(size)
    return np.ldexp(1.0, exponent)


def _solve_normal(Xc, yc, alpha):
    """w solving (Xc^T Xc + diag(alpha)) w = Xc^T yc, or None when that system is too ill-conditioned."""
    A = gram(Xc) + np.diag(alpha)  # (d, d) Xc^T Xc + diag(alpha)
    try:
        np.linalg.cholesky(A)  # fails unless A is (numerically) positive definite
        w = np.linalg.solve(A, Xc.T @ yc)  # (d,)
        correction = np.linalg.solve(A, Xc.T @ (yc - Xc @ w) - alpha * w)  # (d,)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(correction)) or np.linalg.norm(correction) > 1e-6 * np.linalg.norm(w):
        return None
    return w + correction


def _lstsq(Xc, yc, alpha):
    """Least squares of Xc w = yc with the penalty rows sqrt(alpha_j) e_j appended."""
    if np.any(alpha > 0):
        d = Xc.shape[1]
        Xc = np.vstack([Xc, np.diag(np.sqrt(alpha))])  # (n + d, d)
        yc = np.concatenate([yc, np.zeros(d)])  # (n + d,)
    return np.linalg.lstsq(Xc, yc, rcond=None)[0]  # (d,)
