"""The decision boundary: a model's predictions on a grid over two numeric features (or over the first two
principal components, or one feature against the row number), the other features held at their training
mean (numeric) or mode (categorical).
"""

import numpy as np

from ..core.errors import DataError
from ..core.validation import check_target
from ..learners.projection.pca import PCA  # the plane of the first two principal components, for any learner
from .grid import held_values, predict_grid
from .readouts import sample_rows

MAX_RESOLUTION = 300
MARGIN = 0.05  # the grid reaches 5% beyond the data on each side


def _axis(values, resolution):
    low, high = float(np.nanmin(values)), float(np.nanmax(values))
    pad = (high - low) * MARGIN or 0.5  # a constant column still gets a visible range
    return np.linspace(low - pad, high + pad, resolution)  # (resolution,)


def plane_features(run):
    """The features an axis of the plane may be, in the model's order: its numeric features as the model
    read them (a date's parts, such as "when month", among them); none for a model without its data.
    Checked here and sent with the run's reply (workbench.showing), so the page offers exactly these."""
    if run.table is None:
        return []
    return [f for f in run.features if run.table.kinds.get(f) == "numeric"]


def _check(run, x, y, resolution, projection):
    if run.table is None:
        raise DataError("This model was imported without its data; train it on a loaded table to draw "
                        "its decision boundary.")
    if not (run.learner.can("boundary") or run.learner.can("clusters")):
        raise DataError(f"{run.label} does not predict a class, a value or a cluster, so it has no decision "
                        "boundary; what it learned is drawn from the training result.")
    if isinstance(resolution, bool) or not isinstance(resolution, int) or not 2 <= resolution <= MAX_RESOLUTION:
        raise DataError(f"resolution must be a whole number from 2 to {MAX_RESOLUTION}; got {resolution!r}.")
    if projection not in (None, "pca"):
        raise DataError(f"projection must be null or 'pca'; got {projection!r}.")
    if projection == "pca":
        return
    for axis, name in (("x", x), ("y", y)):
        if axis == "y" and name is None:
            continue  # one feature: the rows are spread along their row number
        if name not in run.features:
            raise DataError(f"The {axis} feature {name!r} is not one of the model's features "
                            f"({', '.join(run.features)}).")
        if name not in plane_features(run):
            raise DataError(f"The {axis} feature {name!r} is categorical; a boundary is drawn over two "
                            "numeric features (or use the PCA projection).")
    if x == y:
        raise DataError(f"Choose two different features for x and y; both are {x!r}.")


def boundary(run, x=None, y=None, resolution=200, projection=None):
    """The Boundary reply of docs/bridge.md for a classifier, regressor or clusterer."""
    _check(run, x, y, resolution, projection)
    table, estimator = run.table, run.estimator
    kinds = table.kinds
    if projection == "pca":
        grid_x, grid_y, points_xy, varying, held, names = _pca_grid(run, resolution)
    elif y is None:
        grid_x, grid_y, points_xy, varying, held, names = _strip_grid(run, x, resolution)
    else:
        held = held_values(run, exclude=[x, y])
        grid_x, grid_y = _axis(table.column(x), resolution), _axis(table.column(y), resolution)
        gx, gy = np.meshgrid(grid_x, grid_y)  # (res, res) each, row-major: y varies down the rows
        varying = {x: gx.ravel(), y: gy.ravel()}
        points_xy, names = (table.column(x), table.column(y)), (x, y)
    predicted, proba = predict_grid(estimator, run.features, varying, held, kinds, proba=True,
                                    prepare=run.prepare)
    # The grid's arrays stay numpy arrays: the page's worker sends them as typed arrays (wire.py).
    out = {"x_name": names[0], "y_name": names[1], "x_values": grid_x, "y_values": grid_y,
           "width": len(grid_x), "height": len(grid_y), "held": held, "projection": projection,
           "classes": None, "probability": None}
    if run.task == "classification":
        classes = np.asarray(estimator.classes_)
        out["classes"] = classes.tolist()
        out["predicted"] = np.searchsorted(classes, predicted)
        if proba is not None:
            out["probability"] = np.asarray(proba).max(axis=1)
    elif run.task == "clustering":
        out["classes"] = list(range(int(np.max(predicted)) + 1 if len(predicted) else 0))
        out["predicted"] = np.asarray(predicted)
    else:
        out["predicted"] = np.asarray(predicted, dtype=float)
        out["value_range"] = value_range(table.column(run.target), out["predicted"])
    out["points"] = _points(run, points_xy)
    return out


