"""A learner's steps as frames to play back: the model refitted with trace=True on its training rows, and
each trace record turned into the numbers (and formulas) the notes show beside that step.

`timeline(run, row)` returns {family, model, label, frames: [...], ...}; every frame has "math": a list of
{tex, text}, the notes' formula with this step's numbers in LaTeX and in plain text. A vector longer than
frames.INLINE_MAX is not written inside a formula: the formula appears once and the page lists the
numbers per feature; `standardized` ({feature: [mean, scale, constant]}) lets it write z = (x − mean) / scale
there. A learner's descriptor names its family (`steps`): "tree" (workbench.tree_steps); "perceptron",
"descent", and "kernel_descent" and "epochs" for the kernel methods (workbench.linear_steps); "kmeans",
"agglomerative", "pca" (workbench.unsupervised_steps); "ensemble" (workbench.ensemble_steps); "boosting"
and "adaboost" (workbench.boosting_steps); "network" (workbench.network_steps);
"naive_bayes" and "knn" (here). The page draws "descent" and "kernel_descent" alike: their replies say
family "descent".
"""

import warnings as _warnings

from ..core.errors import DataError
from ..core.validation import check_target
from . import boosting_steps, ensemble_steps, linear_steps, network_steps, tree_steps, unsupervised_steps
from .explain import explain_row
from ..core.jsonable import python_scalar
from .frames import num, standardized
from .runs import SUPERVISED


def training_data(run):
    """(X Columns-like table, y or None, rows): the run's training rows as it was fitted on them."""
    if run.table is None:
        raise DataError("This model was imported without its data, so its steps cannot be replayed.")
    rows = run.train_rows()
    X = run.model_input(rows)  # imputed and standardised as when it was fitted
    y = None
    if run.task in SUPERVISED:
        y = check_target(run.table.column(run.target)[rows], len(rows), task=run.task)
    return X, y, rows


def refit_traced(run):
    """A copy of the run's estimator refitted with trace=True on the same training rows: the same params,
    but for those the learner's `_steps_params` sets so that the steps are the notes' (k-means: the notes'
    plain k-means++ seeding)."""
    X, y, rows = training_data(run)
    params = {**run.estimator.get_params(), **getattr(run.estimator, "_steps_params", {}), "trace": True}
    estimator = type(run.estimator)(**params)
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore")
        estimator.fit(X, y)
    return estimator, X, y, rows


def timeline(run, row=None):
    """The frames of the run's learner (see the module docstring); `row` (1-based table row) picks the
    row a k-NN timeline explains."""
    if not run.learner.can("steps"):
        raise DataError(f"{run.label} has no step-by-step view.")
    estimator, X, y, rows = refit_traced(run)
    out = _BUILDERS[run.learner.steps](estimator, X, y, rows, run, row)
    out.update(model=run.model, label=run.label, n_train=int(len(rows)), features=list(run.features),
               target=run.target, standardized=standardized(run),
               params={k: v for k, v in estimator.get_params().items() if k != "trace"})
    return out


# --- probabilistic and instance-based --------------------------------------------------------------------

def _naive_bayes(est, X, y, rows, run, row):
    frames = []
    for r in est.trace_:
        frame = {"kind": r["step"], **r}
        if r["step"] == "prior":
            frame["math"] = [{"tex": r"P(Y = y) = \frac{\mathrm{count}(y)}{N} = " +
                                     ",\\ ".join(f"\\tfrac{{{int(c)}}}{{{int(sum(r['class_count']))}}}"
                                                 for c in r["class_count"]),
                              "text": "P(y) = count(y)/N: " + ", ".join(
                                  f"{cl} {int(c)}/{int(sum(r['class_count']))}"
                                  for cl, c in zip(r["classes"], r["class_count"]))}]
        elif r["step"] == "likelihood":
            k = r["k"]
            frame["math"] = [{"tex": rf"P_{{LAP,{num(k)}}}(x \mid y) = \frac{{\mathrm{{count}}(x, y) + {num(k)}}}"
                                     rf"{{\mathrm{{count}}(y) + {num(k)} \cdot {r['n_values']}}}",
                              "text": f"P_LAP,{num(k)}(x | y) = (count(x, y) + {num(k)}) / (count(y) + "
                                      f"{num(k)}·{r['n_values']})"}]
        else:
            frame["math"] = [{"tex": r"P(x \mid y) = \mathcal{N}(x;\ \mu_y, \sigma_y^2)",
                              "text": "P(x | y) = N(x; μ_y, σ²_y)"}]
        frames.append(frame)
    out = {"family": "naive_bayes", "frames": frames, "classes": [python_scalar(c) for c in est.classes_]}
    if row is not None:
        out["explain"] = explain_row(run, row, estimator=est)
    return out


def _knn(est, X, y, rows, run, row):
    store = est.trace_[0]
    frames = [{"kind": "store", **store,
               "math": [{"tex": rf"\text{{store the }} {store['n_train']} \text{{ training rows; }} k = {store['k']}",
                         "text": f"store the {store['n_train']} training rows; k = {store['k']}"}]}]
    out = {"family": "knn", "frames": frames}
    if row is not None:
        ex = explain_row(run, row, estimator=est)
        out["explain"] = ex
        votes = {}
        for i, nb in enumerate(ex["neighbors"]):
            key = str(nb.get("label", nb.get("target")))
            votes[key] = votes.get(key, 0) + nb["weight"]
            frames.append({"kind": "neighbour", "rank": i + 1, **nb, "votes": dict(votes),
                           "math": [{"tex": rf"d(\mathbf{{x}}, \mathbf{{x}}_{{{nb['row']}}}) = {nb['distance']:.4f}",
                                     "text": f"neighbour {i + 1}: row {nb['row']} at distance {nb['distance']:.4f}, "
                                             f"{key}; votes so far {dict(votes)}"}]})
    return out


def _tree(est, X, y, rows, run, row):
    return tree_steps.tree_frames(est, X, y, getattr(est, "criterion", "entropy"))


# The learner's descriptor names its family (`steps`); one builder per family.
_BUILDERS = {"tree": _tree, "perceptron": linear_steps.perceptron, "descent": linear_steps.descent,
             "kernel_descent": linear_steps.kernel_descent, "epochs": linear_steps.epochs,
             "kmeans": unsupervised_steps.kmeans, "agglomerative": unsupervised_steps.agglomerative,
             "naive_bayes": _naive_bayes, "knn": _knn, "pca": unsupervised_steps.pca,
             "ensemble": ensemble_steps.ensemble, "boosting": boosting_steps.gradient,
             "adaboost": boosting_steps.adaboost, "network": network_steps.network}
