"""Newton's first iterate for logistic regression on many rows: the fit on an evenly spaced sample of them.

Newton's method from w = 0 spends most of its steps getting near the optimum, each step one Hessian over
every row. The loss is an average over the rows, so a sample of them has nearly the same loss and
nearly the same minimiser: fitted first (one row in SAMPLE_EVERY, a sixteenth of the work per step),
it leaves the full fit a few steps where quadratic convergence does the rest. The full fit still stops
on the full gradient (every component at most tol), so it stops at the optimum it would reach from
zero, within what tol allows; only the path there is shorter.

Measured on the suite's workflow table (35,000 x 20 standardised, 3 nearly separable classes, l2 = 1/n):
from zero 11 full Newton steps; from the sample's fit (11 steps on 2,187 rows) 2-3. Natively
(single-threaded) 52 to 21 ms, with 5 one-hot columns 126 to 47 ms; in Pyodide under Node 150 to 59
and 260 to 90 ms. On 20,000 x 10 with 3 overlapping classes, 7.2 to 5.4 ms natively (6 steps to 3).

The sample's fit is used only where it can help and cannot mislead: on enough rows to spare a sixteenth
(at least MIN_SAMPLE_ROWS and ten rows a weight), with every class in the sample, when it converged,
and when its weights fit the full data better than w = 0 does (a sample separable where the data are not
would otherwise hand over large, wrong weights). Otherwise Newton starts at zero as the notes do.
"""

import numpy as np

from ..shared.optim import newton
from .row_blocks import RowBlocks

SAMPLE_EVERY = 16  # one row in this many goes into the sample
MIN_SAMPLE_ROWS = 1000  # fewer rows than this fit too roughly to save full steps
ROWS_PER_WEIGHT = 10  # and at least this many rows for each weight to fit
SAMPLE_MAX_ITER = 25  # Newton needs 5-15 steps on a logistic loss; more means it is not converging


def sample_rows(n, n_params):
    """Evenly spaced row numbers (m,) for the sample, or None where the data are too small for one. Even
    spacing keeps every part of the file, so rows sorted by class still give every class its share."""
    m = max(n // SAMPLE_EVERY, MIN_SAMPLE_ROWS, ROWS_PER_WEIGHT * n_params)
    if SAMPLE_EVERY * m > n:
        return None
    return (np.arange(m) * n) // m


def sample_start(make_loss, XbT, y_index, n_classes, row_weights, full_value_grad, n_params, tol):
    """The weights (n_params,) to start the full Newton fit from, or None to start from zero.

    make_loss(XT, y_index, row_weights) makes the (value_grad, hessian) pair of the loss on rows XT (D, m);
    full_value_grad is the loss on all rows XbT (D, n, or their RowBlocks), used to check the sample's
    weights are an improvement on zero."""
    all_rows = RowBlocks.wrap(XbT)
    rows = sample_rows(all_rows.n, n_params)
    if rows is None or len(np.unique(y_index[rows])) < n_classes:
        return None
    weights = None if row_weights is None else row_weights[rows]
    value_grad, hessian = make_loss(all_rows.take(rows), y_index[rows], weights)
    fit = newton(value_grad, hessian, np.zeros(n_params), tol=tol, max_iter=SAMPLE_MAX_ITER)
    if not fit.converged:
        return None
    if full_value_grad(fit.w)[0] >= loss_at_zero(n_classes, row_weights):  # remembered by the loss: the
        return None  # full fit's first evaluation, at these weights, costs no second pass
    return fit.w


def loss_at_zero(n_classes, row_weights):
    """The loss at w = 0, where every class has probability 1/K (1/2 for the sigmoid) and nothing is
    penalised: the rows' mean weight times log K."""
    mean_weight = 1.0 if row_weights is None else float(np.mean(row_weights))
    return mean_weight * np.log(n_classes)
