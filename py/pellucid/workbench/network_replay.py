"""Watch it learn: a network's weights after its epochs, kept while it trains so the page can replay the
training epoch by epoch (the loss up to that epoch, the units' maps and the boundary at its weights).

Kept only for a small network on a small table, so a replay costs little memory and each of its frames is
quick to draw: at most MAX_PARAMS weights and biases and MAX_ROWS training rows. While it trains, every
`stride`-th epoch is kept and the stride doubles whenever more than 2 x MAX_SNAPSHOTS are held (so a fit of
any max_iter holds a bounded number); the last epoch is always kept. The replay then offers at most
MAX_SNAPSHOTS epochs, evenly spaced, the first and the last among them.

The page may watch a network live (workbench.network_live) on a table of any size: a Recording asked to
carry a live view passes each epoch on to it, and the frame it makes goes out with that epoch's report. A
frame's cost depends on the network and the plot's grid, not on the rows, so over MAX_ROWS the Recording
passes the epochs on and keeps none. The weights' limit holds for both: a frame draws every unit.
"""

import copy
import dataclasses

import numpy as np

from ..core.errors import DataError
from ..learners.network.flat import layout, views
from .boundary import boundary
from .network_view import GRID, network_view

BOUNDARY_RESOLUTION = 60  # the boundary of an epoch: coarser than the Boundary tab's 200, quick to play

MAX_PARAMS = 5_000  # weights and biases: 60 snapshots of 5,000 are 2.4 MB
MAX_ROWS = 20_000  # training rows: a larger table trains slowly enough that a replay would wait long
MAX_SNAPSHOTS = 60


class Recording:
    """The `on_epoch` watcher: keeps the flat parameters of every stride-th epoch, and the last one; returns
    what else the epoch's report carries (a live view's frame), or None."""

    def __init__(self, live=None, keeping=True):
        self.kept, self.stride, self.last, self.refused = {}, 1, None, None
        self.live = live  # a network_live.LiveView, or None
        self.keeping = keeping  # False: a table too large to replay, watched live only

    def __call__(self, epoch, flat):
        if len(flat) > MAX_PARAMS:
            self.refused = (f"The network has {len(flat):,} weights and biases; its training is replayed up to "
                            f"{MAX_PARAMS:,}.")
            return None
        if not self.keeping:
            return None if self.live is None else self.live(epoch, flat)
        self.last = (epoch, flat.copy())
        if (epoch - 1) % self.stride == 0:
            self.kept[epoch] = self.last[1]
        if len(self.kept) > 2 * MAX_SNAPSHOTS:
            self.stride *= 2
            self.kept = {e: f for e, f in self.kept.items() if (e - 1) % self.stride == 0}
        return None if self.live is None else self.live(epoch, self.last[1])

    def snapshots(self):
        """{epoch: flat parameters}: at most MAX_SNAPSHOTS, evenly spaced, the first and the last kept."""
        if self.last is None:
            return {}
        kept = {**self.kept, self.last[0]: self.last[1]}
        epochs = sorted(kept)
        chosen = np.unique(np.round(np.linspace(0, len(epochs) - 1, min(MAX_SNAPSHOTS, len(epochs)))).astype(int))
        return {epochs[i]: kept[epochs[i]] for i in chosen}


def watch(run, estimator, n_train, live=None):
    """Set a Recording on a network about to be fitted on `n_train` rows (None: not a network, or a table
    over MAX_ROWS that nobody watches live); `live` (a network_live.LiveView, or None) is given each epoch
    and makes the frames the page watches."""
    keeping = n_train <= MAX_ROWS
    if not run.learner.can("network") or not (keeping or live):
        return None
    estimator.on_epoch = Recording(live, keeping)
    return estimator.on_epoch


def keep(run, recording, n_train):
    """After the fit: the run keeps its snapshots; returns the reply's "replay" {epochs, grid, why_not}."""
    estimator = run.estimator
    estimator.__dict__.pop("on_epoch", None)  # the fitted model carries no watcher (exports, clones)
    if recording is None or not recording.keeping:
        return {"epochs": [], "grid": GRID, "why_not": f"The training is replayed for tables of up to {MAX_ROWS:,} "
                                                      f"training rows; this one has {n_train:,}."}
    if recording.refused:
        return {"epochs": [], "grid": GRID, "why_not": recording.refused}
    run.replay = recording.snapshots()
    return {"epochs": sorted(run.replay), "grid": GRID, "why_not": None}


def params_at(run, epoch):
    """(coefs, intercepts) after `epoch`, one of the replay's epochs."""
    if not run.replay or epoch not in run.replay:
        offered = ", ".join(str(e) for e in sorted(run.replay or {})) or "none"
        raise DataError(f"Epoch {epoch!r} is not one the replay kept (kept: {offered}).", field="epoch")
    return unflatten(run.estimator, run.replay[epoch])


def unflatten(estimator, flat):
    """(coefs, intercepts) of `estimator`'s layers, as views into the flat parameters `flat`."""
    sizes = [estimator.coefs_[0].shape[0]] + [W.shape[1] for W in estimator.coefs_]
    spans, _ = layout(sizes)
    parts = views(flat, spans)
    L = len(parts) // 2
    return parts[:L], parts[L:]


def epoch_view(run, epoch, x=None, y=None):
    """The Network view at `epoch`'s weights, with "epoch" and "boundary": the decision boundary (a
    Boundary reply on a BOUNDARY_RESOLUTION grid) those weights draw over the plane (x, y), or None."""
    return {**view_at(run, params_at(run, epoch), x, y), "epoch": epoch}


def view_at(run, params, x=None, y=None):
    """The Network view at the weights `params` (coefs, intercepts), with "boundary" (or None): the replay's
    frame of an epoch, and the live view's while it trains."""
    coefs, intercepts = params
    out = network_view(run, x, y, (coefs, intercepts))
    out["boundary"] = None
    if out["plane"] is not None:
        then = copy.copy(run.estimator)  # the model with these weights, the run's own left as it is
        then.coefs_, then.intercepts_ = [np.array(W) for W in coefs], [np.array(b) for b in intercepts]
        out["boundary"] = boundary(dataclasses.replace(run, estimator=then), x, y, BOUNDARY_RESOLUTION)
    return out
