"""Twin check: a run beside the equivalent scikit-learn model, fitted on the same rows with matching settings.

A learner's descriptor holds its scikit-learn twin (`sklearn`): how to build the scikit-learn estimator
from our hyperparameters, how its input is prepared (one-hot encoded categorical columns, standardised
numeric ones when our model standardises, or ordinal codes for every column) and where the two models
differ; a learner without a twin says why (`no_twin`).
Both models are fitted on exactly the run's training rows (or, for a k-fold run, on the run's folds)
and scored with the same pellucid metric on the same rows.

scikit-learn is imported here only, inside `check_twin`: pellucid never needs it, and in the
browser it is a package loaded on demand.
"""

import importlib
import time
import warnings

import numpy as np

from ..evaluation import model_selection
from . import prepare
from ..evaluation.cluster_metrics import silhouette_score
from ..core.errors import DataError, NotLoadedError
from ..evaluation.metrics import accuracy_score, r2_score
from ..core.validation import check_target
from . import readouts
from .runs import SUPERVISED, make_estimator

NOT_LOADED = "scikit-learn is not loaded"
# The parts of scikit-learn the twins are built from (the learners' descriptors) and the comparison uses.
SKLEARN_PARTS = ("cluster", "compose", "decomposition", "kernel_ridge", "linear_model", "naive_bayes", "neighbors",
                 "pipeline", "preprocessing", "tree")
MAX_SILHOUETTE_ROWS = readouts.MAX_PAIRWISE


# --- the comparison ------------------------------------------------------------------------------------

def import_sklearn():
    """The scikit-learn modules this comparison uses, or a DataError when it is not installed/loaded."""
    try:
        import sklearn
        for part in SKLEARN_PARTS:  # imported now, so a missing one fails here and not inside a comparison
            importlib.import_module(f"sklearn.{part}")
    except ImportError:
        raise NotLoadedError(f"{NOT_LOADED}: load it first (in the page, press \"Compare with scikit-learn\"; "
                              "natively, pip install scikit-learn).") from None
    return sklearn


def check_twin(run):
    """The run's model and its scikit-learn equivalent, fitted on the same rows and scored the same way."""
    if run.table is None:
        raise DataError("This model was imported without its data, so there are no rows to fit "
                        "scikit-learn on; train it here first.")
    entry = run.learner.sklearn
    if entry is None:
        return {"equivalent": False, "model": run.model, "label": run.label,
                "message": f"{run.label} has no equivalent in scikit-learn: {run.learner.no_twin}"}
    sk = import_sklearn()
    params = make_estimator(run.model, run.setup.get("params")).get_params()
    X = run.model_input()  # imputed and standardised as the page's model read it, for both libraries
    supervised = run.task in SUPERVISED
    y = _target(run) if supervised else None
    raw = _raw_matrix(X)  # (n, d): what scikit-learn's pipeline reads
    fits, folds = _fits(run, X, y)
    results = {"pellucid": [], "sklearn": []}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for train_rows, score_rows in fits:
            results["pellucid"].append(_fit_ours(run, params, X, y, train_rows, score_rows))
            results["sklearn"].append(_fit_theirs(sk, entry, run, params, X, raw, y, train_rows, score_rows))
    out = {"equivalent": True, "model": run.model, "label": run.label, "task": run.task,
           "sklearn": {"version": sk.__version__, "estimator": results["sklearn"][0]["estimator"],
                       "preparation": prepare.describe(run.preprocessing, results["sklearn"][0]["preparation"])},
           **_score_name(run.task), "notes": entry.notes(params),
           "warnings": list(dict.fromkeys(str(w.message) for w in caught))}
    if folds is None:
        out["evaluation"] = "split"
        out["rows"] = {name: (np.asarray(rows) + 1).tolist() for name, rows in run.splits.items()}
        ours, theirs = results["pellucid"][0], results["sklearn"][0]
        out["scores"] = [{"split": name, "n": int(len(run.splits[name])), "pellucid": ours["scores"][name],
                          "sklearn": theirs["scores"][name]} for name in ours["scores"]]
        out["fit_seconds"] = {"pellucid": ours["seconds"], "sklearn": theirs["seconds"],
                              "rows": int(len(run.splits["train"]))}
    else:
        out["evaluation"] = "kfold"
        out["folds"] = [(np.asarray(rows) + 1).tolist() for rows in folds]
        per_fold = {lib: [r["scores"]["fold"] for r in results[lib]] for lib in results}
        out["fold_scores"] = per_fold
        out["scores"] = [{"split": "kfold", "n": len(folds), "pellucid": float(np.mean(per_fold["pellucid"])),
                          "sklearn": float(np.mean(per_fold["sklearn"]))}]
        out["fit_seconds"] = {lib: float(np.mean([r["seconds"] for r in results[lib]])) for lib in results}
        out["fit_seconds"]["per_fold"] = True
    return out


