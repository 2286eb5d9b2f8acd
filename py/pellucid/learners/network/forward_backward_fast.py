"""The forward and backward pass of forward_backward.py, fused into preallocated float64 buffers.

The gradient is one flat vector laid out as the parameters are (flat.py), so a solver updates all of
them in one operation per step rather than one per layer. The activations and deltas of each layer are
buffers sized for the largest batch and reused. The numbers are those of the readable pass
(tests/unit/test_fast_paths.py and test_mlp.py hold the two to the same gradients and weights); only the
order of a few floating-point operations differs.
"""

import numpy as np

from .flat import views


class FastNet:
    """A fused gradient over a batch for the network whose parameters are the flat vector `flat` laid out
    by `spans` (flat.layout): `coefs` and `intercepts` are views into it; `gradient` fills one flat vector."""

    def __init__(self, flat, spans, activation, out_activation, loss, alpha, max_batch):
        L = len(spans) // 2
        self.params, self.grad = [flat], np.empty_like(flat)
        parts, grad_parts = views(flat, spans), views(self.grad, spans)
        self.coefs, self.intercepts = parts[:L], parts[L:]
        self.coef_grads, self.intercept_grads = grad_parts[:L], grad_parts[L:]
        self.activation, self.out_activation, self.loss, self.alpha = activation, out_activation, loss, alpha
        units = [self.coefs[0].shape[0]] + [W.shape[1] for W in self.coefs]
        # Each layer's weights transposed into rows of their own: the forward products read both of their
        # operands along rows then, which numpy's matmul without BLAS (Pyodide's) does 1.5x faster.
        self.coefs_by_unit = [np.empty(W.T.shape) for W in self.coefs]
        self.a = [None] + [np.empty((max_batch, k)) for k in units[1:]]  # a[l]: layer l's activations
        self.deltas = [np.empty((max_batch, k)) for k in units[1:]]
        self.work = [np.empty((max_batch, k)) for k in units[1:]]  # g'(z) and the loss's terms

    def gradient(self, X, Y, sample_weight, rows=None):
        """(loss, [flat gradient]) over the batch (X, Y), as forward_backward.backward computes them."""
        m, L = X.shape[0], len(self.coefs)
        a = [X] + [buffer[:m] for buffer in self.a[1:]]
        for layer in range(L):
            np.copyto(self.coefs_by_unit[layer], self.coefs[layer].T)
            np.matmul(a[layer], self.coefs_by_unit[layer].T, out=a[layer + 1])
            a[layer + 1] += self.intercepts[layer]
            _activate(a[layer + 1], self.out_activation if layer == L - 1 else self.activation)
        n = m if sample_weight is None else sample_weight.sum()
        loss = self._loss(Y, a[L], sample_weight, m) + _penalty(self.coefs, self.alpha, n)
        delta = self.deltas[L - 1][:m]
        np.subtract(a[L], Y, out=delta)  # dLoss/dz_L = a_L - y
        if sample_weight is not None:
            delta *= sample_weight[:, None]
        for layer in range(L - 1, -1, -1):
            delta = self.deltas[layer][:m]
            if layer < L - 1:
                np.matmul(self.deltas[layer + 1][:m], self.coefs[layer + 1].T, out=delta)  # 2.6x dot's speed there
                _times_slope(delta, a[layer + 1], self.activation, self.work[layer][:m])
            grad = self.coef_grads[layer]
            np.dot(a[layer].T, delta, out=grad)
            grad += self.alpha * self.coefs[layer]
            grad /= n
            np.sum(delta, axis=0, out=self.intercept_grads[layer])
            self.intercept_grads[layer] /= n
        return loss, [self.grad]

    def _loss(self, Y, P, sample_weight, m):
        work = self.work[-1][:m]
        if self.loss == "squared_error":
            np.subtract(Y, P, out=work)
            work *= work
            return float(0.5 * _column_means(work, sample_weight, m).mean())
        eps = np.finfo(np.float64).eps
        np.clip(P, eps, 1 - eps, out=work)
        if P.shape[1] == 1:  # the logistic unit: y log p + (1 - y) log(1 - p)
            terms = np.where(Y > 0, np.log(work), np.log1p(-work))
        else:  # softmax: log of the true class's probability (Y is one-hot)
            np.log(work, out=work)
            terms = work * Y
        return float(-_column_means(terms, sample_weight, m).sum())


def _column_means(values, sample_weight, m):
    """np.average(values, weights=sample_weight, axis=0): without weights its very sum and division (as
    mean), without np.average's checks, which cost a tenth of a step in Pyodide."""
    if sample_weight is None:
        return values.sum(axis=0) / m
    return np.average(values, weights=sample_weight, axis=0)


def _activate(z, name):
    """a = g(z), in place."""
    if name == "relu":
        np.maximum(z, 0.0, out=z)
    elif name == "tanh":
        np.tanh(z, out=z)
    elif name == "logistic":
        np.negative(z, out=z)
        np.exp(z, out=z)
        z += 1.0
        np.reciprocal(z, out=z)
    elif name == "softmax":
        z -= z.max(axis=1, keepdims=True)
        np.exp(z, out=z)
        z /= z.sum(axis=1, keepdims=True)


def _times_slope(delta, a, name, work):
    """delta *= g'(z), g' read from the activations a = g(z)."""
    if name == "relu":
        delta[a == 0] = 0.0
    elif name == "tanh":
        np.multiply(a, a, out=work)
        np.subtract(1.0, work, out=work)
        delta *= work
    elif name == "logistic":
        np.subtract(1.0, a, out=work)
        work *= a
        delta *= work


def _penalty(coefs, alpha, n):
    values = 0.0
    for W in coefs:
        w = W.ravel()
        values += np.dot(w, w)
    return (0.5 * alpha) * values / n
