"""The stochastic training loop, as scikit-learn's `_fit_stochastic`: epochs of mini-batches, the loss
curve, stopping when the loss (or the validation score) stops improving, early stopping's held-out rows,
and a learning rate so large that the loss diverges.

A model may carry `on_epoch(epoch, flat parameters)`, called after each epoch that is kept (the weights
are the solver's buffer: a watcher copies what it keeps); a dict it returns goes out with that epoch's
progress report (a frame of the live view).

`net` is either path (forward_backward's readable lists or forward_backward_fast's fused buffers): it exposes `params`
(arrays changed in place) and `gradient(X, Y, sample_weight, rows) -> (loss, grads)`; `solver` is one of
solvers.py's. The loop is the same for both, so they take the same steps.
"""

import math

import numpy as np

from ...core.errors import DataError
from ...host.progress import report

DIVERGED = 1e4  # an epoch's loss this many times the starting loss: the steps are growing without bound


class Stop:
    """How an epoch loop ended, for the model's warnings: `diverged_at` (the epoch whose loss or weights
    were no longer finite, or None) and `max_iter_reached`."""

    def __init__(self):
        self.diverged_at, self.max_iter_reached = None, False


def batch_size_for(batch_size, n):
    """"auto" is min(200, n); a size above n is clipped to n (every row in one batch)."""
    return min(200, n) if batch_size == "auto" else int(min(max(batch_size, 1), n))


def validation_size(n, fraction):
    """ceil(fraction n), the rows early stopping holds out: at least 2, and at least 1 row left to train on."""
    n_val = math.ceil(fraction * n)
    if n_val < 2 or n - n_val < 1:
        raise DataError(f"The validation set is too small: validation_fraction={fraction} of {n} rows holds "
                        f"{n_val}; early stopping needs at least 2. Raise validation_fraction or use more rows.",
                        field="params.validation_fraction")
    return n_val


def validation_split(rng, n, fraction, stratify_by=None):
    """(train rows, validation rows): ceil(fraction n) rows held out at random, in the same proportion of
    each of `stratify_by`'s two classes when given (scikit-learn stratifies only a single output)."""
    n_val = validation_size(n, fraction)
    if stratify_by is None:
        order = rng.permutation(n)
        return np.sort(order[n_val:]), np.sort(order[:n_val])
    held = []
    ones = np.flatnonzero(stratify_by)
    zeros = np.flatnonzero(~stratify_by)
    n_val_ones = min(len(ones), int(round(n_val * len(ones) / n)))
    for rows, count in ((ones, n_val_ones), (zeros, n_val - n_val_ones)):
        held.append(rng.permutation(rows)[:count])
    val = np.sort(np.concatenate(held))
    return np.setdiff1d(np.arange(n), val), val


def run_epochs(model, net, solver, X, Y, sample_weight, rng, incremental, validation=None, recorder=None):
    """Train `net` by `solver` for up to max_iter epochs (one when incremental) and update the model's
    record: n_iter_, t_, loss_, loss_curve_, best_loss_, validation_scores_, best_validation_score_.
    `validation`: (X_val, y_val, sample_weight_val, score(X, y, w)) when early stopping. Returns a Stop."""
    stop = Stop()
    start_loss = None  # the starting network's loss on the first batch: the scale "without bound" is read on
    n = X.shape[0]
    batch = batch_size_for(model.batch_size, n)
    rows = np.arange(n)
    model.n_iter_ = 0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for epoch in range(model.max_iter):
            last_good = [p.copy() for p in net.params]  # kept should this epoch diverge
            if model.shuffle:
                rows = rng.permutation(n)
            accumulated = 0.0
            for start in range(0, n, batch):
                chosen = slice(start, min(start + batch, n)) if not model.shuffle else rows[start:start + batch]
                sw = None if sample_weight is None else sample_weight[chosen]
                loss, grads = net.gradient(X[chosen], Y[chosen], sw, rows[start:start + batch])
                start_loss = loss if start_loss is None else start_loss
                accumulated += loss * (min(start + batch, n) - start)
                updates = solver.step(net.params, grads)
                if recorder is not None:
                    recorder.step(epoch + 1, rows[start:start + batch], net, updates, solver.learning_rate)
            epoch_loss = accumulated / n
            if diverged(epoch_loss, start_loss, net.params):
                for p, kept in zip(net.params, last_good):
                    p[...] = kept
                stop.diverged_at = len(model.loss_curve_) + 1
                break
            model.n_iter_ += 1
            model.loss_ = epoch_loss
            model.t_ += n
            model.loss_curve_.append(epoch_loss)
            detail = {"epoch": model.n_iter_, "loss": epoch_loss}
            if getattr(model, "on_epoch", None) is not None:  # a watcher (the page's replay, its live view)
                said = model.on_epoch(model.n_iter_, net.params[0])
                detail.update(said if isinstance(said, dict) else {})
            # The page's bar and status line; Cancel keeps the network of the last epoch said here.
            report(model.n_iter_ / model.max_iter, f"epoch {model.n_iter_} of {model.max_iter}", detail)
            _count_no_improvement(model, net, validation)
            solver.epoch_ends(model.t_)
            if model._no_improvement_count > model.n_iter_no_change:
                if solver.stalled():
                    break
                model._no_improvement_count = 0
            if incremental:
                break
            if model.n_iter_ == model.max_iter:
                stop.max_iter_reached = True
    if validation is not None:  # early stopping keeps the network that scored best on the held-out rows
        for p, best in zip(net.params, model._best_params):
            p[...] = best
    return stop


def diverged(epoch_loss, start_loss, params):
    """The steps overshoot: the epoch's loss is not a finite number, or has grown to more than DIVERGED
    times the start's (at least 1), or a weight is no longer finite. A loss that falls never comes near."""
    limit = DIVERGED * max(start_loss if start_loss is not None and math.isfinite(start_loss) else 1.0, 1.0)
    return not (math.isfinite(epoch_loss) and epoch_loss <= limit and all(np.all(np.isfinite(p)) for p in params))


def _count_no_improvement(model, net, validation):
    """scikit-learn's `_update_no_improvement_count`: an epoch improves when the validation score rises
    (early stopping) or the training loss falls by more than tol."""
    if validation is not None:
        X_val, y_val, sw_val, score = validation
        value = score(X_val, y_val, sw_val)
        model.validation_scores_.append(value)
        if value < model.best_validation_score_ + model.tol:
            model._no_improvement_count += 1
        else:
            model._no_improvement_count = 0
        if value > model.best_validation_score_:
            model.best_validation_score_ = value
            model._best_params = [p.copy() for p in net.params]
        return
    if model.loss_curve_[-1] > model.best_loss_ - model.tol:
        model._no_improvement_count += 1
    else:
        model._no_improvement_count = 0
    if model.loss_curve_[-1] < model.best_loss_:
        model.best_loss_ = model.loss_curve_[-1]
