"""Training you can watch: while a small network trains, the page is sent frames of the network as it is
at that epoch, the decision boundary its current weights draw and each unit's output over the plot's two
features, computed by the replay's own code (network_replay.view_at) from the solver's own weights.

A frame costs two forward passes over coarse lattices and its sending, so that watching never slows the
training by much: a frame is made at most every INTERVAL seconds, and only while the frames made so far and
one more (at the last one's cost) stay within SHARE of the time the training has taken; the last epoch
max_iter allows gets one too, within the same budget. The first waits FIRST seconds: a training over sooner
is shown by its result, and the first frame's cost, not known before it is made, stays a small part of the
time even should it be the only one.

A frame's arrays go as float32 bytes in base64 ({"f32": text}): 33 units' 40 x 40 maps are 280 KB of
text rather than a megabyte of decimals, and the page reads each back in one call. The boundary's points
(the table's rows, which do not move) go with the first frame only.
"""

import base64
import time

import numpy as np

from ..core.jsonable import plain
from .boundary import plane_features
from .network_replay import unflatten, view_at
from .showing import default_axes, informative_features

FIRST = 0.5  # seconds before the first frame
INTERVAL = 0.25  # seconds between frames at the least: four a second show the boundary moving
SHARE = 0.05  # of the training's time, at most, spent making frames (sending them adds about a fifth)

# What a frame of the Network view needs from view_at (the loss per epoch goes with every epoch's report).
_NETWORK_KEYS = ("layers", "activation", "out_activation", "coefs", "intercepts", "plane")
_BULK = ("predicted", "probability", "points")  # the boundary's arrays: packed, or sent once


def live_view(run, estimator, clock=time.perf_counter):
    """A LiveView over the plane the trained network's views will open on (showing.default_axes), or None
    when the run has no two numeric features to draw over. `run.preprocessor` must already be fitted."""
    features = plane_features(run)
    axes = default_axes("boundary", features, informative_features(run, features))
    if axes["x"] is None or axes["y"] is None:
        return None
    return LiveView(run, axes["x"], axes["y"], estimator.max_iter, clock)


class LiveView:
    """Called with each epoch's flat parameters; returns {"frame": ...} when a frame is due, else None."""

    def __init__(self, run, x, y, last_epoch, clock=time.perf_counter):
        self.run, self.x, self.y, self.last_epoch, self.clock = run, x, y, last_epoch, clock
        self.start = clock()
        self.next_at = self.start + FIRST
        self.spent, self.cost = 0.0, 0.0  # seconds spent making frames so far, and on the last one
        self.frames = 0

    def __call__(self, epoch, flat):
        now = self.clock()
        if not (self.due(epoch, now) and self.spent + self.cost <= SHARE * (now - self.start)):
            return None
        frame = self.frame(epoch, flat)
        self.cost = self.clock() - now
        self.spent += self.cost
        self.next_at = now + INTERVAL
        self.frames += 1
        return {"frame": frame}

    def due(self, epoch, now):
        """INTERVAL has passed since the last frame, or this is the last epoch (and FIRST has passed)."""
        return now >= self.next_at or (epoch == self.last_epoch and now >= self.start + FIRST)

    def frame(self, epoch, flat):
        """The view at these weights, as the page draws it: the network with its units' maps, and the
        boundary (its points only in the first frame). The weights are lists already (network_view's)."""
        view = view_at(self.run, unflatten(self.run.estimator, flat), self.x, self.y)
        boundary = {key: value for key, value in view["boundary"].items() if key not in _BULK}
        if self.frames == 0:
            boundary["points"] = view["boundary"]["points"]
        boundary = plain(boundary)
        for name in ("predicted", "probability"):
            boundary[name] = packed(view["boundary"][name])
        maps = [[{"values": packed(m["values"]), "low": m["low"], "high": m["high"]} for m in layer]
                for layer in view["maps"]]
        network = {key: view[key] for key in _NETWORK_KEYS}
        network["plane"] = plain(network["plane"])
        return {"epoch": epoch, **network, "maps": maps, "boundary": boundary}


def packed(values):
    """An array of numbers as {"f32": base64 of its float32 bytes, little-endian}; None stays None."""
    if values is None:
        return None
    data = np.ascontiguousarray(values, dtype="<f4").tobytes()
    return {"f32": base64.b64encode(data).decode("ascii")}


def unpacked(value):
    """A packed array back as float32 numbers (what the page reads)."""
    return np.frombuffer(base64.b64decode(value["f32"]), dtype="<f4")
