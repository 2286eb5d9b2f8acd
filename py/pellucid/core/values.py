"""Reading one column's values: what counts as missing, numbers versus text, and the checks every number
must pass (finite, at a scale float64 can square), with the row numbers of the first bad values.

In an array given to the Python API a missing value is None, NaN, pandas' NA or NaT, as pandas' isna
says; text is a value whatever it reads: "NA" may be a region's code and "?" an answer. The words a CSV
writes for "no value" (settings.MISSING_MARKERS) are the CSV reader's to turn into None (tabular.cells),
so a table read from a file arrives here with its gaps already None.
"""

import datetime
import numbers

import numpy as np

from .errors import DataError


def is_missing(value):
    """True for None, NaN, pandas' NA and NaT; False for any text, "NA" and "" included."""
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    if isinstance(value, numbers.Real):
        return value != value
    return False


def is_table(X):
    """A pellucid Table or Columns: columns picked by name with `.column(name)`."""
    return hasattr(X, "columns") and hasattr(X, "column")


def one_column(data):
    """A one-column table or an (n, 1) array as a 1-D numpy array; anything else as np.asarray(data)."""
    if is_table(data) and len(data.columns) == 1:
        data = data.column(data.columns[0])
    values = np.asarray(data)
    return values[:, 0] if values.ndim == 2 and values.shape[1] == 1 else values


def _refuse_unreadable(name, col):
    """Complex numbers and dates have no faithful reading as a number or a category: refuse them rather
    than drop an imaginary part or make one category per date."""
    # An object column's distinct cell types, gathered in C (a per-cell isinstance test was most of the
    # time of reading a 40,000-row boundary grid with categorical columns).
    types = set(map(type, col.tolist())) if col.dtype == object else set()
    if col.dtype.kind == "c" or any(issubclass(t, complex) for t in types):
        raise DataError(f"Complex data not supported: column {name!r} holds complex numbers; pass their "
                        "real parts or magnitudes explicitly.")
    dates = (datetime.date, datetime.time, datetime.timedelta, np.datetime64, np.timedelta64)
    if col.dtype.kind in "mM" or any(issubclass(t, dates) for t in types):
        raise DataError(f"Column {name!r} holds dates or times, which pellucid reads neither as numbers nor "
                        "as categories; convert them first (for example to days since a start date).")


# The cell types of a column read one distinct value at a time: a Table's categorical column and text
# read from a CSV hold only these, and a 50,000-row column has a handful of distinct values.
_TEXT_TYPES = frozenset({str, type(None)})


def _text_cells(col):
    """col's cells as a list when every one is a str or None, else None (then each cell is read alone)."""
    if col.dtype.kind == "U":
        return col.tolist()  # Python str
    if col.dtype != object:
        return None
    cells = col.tolist()
    # Exact types: a subclass of str may write itself otherwise, and 1, 1.0 and True are equal as keys.
    return cells if set(map(type, cells)) <= _TEXT_TYPES else None


def _text_as_numeric(cells):
    """`_as_numeric` of a list of str and None, each distinct value judged once."""
    numbers = {}
    for value in set(cells):
        if value is None:
            numbers[value] = np.nan
            continue
        try:
            numbers[value] = float(value)
        except ValueError:
            return None
    return np.fromiter(map(numbers.__getitem__, cells), dtype=float, count=len(cells))  # (n,)


def _text_missing_mask(cells):
    """`_missing_mask` of a list of str and None: None is missing, every str a value."""
    return np.fromiter(map(_is_none, cells), dtype=bool, count=len(cells))  # (n,)


def _is_none(value):
    return value is None


def _as_numeric(name, col, cells=None):
    """col as float64, or None if some value is text that is not a number. `cells`: `_text_cells(col)`
    when the caller has it already."""
    if col.dtype.kind in "fiub":
        return col.astype(float)
    cells = _text_cells(col) if cells is None else cells
    if cells is not None:
        return _text_as_numeric(cells)
    out = np.empty(len(col))
    for i, v in enumerate(col):
        if is_missing(v):
            out[i] = np.nan
            continue
        if isinstance(v, bool):
            return None
        try:
            out[i] = float(v)
        except (TypeError, ValueError, OverflowError):
            return None
    return out


_TO_STR = np.frompyfunc(str, 1, 1)


# What str() writes for each missing value: None, NaN (any float type), pandas' NA and NaT.
_MISSING_SPELLINGS = frozenset({"None", "nan", "<NA>", "NaT"})


