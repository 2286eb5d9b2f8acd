"""What a run can show, decided once here and sent with its reply, so the page draws what Python says
rather than working it out again from the loaded table (which knows neither a date's parts nor what a
learner claims):

- "views": the views that mean something for this run, in the page's tab order;
- "default_view": the one a fresh result opens on;
- "plot_features": per plane ("boundary", "clusters"), the features an axis may be: exactly those
  `boundary` accepts as x or y (the run's numeric features as the model read them, a date's parts
  such as "when month" among them; a categorical column is not an axis);
- "projections": per plane, the projections offered beside the features ("pca" with two or more);
- "default_axes": per plane, {"x", "y", "projection"} the plane starts on: never a feature of one value on
  the training rows (a year of one year draws an empty strip), and otherwise the most informative pair:
  the features the model found most important (a tree's impurity importance, a linear model's
  coefficient times its feature's spread: the standardized coefficient), ties and other models by the
  features' variance on the training rows.

The run's resolved preprocessing choices go out beside these as "preprocessing_choices".
"""

import numpy as np

from ..evaluation.importance import impurity_importance
from ..tabular.features import numeric
from .boundary import plane_features

VIEW_ORDER = ("metrics", "tree", "forest", "network", "boundary", "clusters", "dendrogram", "pca", "regression",
              "curves", "staged", "importance")
PREFERRED = ("tree", "forest", "boundary", "clusters", "pca", "regression", "metrics")  # the first that applies opens
PLANES = ("boundary", "clusters")


def views(run, result):
    """The views of `run` (a trained run, or an imported one: no table, so nothing judged on its rows and no
    plane to draw), from its learner's capabilities and what `result` (its reply) holds."""
    can = run.learner.can
    trained_here = run.table is not None
    supervised = run.task in ("classification", "regression")
    features = plane_features(run)
    shown = {
        "metrics": True,
        "tree": can("tree") and bool((result.get("model") or {}).get("tree")),
        "forest": can("forest"),  # an imported forest's trees too; a row's votes need the table
        "network": can("network") and trained_here,
        "boundary": can("boundary") and trained_here and len(features) >= 2,
        "clusters": can("clusters") and trained_here and len(features) >= 1,
        "dendrogram": can("dendrogram") and bool((result.get("dendrogram") or {}).get("merges")),
        "pca": can("projection") and result.get("pca") is not None,
        "regression": can("regression_fit") and result.get("predictions") is not None,
        "curves": run.task == "classification" and can("probabilities") and trained_here,
        "staged": can("staged") and supervised and trained_here,
        "importance": supervised and trained_here,
    }
    return [view for view in VIEW_ORDER if shown[view]]


def default_axes(plane, features, informative=None):
    """{"x", "y", "projection"} a plane starts on: the first two `informative` features (the plane's
    `features` that vary, most informative first; default: all of them, in order); one that varies against
    the row number when only one does; the clusters of more than two in the plane of their first two
    principal components, which shows them all."""
    informative = list(features) if informative is None else informative
    if plane == "clusters" and len(informative) > 2:
        return {"x": None, "y": None, "projection": "pca"}
    if not informative:  # nothing varies: the plane's first features, as they are
        informative = list(features)
    return {"x": informative[0] if informative else None, "y": informative[1] if len(informative) > 1 else None,
            "projection": None}


def informative_features(run, features):
    """`features` without those of one value on the training rows, most important to the model first
    (`model_importance`), ties by their variance on the training rows, then in the model's order."""
    if run.table is None or not features:
        return list(features)
    rows = run.train_rows()
    variance = {}
    for name in features:
        values = np.asarray(run.table.column(name), dtype=float)[rows]
        values = values[np.isfinite(values)]
        variance[name] = float(np.var(values)) if len(values) and values.min() < values.max() else 0.0
    importance = model_importance(run)
    varying = [name for name in features if variance[name] > 0]
    return sorted(varying, key=lambda name: (-importance.get(name, 0.0), -variance[name]))


def model_importance(run):
    """{feature: importance} as the fitted model says: a tree's impurity importance (a forest's: the mean of
    its trees'); a linear model's
    coefficient size (over the classes) times the spread of its feature as the model read it on the
    training rows; {} for other models."""
    estimator = run.estimator
    try:
        if getattr(estimator, "tree_", None) is not None:
            found = impurity_importance(estimator)
            return dict(zip(found["features"], found["importances"]))
        if run.learner.can("forest"):  # the trees' mean impurity importance, of the columns they read
            return dict(zip(estimator.feature_names_in_, (float(v) for v in estimator.feature_importances_)))
        coef = getattr(estimator, "coef_", None)
        names = getattr(estimator, "feature_names_out_", None)
        if coef is None or names is None:
            return {}
        size = np.sqrt(np.sum(np.atleast_2d(np.asarray(coef, dtype=float)) ** 2, axis=0))  # (d,)
        if len(size) != len(names):
            return {}
        spread = numeric(estimator, run.model_input(run.train_rows())).std(axis=0)  # (d,)
        return {name: float(s) for name, s in zip(names, size * spread) if np.isfinite(s)}
    except (ValueError, TypeError, AttributeError):  # a model these do not read: order by variance alone
        return {}


def decisions(run, result):
    """The keys above, for `run` and its reply `result`."""
    shown = views(run, result)
    features = plane_features(run)
    informative = informative_features(run, features)
    projections = ["pca"] if len(features) >= 2 else []
    return {"views": shown,
            "default_view": next((view for view in PREFERRED if view in shown), shown[0]),
            "plot_features": {plane: list(features) for plane in PLANES},
            "projections": {plane: list(projections) for plane in PLANES},
            "default_axes": {plane: default_axes(plane, features, informative) for plane in PLANES}}
