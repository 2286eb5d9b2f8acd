"""Running one cell of the grid: both models made with the same settings, fit timed pellucid against
scikit-learn interleaved (suite.measure: A, B, A, B, ..., best of each), then predict or transform on the
fitted models the same way, and the two answers compared.

Repeats: a cell of up to 200,000 values (times the entry's cost: trees, epochs) takes at least 3
samples a side, a larger one at least 1 (a 10^6-row fit can take tens of seconds); every call is
repeated until about MIN_TIME seconds have gone to it, so fast calls get many samples (and are batched
when under 10 ms, as in the suite). A smoke run (min_time 0) takes one sample a side.
"""

import importlib
import warnings

import numpy as np

from benchmarks import grid_data, suite

MIN_TIME = 0.25
SMALL_CELL = 200_000  # values (rows x features) up to which a cell takes at least 3 samples
_SK_MODULES = ("cluster", "decomposition", "ensemble", "kernel_ridge", "linear_model", "naive_bayes", "neighbors",
               "neural_network", "tree")


def sklearn():
    """scikit-learn with the submodules the learners' twins name, for SklearnTwin.build."""
    for name in _SK_MODULES:
        importlib.import_module(f"sklearn.{name}")
    return importlib.import_module("sklearn")


def models(cell):
    """(pellucid's estimator, scikit-learn's) for the cell, unfitted, with the cell's settings."""
    from pellucid.learners import registry
    learner = registry.get(cell.entry.name)
    ours = learner.estimator(**cell.params)
    params = ours.get_params()
    ctx = {"n_train": cell.rows, "n_features": cell.features, "gamma": params.get("gamma"),
           "n_categories": [grid_data.CATEGORIES] * cell.features}
    return ours, learner.sklearn.build(sklearn(), params, ctx)


def _r2(y, pred):
    return 1 - np.sum((y - pred) ** 2) / np.sum((y - y.mean()) ** 2)


def _score(cell, y, ours, theirs):
    if np.issubdtype(np.asarray(ours).dtype, np.floating) and cell.entry.data == "values":
        a, b, what = _r2(y, ours), _r2(y, theirs), "R^2"
    else:
        a, b, what = np.mean(ours == y), np.mean(theirs == y), "accuracy"
    return abs(a - b) <= cell.entry.tol, f"{what} {a:.4f} vs {b:.4f}"


def _inertia(cell, y, ours, theirs):
    a, b = ours.inertia_, theirs.inertia_
    return a <= b * (1 + cell.entry.tol), f"inertia {a:.4g} vs {b:.4g}"


def _labels(cell, y, ours, theirs):
    from sklearn.metrics import adjusted_rand_score
    ari = adjusted_rand_score(ours.labels_, theirs.labels_)
    return ari >= 1 - cell.entry.tol, f"labels agree (ARI) {ari:.4f}"


def _variance(cell, y, ours, theirs):
    gap = np.abs(np.asarray(ours.explained_variance_ratio_) - theirs.explained_variance_ratio_).max()
    return gap <= cell.entry.tol, f"variance ratios within {gap:.1e}"


# Each takes (cell, y, ours, theirs): predictions for "score", fitted models for the rest -> (ok, text).
AGREE = {"score": _score, "inertia": _inertia, "labels": _labels, "variance": _variance}


def fit_args(cell, X, y):
    return (X,) if cell.entry.data == "clusters" or cell.entry.name == "PCA" else (X, y)


def _timed(name, call_p, call_s, repeats, min_time, kept):
    """suite.measure of two calls, keeping their last results in `kept` (the fitted models or answers)."""
    def check(p, s):
        kept[:] = [p, s]
        return ""
    return suite.measure(suite.Workload(name, "grid", lambda: (call_p, call_s, check)), repeats, min_time)


def _row(cell, call, timing):
    return {"learner": cell.entry.name, "cell": cell.label, "call": call, "pellucid_s": timing["pellucid_ms"] / 1e3,
            "sklearn_s": timing["sklearn_ms"] / 1e3, "ratio": timing["ratio"], "samples": timing["repeats"]}


def run(cell, min_time=MIN_TIME):
    """[row, ...]: fit, and predict or transform if the learner has one, each {"learner", "cell", "call",
    "pellucid_s", "sklearn_s", "ratio", "samples", "agree", "ok"}; the agreement is on the last row."""
    X, y = grid_data.table(cell.entry.data, cell.rows, cell.features)
    ours, theirs = models(cell)
    repeats = 3 if cell.rows * cell.features * cell.entry.cost <= SMALL_CELL and min_time else 1
    fitted, answers = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence chatter: the agreement column says what each reached
        args = fit_args(cell, X, y)
        rows = [_row(cell, "fit", _timed(cell.label, lambda: ours.fit(*args), lambda: theirs.fit(*args),
                                         repeats, min_time, fitted))]
        if cell.entry.call:
            Q, yq = grid_data.queries(cell.entry.data, cell.features) if cell.entry.queries else (X, y)
            p, s = (getattr(m, cell.entry.call) for m in fitted)
            rows.append(_row(cell, cell.entry.call, _timed(cell.label, lambda: p(Q), lambda: s(Q), repeats, min_time,
                                                            answers)))
    if cell.entry.agree == "score":
        ok, text = _score(cell, yq, *answers)
    else:
        ok, text = AGREE[cell.entry.agree](cell, y, *fitted)
    rows[-1].update(agree=text, ok=bool(ok))
    for row in rows[:-1]:
        row.update(agree="", ok=True)
    return rows
