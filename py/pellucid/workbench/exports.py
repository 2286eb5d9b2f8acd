"""Exports of a run: its predictions as CSV, the model as JSON (and importing such a JSON back). The model
JSON keeps the fitted preprocessing (imputed values, means and scales) under "workbench", so an imported
model reads new rows exactly as the page's did."""

import json
import pathlib

import numpy as np

from ..core import base
from ..core.errors import DataError
from ..core.file_fields import FIELD
from ..core.settings import MAX_BYTES
from ..tabular.table import Table
from . import readouts
from .readouts import cluster_labels
from ..learners import registry
from .runs import Run
from .model_file import read_workbench_part
from .unseen import count_unseen, seen_categories
from . import judging

PRETTY_UP_TO = 1_000_000  # characters of compact JSON up to which a model file is pretty-printed
# A model file can hold its training rows (k-NN), packed at about 10.7 characters per number; a CSV within
# the upload limit spends fewer characters on some numbers, so a model file may be larger than its data.
MODEL_SIZE_FACTOR = 4
MAX_MODEL_CHARS = MODEL_SIZE_FACTOR * MAX_BYTES


def _stem(name):
    return pathlib.PurePath(name or "data").stem or "data"


def free_name(name, taken):
    """`name`, or "name (2)", "name (3)"... if the table already has a column of that name."""
    candidate, i = name, 2
    while candidate in taken:
        candidate, i = f"{name} ({i})", i + 1
    taken.add(candidate)
    return candidate


def predictions_csv(run, table_name):
    """{filename, csv, unseen}: every row of the loaded table, its split, and the model's output for it:
    "prediction" (and "P(<class>)" where the model gives probabilities), "cluster", or "PC1", "PC2"...;
    `unseen`: {column: held-out rows holding a category the training rows did not have}."""
    if run.table is None:
        raise DataError("This model was imported without its data; train it on a loaded table to export "
                        "its predictions.")
    table, estimator = run.table, run.estimator
    X = run.model_input  # the rows prepared as the training rows were: called only to predict anew
    columns, kinds = {}, {}  # the model's columns, after the table's own
    taken = set(table.columns)
    split = free_name("split", taken)
    columns[split], kinds[split] = run.split_of_rows(), "categorical"
    if run.task in ("classification", "regression") and run.setup.get("evaluation", {}).get("method") == "kfold":
        for base_name, values, kind in judging.out_of_fold_columns(run):  # each row from the fold model
            # that did not see it
            name = free_name(base_name, taken)
            columns[name], kinds[name] = values, kind
    elif run.task in ("classification", "regression"):
        name = free_name("prediction", taken)
        columns[name] = run.predicted if run.predicted is not None else estimator.predict(X())
        kinds[name] = "categorical" if run.task == "classification" else "numeric"
        if run.task == "classification" and run.learner.can("probabilities"):
            proba = run.probabilities  # (n, k) kept from training when the prediction came with it
            if proba is None:
                proba = estimator.predict_proba(X())
            for j, label in enumerate(np.asarray(estimator.classes_).tolist()):
                name = free_name(f"P({label})", taken)
                columns[name], kinds[name] = proba[:, j], "numeric"
    elif run.task == "clustering":
        name = free_name("cluster", taken)
        columns[name] = cluster_labels(estimator, X(), run.train_rows())
        kinds[name] = "numeric"
    else:
        Z = estimator.transform(X())  # (n, K)
        for j in range(Z.shape[1]):
            name = free_name(f"PC{j + 1}", taken)
            columns[name], kinds[name] = Z[:, j], "numeric"
    added = Table(columns, kinds=kinds)  # only the new columns are read: the table's are ready as they are
    names = table.columns + added.columns
    whole = Table._trusted(names, [*map(table.column, table.columns), *map(added.column, added.columns)],
                           [*map(table.kinds.get, table.columns), *map(added.kinds.get, added.columns)])
    held_out = np.setdiff1d(np.arange(table.n_rows), run.train_rows())
    unseen, _ = count_unseen(seen_categories(run, feature_kinds(run)), table, held_out)
    return {"filename": f"{_stem(table_name)}_{run.model}_predictions.csv", "csv": whole.to_csv(),
            "unseen": unseen}



