"""The same run as a standalone scikit-learn script, for taking a model past the browser.

The script needs numpy, pandas and scikit-learn, not pellucid. It reads the CSV as the page read it (the
same delimiter, missing-value cells and column kinds, then the page's missing-value steps), builds a
scikit-learn Pipeline (the preprocessing, then the learner's twin from its descriptor), trains and scores
on exactly the page's rows (pellucid's split or folds, copied into the script from `script_splits`),
and prints the page's metric per split: accuracy, R², silhouette or variance explained.

The parts of the script are written by separate functions, in the order they appear in it: the data
part (`sklearn_preprocessing`: reading the CSV, the missing-value steps and the pipeline's preparation of
the columns), `_model_lines` (the twin), then `_split_lines` or `_kfold_lines` (the evaluation).
"""

import dataclasses
import inspect
import pathlib
import textwrap

from ..core.errors import DataError
from . import script_splits
from .readouts import MAX_PAIRWISE
from .runs import SUPERVISED, make_estimator
from ..tabular.dates import expand_dates
from .sklearn_preprocessing import data_lines, date_columns, preprocessing_lines, prepares
from .sklearn_trained import call_lines, state_lines
from .twin_source import Name, twin_source
from ..learners.catalog.exact_least_squares import exact_least_squares

METRIC = {"classification": ("accuracy", "accuracy_score"), "regression": ("R^2", "r2_score"),
          "clustering": ("silhouette", "silhouette_score"), "projection": ("variance explained", None)}


def sklearn_script(run, file_name="data.csv", steps=None, source=None, read_info=None):
    """{filename, script, estimator, notes}: the run `run` (a workbench Run trained in this session) as a
    scikit-learn script. `source` is the table as read from the file (with the page's kind changes;
    default: the run's), `steps` its kind changes and missing-value steps ({"kinds", "missing"}),
    `read_info` how read_csv read the file (default: the source table's own, if it has one)."""
    if run.table is None:
        raise DataError("This model was imported without its data, so there is no run to write as a "
                        "scikit-learn script; train it here first.")
    source = run.table if source is None else source
    twin = run.learner.sklearn
    if twin is None:
        raise DataError(f"{run.label} has no equivalent in scikit-learn, so there is no scikit-learn script "
                        f"for it: {run.learner.no_twin}")
    dates = date_columns(run.features, source)
    if dates:  # the page learned from their parts: the run's table gets them, as the script makes them
        run = dataclasses.replace(run, table=expand_dates(run.table, list(dates))[0])
    evaluation = run.setup.get("evaluation") or {"method": "none"}
    kfold = evaluation["method"] == "kfold" and run.task in SUPERVISED
    split = evaluation["method"] == "split"
    params = make_estimator(run.model, run.setup.get("params")).get_params()
    estimator, imports = twin_source(twin, params, _context(run))
    notes = twin.notes(params)
    build = _make_model(run, estimator, twin.prepare)
    state = [] if kfold else state_lines(run, twin)  # under k-fold the script fits a model per fold
    lines = [*_header_lines(run, file_name, notes), *_import_lines(run, imports, twin.prepare, split), "",
             *data_lines(source, file_name, read_info),
             *preprocessing_lines(run, steps or {}, twin.prepare, params, dates), "", "",
             *_helper_lines(estimator), *_model_lines(run, estimator, twin.prepare), "", "", *state,
             *(_kfold_lines(run, evaluation, build) if kfold else _split_lines(run, evaluation, build, bool(state)))]
    stem = pathlib.PurePath(file_name).stem or "data"
    return {"filename": f"{stem}_{run.model}_sklearn.py", "script": "\n".join(lines) + "\n",
            "estimator": estimator, "notes": notes}


def _context(run):
    """What a twin's builder reads besides our params; the counts the script works out are Names."""
    n_features = len(getattr(run.estimator, "feature_names_out_", run.features))
    return {"n_train": Name("n_train", int(len(run.splits["train"]))), "n_features": n_features,
            "gamma": getattr(run.estimator, "gamma_", None),
            "n_categories": Name("n_categories", [len(set(run.table.column(c).tolist())) for c in run.features])}


