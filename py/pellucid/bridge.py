"""The only module the web page calls: commands in, plain JSON-able dicts out.

The page's worker calls `handle(cmd, args)`. Tables and fitted models stay here, in Python, under
ids; what crosses to JavaScript is scalars, lists and dicts, never Python objects. Every reply is
`{"ok": True, "result": ...}` or `{"ok": False, "error": {"type", "message"}}`, so bad input becomes
a message the page can show instead of an exception in the worker.
"""

import inspect
import itertools
import json
import math
import traceback

import numpy as np

from .core import base
from .tabular import datasets as _datasets, generators
from .evaluation.cluster_metrics import silhouette_score
from .tabular.csvio import read_csv
from .core.errors import DataError
from .workbench.summaries import summary
from .core.validation import check_target
from .workbench import boundary as _boundary, evaluation as _evaluation, exports, readouts, script
from .workbench import exercises as _exercises, explain as _explain, lab as _lab, steps as _steps
from .workbench import compare as _compare
from .workbench.host import reporter
from .workbench.runs import MODEL_MENU, SUPERVISED, Run

_tables = {}
_table_meta = {}  # table id -> {"name", "suggested_target", "steps": the kind and missing-value changes}
_models = {}  # model id -> workbench.runs.Run
_ids = itertools.count(1)
DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_ROWS = 2_000_000  # no more memory than the widest 50 MB file (benchmarks/RESULTS.md, Browser limits)


def _new_id(prefix):
    return f"{prefix}{next(_ids)}"


def _table(table_id):
    try:
        return _tables[table_id]
    except KeyError:
        raise DataError(f"No data set is loaded under id {table_id!r}; load a CSV first.") from None


def _run(model_id):
    try:
        return _models[model_id]
    except KeyError:
        raise DataError(f"No model is kept under id {model_id!r}; train one first.") from None


def _table_info(table_id):
    table, meta = _tables[table_id], _table_meta[table_id]
    return {"table_id": table_id, "name": meta["name"], **table.summary(), "preview": table.head(10),
            "suggested_target": meta["suggested_target"]}


def _keep_table(table, name, suggested_target=None):
    # The page works on one data set at a time: forget the previous ones and their models, so a
    # session of many uploads does not pile up in the browser's memory.
    _tables.clear()
    _table_meta.clear()
    _models.clear()
    table_id = _new_id("t")
    _tables[table_id] = table
    if suggested_target not in table.columns:
        suggested_target = table.columns[-1] if table.columns else None  # a CSV: the last column
    _table_meta[table_id] = {"name": name, "suggested_target": suggested_target, "steps": {"kinds": {},
                                                                                          "missing": []}}
    return _table_info(table_id)


# --- commands ----------------------------------------------------------------------------------------

def datasets():
    """The data menu: the built-in examples, then the generators with their parameters."""
    menu = [{"name": e.name, "label": e.label, "group": "Examples", "description": e.description,
             "target": e.target, "generator_params": []} for e in _datasets.EXAMPLES.values()]
    for name, (_, label, description, target, params) in generators.GENERATORS.items():
        menu.append({"name": name, "label": label, "group": "Generators", "description": description,
                     "target": target, "generator_params": params})
    return menu