def _missing_mask(col, text=None):
    """(n,) is_missing of every value, with the test run only on the rows whose str(value) is how a
    missing value writes itself (a column of text, or of numbers, is decided in one pass)."""
    cells = _text_cells(col) if text is None else None
    if cells is not None:
        return _text_missing_mask(cells)
    if col.dtype.kind in "US":
        return np.zeros(len(col), dtype=bool)  # fixed-width text holds no missing value
    if col.dtype.kind == "f":
        return np.isnan(col)
    if col.dtype != object:
        return np.zeros(len(col), dtype=bool)
    if text is None:
        text = _TO_STR(col)  # (n,) str(v)
    text = np.asarray(text, dtype=str)  # fixed-width text sorts fast
    distinct, inverse = np.unique(text, return_inverse=True)
    spelled = np.array([v in _MISSING_SPELLINGS for v in distinct.tolist()], dtype=bool)
    candidates = np.flatnonzero(spelled[inverse.ravel()])
    missing = np.zeros(len(col), dtype=bool)
    missing[candidates] = [is_missing(v) for v in col[candidates].tolist()]
    return missing


def _as_categorical(col, cells=None):
    """(values, missing): the values as an object array of str (None where missing), and the mask.
    `cells`: `_text_cells(col)` when the caller has it already."""
    cells = _text_cells(col) if cells is None else cells
    if cells is not None:  # str(v) is v itself: only the missing ones change
        missing = _text_missing_mask(cells)
        out = col.astype(object)  # (n,) a copy
        out[missing] = None
        return out, missing
    if col.dtype.kind == "U":
        out = col.astype(object)  # (n,) Python str
    else:
        out = _TO_STR(col).astype(object, copy=False)  # (n,) str(v), as a caller would write it
    missing = _missing_mask(col, out)
    out[missing] = None
    return out, missing


def _first_bad_rows(mask, limit=3):
    rows = np.flatnonzero(mask)[:limit] + 1
    return ", ".join(str(r) for r in rows)


# Learners square and multiply values: in float64 that overflows for magnitudes beyond 1e150, so a
# column living at such a scale is refused rather than mislearned.
_LARGEST = 1e150


def workable_scale(M):
    """Whether every column of the finite matrix M (n, d) is at a scale the learners can compute with."""
    # The whole matrix's largest and smallest values decide it for every column at once: a max along
    # axis 0 of a narrow C-ordered matrix, or np.abs's copy, took most of a millisecond fit's time.
    return bool(M.max() <= _LARGEST and -M.min() <= _LARGEST) if M.size else True


def finite_and_workable_at_once(M):
    """True when one pass over M shows every value finite and at a workable scale: its sum of squares is
    at most 1e300 (a NaN or an infinity makes the sum NaN or infinite; a magnitude beyond 1e150 makes it
    larger). False tells nothing: many large values add up beyond it, and a matrix that is not one run
    of memory is not read; the checks value by value decide then. A finite sum, the largest and the
    smallest value took three passes where this takes one (a third of k-means' predict at 10^6 rows)."""
    if not (M.flags.c_contiguous or M.flags.f_contiguous) or M.dtype != float:
        return False
    flat = M.ravel(order="K")  # a view
    # vdot, not flat @ flat: on 200,000 values matmul took 8 ms with BLAS's threads on a busy machine, vdot 0.02 ms
    return bool(np.vdot(flat, flat) <= _LARGEST * _LARGEST)


def _require_workable_scale(name, values):
    finite = np.abs(values[np.isfinite(values)])
    top = finite.max() if finite.size else 0.0
    if top > _LARGEST:
        raise DataError(f"Column {name!r} holds values of magnitude {top:.3g}; learners square and multiply "
                        "values, which in float64 overflows beyond 1e150: rescale "
                        "the column (for example, change its units).")


def _require_finite(name, values, allow_missing=False):
    """DataError for infinities, and for missing values (NaN) unless `allow_missing`."""
    nan = np.isnan(values)
    if nan.any() and not allow_missing:
        raise DataError(f"Column {name!r} has {int(nan.sum())} missing values (NaN, rows "
                        f"{_first_bad_rows(nan)}); drop those rows or fill them first.")
    inf = np.isinf(values)
    if inf.any():
        raise DataError(f"Column {name!r} has infinite values (rows {_first_bad_rows(inf)}).")