def _score_name(task):
    return {"classification": {"score_name": "Accuracy", "score_format": "percent"},
            "regression": {"score_name": "R²", "score_format": "number"},
            "clustering": {"score_name": "Silhouette", "score_format": "number"},
            "projection": {"score_name": "Variance explained", "score_format": "percent"}}[task]


def _target(run):
    return check_target(run.table.column(run.target), run.table.n_rows, task=run.task)


def _fits(run, X, y):
    """([(train rows, {name: rows to score})], folds or None): the run's split, or its k folds (the
    same splitter and seed as its cross-validation)."""
    evaluation = run.setup.get("evaluation") or {"method": "none"}
    if evaluation.get("method") == "kfold" and run.task in SUPERVISED:
        stratified = bool(evaluation.get("stratify", True)) and run.task == "classification"
        splitter = (model_selection.StratifiedKFold if stratified else model_selection.KFold)(
            evaluation["k"], shuffle=True, seed=evaluation.get("seed", 0))
        folds = list(splitter.split(np.arange(X.n_rows), run.table.column(run.target)))
        return [(train, {"fold": test}) for train, test in folds], [test for _, test in folds]
    scored = {name: np.asarray(rows, dtype=np.intp) for name, rows in run.splits.items() if len(rows)}
    return [(np.asarray(run.splits["train"], dtype=np.intp), scored)], None


def _fit_ours(run, params, X, y, train_rows, score_rows):
    estimator = make_estimator(run.model, params)
    start = time.perf_counter()
    estimator.fit(X.take(train_rows), None if y is None else y[train_rows])
    seconds = time.perf_counter() - start
    if run.task in SUPERVISED:
        predicted = np.asarray(estimator.predict(X))
        return {"seconds": seconds, "scores": {name: _supervised_score(run.task, y[rows], predicted[rows])
                                               for name, rows in score_rows.items()}}
    if run.task == "projection":
        return {"seconds": seconds, "scores": {name: float(estimator.score(X.take(rows)))
                                               for name, rows in score_rows.items()}}
    labels = readouts.cluster_labels(estimator, X, train_rows)
    M = readouts.encoded(estimator, X)  # (n, d): the space both clusterings are judged in
    return {"seconds": seconds,
            "scores": {name: _silhouette(M[rows], labels[rows]) for name, rows in score_rows.items()}}


def _fit_theirs(sk, entry, run, params, X, raw, y, train_rows, score_rows):
    ctx = _context(run, X, train_rows)
    steps, preparation = _preparation(sk, entry, run, params, X)
    model = sk.pipeline.make_pipeline(*steps, entry.build(sk, params, ctx))
    start = time.perf_counter()
    model.fit(raw[train_rows], None if y is None else y[train_rows])
    seconds = time.perf_counter() - start
    final = model[-1]
    out = {"seconds": seconds, "estimator": repr(final), "preparation": preparation}
    prepared = model[:-1].transform(raw) if len(model) > 1 else raw.astype(float)  # (n, d')
    if run.task in SUPERVISED:
        predicted = np.asarray(model.predict(raw))
        out["scores"] = {name: _supervised_score(run.task, y[rows], predicted[rows])
                         for name, rows in score_rows.items()}
    elif run.task == "projection":
        out["scores"] = {name: _variance_kept(final, prepared[rows]) for name, rows in score_rows.items()}
    else:
        labels = _cluster_labels(final, prepared, train_rows)
        M = readouts.encoded(run.estimator, X)  # the same space as pellucid's silhouette
        out["scores"] = {name: _silhouette(M[rows], labels[rows]) for name, rows in score_rows.items()}
    return out


