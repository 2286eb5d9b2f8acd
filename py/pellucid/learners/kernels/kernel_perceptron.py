"""The dual (kernel) perceptron: notes 000's perceptron with w = sum_i alpha_i y_i phi(x_i), so it needs phi
only through the kernel K(x, z) = <phi(x), phi(z)> (notes 002 section 4 "Kernel methods").

A mistake on example i adds 1 to alpha_i, which is the primal update w := w + y_i phi(x_i); predictions
are sign(sum_j alpha_j y_j K(x_j, x)).
"""

import warnings

import numpy as np

from ...core.base import ClassifierMixin
from ...core.errors import ConvergenceWarning
from ...core.jsonable import python_scalar
from ...core.file_fields import Array, Bool, Custom, Int, Labels, Real, damaged, require_array
from ...tabular.features import NUMERIC_STATE, fit_numeric
from ...core.params import Flag, Integer
from ...core.validation import check_classes
from .kernel_regression import _KERNEL_RULES, _MAX_TRACE, _KernelModel


def _mistakes(value, path, dims):
    """alpha_: the mistakes made on each training row, (n,) counts for two classes, (C, n) for C classes
    (each mistake adds to the true class's row and takes from the predicted one's)."""
    n_classes, n_rows = dims.sizes["n_classes"], dims.sizes["n_rows"]
    if n_classes == 2:
        return require_array(value, path, "i", (n_rows,), low=0)
    return require_array(value, path, "i", (n_classes, n_rows))


class KernelPerceptron(ClassifierMixin, _KernelModel):
    """Notes 000's perceptron in dual form with a kernel (notes 002): w = sum_i alpha_i y_i phi(x_i), where
    alpha_i counts the mistakes made on example i, so the activation is f(x) = sum_i alpha_i y_i K(x_i, x).

    The notes' bias feature (a constant 1 appended to every f(x)) adds 1 to every kernel value. Examples
    are visited in order, epoch after epoch, until an epoch makes no mistake (the data are separated)
    or `max_iter` pass (ConvergenceWarning).
    Two classes: y* = +1 for classes_[1] and -1 for classes_[0]; f(x) >= 0 is classified +1 (the notes
    put points on the boundary in the positive class); a mistake on i adds 1 to alpha_i.
    More classes: one alpha vector per class (the multiclass perceptron, notes 000); the prediction is the
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
        "max_iter": Integer(1, label="max epochs", help="Most passes (epochs) through the training data."),
        "trace": Flag(help="Record every epoch's mistakes and the first 200 updates."),
    }
    # A model file's state (core.file_fields): the encoded training rows, their class numbers and the
    # mistakes counted on each (one row of counts per class beyond two classes).
    _state_fields = {**NUMERIC_STATE, "classes_": Labels(), "X_fit_": Array("f", ("n_rows", "n_encoded")),
                     "y_fit_": Array("i", ("n_rows",), low=0), "gamma_": Real(low=0),
                     "alpha_": Custom(_mistakes), "n_iter_": Int(0), "converged_": Bool()}

    def _check_state(self):
        if self.y_fit_.size and self.y_fit_.max() >= len(self.classes_):
            raise damaged("state.y_fit_", f"must hold class numbers below {len(self.classes_)}")

    _renamed_params = {"c": "coef0", "max_epochs": "max_iter"}  # before scikit-learn's names

    def __init__(self, kernel="poly", degree=2, coef0=1.0, gamma=None, max_iter=100, trace=False):
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.gamma = gamma
        self.max_iter = max_iter
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
        for epoch in range(1, self.max_iter + 1):
            updates = (self._binary_epoch if binary else self._multiclass_epoch)(K)
            epochs.append(self._epoch_step(epoch, updates, K))
            if not updates:
                break
        self.n_iter_, self.converged_ = len(epochs), not updates
        if not self.converged_:
            warnings.warn(f"KernelPerceptron still made {len(updates)} mistakes in epoch {self.max_iter}; "
                          "the data are not separated with this kernel (raise max_iter or change the "
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
                "updates": [{"index": i, "label": python_scalar(self.classes_[self.y_fit_[i]]),
                             "predicted": python_scalar(self.classes_[p]), "score": s} for i, p, s in updates[:room]]}

    def _signs(self, rows=slice(None)):
        return np.where(self.y_fit_[rows] == 1, 1.0, -1.0)  # y* in {-1, +1}

    def _perceptron_loss(self, K):
        """Notes 004's perceptron loss summed over the training set, at the current alpha."""
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
