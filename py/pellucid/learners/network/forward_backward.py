"""The readable forward pass and backpropagation: the chain rule written out layer by layer.

Read beside the notes' logistic unit (notes 001, "Logistic Regression"): one unit computes z = theta^T x,
a = sigma(z), and the gradient of its log-loss is (sigma(z) - y) x. A network stacks such units. Layer l
(l = 1..L) takes the previous layer's activations a_(l-1) (a_0 = x, one row per example) and computes

    z_l = a_(l-1) W_l + b_l          the weighted sums, W_l of shape (units before, units in layer l)
    a_l = g(z_l)                     the activations (the output layer uses softmax, sigma or identity)

Backpropagation is the chain rule from the loss back to each weight. The output function is paired with
its loss (softmax or sigma with the log-loss, identity with half the squared error) so that, exactly as
for the logistic unit, the loss's derivative by the output layer's weighted sums is

    delta_L = dLoss/dz_L = a_L - y

and each earlier layer's delta is the next one's carried back through its weights and the unit's slope:

    delta_l = dLoss/dz_l = (delta_(l+1) W_(l+1)^T) * g'(z_l)      (g' read from a_l: activations.DERIVATIVE)

Each weight's gradient is its input times the delta of the unit it feeds, averaged over the rows, plus
the L2 penalty's share (scikit-learn's convention: the loss adds alpha/(2n) sum W^2, so the gradient adds
alpha/n W; the biases are not penalised):

    dLoss/dW_l = (a_(l-1)^T delta_l + alpha W_l) / n       dLoss/db_l = sum_rows(delta_l) / n

With sample weights s_i every row's delta is multiplied by s_i and n becomes sum_i s_i. This module is
what a traced fit runs; forward_backward_fast.py computes the same numbers in preallocated buffers.
"""

from typing import NamedTuple

import numpy as np

from .activations import ACTIVATION, DERIVATIVE, LOSS
from .flat import views


class Pass(NamedTuple):
    """One forward and backward pass over a batch: per layer l = 1..L (index l - 1), the weighted sums
    `z`, the activations `a` (a[0] is the input), the `deltas`, and the gradients of the loss."""

    loss: float
    z: list
    a: list
    deltas: list
    coef_grads: list
    intercept_grads: list


def forward(X, coefs, intercepts, activation, out_activation):
    """(z, a): each layer's weighted sums z_l = a_(l-1) W_l + b_l and activations a_l = g(z_l), a[0] = X."""
    z, a = [], [X]
    for layer, (W, b) in enumerate(zip(coefs, intercepts)):
        z_l = a[-1] @ W + b  # (n, units in layer l)
        last = layer == len(coefs) - 1
        z.append(z_l)
        a.append(ACTIVATION[out_activation if last else activation](z_l))
    return z, a


def penalty(coefs, alpha, n):
    """The L2 term alpha/(2n) sum of every squared weight (biases excluded), summed layer by layer."""
    values = 0.0
    for W in coefs:
        w = W.ravel()
        values += np.dot(w, w)
    return (0.5 * alpha) * values / n


def backward(X, Y, coefs, intercepts, activation, out_activation, loss, alpha, sample_weight=None):
    """A Pass over the batch (X, Y): the loss (with its penalty) and, by the chain rule, every delta and
    every gradient. Y is (n, outputs): 0/1 indicators for a classifier, the targets for a regressor."""
    z, a = forward(X, coefs, intercepts, activation, out_activation)
    n = X.shape[0] if sample_weight is None else sample_weight.sum()
    value = LOSS[loss](Y, a[-1], sample_weight) + penalty(coefs, alpha, n)
    L = len(coefs)
    deltas, coef_grads, intercept_grads = [None] * L, [None] * L, [None] * L
    deltas[L - 1] = a[-1] - Y  # (n, outputs): dLoss/dz_L, the output unit paired with its loss
    if sample_weight is not None:
        deltas[L - 1] = deltas[L - 1] * sample_weight.reshape(-1, 1)
    for layer in range(L - 1, -1, -1):
        if layer < L - 1:  # carry the next layer's delta back through its weights, times g'(z_l)
            deltas[layer] = (deltas[layer + 1] @ coefs[layer + 1].T) * DERIVATIVE[activation](a[layer + 1])
        coef_grads[layer] = (a[layer].T @ deltas[layer] + alpha * coefs[layer]) / n  # (fan in, fan out)
        intercept_grads[layer] = np.sum(deltas[layer], axis=0) / n  # (fan out,)
    return Pass(value, z, a, deltas, coef_grads, intercept_grads)


class ReadableNet:
    """forward_backward's pass over a batch, on the per-layer views of the flat parameter vector; its
    gradient is packed into one flat vector for the solver. `last` keeps the batch's Pass for a trace."""

    def __init__(self, flat, spans, activation, out_activation, loss, alpha):
        self.params, self.spans = [flat], spans
        parts = views(flat, spans)
        L = len(parts) // 2
        self.coefs, self.intercepts = parts[:L], parts[L:]
        self.settings = (activation, out_activation, loss, alpha)

    def gradient(self, X, Y, sample_weight, rows=None):
        activation, out, loss, alpha = self.settings
        self.last = backward(X, Y, self.coefs, self.intercepts, activation, out, loss, alpha,
                                              sample_weight)
        self.last_target = Y
        grads = self.last.coef_grads + self.last.intercept_grads
        return self.last.loss, [np.concatenate([g.ravel() for g in grads])]
