"""Kernel methods: kernel functions, the PSD test, and the notes' kernelised gradient descent and perceptron.

Seed 002 section 4 "Kernel methods". A feature map phi(x) can be huge (even infinite), but gradient
descent on theta^T phi(x) started from theta = 0 keeps theta = sum_i beta_i phi(x_i), so it can be run
on the n coefficients beta instead, touching phi only through inner products
K(x, z) = <phi(x), phi(z)>:

    beta_i := beta_i + alpha (y_i - sum_j beta_j K(x_j, x_i)),   i.e.   beta := beta + alpha (y - K beta)

and predictions are h(x) = sum_j beta_j K(x_j, x). A function K is a valid kernel when every kernel
matrix K_ij = K(x_i, x_j) it makes is positive semidefinite (Mercer's theorem, seed 002).
The dual (kernel) perceptron applies the same idea to seed 000's perceptron: w = sum_i alpha_i y_i phi(x_i).
"""

import itertools
import math
import warnings

import numpy as np

from ..core.base import ClassifierMixin, Estimator, RegressorMixin
from ..core.errors import ConvergenceWarning, DataError
from ..tabular.features import fit_numeric, numeric
from .neighbors import _plain
from ..core.params import Choice, Flag, Integer, Number
from ..core.validation import check_classes

_BLOCK_BYTES = 16 * 2 ** 20  # prediction computes the kernel against the training rows in blocks this big
_MAX_TRACE = 200


# --- kernels ------------------------------------------------------------------------------------------

def _as_matrix(name, A):
    try:
        A = np.asarray(A, dtype=float)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{name} must be a numeric 2-D array ({exc}).") from exc
    if A.ndim != 2:
        raise DataError(f"{name} must be 2-D (rows x features); got shape {A.shape}.")
    if not np.isfinite(A).all():
        raise DataError(f"{name} has missing or infinite values.")
    return A


def _pair(X, Z):
    X = _as_matrix("X", X)
    Z = X if Z is None else _as_matrix("Z", Z)
    if X.shape[1] != Z.shape[1]:
        raise DataError(f"X has {X.shape[1]} features but Z has {Z.shape[1]}; a kernel compares rows "
                        "with the same features.")
    return X, Z


def linear_kernel(X, Z=None):
    """(n, m) K(x, z) = x^T z (the identity feature map)."""
    X, Z = _pair(X, Z)
    return X @ Z.T  # (n, m)


def polynomial_kernel(X, Z=None, degree=2, c=1.0):
    """(n, m) K(x, z) = (x^T z + c)^degree (seed 002; degree 2 is the notes' example)."""
    X, Z = _pair(X, Z)
    return (X @ Z.T + c) ** degree  # (n, m)


def rbf_kernel(X, Z=None, gamma=None):
    """(n, m) K(x, z) = exp(-gamma |x - z|^2); gamma None means 1 / n_features. Its feature map is
    infinite-dimensional, the case the notes' beta form exists for."""
    X, Z = _pair(X, Z)
    gamma = 1.0 / X.shape[1] if gamma is None else gamma
    sq = (X ** 2).sum(axis=1)[:, None] - 2.0 * (X @ Z.T) + (Z ** 2).sum(axis=1)[None, :]  # (n, m)
    return np.exp(-gamma * np.maximum(sq, 0.0))


def polynomial_feature_map(X, degree=2, c=1.0):
    """The explicit phi with phi(x)^T phi(z) = (x^T z + c)^degree: every monomial of degree `degree` in
    (x_1, ..., x_d, sqrt(c)), scaled by the square root of its multinomial coefficient. (n, C(d+degree, d))."""
    X = _as_matrix("X", X)
    Xa = np.hstack([X, np.full((len(X), 1), math.sqrt(c))])  # (n, d + 1)
    columns = []
    for combo in itertools.combinations_with_replacement(range(Xa.shape[1]), degree):
        multiplicities = np.bincount(combo)
        coef = math.factorial(degree) / np.prod([math.factorial(m) for m in multiplicities])
        columns.append(math.sqrt(coef) * np.prod(Xa[:, list(combo)], axis=1))
    return np.column_stack(columns)  # (n, p)


def is_psd(K, tol=1e-10):
    """True when K is symmetric and its eigenvalues are >= -tol * scale (scale = the largest |K_ij|):
    the notes' test that K is a valid kernel matrix."""
    K = _as_matrix("K", K)
    if K.shape[0] != K.shape[1]:
        raise DataError(f"A kernel matrix must be square (n x n); got shape {K.shape}.")
    scale = float(np.abs(K).max()) if K.size else 0.0
    if scale == 0.0:
        return True
    if np.abs(K - K.T).max() > tol * scale:
        return False
    return bool(np.linalg.eigvalsh((K + K.T) / 2.0).min() >= -tol * scale)


# --- shared estimator plumbing ------------------------------------------------------------------------

