"""What a run can show, decided once here and sent with its reply, so the page draws what Python says
rather than working it out again from the loaded table (which knows neither a date's parts nor what a
learner claims):

- "views": the views that mean something for this run, in the page's tab order;
- "default_view": the one a fresh result opens on;
- "plot_features": per plane ("boundary", "clusters"), the features an axis may be: exactly those
  `boundary` accepts as x or y (the run's numeric features as the model read them, a date's parts
  such as "when month" among them; a categorical column is not an axis);
- "projections": per plane, the projections offered beside the features ("pca" with two or more);
- "default_axes": per plane, {"x", "y", "projection"} the plane starts on.

The run's resolved preprocessing choices go out beside these as "preprocessing_choices".
"""

from .boundary import plane_features

VIEW_ORDER = ("metrics", "tree", "boundary", "clusters", "dendrogram", "pca", "regression", "curves", "importance")
PREFERRED = ("tree", "boundary", "clusters", "pca", "regression", "metrics")  # the first that applies opens
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
        "boundary": can("boundary") and trained_here and len(features) >= 2,
        "clusters": can("clusters") and trained_here and len(features) >= 1,
        "dendrogram": can("dendrogram") and bool((result.get("dendrogram") or {}).get("merges")),
        "pca": can("projection") and result.get("pca") is not None,
        "regression": can("regression_fit") and result.get("predictions") is not None,
        "curves": run.task == "classification" and can("probabilities") and trained_here,
        "importance": supervised and trained_here,
    }
    return [view for view in VIEW_ORDER if shown[view]]


def default_axes(plane, features):
    """{"x", "y", "projection"} a plane starts on: the first two features; the clusters of more than two
    features in the plane of their first two principal components, which shows them all."""
    if plane == "clusters" and len(features) > 2:
        return {"x": None, "y": None, "projection": "pca"}
    return {"x": features[0] if features else None, "y": features[1] if len(features) > 1 else None,
            "projection": None}


def decisions(run, result):
    """The keys above, for `run` and its reply `result`."""
    shown = views(run, result)
    features = plane_features(run)
    projections = ["pca"] if len(features) >= 2 else []
    return {"views": shown,
            "default_view": next((view for view in PREFERRED if view in shown), shown[0]),
            "plot_features": {plane: list(features) for plane in PLANES},
            "projections": {plane: list(projections) for plane in PLANES},
            "default_axes": {plane: default_axes(plane, features) for plane in PLANES}}