def load_csv(path, name="data.csv", max_bytes=DEFAULT_MAX_BYTES, max_rows=DEFAULT_MAX_ROWS):
    """Read a CSV the page wrote into the worker's file system (at most `max_bytes` and `max_rows`: the
    browser tab runs out of memory beyond them, see benchmarks/RESULTS.md); keep it and describe it.
    Progress goes to the page while it is read."""
    if not isinstance(path, str):
        raise DataError("load_csv needs the path of the uploaded file.")
    for limit, value in (("max_bytes", max_bytes), ("max_rows", max_rows)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise DataError(f"load_csv's {limit} must be a whole number of at least 1; got {value!r}.")
    table = read_csv(path, progress=reporter("Reading " + str(name)), max_bytes=max_bytes, max_rows=max_rows)
    return _keep_table(table, name)


def load_example(name, **params):
    """Load a built-in data set (as if it had been uploaded), or draw a generated one: `params` are the
    generator's (n, noise, seed; arms for the spiral)."""
    if name in _datasets.EXAMPLES:
        # generator parameters the page may send along are ignored: an example is fixed data
        example = _datasets.EXAMPLES[name]
        table = read_csv(example.loader().csv_text.encode("utf-8"))
        return _keep_table(table, f"{name}.csv", example.target)
    if name in generators.GENERATORS:
        return _keep_table(generators.generate(name, **params), f"{name}.csv", generators.GENERATORS[name][3])
    known = list(_datasets.EXAMPLES) + list(generators.GENERATORS)
    raise DataError(f"Unknown example {name!r}; choose one of: {', '.join(known)}.")


def set_kind(table_id, column, kind):
    """Re-read one column as "numeric" or "categorical"; the table keeps its id."""
    table = _table(table_id)
    try:
        _tables[table_id] = table.with_kind(column, kind)
    except DataError as exc:
        if kind != "numeric" or column not in table.columns:
            raise
        raise DataError(f"{exc} It stays categorical; to use it as numbers, fix that cell in the file "
                        "(or leave the column out).") from None
    _table_meta[table_id]["steps"]["kinds"][column] = kind
    return _table_info(table_id)


def handle_missing(table_id, strategy, columns=None):
    """"drop": remove rows missing a value in `columns` (null: any column); "fill": fill numeric columns
    with their mean and categorical ones with their mode. The table keeps its id."""
    table = _table(table_id)
    if columns is not None and (isinstance(columns, str) or not isinstance(columns, list)):
        raise DataError("columns must be a list of column names, or null for all columns.")
    if strategy == "drop":
        changed = table.drop_missing(columns)
        if changed.n_rows == 0:
            raise DataError("Dropping the rows with missing values would leave no rows; fill them instead, "
                            "or choose fewer columns.")
    elif strategy == "fill":
        changed = table.fill_missing(columns)
    else:
        raise DataError(f"strategy must be 'drop' or 'fill'; got {strategy!r}.")
    _tables[table_id] = changed
    _table_meta[table_id]["steps"]["missing"].append({"strategy": strategy, "columns": columns})
    return _table_info(table_id)


def models():
    """The model menu with each model's hyperparameters, for the page to build its controls."""
    classes = base.all_estimators()
    menu = []
    for class_name, (label, group) in MODEL_MENU.items():
        cls = classes[class_name]
        defaults = cls().get_params()
        params = [{"name": name, "default": defaults[name], **rule.describe()}
                  for name, rule in cls._param_rules.items() if name != "trace"]
        menu.append({"name": class_name, "label": label, "group": group, "task": cls.task, "params": params})
    return menu


def fit(table_id, target, features, model, params=None):
    """Train `model` on the chosen columns of a loaded table; report the fitted model and its training score.

    Classifiers and regressors learn the target from the features; clustering and PCA use the features
    only (the target column, if one is chosen, is left out of them)."""
    table = _table(table_id)
    if model not in MODEL_MENU:
        raise DataError(f"Unknown model {model!r}; choose one of: {', '.join(MODEL_MENU)}.")
    estimator = base.all_estimators()[model](**(params or {}))
    supervised = estimator.task in SUPERVISED
    if target is not None and target not in table.columns:
        raise DataError(f"The target column {target!r} is not in the data.")
    if supervised and target is None:
        raise DataError(f"{MODEL_MENU[model][0]} learns to predict a target: choose the Target column.")
    features = [f for f in (features or table.columns) if f != target]
    if not features:
        raise DataError("Choose at least one feature column besides the target.")
    X = table.select(features)
    y = None
    if supervised:
        y = check_target(table.column(target), table.n_rows, task=estimator.task)
    estimator.fit(X, y)
    model_id = _new_id("m")
    _models[model_id] = Run(estimator=estimator, model=model, features=features,
                            target=target if supervised else None, table=table,
                            splits={"train": np.arange(table.n_rows)},
                            setup={"table_id": table_id, "params": dict(params or {}),
                                   "evaluation": {"method": "none"}})
    return {"model_id": model_id, "model": estimator.to_dict(), "label": MODEL_MENU[model][0],
            "features": features, "target": target if supervised else None,
            "n_train": int(table.n_rows), "summary": summary(estimator), **_training_score(estimator, X, y)}


def _training_score(estimator, X, y):
    """The one number the page shows for a fitted model, named, with how to format it."""
    if estimator.task == "classification":
        return {"score_name": "Accuracy", "train_score": estimator.score(X, y), "score_format": "percent"}
    if estimator.task == "regression":
        return {"score_name": "R²", "train_score": estimator.score(X, y), "score_format": "number"}
    if estimator.task == "projection":
        return {"score_name": "Variance explained", "score_format": "percent",
                "train_score": float(np.sum(estimator.explained_variance_ratio_))}
    labels = estimator.labels_
    if len(np.unique(labels)) < 2:
        return {"score_name": "Clusters", "train_score": 1, "score_format": "number"}
    matrix = X.select([n for n in X.columns if X.kinds[n] == "numeric"]) if hasattr(X, "kinds") else X
    return {"score_name": "Silhouette", "score_format": "number",
            "train_score": silhouette_score(matrix, labels)}


def train(table_id, target, features, model, params=None, evaluation=None, include_trace=False):
    """Fit with an honest evaluation (split, k-fold or none) and return the TrainResult (docs/bridge.md)."""
    table = _table(table_id)
    run, result = _evaluation.train(table, target, features, model, params, evaluation, include_trace)
    run.setup["table_id"] = table_id
    model_id = _new_id("m")
    _models[model_id] = run
    return {"model_id": model_id, **result}


def boundary(model_id, x=None, y=None, resolution=200, projection=None):
    """The model's predictions on a grid over two features (or the first two principal components)."""
    return _boundary.boundary(_run(model_id), x, y, resolution, projection)


def export_predictions(model_id):
    run = _run(model_id)
    name = _table_meta.get(run.setup.get("table_id"), {}).get("name", "data.csv")
    return exports.predictions_csv(run, name)


def export_model(model_id):
    return exports.model_json(_run(model_id))


def import_model(json):
    """Keep a model from exported JSON text; nothing changes when it is malformed."""
    run = exports.import_model(json)
    model_id = _new_id("m")
    _models[model_id] = run
    return {"model_id": model_id, "label": run.label, "task": run.task,
            "model": readouts.compact_model(run.estimator), "features": run.features, "target": run.target}


def export_python(setup=None, model_id=None):
    """A script reproducing a run: from the page's `setup`, or from a kept model (`model_id`), whose
    table's kind changes and missing-value steps are replayed too."""
    if model_id is not None:
        setup = _setup_of(_run(model_id), setup or {})
    return script.python_script(setup)


def _setup_of(run, overrides):
    if run.table is None:
        raise DataError("This model was imported without its data, so there is no run to reproduce.")
    meta = _table_meta.get(run.setup.get("table_id"), {"name": "data.csv", "steps": {}})
    setup = {"file": meta["name"], "target": run.target, "features": run.features, "model": run.model,
             "params": run.setup.get("params", {}), "evaluation": run.setup.get("evaluation"),
             "kinds": meta["steps"].get("kinds"), "missing": meta["steps"].get("missing")}
    setup.update(overrides)
    return setup


def timeline(model_id, row=None):
    """The learner's steps replayed as frames (the model refitted with trace=True on its training rows)."""
    return _steps.timeline(_run(model_id), row)


def explain_row(model_id, row):
    """Why the 1-based table `row` gets its prediction: tree path, neighbours, scores or log-probabilities."""
    return _explain.explain_row(_run(model_id), row)


def exercise(model_id, seed=0):
    """A seeded exercise on the current data and model (the question only)."""
    return _exercises.exercise(_run(model_id), seed)


def check_exercise(model_id, seed, answer):
    """The answer to exercise `seed` checked against the value computed from the data."""
    return _exercises.check_exercise(_run(model_id), seed, answer)


def estimation_lab(distribution, n=20, seed=0, params=None, table_id=None, column=None, prior_a=1.0,
                   prior_b=1.0, k=1.0, positive=None):
    """MLE, likelihood curve, MAP and Laplace estimates of a drawn sample or of a table column."""
    if table_id is not None:
        if column is None:
            raise DataError("Choose the column to estimate from.")
        values = _table(table_id).column(column)
        sample = [v.item() if isinstance(v, np.generic) else v for v in values
                  if v is not None and not (isinstance(v, float) and math.isnan(v))]
    else:
        sample = _lab.draw_sample(distribution, n, seed, params)
    return _lab.lab(distribution, sample, prior_a, prior_b, k, positive)


def compare_sklearn(model_id):
    """The run's model next to its scikit-learn equivalent, fitted on the same rows (scikit-learn is
    imported only here; without it: a DataError saying it is not loaded)."""
    return _compare.compare_sklearn(_run(model_id))


COMMANDS = {"datasets": datasets, "load_csv": load_csv, "load_example": load_example, "set_kind": set_kind,
            "handle_missing": handle_missing, "models": models, "fit": fit, "train": train,
            "boundary": boundary, "export_predictions": export_predictions, "export_model": export_model,
            "import_model": import_model, "export_python": export_python, "timeline": timeline,
            "explain_row": explain_row, "exercise": exercise, "check_exercise": check_exercise,
            "estimation_lab": estimation_lab, "compare_sklearn": compare_sklearn}


def handle(cmd, args=None):
    """Run one command; never raise (errors come back as data the page can show)."""
    try:
        if cmd not in COMMANDS:
            raise DataError(f"Unknown command {cmd!r}.")
        _check_args(cmd, args or {})
        return {"ok": True, "result": _plain(COMMANDS[cmd](**(args or {})))}
    except DataError as exc:
        return {"ok": False, "error": {"type": "DataError", "message": str(exc)}}
    except Exception as exc:  # a bug: report it whole so it can be fixed, and keep the worker alive
        return {"ok": False, "error": {"type": type(exc).__name__, "message": str(exc),
                                       "traceback": traceback.format_exc()}}


def _check_args(cmd, args):
    """A DataError naming unknown or missing arguments (rather than a TypeError from the call)."""
    try:
        inspect.signature(COMMANDS[cmd]).bind(**args)
    except TypeError as exc:
        raise DataError(f"Command {cmd!r}: {exc}.") from None


def handle_json(cmd, args_json):
    """`handle` for the page's worker: JSON text in, strict JSON text out."""
    return json.dumps(handle(cmd, json.loads(args_json)), allow_nan=False)


def _plain(value):
    """numpy scalars and arrays to Python values, so the page receives plain JSON data."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return _plain(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON has no NaN or infinity; the page shows None as "—"
    return value
