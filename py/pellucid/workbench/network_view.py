"""The Network view's data: a fitted network drawn unit by unit, what each hidden unit computes over the
boundary's plane, and the loss per epoch.

- "layers": each layer's units ({"name", "units": [labels]}): the inputs as the model reads them (one-hot
  columns among them), the hidden layers, the outputs (a class, or the target);
- "coefs"/"intercepts": W_l (units before x units in layer l) and b_l, as the model holds them, to draw
  each weight as a line whose thickness is |w| and colour its sign;
- "plane": the two features of the boundary's plane and a coarse GRID x GRID lattice over them, the other
  features held as the boundary holds them (workbench.grid's held values), or None when the run has no
  such plane; "maps": per hidden and output layer, each unit's activation a = g(z) on that lattice
  (row-major, y down the rows), with its range, for the small heatmaps;
- "loss_curve" (the training loss per epoch) and "validation_scores" (early stopping's held-out score per
  epoch, else None), with the score's name.

Every number comes from the fitted model (its coefs_, intercepts_, loss_curve_, validation_scores_) or from
its forward pass over the lattice; the page only draws them.
"""

import numpy as np

from ..learners.network.forward_backward import forward
from ..tabular.features import numeric
from .boundary import plane_features
from .grid import GridRows, held_values

GRID = 40  # cells per side of a unit's heatmap: a thumbnail, cheap for 100 units
MARGIN = 0.05  # as the boundary's: the lattice reaches 5% beyond the training rows


def network_view(run, x=None, y=None, params=None):
    """The view's data for a trained network `run` over the plane (x, y) (default: none, no maps). `params`
    (coefs, intercepts) replaces the fitted weights: an epoch of the replay."""
    model = run.estimator
    coefs, intercepts = params if params is not None else (model.coefs_, model.intercepts_)
    out = {"layers": layers(model), "activation": model.activation, "out_activation": model.out_activation_,
           "coefs": [np.asarray(W, dtype=float).tolist() for W in coefs],
           "intercepts": [np.asarray(b, dtype=float).tolist() for b in intercepts],
           "plane": None, "maps": None}
    out.update(losses(model))
    if x is not None and y is not None and {x, y} <= set(plane_features(run)) and x != y:
        out["plane"], lattice = _plane(run, x, y)
        out["maps"] = unit_maps(lattice, coefs, intercepts, model.activation, model.out_activation_)
    return out


def layers(model):
    """Each layer's name and its units' labels, inputs to outputs."""
    sizes = [W.shape[1] for W in model.coefs_]
    hidden = [{"name": f"hidden layer {i + 1}", "units": [f"h{i + 1}.{j + 1}" for j in range(units)]}
              for i, units in enumerate(sizes[:-1])]
    if model.task == "classification":
        classes = [str(c) for c in model.classes_]
        outputs = classes if sizes[-1] == len(classes) else [f"P({classes[-1]})"]  # two classes: one unit
    else:
        outputs = ["prediction"]
    return ([{"name": "inputs", "units": [str(n) for n in model.feature_names_out_]}] + hidden
            + [{"name": "output", "units": outputs}])


def losses(model):
    """The loss per epoch and early stopping's held-out score per epoch (None without it)."""
    scores = getattr(model, "validation_scores_", None)
    return {"loss_curve": [float(v) for v in model.loss_curve_],
            "validation_scores": None if scores is None else [float(v) for v in scores],
            "score_name": "accuracy" if model.task == "classification" else "R²",
            "n_iter": int(model.n_iter_)}


def _plane(run, x, y):
    """({x, y, x_values, y_values, size, held}, the lattice's rows as the model reads them (GRID^2, d))."""
    held = held_values(run, exclude=[x, y])
    axes = {}
    for name in (x, y):
        values = np.asarray(run.table.column(name), dtype=float)[run.train_rows()]
        low, high = float(np.nanmin(values)), float(np.nanmax(values))
        pad = (high - low) * MARGIN or 0.5
        axes[name] = np.linspace(low - pad, high + pad, GRID)  # (GRID,)
    gx, gy = np.meshgrid(axes[x], axes[y])  # (GRID, GRID): y varies down the rows
    rows = GridRows(run.features, {x: gx.ravel(), y: gy.ravel()}, held, run.table.kinds, run.prepare)
    lattice = numeric(run.estimator, rows.table())  # (GRID^2, d)
    plane = {"x": x, "y": y, "x_values": axes[x].tolist(), "y_values": axes[y].tolist(), "size": GRID,
             "held": held}
    return plane, lattice


def unit_maps(lattice, coefs, intercepts, activation, out_activation):
    """Per layer after the inputs, per unit: {"values": a over the lattice (GRID^2,), "low", "high"}."""
    coefs = [np.asarray(W, dtype=float) for W in coefs]
    intercepts = [np.asarray(b, dtype=float) for b in intercepts]
    with np.errstate(over="ignore", invalid="ignore"):
        _, a = forward(lattice, coefs, intercepts, activation, out_activation)
    maps = []
    for A in a[1:]:  # (GRID^2, units) per layer
        maps.append([{"values": A[:, j].copy(), "low": float(np.min(A[:, j])), "high": float(np.max(A[:, j]))}
                     for j in range(A.shape[1])])
    return maps
