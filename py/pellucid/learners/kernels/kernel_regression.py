"""Kernel regression: the notes' kernelised gradient descent, and what every kernel learner shares (the
kernel functions and the PSD test are in `kernel_functions`, the kernel perceptron in `kernel_perceptron`).

Notes 002 section 4 "Kernel methods". A feature map phi(x) can be huge (even infinite), but gradient
descent on theta^T phi(x) started from theta = 0 keeps theta = sum_i beta_i phi(x_i), so it can be run
on the n coefficients beta instead, touching phi only through inner products
K(x, z) = <phi(x), phi(z)>:

    beta_i := beta_i + alpha (y_i - sum_j beta_j K(x_j, x_i)),   i.e.   beta := beta + alpha (y - K beta)

and predictions are h(x) = sum_j beta_j K(x_j, x). A function K is a valid kernel when every kernel
matrix K_ij = K(x_i, x_j) it makes is positive semidefinite (Mercer's theorem, notes 002).
"""

import math
import warnings

import numpy as np

from ...core.base import Estimator, RegressorMixin
from ...core.errors import ConvergenceWarning, DataError
from ...core.file_fields import Array, Bool, Curve, Int, Real, Texts
from ...tabular.features import NUMERIC_STATE, fit_numeric, numeric
from ...core.params import Choice, Flag, Integer, Number
from ..shared.row_limit import check_row_limit
from .kernel_lattice import lattice_sums
from .kernel_functions import (is_psd, linear_kernel, polynomial_feature_map,  # noqa: F401 (public here too)
                               polynomial_kernel, rbf_kernel)

# Both kernel learners fit through the n x n kernel matrix of the training rows (each of kernel regression's
# max_iter steps multiplies by it), so time grows as the square of the rows and memory too: 50,000 rows
# would be a 20 GB matrix. 2,000 rows (1,400 trained on a 70/30 split) fit in about a second natively, a
# few in the browser; fit refuses more, and the page offers a seeded sample of this many rows.
MAX_ROWS = 2_000
_BLOCK_BYTES = 16 * 2 ** 20  # prediction computes the kernel against the training rows in blocks this big
_MAX_TRACE = 200


# --- shared estimator plumbing ------------------------------------------------------------------------

_KERNEL_RULES = {
    "kernel": Choice("linear", "poly", "rbf", help="The kernel K(x, z): linear x.z, poly (x.z + c)^degree, "
                                                   "rbf exp(-gamma |x - z|^2)."),
    "degree": Integer(1, help="Degree of the polynomial kernel."),
    "coef0": Number(0, label="c", help="The constant c in the polynomial kernel (x.z + c)^degree "
                                        "(scikit-learn's coef0)."),
    "gamma": Number(0, low_open=True, none_ok=True, help="Width of the rbf kernel; None means 1 / number "
                                                           "of features."),
}


