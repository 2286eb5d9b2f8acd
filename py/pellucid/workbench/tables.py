"""What the page's data commands do to a table: read an upload within the page's limits, load a
built-in example or draw a generated set, re-read a column as another kind, drop or fill missing values,
and take one column's values as a sample. Each returns a new table; the session keeps it under its id.
A table is described with a profile of its columns (tabular/profile.py) and a suggested target, or none
with the likely candidates (tabular/target_choice.py).
"""

import math

import numpy as np

from ..core.errors import DataError
from ..core.settings import MAX_BYTES, MAX_ROWS
from ..tabular import datasets as _datasets, generators, profile
from ..tabular.arff import read_arff
from ..tabular.csvio import read_csv
from ..tabular.pasted import read_pasted
from ..tabular.xlsx import is_xlsx, read_xlsx
from ..tabular.target_choice import choose_target
from ..host.progress import reporter


def menu():
    """The data menu: the built-in examples, then the generators with their parameters."""
    entries = [{"name": e.name, "label": e.label, "group": "Examples", "description": e.description,
                "target": e.target, "generator_params": []} for e in _datasets.EXAMPLES.values()]
    for name, (_, label, description, target, params) in generators.GENERATORS.items():
        entries.append({"name": name, "label": label, "group": "Generators", "description": description,
                        "target": target, "generator_params": params})
    return entries


def read_upload(path, name, max_bytes=MAX_BYTES, max_rows=MAX_ROWS, header=None, sheet=None):
    """The CSV (or, by its extension, ARFF file or Excel workbook) the page wrote into the worker's file
    system, read with progress reports; at most `max_bytes` and `max_rows` (the browser tab runs out of
    memory beyond the defaults). `header` (a CSV's or a sheet's): None (let the reader decide), True or False
    (the first row names the columns, or is data). `sheet`: a workbook's sheet to read (None: the first)."""
    _check_upload(path, max_bytes, max_rows, header)
    if sheet is not None and (not isinstance(sheet, str) or not is_xlsx(name)):
        raise DataError(f"load_csv's sheet names a sheet of an Excel workbook (.xlsx); got {sheet!r} for {name!r}.",
                        field="sheet")
    progress = reporter("Reading " + str(name))
    if is_arff(name):  # Weka's format declares its columns: there is no header to decide
        return read_arff(path, progress=progress, max_bytes=max_bytes, max_rows=max_rows)
    if is_xlsx(name):
        return read_xlsx(path, sheet=sheet, header=header, progress=progress, max_bytes=max_bytes,
                         max_rows=max_rows, name=name)
    return read_csv(path, header=header, progress=progress, max_bytes=max_bytes, max_rows=max_rows)


def read_paste(path, max_bytes=MAX_BYTES, max_rows=MAX_ROWS, header=None):
    """Text pasted into the page (a table copied from a spreadsheet or a web page), which the page wrote into
    the worker's file system, read as an upload is (tabular/pasted.py), within the same limits."""
    _check_upload(path, max_bytes, max_rows, header)
    return read_pasted(path, header=header, progress=reporter("Reading the pasted table"), max_bytes=max_bytes,
                       max_rows=max_rows)


def _check_upload(path, max_bytes, max_rows, header):
    if not isinstance(path, str):
        raise DataError("load_csv needs the path of the uploaded file.")
    for limit, value in (("max_bytes", max_bytes), ("max_rows", max_rows)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise DataError(f"load_csv's {limit} must be a whole number of at least 1; got {value!r}.")
    if header is not None and not isinstance(header, bool):
        raise DataError(f"load_csv's header must be true, false or null (let the reader decide); got {header!r}.")


def is_arff(name):
    """Whether a file is read as Weka's ARFF (by its name's extension) rather than as a CSV."""
    return isinstance(name, str) and name.lower().rstrip().endswith(".arff")


def example(name, params):
    """(table, file name, suggested target) of a built-in example or a generated set; `params` are the
    generator's (an example is fixed data and ignores them)."""
    if name in _datasets.EXAMPLES:
        chosen = _datasets.EXAMPLES[name]
        return read_csv(chosen.loader().csv_text.encode("utf-8")), f"{name}.csv", chosen.target
    if name in generators.GENERATORS:
        return generators.generate(name, **params), f"{name}.csv", generators.GENERATORS[name][3]
    known = list(_datasets.EXAMPLES) + list(generators.GENERATORS)
    raise DataError(f"Unknown example {name!r}; choose one of: {', '.join(known)}.")


def target_choice(table, given=None):
    """(suggested target or None, candidates [{name, reason, likely}], the profile with that target's role):
    `given` (an example's or generator's target) when it is a column, else the clear target of
    tabular/target_choice.py, or none when no column clearly is one."""
    entries = profile.profile(table, None)
    suggested, candidates = choose_target(entries, table.n_rows)
    if given in table.columns:
        suggested = given
        candidates = [{"name": given, "reason": "the data set's target", "likely": True}] + [
            c for c in candidates if c["name"] != given]
    for entry in entries:
        if entry["name"] == suggested:
            entry["role"], entry["reason"] = "target", None
    return suggested, candidates, entries


def column_profile(table, target):
    """Per column: kind (number, category, text, date, id), missing and distinct counts, a small chart,
    and the role it gets by default with the reason when it is left out (tabular/profile.py)."""
    return profile.profile(table, target)


def with_kind(table, column, kind):
    """The table with `column` re-read as `kind` ("numeric" or "categorical")."""
    try:
        return table.with_kind(column, kind)
    except DataError as exc:
        if kind != "numeric" or column not in table.columns:
            raise
        raise DataError(f"{exc} It stays categorical; to use it as numbers, fix that cell in the file "
                        "(or leave the column out).") from None


def with_missing_handled(table, strategy, columns=None):
    """"drop": without the rows missing a value in `columns` (None: any column); "fill": numeric columns
    filled with their mean and categorical ones with their mode."""
    if columns is not None and (isinstance(columns, str) or not isinstance(columns, list)):
        raise DataError("columns must be a list of column names, or null for all columns.")
    if strategy == "drop":
        changed = table.drop_missing(columns)
        if changed.n_rows == 0:
            raise DataError("Dropping the rows with missing values would leave no rows; fill them instead, "
                            "or choose fewer columns.")
        return changed
    if strategy == "fill":
        return table.fill_missing(columns)
    raise DataError(f"strategy must be 'drop' or 'fill'; got {strategy!r}.")


def column_sample(table, column):
    """The present values of one column, as Python numbers or text (for the estimation lab)."""
    if column is None:
        raise DataError("Choose the column to estimate from.")
    return [v.item() if isinstance(v, np.generic) else v for v in table.column(column)
            if v is not None and not (isinstance(v, float) and math.isnan(v))]
