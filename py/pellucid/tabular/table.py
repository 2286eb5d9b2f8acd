"""The Table: named columns of one kind each (numeric float64, or categorical text), immutable in spirit.

A numeric column is a float64 array with NaN where a value is missing; a categorical column is an object
array of str with None where a value is missing. Every method returns a new Table and leaves this one (and
the caller's data) untouched; the arrays a Table hands out are read-only views of its own copies.
"""

import numbers

import numpy as np

from .cells import (CATEGORICAL, KINDS, NUMERIC, first_non_number, format_numbers, items_of,
                    values_to_categorical, values_to_numeric)
from ..core.errors import DataError

def _missing_mask(values, kind):
    if kind == NUMERIC:
        return np.isnan(values)  # (n,)
    return np.asarray(np.equal(values, None), dtype=bool)  # (n,) elementwise on an object array


def _readonly(array):
    view = array.view()
    view.flags.writeable = False
    return view


def _name_list(names):
    return ", ".join(repr(n) for n in names)


class Table:
    """Named columns, each numeric (float64, NaN = missing) or categorical (str, None = missing).

    `Table({"age": [31, 45], "city": ["Oslo", None]})` infers each column's kind: numeric when every
    non-missing value is a number, categorical otherwise; `kinds={"age": "categorical"}` forces one.
    """

    read_info = None  # how read_csv read the file (a ReadInfo) on a table it made; None on others

    def __init__(self, columns, kinds=None):
        if not hasattr(columns, "items"):
            raise DataError(f"Table needs a dict of column name -> values; got {type(columns).__name__}.")
        names = [str(name) for name in columns]
        wanted = self._wanted_kinds(names, kinds)
        data, found = [], []
        for name, values, kind in zip(names, columns.values(), wanted):
            if not name.strip():
                raise DataError(f"Column names must not be blank; got {name!r}.")
            array, kind = self._convert(name, values, kind)
            data.append(array)
            found.append(kind)
        lengths = {name: len(array) for name, array in zip(names, data)}
        if len(set(lengths.values())) > 1:
            raise DataError(f"All columns must have the same number of rows; got {lengths}.")
        self._init(names, data, found)

    @staticmethod
    def _wanted_kinds(names, kinds):
        if kinds is None:
            return [None] * len(names)
        if hasattr(kinds, "items"):
            unknown = [str(k) for k in kinds if str(k) not in names]
            if unknown:
                raise DataError(f"kinds names unknown columns {_name_list(unknown)}; "
                                f"the columns are {_name_list(names)}.")
            kinds = {str(k): v for k, v in kinds.items()}
            wanted = [kinds.get(name) for name in names]
        else:
            wanted = list(kinds)
            if len(wanted) != len(names):
                raise DataError(f"kinds has {len(wanted)} entries but there are {len(names)} columns.")
        for name, kind in zip(names, wanted):
            if kind is not None and kind not in KINDS:
                raise DataError(f"The kind of column {name!r} must be 'numeric' or 'categorical'; "
                                f"got {kind!r}.")
        return wanted

    @staticmethod
    def _convert(name, values, kind):
        if kind == CATEGORICAL:
            return values_to_categorical(values), CATEGORICAL
        numeric = values_to_numeric(values)
        if numeric is not None:
            return numeric, NUMERIC
        if kind == NUMERIC:
            row, value = first_non_number(items_of(values))
            raise DataError(f"Column {name!r} cannot be read as numeric: row {row + 1} holds {value!r}, "
                            "which is not a number.")
        return values_to_categorical(values), CATEGORICAL

    @classmethod
    def _trusted(cls, names, data, kinds):
        """A Table from arrays already in canonical form (used by the methods, which keep kinds)."""
        table = cls.__new__(cls)
        table._init(list(names), list(data), list(kinds))
        return table

    def _init(self, names, data, kinds):
        self._names = names
        self._data = {name: _readonly(array) for name, array in zip(names, data)}
        self._kinds = dict(zip(names, kinds))
        self._n_rows = len(data[0]) if data else 0
        self._missing = None

    # ---- description ------------------------------------------------------------------------------

    @property
    def columns(self):
        """The column names, in order (unique and non-blank)."""
        return list(self._names)

    @property
    def kinds(self):
        """dict name -> "numeric" or "categorical"."""
        return dict(self._kinds)

    @property
    def n_rows(self):
        return self._n_rows

    @property
    def missing(self):
        """dict name -> number of missing cells."""
        if self._missing is None:
            self._missing = {name: int(_missing_mask(self._data[name], self._kinds[name]).sum())
                             for name in self._names}
        return dict(self._missing)

    def column(self, name):
        """The column's values: float64 (NaN = missing) or object array of str (None = missing); read-only."""
        self._check_names([name])
        return self._data[name]

    def summary(self):
        """A JSON-able description for the page: {columns, kinds, missing, n_rows}."""
        return {"columns": self.columns, "kinds": self.kinds, "missing": self.missing, "n_rows": self._n_rows}

    def head(self, n=10):
        """The first `n` rows as lists of JSON-able values (float, str; None for missing), for a preview."""
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
            raise DataError(f"head(n) needs a whole number n >= 0; got {n!r}.")
        columns = [self._preview(name, int(n)) for name in self._names]
        return [list(row) for row in zip(*columns)]

    def _preview(self, name, n):
        values = self._data[name][:n].tolist()
        if self._kinds[name] == CATEGORICAL:
            return values
        # JSON has no NaN or infinity: NaN is missing (None); infinities are spelled out.
        return [None if v != v else v if abs(v) != np.inf else ("inf" if v > 0 else "-inf") for v in values]

    def __repr__(self):
        described = ", ".join(f"{name} ({self._kinds[name]})" for name in self._names)
        return f"Table({self._n_rows} rows x {len(self._names)} columns: {described})"

    # ---- new tables -------------------------------------------------------------------------------

    def _check_names(self, names):
        unknown = [name for name in names if name not in self._data]
        if unknown:
            raise DataError(f"Unknown column {_name_list(unknown)}; "
                            f"the columns are {_name_list(self._names)}.")

    def _names_arg(self, names):
        if names is None:
            return list(self._names)
        names = [names] if isinstance(names, str) else list(names)
        self._check_names(names)
        return names

    def select(self, names):
        """A new Table with just these columns, in this order."""
        names = self._names_arg(names)
        if len(set(names)) != len(names):
            repeated = sorted({n for n in names if names.count(n) > 1})
            raise DataError(f"select() names column {_name_list(repeated)} more than once.")
        return Table._trusted(names, [self._data[n] for n in names], [self._kinds[n] for n in names])

    def take(self, rows):
        """A new Table with the given rows: an array of row indices or a boolean mask of length n_rows."""
        index = np.asarray(rows)
        if index.ndim != 1:
            raise DataError(f"rows must be a 1-D index array or boolean mask; got shape {index.shape}.")
        if index.dtype == bool:
            if len(index) != self._n_rows:
                raise DataError(f"The boolean mask has {len(index)} entries "
                                f"but the table has {self._n_rows} rows.")
        elif index.size == 0:
            index = index.astype(np.intp)
        elif index.dtype.kind not in "iu":
            raise DataError("rows must be integer indices or a boolean mask; "
                            f"got values of type {index.dtype}.")
        elif index.min() < -self._n_rows or index.max() >= self._n_rows:
            bad = index[(index < -self._n_rows) | (index >= self._n_rows)][0]
            raise DataError(f"Row index {int(bad)} is out of range for a table of {self._n_rows} rows.")
        return Table._trusted(self._names, [self._data[n][index] for n in self._names],
                              [self._kinds[n] for n in self._names])

    def _replace(self, name, array, kind):
        data = [array if n == name else self._data[n] for n in self._names]
        kinds = [kind if n == name else self._kinds[n] for n in self._names]
        return Table._trusted(self._names, data, kinds)

    def with_values(self, changed):
        """A new Table with some columns' values replaced, `changed` {name: (values, kind)}, by values already
        in a Table's form (float for a numeric column, str or None for a categorical one, as a transformer
        computes them from this table's): not read cell by cell again, which a large table would pay on
        every preprocessing step. Another array is read as the constructor reads it."""
        self._check_names(list(changed))
        data, kinds = [], []
        for name in self._names:
            values, kind = changed.get(name, (self._data[name], self._kinds[name]))
            if len(values) != self._n_rows:
                raise DataError(f"Column {name!r} has {len(values)} values; the table has {self._n_rows} rows.")
            canonical = (kind == NUMERIC and getattr(values, "dtype", None) is np.dtype(float)) or \
                (kind == CATEGORICAL and getattr(values, "dtype", None) is np.dtype(object) and values.ndim == 1)
            if not canonical:
                values, kind = Table._convert(name, values, kind)
            data.append(values)
            kinds.append(kind)
        return Table._trusted(self._names, data, kinds)

    def with_kind(self, name, kind):
        """A new Table with column `name` re-read as `kind` ("numeric" or "categorical")."""
        self._check_names([name])
        if kind not in KINDS:
            raise DataError(f"kind must be 'numeric' or 'categorical'; got {kind!r}.")
        values = self._data[name]
        if kind == self._kinds[name]:
            return self._replace(name, values, kind)
        if kind == CATEGORICAL:
            return self._replace(name, values_to_categorical(values), kind)
        numeric = values_to_numeric(values)
        if numeric is None:
            row, value = first_non_number(values.tolist())
            raise DataError(f"Column {name!r} cannot be read as numeric: row {row + 1} holds {value!r}, "
                            "which is not a number.")
        return self._replace(name, numeric, kind)

    def drop_missing(self, names=None):
        """A new Table without the rows that miss a value in any of `names` (default: all columns)."""
        names = self._names_arg(names)
        keep = np.ones(self._n_rows, dtype=bool)  # (n,)
        for name in names:
            keep &= ~_missing_mask(self._data[name], self._kinds[name])
        return self.take(keep)

    def fill_missing(self, names=None, strategy="mean"):
        """A new Table with missing cells of `names` (default: all columns) filled in.

        "mean": numeric columns get their mean, categorical ones their mode (the mean of text is not
        defined); "mode": every column gets its most frequent value. Ties go to the value seen first.
        """
        if strategy not in ("mean", "mode"):
            raise DataError(f"strategy must be 'mean' or 'mode'; got {strategy!r}.")
        table = self.select(self._names)  # a new Table even when nothing is missing
        for name in self._names_arg(names):
            values, kind = self._data[name], self._kinds[name]
            gaps = _missing_mask(values, kind)
            if not gaps.any():
                continue
            present = values[~gaps]
            if len(present) == 0:
                raise DataError(f"Column {name!r} has no values at all, so there is nothing to fill it with.")
            fill = present.mean() if kind == NUMERIC and strategy == "mean" else _mode(present)
            filled = values.copy()
            filled[gaps] = fill
            table = table._replace(name, filled, kind)
        return table

    # ---- writing ----------------------------------------------------------------------------------

    def to_csv(self, delimiter=","):
        """The table as CSV text (header first, missing cells empty); it reads back through read_csv to
        the same values. Text holding a quote, a line break or any of , ; tab is quoted, so that the
        delimiter read_csv detects is the one written."""
        if delimiter not in _QUOTE_IF:
            raise DataError(f"delimiter must be one of ',', ';' or a tab; got {delimiter!r}.")
        # One column: an empty line would be skipped as blank, so a missing cell is written "".
        empty = '""' if len(self._names) == 1 else ""
        cells = []
        for name in self._names:
            if self._kinds[name] == NUMERIC:
                cells.append(format_numbers(self._data[name], empty))
            else:
                values = self._data[name].tolist()
                quoted = {v: _quote(v) for v in set(values) if v is not None}
                quoted[None] = empty
                cells.append(list(map(quoted.__getitem__, values)))
        lines = [delimiter.join(map(_quote, self._names))]
        lines.extend(map(delimiter.join, zip(*cells)))
        return "\n".join(lines) + "\n"


_QUOTE_IF = ",;\t\"\r\n"


def _quote(text):
    if any(c in text for c in _QUOTE_IF):
        return '"' + text.replace('"', '""') + '"'
    return text


def _mode(values):
    """The most frequent value; among equally frequent ones, the one that comes first."""
    distinct, first, counts = np.unique(values, return_index=True, return_counts=True)
    best = counts == counts.max()  # (k,)
    return distinct[best][np.argmin(first[best])]