class _KernelModel(Estimator):
    """Encoding the features, evaluating the chosen kernel against the stored training rows."""

    def _store(self, M):
        check_row_limit(self, len(M), MAX_ROWS, "Its kernel matrix")  # before the n x n matrix is made
        self.X_fit_ = np.array(M, dtype=float)  # (n, p) a copy: M may be the caller's array
        self.gamma_ = float(1.0 / self.X_fit_.shape[1] if self.gamma is None else self.gamma)

    def _kernel(self, A, B):
        if self.kernel == "linear":
            return linear_kernel(A, B)
        if self.kernel == "poly":
            return polynomial_kernel(A, B, self.degree, self.coef0)
        return rbf_kernel(A, B, self.gamma_)

    def _against_training(self, X, coef, rows=None):
        """(m,) or (m, C): sum_j coef_j K(x_j, x) for each row x of X, in bounded blocks."""
        self._check_fitted()
        Q = numeric(self, X)  # (m, p)
        train = self.X_fit_ if rows is None else self.X_fit_[rows]
        block = max(1, _BLOCK_BYTES // (8 * max(len(train), 1)))
        return np.concatenate([self._kernel(Q[s:s + block], train) @ coef for s in range(0, len(Q), block)])

    def _kernel_step(self, extra):
        return {"step": "kernel", "kernel": self.kernel, "degree": int(self.degree), "c": float(self.coef0),
                "gamma": self.gamma_, "n_train": int(len(self.X_fit_)), **extra}


def _largest_eigenvalue(K, n_iter=100):
    """lambda_max of a PSD matrix by power iteration (a fixed start vector keeps fits reproducible)."""
    v = np.random.default_rng(0).normal(size=len(K))  # (n,)
    estimate = 0.0
    for _ in range(n_iter):
        w = K @ v
        norm = np.linalg.norm(w)
        if norm == 0.0:
            return 0.0
        estimate, v = float(v @ w / (v @ v)), w / norm
    return estimate


def _settled(losses, tol):
    """Whether the last step changed the loss by at most tol times its previous value."""
    if len(losses) < 2:
        return False
    previous, last = losses[-2], losses[-1]
    return abs(previous - last) <= tol * max(previous, 1e-300)


def _snapshot_every(max_iter):
    return max(1, math.ceil(max_iter / (_MAX_TRACE - 2)))


# --- kernel regression --------------------------------------------------------------------------------

class KernelRegression(RegressorMixin, _KernelModel):
    """Least squares with a kernel, by the notes' gradient descent on beta (notes 002 section 4):

        beta := beta + alpha (y - K beta)          (and, with l2 > 0, beta := beta + alpha (y - K beta - l2 beta))

    The notes' update sums over the examples (it is the gradient of J = 1/2 sum_i (y_i - h(x_i))^2,
    notes 004's least-squares cost); it is not averaged, so the learning rate that converges depends on
    the kernel matrix: the steps shrink the error only when alpha < 2 / lambda_max(K). learning_rate=None
    takes alpha = 1 / lambda_max(K) (largest eigenvalue by power iteration). With a linear kernel the
    fit converges to the least-squares fit through the origin; l2 > 0 gives kernel ridge regression.
    A loss that blows up raises DataError suggesting a smaller learning rate. The descent stops when one
    step changes the loss by at most `tol` times itself; stopping at `max_iter` before that warns
    (ConvergenceWarning) and is said in `warnings_`.

    Fitted: `beta_` (n,), `X_fit_` (n, p), `loss_curve_` (J at beta^0 = 0, then after each step, plus
    l2/2 beta^T K beta when l2 > 0), `n_iter_`, `converged_`, `warnings_`, `learning_rate_`,
    `lambda_max_` (largest eigenvalue of
    K + l2 I, which sets the learning rates that converge), `gamma_`, `encoder_`.

    trace_: [{"step": "kernel", "kernel", "degree", "c", "gamma", "n_train", "learning_rate", "lambda_max"},
    then at most 200 {"step": "iteration", "iteration", "loss", "beta": [n floats]} snapshots, evenly
    thinned, always including the first and the last].
    """

    _param_rules = {
        **_KERNEL_RULES,
        "learning_rate": Number(0, low_open=True, none_ok=True,
                                help="The step alpha in beta := beta + alpha (y - K beta); None means "
                                     "1 / the largest eigenvalue of K."),
        "max_iter": Integer(1, help="Most gradient-descent steps."),
        "l2": Number(0, help="Ridge penalty: 0 is plain least squares."),
        "tol": Number(0, help="Stop when the loss changes by less than this fraction of itself."),
        "trace": Flag(help="Record the loss and (thinned) snapshots of beta."),
    }
    # A model file's state (core.file_fields): the encoded training rows, a weight for each, the kernel's
    # width and what the descent recorded.
    _state_fields = {**NUMERIC_STATE, "X_fit_": Array("f", ("n_rows", "n_encoded")), "gamma_": Real(low=0),
                     "lambda_max_": Real(), "learning_rate_": Real(low=0), "beta_": Array("f", ("n_rows",)),
                     "loss_curve_": Curve(), "n_iter_": Int(0), "converged_": Bool(), "warnings_": Texts()}

    _renamed_params = {"c": "coef0"}  # before scikit-learn's name

    def __init__(self, kernel="rbf", degree=2, coef0=1.0, gamma=None, learning_rate=None, max_iter=1000, l2=0.0,
                 tol=1e-6, trace=False):
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.gamma = gamma
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.l2 = l2
        self.tol = tol
        self.trace = trace

    def fit(self, X, y, feature_names=None):
        """Run beta := beta + alpha (y - K beta) from beta = 0."""
        self._check_params()
        M, y = fit_numeric(self, X, y, feature_names, task="regression")
        self._store(M)
        K = self._kernel(self.X_fit_, self.X_fit_)  # (n, n)
        self.lambda_max_ = _largest_eigenvalue(K) + self.l2
        default = 1.0 / self.lambda_max_ if self.lambda_max_ > 0 else 1.0
        self.learning_rate_ = float(default if self.learning_rate is None else self.learning_rate)
        self.beta_, losses, snapshots = self._descend(K, y)
        self.loss_curve_ = np.array(losses)
        self.n_iter_ = len(losses) - 1
        self._report_convergence()
        if self.trace:
            self.trace_ = [self._kernel_step({"learning_rate": self.learning_rate_,
                                              "lambda_max": self.lambda_max_})] + snapshots
        return self

    def _descend(self, K, y):
        beta, Kb = np.zeros(len(y)), np.zeros(len(y))  # (n,), (n,) = K beta
        losses, snapshots, every = [0.5 * float(y @ y)], [], _snapshot_every(self.max_iter)
        self._snapshot(snapshots, 0, losses[0], beta)
        for t in range(1, self.max_iter + 1):
            beta = beta + self.learning_rate_ * (y - Kb - self.l2 * beta)
            Kb = K @ beta
            r = y - Kb
            losses.append(0.5 * float(r @ r) + 0.5 * self.l2 * float(beta @ Kb))
            self._check_divergence(t, losses)
            done = _settled(losses, self.tol)
            if t % every == 0 or done or t == self.max_iter:
                self._snapshot(snapshots, t, losses[-1], beta)
            if done:
                break
        return beta, losses, snapshots

    def _report_convergence(self):
        self.converged_ = _settled(self.loss_curve_, self.tol)
        self.warnings_ = []
        if not self.converged_:
            previous, last = self.loss_curve_[-2:]
            message = (f"Kernel gradient descent stopped after max_iter={self.max_iter} steps while the loss "
                       f"was still changing by {abs(previous - last) / max(previous, 1e-300):.2g} of itself "
                       f"per step (tol={self.tol:g}); raise max_iter or tol, or the learning rate.")
            self.warnings_.append(message)
            warnings.warn(message, ConvergenceWarning, stacklevel=3)

    def _snapshot(self, snapshots, t, loss, beta):
        if self.trace:
            snapshots.append({"step": "iteration", "iteration": t, "loss": loss, "beta": beta.tolist()})

    def _check_divergence(self, t, losses):
        if np.isfinite(losses[-1]) and losses[-1] <= 1e6 * max(losses[0], 1e-300):
            return
        limit = 2.0 / self.lambda_max_ if self.lambda_max_ > 0 else float("inf")
        raise DataError(f"Kernel gradient descent diverged at iteration {t}: the loss grew from "
                        f"{losses[0]:.4g} to {losses[-1]:.4g}. The learning rate {self.learning_rate_:g} is "
                        f"too large for this kernel matrix (largest eigenvalue {self.lambda_max_:.4g}; steps "
                        f"converge only below 2 / lambda_max = {limit:.4g}); use a smaller learning_rate, or "
                        "None to take 1 / lambda_max.", field="params.learning_rate")

    def predict(self, X):
        """(m,) h(x) = sum_j beta_j K(x_j, x)."""
        self._check_fitted()
        return self._against_training(X, self.beta_)

    def lattice_predict(self, held_row, axes):
        """`predict` on a lattice of encoded rows: (A,) or (A, B) h(g) for the points g equal to `held_row`
        except in one or two columns (`axes`: (column, values) pairs); see `kernel_lattice`."""
        self._check_fitted()
        return lattice_sums(self, held_row, axes, self.beta_)