def _header_lines(run, file_name, notes):
    where = "\n".join(textwrap.fill(note, 100, initial_indent="- ", subsequent_indent="  ") for note in notes)
    return [f'"""{run.label} on {file_name}, as trained in the pellucid workbench, with scikit-learn.', "",
            "The same rows, the same preprocessing and the same split or folds as on the page; the scores can",
            "differ from the page's where the two libraries learn differently:", "", where, '"""', ""]


def _import_lines(run, imports, prepare, split):
    names = {"sklearn.pipeline": ["make_pipeline"], "sklearn.base": ["clone"]}
    for module, name in imports:
        names.setdefault(module, []).append(name)
    if prepare == "ordinal":
        names.setdefault("sklearn.preprocessing", []).append("OrdinalEncoder")
    elif any(run.table.kinds[c] == "categorical" for c in run.features):
        names.setdefault("sklearn.compose", []).append("ColumnTransformer")
        names.setdefault("sklearn.preprocessing", []).append("OneHotEncoder")
    preprocessor = getattr(run, "preprocessor", None)
    if prepares(run):
        names.setdefault("sklearn.compose", []).append("ColumnTransformer")
    if getattr(preprocessor, "impute", None):
        names.setdefault("sklearn.impute", []).append("SimpleImputer")
    if getattr(preprocessor, "standardize", False) or (run.setup.get("params") or {}).get("standardize"):
        names.setdefault("sklearn.preprocessing", []).append("StandardScaler")
    metric = METRIC[run.task][1]
    if metric:
        names.setdefault("sklearn.metrics", []).append(metric)
    if run.task == "clustering":
        names.setdefault("sklearn.neighbors", []).append("NearestNeighbors")
    lines = ["import math", ""] if split else []
    lines += ["import numpy as np", "import pandas as pd"]
    return lines + [f"from {module} import {', '.join(sorted(set(names[module])))}" for module in sorted(names)]


# --- the model and its evaluation ---------------------------------------------------------------------------

def _helper_lines(estimator):
    """The source of the functions the twin's source calls (exact_least_squares), carried by the script."""
    helper = exact_least_squares
    return _source(helper) if f"{helper.__name__}(" in estimator else []


def _model_lines(run, estimator, prepare):
    """make_model: fresh preprocessing steps, then the twin; it takes the training rows when a setting
    depends on them (their number, or the codes of an ordinal twin after the run's preparation)."""
    body = []
    if "n_train" in estimator:
        body.append("    n_train = len(train)")
    if prepare == "ordinal" and prepares(run):
        body.append("    encoder, n_categories = ordinal_encoder(train)")
        steps = "*map(clone, preprocess), encoder"
    else:
        steps = "*map(clone, preprocess)"
    return [f"def make_model({'train' if body else ''}):",
            f'    """The preprocessing, then the scikit-learn twin of pellucid\'s {run.label}."""',
            *body, f"    return make_pipeline({steps}, {estimator})"]


def _make_model(run, estimator, prepare):
    """The call that builds a fresh model for the rows `train`."""
    takes_rows = "n_train" in estimator or (prepare == "ordinal" and prepares(run))
    return "make_model(train)" if takes_rows else "make_model()"


def _split_lines(run, evaluation, build, page_state):
    """Fit on the page's training rows (then set the page model's state, `page_state`) and print the
    metric on each of its parts."""
    method, seed = evaluation["method"], evaluation.get("seed", 0)
    if method == "split":
        held = [(name, evaluation[name]) for name in ("validation", "test") if evaluation[name]]
        stratified = evaluation.get("stratify", True) and run.task == "classification"
        function = script_splits.stratified_parts if stratified else script_splits.shuffled_parts
        lines = [*_source(function), "# The page's rows: pellucid's split with the same seed."]
        lines += [f"n_{name} = math.ceil({percent / 100!r} * n)" for name, percent in held]
        sizes = ", ".join([f"n - {' - '.join(f'n_{name}' for name, _ in held)}"] + [f"n_{name}" for name, _ in held])
        parts = ", ".join(["train"] + [name for name, _ in held])
        first = "y" if stratified else "n"
        lines.append(f"{parts} = {function.__name__}({first}, [{sizes}], seed={seed})" if held else
                     "train = np.arange(n)")
        lines += [f"{name} = train[:0]" for name in ("validation", "test") if not evaluation.get(name)]
    else:
        lines = ["train, validation, test = np.arange(n), np.arange(0), np.arange(0)  # trained on every row"]
    target = ", y[train]" if run.task in SUPERVISED else ""
    lines += ["", f"model = {build}.fit(X.iloc[train]{target})", *(call_lines() if page_state else [])]
    return lines + _score_lines(run)