def value_range(target, predicted):
    """The colour scale of a regressor's grid: the target's range, {low, high}, not the predictions', which
    far from the data (a linear model on many features) can run far beyond it and leave the data's part
    of the plane one colour. Predictions outside are drawn at the end colours; "below" and "above" count
    those cells, "min" and "max" say how far the predictions go, and "note" says so in words (null when
    every prediction is within the target's range)."""
    target = np.asarray(target, dtype=float)
    low, high = float(np.nanmin(target)), float(np.nanmax(target))
    lowest, highest = float(np.min(predicted)), float(np.max(predicted))
    below, above = int(np.sum(predicted < low)), int(np.sum(predicted > high))
    out = {"low": low, "high": high, "min": lowest, "max": highest, "below": below, "above": above, "note": None}
    if below or above:
        sides = [f"{below:,} below, down to {_number(lowest)}" if below else "",
                 f"{above:,} above, up to {_number(highest)}" if above else ""]
        out["note"] = (f"The colours follow the target's range, {_number(low)} to {_number(high)}. "
                       f"{below + above:,} of the {len(predicted):,} grid cells predict outside it "
                       f"({'; '.join(filter(None, sides))}) and are drawn at the end colours.")
    return out


def _number(value):
    """A value for the note, to 4 significant digits with thousands separated."""
    return f"{float(f'{value:.4g}'):,}".removesuffix(".0")


def _pca_grid(run, resolution):
    """The grid in the plane of the first two principal components of the numeric features, mapped back
    to feature values. The plane is fitted on the training rows in z-scores, a missing value read as its
    column's training mean, so a column in thousands does not make the plane by itself and a gap in the
    data does not stop it."""
    table = run.table
    numeric = plane_features(run)
    if len(numeric) < 2:
        raise DataError("The PCA projection needs at least two numeric features; "
                        f"the model has {len(numeric)}.")
    values = np.column_stack([table.column(f).astype(float) for f in numeric])  # (n, d)
    train = values[run.train_rows()]
    mean = np.nanmean(train, axis=0)  # (d,)
    scale = np.nanstd(train, axis=0)
    scale[~(scale > 0)] = 1.0  # a constant column stays as it is
    z = (np.where(np.isnan(values), mean, values) - mean) / scale  # (n, d)
    pca = PCA(n_components=2).fit(z[run.train_rows()])
    Z = pca.transform(z)  # (n, 2)
    grid_x, grid_y = _axis(Z[:, 0], resolution), _axis(Z[:, 1], resolution)
    gx, gy = np.meshgrid(grid_x, grid_y)  # (res, res)
    back = pca.inverse_transform(np.column_stack([gx.ravel(), gy.ravel()])) * scale + mean  # (res*res, d)
    varying = {f: back[:, j] for j, f in enumerate(numeric)}
    held = held_values(run, exclude=numeric)
    return grid_x, grid_y, (Z[:, 0], Z[:, 1]), varying, held, ("PC1", "PC2")


def _strip_grid(run, x, resolution):
    """One feature across, the row number down: a model on a single numeric feature still has a plane to
    draw (its prediction depends on x alone, so each grid row repeats the first)."""
    table = run.table
    row_number = np.arange(1, table.n_rows + 1, dtype=float)
    held = held_values(run, exclude=[x])
    grid_x, grid_y = _axis(table.column(x), resolution), _axis(row_number, resolution)
    gx, _ = np.meshgrid(grid_x, grid_y)  # (res, res)
    return grid_x, grid_y, (table.column(x), row_number), {x: gx.ravel()}, held, (x, "row number")


def _points(run, points_xy):
    """The rows (up to 5000, sampled with a fixed seed) to draw over the grid, with their label (class
    index of the actual class, cluster, or target value) and split."""
    table, estimator = run.table, run.estimator
    rows = sample_rows(table.n_rows)
    if run.task == "classification":
        actual = check_target(table.column(run.target)[rows], len(rows), task="classification")
        classes = np.asarray(estimator.classes_)
        index = np.minimum(np.searchsorted(classes, actual), len(classes) - 1)
        known = classes[index] == actual
        label = np.where(known, index, -1)  # -1: a class the model never saw in training
    elif run.task == "clustering":
        label = estimator.predict(run.model_input(rows))
    else:
        label = table.column(run.target)[rows]
    return {"x": np.asarray(points_xy[0])[rows], "y": np.asarray(points_xy[1])[rows],
            "label": np.asarray(label), "split": run.split_of_rows()[rows], "rows": rows + 1}
