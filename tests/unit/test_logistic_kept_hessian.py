"""Newton's method keeping a Hessian for a second step (learners/logistic/newton_kept_hessian.py) stops at the
optimum plain Newton (optim.newton) reaches, on the logistic losses, with fewer Hessians."""

import numpy as np
import pytest

from pellucid.learners.logistic import logistic_fast
from pellucid.learners.shared import optim
from pellucid.learners.logistic.newton_kept_hessian import newton_keeping_hessian


def _counted(hessian):
    calls = []

    def counting(w):
        calls.append(1)
        return hessian(w)
    return counting, calls


def _loss(seed, n_classes, l2):
    rng = np.random.default_rng(seed)
    n, d = 4000, 6
    y = rng.integers(0, n_classes, n)
    X = rng.normal(0, 1.0, (n_classes, d))[y] + rng.normal(size=(n, d))
    XbT = np.ascontiguousarray(np.column_stack([np.ones(n), X]).T)
    if n_classes == 2:
        return logistic_fast.binary_log_loss(XbT, y, l2), d + 1
    return logistic_fast.softmax_log_loss(XbT, y, n_classes, l2), n_classes * (d + 1)


def _representative(w, n_classes):
    """Softmax weights with their class vectors summing to zero: adding one vector to every class (the
    biases are not penalised) changes no probability, so paths may end apart along it."""
    if n_classes == 2:
        return w
    W = w.reshape(n_classes, -1)
    return W - W.mean(axis=0)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("l2", [1e-4, 0.1])
@pytest.mark.parametrize("near", [True, False], ids=["near-start", "zero-start"])
def test_it_reaches_newtons_optimum_with_fewer_hessians(seed, n_classes, l2, near):
    (value_grad, hessian), size = _loss(seed, n_classes, l2)
    w0 = np.zeros(size)
    if near:  # where a sample's fit would start it: the optimum moved a little
        w0 = optim.newton(value_grad, hessian, w0, tol=1e-10, max_iter=100).w
        w0 = w0 + np.random.default_rng(seed).normal(0, 0.05, size)
    plain_hessian, plain_calls = _counted(hessian)
    kept_hessian, kept_calls = _counted(hessian)
    plain = optim.newton(value_grad, plain_hessian, w0, tol=1e-8, max_iter=100)
    kept = newton_keeping_hessian(value_grad, kept_hessian, w0, tol=1e-8, max_iter=100)
    assert plain.converged and kept.converged
    assert value_grad(kept.w)[0] == pytest.approx(value_grad(plain.w)[0], rel=1e-12)
    np.testing.assert_allclose(_representative(kept.w, n_classes), _representative(plain.w, n_classes),
                               atol=1e-5)
    # Hessians 2-3 against 3-4 from near the optimum, 4-10 against 5-11 from zero; steps at most 2 more
    assert len(kept_calls) < len(plain_calls), (len(kept_calls), len(plain_calls))
    assert kept.n_iter <= plain.n_iter + 2, (kept.n_iter, plain.n_iter)
    assert len(kept.loss_curve) == kept.n_iter and np.all(np.diff(kept.loss_curve) <= 0)


def test_it_stops_at_max_iter_unconverged():
    (value_grad, hessian), size = _loss(0, 3, 1e-4)
    fit = newton_keeping_hessian(value_grad, hessian, np.zeros(size), tol=1e-12, max_iter=2)
    assert fit.n_iter == 2 and not fit.converged