def _score_lines(run):
    what = METRIC[run.task][0]
    parts = '[("train", train), ("validation", validation), ("test", test)]'
    if run.task in SUPERVISED:
        return [f"for name, rows in {parts}:", "    if len(rows):",
                f"        score = float({METRIC[run.task][1]}(y[rows], model.predict(X.iloc[rows])))",
                f"        print(f\"{{name}} {what}: {{score!r}}\")"]
    if run.task == "projection":
        return [*_variance_lines(), f"for name, rows in {parts}:", "    if len(rows):",
                f"        print(f\"{{name}} {what}: {{variance_kept(model, X.iloc[rows])!r}}\")"]
    return ["prepared = np.asarray(model[:-1].transform(X) if len(model) > 1 else X, dtype=float)  # (n, d)",
            "labels = np.empty(n, dtype=int)",
            "labels[train] = model[-1].labels_",
            "others = np.setdiff1d(np.arange(n), train)",
            "if len(others) and hasattr(model[-1], \"predict\"):",
            "    labels[others] = model[-1].predict(prepared[others])",
            "elif len(others):  # a clustering that labels only its training rows: the nearest one's cluster",
            "    nearest = NearestNeighbors(n_neighbors=1).fit(prepared[train]).kneighbors(prepared[others])[1][:, 0]",
            "    labels[others] = model[-1].labels_[nearest]",
            f"for name, rows in {parts}:",
            f"    if 2 <= len(set(labels[rows])) <= len(rows) - 1 and len(rows) <= {MAX_PAIRWISE}:",
            f"        print(f\"{{name}} {what}: {{float(silhouette_score(prepared[rows], labels[rows]))!r}}\")"]


def _variance_lines():
    return ["def variance_kept(model, rows):",
            '    """1 - reconstruction error / variance around the training mean (the page\'s measure)."""',
            "    prepared = np.asarray(model[:-1].transform(rows) if len(model) > 1 else rows, dtype=float)",
            "    pca = model[-1]",
            "    residual = prepared - pca.inverse_transform(pca.transform(prepared))",
            "    total = np.sum((prepared - pca.mean_) ** 2)",
            "    return 1.0 - float(np.sum(residual ** 2) / total) if total > 0 else 1.0", ""]


def _kfold_lines(run, evaluation, build):
    """Cross-validate over the page's folds and print each fold's score, their mean, and the score of the
    out-of-fold predictions (every row predicted by the fold model that did not see it), the number the
    page's Metrics show under k-fold: with folds of unequal size or spread, it is not the folds' mean."""
    stratified = evaluation.get("stratify", True) and run.task == "classification"
    function = script_splits.stratified_kfold_folds if stratified else script_splits.kfold_folds
    what, metric = METRIC[run.task]
    return [*_source(function), "# The page's folds: pellucid's k-fold split with the same seed.",
            f"folds = {function.__name__}({'y' if stratified else 'n'}, {evaluation['k']}, seed={evaluation['seed']})",
            "scores = []",
            "predicted = np.empty(n, dtype=object)  # each row's prediction by the fold model that did not see it",
            f"for fold in range({evaluation['k']}):",
            "    train, test = np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)",
            f"    model = {build}.fit(X.iloc[train], y[train])",
            "    predicted[test] = list(model.predict(X.iloc[test]))",
            f"    scores.append(float({metric}(y[test], predicted[test].astype(y.dtype))))",
            f"    print(f\"fold {{fold + 1}} {what}: {{scores[-1]!r}}\")",
            f"print(f\"mean {what}: {{float(np.mean(scores))!r}}\")",
            f"print(f\"out-of-fold {what}: {{float({metric}(y, predicted.astype(y.dtype)))!r}}\")"]


def _source(function):
    return [*inspect.getsource(function).splitlines(), "", ""]
