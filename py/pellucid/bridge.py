"""The only module the web page calls: commands in, plain JSON-able dicts out.

The page's worker calls `handle(cmd, args)`. Tables and fitted models stay here, in Python, under
ids; what crosses to JavaScript is scalars, lists and dicts, never Python objects. Every reply is
`{"ok": True, "result": ...}` or `{"ok": False, "error": {"type", "message"}}`, so bad input becomes
a message the page can show instead of an exception in the worker.
"""

import itertools
import json
import math
import traceback

import numpy as np

from . import base
from .cluster_metrics import silhouette_score
from .csvio import read_csv
from .errors import DataError
from .summaries import summary
from .validation import check_target

# What the page offers in its "Model" select, in this order: class name -> (label, group).
MODEL_MENU = {
    "DecisionTreeClassifier": ("Decision tree", "Trees"),
    "DecisionTreeRegressor": ("Regression tree", "Trees"),
    "LinearRegression": ("Linear regression", "Linear models"),
    "LogisticRegression": ("Logistic regression", "Linear models"),
    "Perceptron": ("Perceptron", "Linear models"),
    "GaussianNB": ("Gaussian naive Bayes", "Probabilistic"),
    "CategoricalNB": ("Categorical naive Bayes", "Probabilistic"),
    "BernoulliNB": ("Bernoulli naive Bayes", "Probabilistic"),
    "MultinomialNB": ("Multinomial naive Bayes", "Probabilistic"),
    "KNeighborsClassifier": ("k-nearest neighbours", "Neighbours"),
    "KNeighborsRegressor": ("k-nearest neighbours regression", "Neighbours"),
    "KernelPerceptron": ("Kernel perceptron", "Kernels"),
    "KernelRegression": ("Kernel regression", "Kernels"),
    "KMeans": ("k-means", "Clustering"),
    "AgglomerativeClustering": ("Agglomerative clustering", "Clustering"),
    "PCA": ("Principal component analysis", "Dimensionality reduction"),
}
SUPERVISED = ("classifier", "regressor")

_tables = {}
_models = {}
_ids = itertools.count(1)


def _new_id(prefix):
    return f"{prefix}{next(_ids)}"


def _table(table_id):
    try:
        return _tables[table_id]
    except KeyError:
        raise DataError(f"No data set is loaded under id {table_id!r}; load a CSV first.") from None


def _keep_table(table, name):
    table_id = _new_id("t")
    _tables[table_id] = table
    return {"table_id": table_id, "name": name, **table.summary(), "preview": table.head(10)}


# --- commands ----------------------------------------------------------------------------------------

def load_csv(path, name="data.csv"):
    """Read a CSV the page wrote into the worker's file system; keep it and describe it."""
    return _keep_table(read_csv(path), name)


def load_example(name):
    """Load one of the built-in data sets as if it had been uploaded."""
    from . import datasets
    loaders = {"restaurant": datasets.load_restaurant, "play_tennis": datasets.load_play_tennis}
    if name not in loaders:
        raise DataError(f"Unknown example {name!r}; choose one of: {', '.join(loaders)}.")
    return _keep_table(read_csv(loaders[name]().csv_text.encode("utf-8")), f"{name}.csv")


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
        task = "regression" if estimator.task == "regressor" else "classification"
        y = check_target(table.column(target), table.n_rows, task=task)
    estimator.fit(X, y)
    model_id = _new_id("m")
    _models[model_id] = estimator
    return {"model_id": model_id, "model": estimator.to_dict(), "label": MODEL_MENU[model][0],
            "features": features, "target": target if supervised else None,
            "n_train": int(table.n_rows), "summary": summary(estimator), **_training_score(estimator, X, y)}


def _training_score(estimator, X, y):
    """The one number the page shows for a fitted model, named, with how to format it."""
    if estimator.task == "classifier":
        return {"score_name": "Accuracy", "train_score": estimator.score(X, y), "score_format": "percent"}
    if estimator.task == "regressor":
        return {"score_name": "R²", "train_score": estimator.score(X, y), "score_format": "number"}
    if estimator.task == "transformer":
        return {"score_name": "Variance explained", "score_format": "percent",
                "train_score": float(np.sum(estimator.explained_variance_ratio_))}
    labels = estimator.labels_
    if len(np.unique(labels)) < 2:
        return {"score_name": "Clusters", "train_score": 1, "score_format": "number"}
    matrix = X.select([n for n in X.columns if X.kinds[n] == "numeric"]) if hasattr(X, "kinds") else X
    return {"score_name": "Silhouette", "score_format": "number",
            "train_score": silhouette_score(matrix, labels)}


COMMANDS = {"load_csv": load_csv, "load_example": load_example, "models": models, "fit": fit}


def handle(cmd, args=None):
    """Run one command; never raise (errors come back as data the page can show)."""
    try:
        if cmd not in COMMANDS:
            raise DataError(f"Unknown command {cmd!r}.")
        return {"ok": True, "result": _plain(COMMANDS[cmd](**(args or {})))}
    except DataError as exc:
        return {"ok": False, "error": {"type": "DataError", "message": str(exc)}}
    except Exception as exc:  # a bug: report it whole so it can be fixed, and keep the worker alive
        return {"ok": False, "error": {"type": type(exc).__name__, "message": str(exc),
                                       "traceback": traceback.format_exc()}}


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