_KERNEL_RULES = {
    "kernel": Choice("linear", "poly", "rbf", help="The kernel K(x, z): linear x.z, poly (x.z + c)^degree, "
                                                   "rbf exp(-gamma |x - z|^2)."),
    "degree": Integer(1, help="Degree of the polynomial kernel."),
    "c": Number(0, help="The constant c in the polynomial kernel (x.z + c)^degree."),
    "gamma": Number(0, low_open=True, none_ok=True, help="Width of the rbf kernel; None means 1 / number "
                                                           "of features."),
}


class _KernelModel(Estimator):
    """Encoding the features, evaluating the chosen kernel against the stored training rows."""

    def _store(self, M):
        self.X_fit_ = np.array(M, dtype=float)  # (n, p) a copy: M may be the caller's array
        self.gamma_ = float(1.0 / self.X_fit_.shape[1] if self.gamma is None else self.gamma)

    def _kernel(self, A, B):
        if self.kernel == "linear":
            return linear_kernel(A, B)
        if self.kernel == "poly":
            return polynomial_kernel(A, B, self.degree, self.c)
        return rbf_kernel(A, B, self.gamma_)

    def _against_training(self, X, coef, rows=None):
        """(m,) or (m, C): sum_j coef_j K(x_j, x) for each row x of X, in bounded blocks."""
        self._check_fitted()
        Q = numeric(self, X)  # (m, p)
        train = self.X_fit_ if rows is None else self.X_fit_[rows]
        block = max(1, _BLOCK_BYTES // (8 * max(len(train), 1)))
        return np.concatenate([self._kernel(Q[s:s + block], train) @ coef for s in range(0, len(Q), block)])

    def _kernel_step(self, extra):
        return {"step": "kernel", "kernel": self.kernel, "degree": int(self.degree), "c": float(self.c),
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
    """Least squares with a kernel, by the notes' gradient descent on beta (seed 002 section 4):

        beta := beta + alpha (y - K beta)          (and, with l2 > 0, beta := beta + alpha (y - K beta - l2 beta))

    The notes' update sums over the examples (it is the gradient of J = 1/2 sum_i (y_i - h(x_i))^2,
    seed 004's least-squares cost); it is not averaged, so the learning rate that converges depends on
    the kernel matrix: the steps shrink the error only when alpha < 2 / lambda_max(K). learning_rate=None
    takes alpha = 1 / lambda_max(K) (largest eigenvalue by power iteration). With a linear kernel the
    fit converges to the least-squares fit through the origin; l2 > 0 gives kernel ridge regression.
    A loss that blows up raises DataError suggesting a smaller learning rate. The descent stops when one
    step changes the loss by at most `tol` times itself; stopping at `max_iter` before that warns
    (ConvergenceWarning) and is said in `warnings_`.

    Fitted: `beta_` (n,), `X_fit_` (n, p), `loss_curve_` (J at beta^0 = 0, then after each step, plus
    l2/2 beta^T K beta when l2 > 0), `n_iter_`, `converged_`, `warnings_`, `learning_rate_`, `lambda_max_` (largest eigenvalue of
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

    def __init__(self, kernel="rbf", degree=2, c=1.0, gamma=None, learning_rate=None, max_iter=1000, l2=0.0,
                 tol=1e-6, trace=False):
        self.kernel = kernel
        self.degree = degree
        self.c = c
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
                        "None to take 1 / lambda_max.")

    def predict(self, X):
        """(m,) h(x) = sum_j beta_j K(x_j, x)."""
        self._check_fitted()
        return self._against_training(X, self.beta_)


# --- kernel perceptron --------------------------------------------------------------------------------

class KernelPerceptron(ClassifierMixin, _KernelModel):
    """Seed 000's perceptron in dual form with a kernel (seed 002): w = sum_i alpha_i y_i phi(x_i), where
    alpha_i counts the mistakes made on example i, so the activation is f(x) = sum_i alpha_i y_i K(x_i, x).

    The notes' bias feature (a constant 1 appended to every f(x)) adds 1 to every kernel value. Examples
    are visited in order, epoch after epoch, until an epoch makes no mistake (the data are separated)
    or `max_epochs` pass (ConvergenceWarning).
    Two classes: y* = +1 for classes_[1] and -1 for classes_[0]; f(x) >= 0 is classified +1 (the notes
    put points on the boundary in the positive class); a mistake on i adds 1 to alpha_i.
    More classes: one alpha vector per class (the multiclass perceptron, seed 000); the prediction is the
    class with the highest score (the first on a tie); a mistake on i predicting y adds 1 to
    alpha[y*, i] and subtracts 1 from alpha[y, i].

    Fitted: `classes_`, `alpha_` ((n,) mistake counts for two classes, (C, n) signed counts for more),
    `X_fit_`, `y_fit_` (class index per row), `n_iter_` (epochs run), `converged_`, `gamma_`, `encoder_`.

    trace_: [{"step": "kernel", ...}, then per epoch {"step": "epoch", "epoch", "mistakes", "loss"
    (perceptron loss sum_i max(0, -y_i f(x_i)), for more classes sum_i max_y s_y - s_y*, after the epoch),
    "updates": [{"index", "label", "predicted", "score"}]}]; at most 200 updates are listed in all.
    """

    _param_rules = {
        **_KERNEL_RULES,
        "max_epochs": Integer(1, help="Most passes through the training data."),
        "trace": Flag(help="Record every epoch's mistakes and the first 200 updates."),
    }

    def __init__(self, kernel="poly", degree=2, c=1.0, gamma=None, max_epochs=100, trace=False):
        self.kernel = kernel
        self.degree = degree
        self.c = c
        self.gamma = gamma
        self.max_epochs = max_epochs
        self.trace = trace

    def fit(self, X, y, feature_names=None):
        """Cycle through the examples, updating the counts alpha on every mistake."""
        self._check_params()
        M, y = fit_numeric(self, X, y, feature_names, task="classification")
        self.classes_ = check_classes(y)
        self.y_fit_ = np.searchsorted(self.classes_, y)  # (n,)
        self._store(M)
        K = self._kernel(self.X_fit_, self.X_fit_) + 1.0  # (n, n); + 1 is the bias feature
        binary = len(self.classes_) == 2
        self.alpha_ = np.zeros(len(y) if binary else (len(self.classes_), len(y)), dtype=np.intp)
        epochs, self._n_listed = [], 0
        for epoch in range(1, self.max_epochs + 1):
            updates = (self._binary_epoch if binary else self._multiclass_epoch)(K)
            epochs.append(self._epoch_step(epoch, updates, K))
            if not updates:
                break
        self.n_iter_, self.converged_ = len(epochs), not updates
        if not self.converged_:
            warnings.warn(f"KernelPerceptron still made {len(updates)} mistakes in epoch {self.max_epochs}; "
                          "the data are not separated with this kernel (raise max_epochs or change the "
                          "kernel).", ConvergenceWarning, stacklevel=2)
        if self.trace:
            self.trace_ = [self._kernel_step({})] + epochs
        return self

    def _binary_epoch(self, K):
        """One pass of the dual binary perceptron; returns [(i, predicted index, score)] per mistake."""
        signs = self._signs()  # (n,)
        f = K @ (self.alpha_ * signs)  # (n,) activations
        updates = []
        for i in range(len(f)):
            predicted = 1 if f[i] >= 0 else 0
            if predicted != self.y_fit_[i]:
                updates.append((i, predicted, float(f[i])))
                self.alpha_[i] += 1
                f += signs[i] * K[:, i]
        return updates

    def _multiclass_epoch(self, K):
        """One pass of the dual multiclass perceptron; returns [(i, predicted index, score)] per mistake."""
        S = self.alpha_ @ K  # (C, n) score of every class for every example (K is symmetric)
        updates = []
        for i in range(S.shape[1]):
            predicted, true = int(np.argmax(S[:, i])), int(self.y_fit_[i])
            if predicted != true:
                updates.append((i, predicted, float(S[predicted, i])))
                self.alpha_[true, i] += 1
                self.alpha_[predicted, i] -= 1
                S[true] += K[:, i]
                S[predicted] -= K[:, i]
        return updates

    def _epoch_step(self, epoch, updates, K):
        if not self.trace:
            return None
        room = max(0, _MAX_TRACE - self._n_listed)
        self._n_listed += min(room, len(updates))
        return {"step": "epoch", "epoch": epoch, "mistakes": len(updates), "loss": self._perceptron_loss(K),
                "updates": [{"index": i, "label": _plain(self.classes_[self.y_fit_[i]]),
                             "predicted": _plain(self.classes_[p]), "score": s} for i, p, s in updates[:room]]}

    def _signs(self, rows=slice(None)):
        return np.where(self.y_fit_[rows] == 1, 1.0, -1.0)  # y* in {-1, +1}

    def _perceptron_loss(self, K):
        """Seed 004's perceptron loss summed over the training set, at the current alpha."""
        if self.alpha_.ndim == 1:
            margins = self._signs() * (K @ (self.alpha_ * self._signs()))  # (n,) y* f(x)
            return float(np.maximum(0.0, -margins).sum())
        S = self.alpha_ @ K  # (C, n)
        return float((S.max(axis=0) - S[self.y_fit_, np.arange(S.shape[1])]).sum())

    def decision_function(self, X):
        """Activations: (m,) f(x) for two classes (>= 0 means classes_[1]), (m, C) class scores for more."""
        self._check_fitted()
        if self.alpha_.ndim == 1:
            used = np.flatnonzero(self.alpha_)  # only examples with mistakes contribute
            coef = self.alpha_[used] * self._signs(used)  # (s,)
        else:
            used = np.flatnonzero(np.any(self.alpha_ != 0, axis=0))
            coef = self.alpha_[:, used].T.astype(float)  # (s, C)
        # sum_i coef_i (K(x_i, x) + 1): the + 1 is the bias feature.
        return self._against_training(X, coef, rows=used) + coef.sum(axis=0)

    def predict(self, X):
        """classes_[1] where f(x) >= 0 (two classes), else the highest-scoring class."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores >= 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
