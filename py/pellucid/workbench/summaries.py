"""A few plain facts about a fitted model, as (label, value) rows for the page's readout.

What a person checks first after training: the weights of a linear model, the class priors of naive
Bayes, the cluster sizes, the variance each principal component explains, a forest's trees and its
out-of-bag score, any warning the solver gave.
"""

import numpy as np

from ..learners import registry


def _fmt(x):
    return f"{float(x):.4g}"


def _weights(model):
    coef = np.atleast_2d(model.coef_)  # (k, d)
    intercept = np.atleast_1d(model.intercept_)  # (k,)
    rows = []
    classes = getattr(model, "classes_", None)
    for i in range(coef.shape[0]):
        prefix = f"class {classes[i]}: " if coef.shape[0] > 1 and classes is not None else ""
        rows.append((f"{prefix}intercept", _fmt(intercept[i])))
        rows.extend((f"{prefix}weight of {name}", _fmt(w)) for name, w in zip(model.feature_names_out_, coef[i]))
    return rows


def _priors(model):
    priors = np.exp(model.class_log_prior_)
    return [(f"prior P(class = {c})", _fmt(p)) for c, p in zip(model.classes_, priors)]


def _cluster_sizes(model):
    labels, sizes = np.unique(model.labels_, return_counts=True)
    rows = [(f"cluster {label} size", str(int(n))) for label, n in zip(labels, sizes)]
    if hasattr(model, "inertia_"):
        rows.append(("inertia (sum of squared distances to centres)", _fmt(model.inertia_)))
    return rows


def _components(model):
    ratios = model.explained_variance_ratio_
    cumulative = np.cumsum(ratios)
    return [(f"PC{i + 1} variance explained", f"{r:.1%} (cumulative {c:.1%})")
            for i, (r, c) in enumerate(zip(ratios, cumulative))]


def _stored_rows(model):
    return [("training rows kept", str(len(model.X_fit_))), ("encoded features", str(model.X_fit_.shape[1]))]


def _tree(model):
    return [("depth", str(model.get_depth())), ("leaves", str(model.get_n_leaves()))]


def _forest(model):
    """How many trees, how deep and how large they grew, and the out-of-bag score when it was asked for:
    the score a forest gives itself on the rows each tree left out, to read beside the held-out score.
    Boosting's trees count too: its (rounds, trees a round) array of them, or the rounds AdaBoost kept."""
    trees = list(np.ravel(np.asarray(model.estimators_, dtype=object)))
    depths = [tree.get_depth() for tree in trees]
    leaves = [tree.get_n_leaves() for tree in trees]
    depth = f"{min(depths)}, {_fmt(np.mean(depths))}, {max(depths)}"
    rows = [("trees", str(len(depths))), ("depth (least, mean, most)", depth),
            ("leaves per tree (mean)", _fmt(np.mean(leaves)))]
    score = getattr(model, "oob_score_", None)
    if score is not None:
        name = "accuracy" if getattr(model, "classes_", None) is not None else "R²"
        rows.append((f"out-of-bag {name}", _fmt(score)))
    return rows


# The learner's descriptor names its summary kind.
_KINDS = {"weights": _weights, "priors": _priors, "components": _components, "clusters": _cluster_sizes,
          "stored_rows": _stored_rows, "tree": _tree, "forest": _forest}


def summary(model):
    """[(label, value), ...] describing a fitted model; warnings it raised come last."""
    kind = registry.of(model).summary
    rows = _KINDS[kind](model) if kind else []
    if getattr(model, "n_iter_", None) is not None:
        rows.append(("iterations", str(int(model.n_iter_))))
    rows.extend(("warning", text) for text in getattr(model, "warnings_", []) or [])
    return [list(row) for row in rows]