def _context(run, X, train_rows):
    """What a builder needs besides our params: n training rows, the kernel width, category counts."""
    ctx = {"n_train": int(len(train_rows)), "n_features": int(len(getattr(run.estimator, "feature_names_out_",
                                                                          run.features)))}
    ctx["gamma"] = getattr(run.estimator, "gamma_", None)
    ctx["n_categories"] = [len(_categories(run.table.column(name))) for name in run.features]
    return ctx


def _categories(column):
    """The column's distinct values, missing cells (None, NaN) left out: the run fills or keeps them."""
    return sorted({v for v in np.asarray(column).tolist() if v is not None and v == v})


def _raw_matrix(X):
    """(n, d) float matrix of the columns, or an object matrix when some are categorical."""
    columns = [X.column(name) for name in X.columns]
    if all(X.kinds[name] == "numeric" for name in X.columns):
        return np.column_stack(columns).astype(float)  # (n, d)
    out = np.empty((X.n_rows, len(columns)), dtype=object)  # (n, d)
    for j, col in enumerate(columns):
        out[:, j] = col
    return out


def _preparation(sk, entry, run, params, X):
    """(pipeline steps, text): the input prepared as our model prepares it."""
    pre = sk.preprocessing
    if entry.prepare == "ordinal":
        categories = [_categories(X.column(name)) for name in X.columns]
        return [pre.OrdinalEncoder(categories=categories)], "every column numbered by OrdinalEncoder"
    kinds = [X.kinds[name] for name in X.columns]
    categorical = [j for j, k in enumerate(kinds) if k == "categorical"]
    numeric = [j for j, k in enumerate(kinds) if k != "categorical"]
    standardize = bool(params.get("standardize"))
    if not categorical:
        return ([pre.StandardScaler()], "numeric columns standardised (StandardScaler)") if standardize \
            else ([], "the numeric columns as they are")
    scaler = pre.StandardScaler() if standardize else "passthrough"
    transformer = sk.compose.ColumnTransformer(
        [("onehot", pre.OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical),
         ("numeric", scaler, numeric)])
    text = "categorical columns one-hot encoded (OneHotEncoder)" + (
        ", numeric ones standardised (StandardScaler)" if standardize else "")
    return [transformer], text


def _supervised_score(task, actual, predicted):
    return float(accuracy_score(actual, predicted) if task == "classification" else r2_score(actual, predicted))


def _silhouette(M, labels):
    k = len(np.unique(labels))
    if len(labels) > MAX_SILHOUETTE_ROWS or not 2 <= k <= len(labels) - 1:
        return None
    return float(silhouette_score(M, labels))


def _cluster_labels(model, P, train_rows):
    """Every row's cluster: the fitted labels, predict (or the nearest training row's cluster) elsewhere."""
    labels = np.empty(len(P), dtype=np.intp)
    labels[train_rows] = model.labels_
    others = np.setdiff1d(np.arange(len(P)), train_rows)
    if len(others) and hasattr(model, "predict"):
        labels[others] = model.predict(P[others])
    elif len(others):
        fitted = P[train_rows]  # (m, d)
        for start in range(0, len(others), 1024):  # blocks keep memory at O(1024 m)
            block = P[others[start:start + 1024]]  # (b, d)
            sq = (block ** 2).sum(1)[:, None] - 2 * block @ fitted.T + (fitted ** 2).sum(1)[None, :]  # (b, m)
            labels[others[start:start + 1024]] = model.labels_[np.argmin(sq, axis=1)]
    return labels


def _variance_kept(pca, P):
    """1 - reconstruction error / total variance around the training mean, as pellucid's principal components
    score it."""
    centred = P - pca.mean_  # (n, d)
    residual = P - pca.inverse_transform(pca.transform(P))  # (n, d)
    total = float(np.sum(centred ** 2))
    return 1.0 - float(np.sum(residual ** 2)) / total if total > 0 else 1.0