def model_json(run):
    """{filename, json}: the full to_dict (training rows included, large arrays packed), with the columns
    it was trained on, their kinds and the fitted preprocessing under "workbench" (from_dict ignores that
    key). A small model is pretty-printed to be read; a large one is written without indentation, which
    would make a deep tree's file several times larger and slower to write and read."""
    d = run.estimator.to_dict()
    d["workbench"] = {"features": list(run.features), "target": run.target, "kinds": feature_kinds(run),
                      "preprocessing": run.preprocessor.to_dict() if run.preprocessor is not None else None,
                      "trained_rows": trained_rows(run)}
    text = json.dumps(d, separators=(",", ":"), allow_nan=False)
    if len(text) <= PRETTY_UP_TO:
        text = json.dumps(d, indent=2, allow_nan=False)
    return {"filename": f"{run.model}.json", "json": text}


def trained_rows(run):
    """How many rows the model was fitted on: its training rows here, or what its file said (None when the
    file did not say)."""
    if run.table is not None:
        return int(len(run.train_rows()))
    return run.setup.get("trained_rows")


def feature_kinds(run):
    """{feature: "numeric" | "categorical"}: how the model reads each of its columns. From the table it
    was trained on; for an imported model, from its file, or (a file written before kinds were kept) from
    what the preprocessing and the model recorded."""
    if run.table is not None:
        return {name: run.table.kinds[name] for name in run.features}
    if run.setup.get("kinds"):
        return dict(run.setup["kinds"])
    encoder = getattr(run.preprocessor, "encoder_", None)
    if encoder is not None:  # one-hot: the model saw 0/1 columns; the raw categorical ones are the encoder's
        return {name: "categorical" if name in encoder.categories_ else "numeric" for name in run.features}
    fitted = dict(zip(run.estimator.feature_names_in_, run.estimator.feature_kinds_))
    return {name: fitted.get(name, "numeric") for name in run.features}


def import_model(text=None, path=None):
    """A Run (without data) from exported JSON: its text, or the file at `path` (read as UTF-8 bytes, a byte
    order mark allowed); anything malformed is a DataError."""
    if (text is None) == (path is None):
        raise DataError("Give the model file as exactly one of json (its text) or path.", field=FIELD)
    if path is not None:
        text = pathlib.Path(path).read_bytes()
    if not isinstance(text, (str, bytes)):
        raise DataError("Give the model as JSON text (the contents of an exported model file).", field=FIELD)
    if len(text) > MAX_MODEL_CHARS:
        raise DataError(f"This model file has {len(text):,} characters; the page reads model files of up to "
                        f"{MAX_MODEL_CHARS:,} (a model of a table within the upload limits is smaller).",
                        field=FIELD)
    if isinstance(text, bytes) and text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]  # a UTF-8 byte order mark, which some editors write and json refuses
    try:
        d = json.loads(text)  # bytes are read as UTF-8 (or UTF-16/32 with their marks, as JSON allows)
    except ValueError as exc:
        raise DataError(f"This is not a Pellucid model file (it is not JSON: {exc}). Nothing was changed.",
                        field=FIELD) from None
    except RecursionError:  # arrays nested thousands deep: no model file is
        raise DataError("This is not a Pellucid model file (its JSON is nested too deeply). Nothing was changed.",
                        field=FIELD) from None
    if not isinstance(d, dict):
        raise DataError("This is not a pellucid model: expected a JSON object.", field=FIELD)
    try:
        estimator = base.from_dict(d)
        estimator._check_fitted()
        learner = registry.of(estimator)  # a DataError for a model the page does not offer
        part = read_workbench_part(d, estimator)
        # What the page is shown of it, made now: from the file, or a tree's first nodes from the tree (a large
        # one's file holds packed arrays, not nodes to draw).
        shown = readouts.compact_model(estimator) if hasattr(estimator, "tree_") else \
            readouts.compact_description({k: v for k, v in d.items() if k != "workbench"},
                                         hasattr(estimator, "X_fit_"))
    except DataError as exc:  # about the file, whatever setting the check inside was written for
        raise exc if exc.field == FIELD else DataError(str(exc), field=FIELD) from None
    except RecursionError:
        raise DataError("This model file is nested too deeply to be a Pellucid model.", field=FIELD) from None
    setup = {"kinds": part["kinds"]} if part["kinds"] else {}
    if part["trained_rows"] is not None:
        setup["trained_rows"] = part["trained_rows"]
    return Run(estimator=estimator, model=learner.name, features=part["features"], target=part["target"],
               preprocessor=part["preprocessor"], setup={**setup, "compact_model": shown})


def compact_of(run):
    """The model as a reply shows it (`readouts.compact_model`); an imported one's was made at import."""
    return run.setup.get("compact_model") or readouts.compact_model(run.estimator)
