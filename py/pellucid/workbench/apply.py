"""Applying a kept model (trained here or imported) to a new CSV: its columns matched to the model's by name
(extra ones ignored, missing ones named), read as the model reads them (the kinds it was trained with,
date columns taken apart), prepared by the model's own fitted preprocessing, and predicted. The loaded
table is not touched: the new file is read, used and let go.
"""

import pathlib

import numpy as np

from ..core.errors import DataError
from ..preprocessing.columns import missing
from ..tabular.dates import PARTS, expand_dates
from ..tabular.table import Table
from .exports import feature_kinds, free_name
from .tables import read_upload
from .unseen import count_unseen, seen_categories, unseen_notes

PREVIEW_ROWS = 20  # rows of the result shown in the page (the CSV has them all)


def apply_model(run, path, name, max_bytes, max_rows, header=None):
    """{filename, csv, columns, preview, n_rows, n_predicted, outputs, ignored, unseen, notes}: the new file's
    columns followed by the model's output for each row ("prediction" and "P(<class>)", "cluster", or
    "PC1", "PC2"...), as CSV text and as its first PREVIEW_ROWS rows. A DataError naming every column
    the model needs that the file lacks, or a column that cannot be read as the model reads it. `unseen`:
    {column: rows holding a category the model never saw in training}, each with a note."""
    new = read_upload(path, name, max_bytes, max_rows, header)
    X, ignored = model_columns(run, new)
    usable = rows_it_can_read(run, X)  # (n,) bool
    outputs = model_outputs(run, X, usable)
    columns = {column: new.column(column) for column in new.columns}
    kinds = new.kinds
    taken = set(columns)
    for base_name, values, kind in outputs:
        out_name = free_name(base_name, taken)
        columns[out_name], kinds[out_name] = values, kind
    result = Table(columns, kinds=kinds)
    notes = []
    skipped = int((~usable).sum())
    if skipped:
        notes.append(f"{skipped} of {new.n_rows} rows miss a value in a column the model reads, and the model's "
                     "preprocessing fills no gaps (it was trained without them), so they have no prediction.")
    unseen, examples = count_unseen(seen_categories(run, feature_kinds(run)), X)
    notes += unseen_notes(unseen, examples)
    return {"filename": f"{pathlib.PurePath(name or 'data').stem or 'data'}_{run.model}_applied.csv",
            "csv": result.to_csv(), "columns": result.columns, "preview": result.head(PREVIEW_ROWS),
            "n_rows": new.n_rows, "n_predicted": int(usable.sum()), "outputs": result.columns[len(new.columns):],
            "ignored": ignored, "unseen": unseen, "notes": notes}


def model_columns(run, new):
    """(the model's feature columns taken from `new`, in the model's order and kinds; the columns of `new`
    it does not use)."""
    wanted = list(run.features)
    kinds = feature_kinds(run)
    sources = {feature: _date_source(feature, new.columns) for feature in wanted if feature not in new.columns}
    lacking = [feature for feature, source in sources.items() if source is None]
    if lacking:
        raise DataError(f"The file lacks {_count(lacking, 'column')} the model was trained on: "
                        f"{', '.join(map(repr, lacking))}. Columns are matched by name; rename them in the file "
                        "or apply a model trained on these columns.")
    dates = sorted(set(sources.values()))
    read = new
    for column in [f for f in wanted if f in new.columns] + dates:
        expected = "categorical" if column in dates else kinds.get(column)
        if expected and read.kinds[column] != expected:
            read = read.with_kind(column, expected)  # a DataError names the column and the row it cannot read
    if dates:
        read, _ = expand_dates(read, dates)
        unread = [f for f in wanted if f not in read.columns]
        if unread:
            raise DataError(f"Column {', '.join(map(repr, sorted({sources[f] for f in unread})))} of the file "
                            "does not read as dates, but the model learned from its parts (year, month, ...).")
    used = set(wanted) | set(dates)
    return read.select(wanted), [c for c in new.columns if c not in used]


def rows_it_can_read(run, X):
    """(n,) bool: every row when the model's preprocessing fills missing cells, else the complete rows (a
    tree reads missing numbers itself: there only a missing category makes a row unreadable)."""
    if getattr(run.preprocessor, "imputer_", None) is not None:
        return np.ones(X.n_rows, dtype=bool)
    takes_numbers = bool(getattr(run.estimator, "takes_missing_values", False))
    complete = np.ones(X.n_rows, dtype=bool)
    for column in X.columns:
        if not (takes_numbers and X.kinds[column] == "numeric"):
            complete &= ~missing(X.column(column), X.kinds[column])
    return complete


def model_outputs(run, X, usable):
    """[(name, values for every row, kind)]: what the model makes of the usable rows; the others get a
    missing value."""
    estimator, task = run.estimator, run.task
    rows = np.flatnonzero(usable)
    prepared = run.prepare(X.take(rows))
    n = X.n_rows
    if task == "classification":
        out = [("prediction", _spread(estimator.predict(prepared), rows, n, None), "categorical")]
        if run.learner.can("probabilities"):
            proba = estimator.predict_proba(prepared)  # (m, k)
            for j, label in enumerate(np.asarray(estimator.classes_).tolist()):
                out.append((f"P({label})", _spread(proba[:, j], rows, n, np.nan), "numeric"))
        return out
    if task == "regression":
        return [("prediction", _spread(estimator.predict(prepared), rows, n, np.nan), "numeric")]
    if task == "clustering":
        return [("cluster", _spread(estimator.predict(prepared), rows, n, np.nan), "numeric")]
    Z = estimator.transform(prepared)  # (m, K)
    return [(f"PC{j + 1}", _spread(Z[:, j], rows, n, np.nan), "numeric") for j in range(Z.shape[1])]


def _spread(values, rows, n, fill):
    """(n,) values placed at `rows`, `fill` elsewhere."""
    values = np.asarray(values)
    if fill is None:
        out = np.full(n, None, dtype=object)
        out[rows] = [None if v is None else str(v) for v in values.tolist()]
    else:
        out = np.full(n, fill, dtype=float)
        out[rows] = values.astype(float)
    return out


def _date_source(feature, columns):
    """The date column a feature such as "when year" was taken from, or None when it is no date part."""
    for part in PARTS:
        suffix = " " + part
        if feature.endswith(suffix) and feature[:-len(suffix)] in columns:
            return feature[:-len(suffix)]
    return None


def _count(items, noun):
    return f"{len(items)} {noun}" if len(items) == 1 else f"{len(items)} {noun}s"
