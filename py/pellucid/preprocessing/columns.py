"""What every transformer here shares: reading X as a table of named columns (a pellucid Table, or a 2-D
array whose columns are called x0, x1, ...), telling missing cells apart, and giving the result back in
the form it came in."""

import numpy as np

from ..core.errors import DataError
from ..tabular.table import Table

NUMERIC = "numeric"


def as_table(X):
    """(table, was_table): X as a Table; an array's columns are named x0, x1, ... by position."""
    if isinstance(X, Table):
        return X, True
    array = np.asarray(X, dtype=object if np.asarray(X).dtype.kind in "OUS" else float)
    if array.ndim != 2:
        raise DataError(f"X must be a table or a 2-D array (rows x columns); got {array.ndim} dimension(s).")
    return Table({f"x{j}": array[:, j] for j in range(array.shape[1])}), False


def back(table, was_table):
    """The transformed table, as a Table when X was one, else as a 2-D array."""
    if was_table:
        return table
    columns = [table.column(name) for name in table.columns]
    if all(kind == NUMERIC for kind in table.kinds.values()):
        return np.column_stack(columns).astype(float) if columns else np.empty((table.n_rows, 0))
    return np.column_stack(columns).astype(object)


def missing(values, kind):
    """(n,) bool: the cells with no value (NaN in a numeric column, None in a categorical one)."""
    if kind == NUMERIC:
        return np.isnan(values.astype(float))
    values = np.asarray(values, dtype=object)
    return np.equal(values, None) | (values != values)  # None, or a float NaN (the one value unequal to itself)


def check_columns(transformer, table):
    """A DataError when `table` does not have the columns the transformer was fitted on, in order."""
    if list(table.columns) != list(transformer.feature_names_in_):
        raise DataError(f"{type(transformer).__name__} was fitted on columns {transformer.feature_names_in_}; "
                        f"got {list(table.columns)}.")


def replace(table, changed):
    """A new Table with some columns' values replaced: `changed` is {name: (values, kind)}."""
    return table.with_values(changed)
