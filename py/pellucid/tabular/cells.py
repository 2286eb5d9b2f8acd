"""How the cells of a column become values: the missing markers, numbers (float64, NaN = missing) and
categories (str, None = missing), with the first cell that is not a number named for error messages.
"""

import itertools
import numbers
import operator

import numpy as np

from ..core.errors import DataError
# The column kinds and the missing markers are defined once, with what else the page shares.
from ..core.settings import CATEGORICAL, COLUMN_KINDS as KINDS, MISSING_MARKERS, NUMERIC  # noqa: F401


def is_missing_text(text):
    """True when `text` is one of the missing markers, ignoring case and surrounding whitespace."""
    return text.strip().lower() in MISSING_MARKERS


def format_number(value):
    """The shortest text that reads back as exactly `value` ("3" for 3.0); None for NaN."""
    if value != value:
        return None
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


# ---- reading cells: text (from a CSV) -------------------------------------------------------------

# The markers as they are usually spelled, for a quick exact look-up before the general, slower one.
_USUAL_SPELLINGS = frozenset([spelling for marker in MISSING_MARKERS
                              for spelling in (marker, marker.upper(), marker.capitalize(), marker.title())]
                             + ["NaN"])


def text_to_numeric(cells):
    """A float64 array from a sequence of str (missing markers become NaN), or None if some cell is
    not a number."""
    n = len(cells)
    try:
        return np.fromiter(map(float, cells), dtype=float, count=n)  # (n,) the common no-gaps case
    except ValueError:
        pass
    gaps = list(map(_USUAL_SPELLINGS.__contains__, cells))
    present = itertools.compress(cells, map(operator.not_, gaps))
    out = np.full(n, np.nan)  # (n,)
    try:
        present_values = np.fromiter(map(float, present), dtype=float, count=n - sum(gaps))  # (n - gaps,)
    except ValueError:
        pass
    else:
        out[~np.array(gaps, dtype=bool)] = present_values
        return out
    lookup = {}  # markers in other spellings (" NA "), or text: each distinct cell is judged once
    for cell in set(cells):
        if is_missing_text(cell):
            lookup[cell] = np.nan
            continue
        try:
            lookup[cell] = float(cell)
        except ValueError:
            return None
    return np.fromiter(map(lookup.__getitem__, cells), dtype=float, count=n)  # (n,)


def text_to_categorical(cells):
    """An object array of stripped str (None for missing markers) from a sequence of str."""
    lookup = {cell: None if is_missing_text(cell) else cell.strip() for cell in set(cells)}
    out = np.empty(len(cells), dtype=object)  # (n,)
    out[:] = list(map(lookup.__getitem__, cells))
    return out


# ---- reading cells: any values (from a caller) ----------------------------------------------------

def items_of(values):
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise DataError("A column must be 1-D (one value per row); "
                            f"got an array of shape {values.shape}.")
        return values.tolist()
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise DataError(f"A column must be a list or 1-D array of values; got {type(values).__name__}.")
    return list(values)


def _plain(value):
    """None for missing, else a float (numbers) or str (everything else)."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        return None if is_missing_text(value) else str(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        return None if value != value else value
    return str(value)


def first_non_number(items):
    """(row index, value) of the first value that is neither missing nor a number, or None."""
    for i, value in enumerate(items):
        value = _plain(value)
        if isinstance(value, str):
            try:
                float(value)
            except ValueError:
                return i, value
    return None


def values_to_numeric(values):
    """float64 copy of `values` (NaN for missing), or None when some value is not a number."""
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "biuf":
        return values.astype(float)  # (n,) always a copy
    items = items_of(values)
    if all(type(v) is str for v in items):
        return text_to_numeric(items)
    if first_non_number(items) is not None:
        return None
    return np.array([np.nan if v is None else float(v) for v in map(_plain, items)], dtype=float)


def values_to_categorical(values):
    """Object array of str (None for missing); numbers are written as `format_number` writes them."""
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "biuf":
        items = values.astype(float).tolist()
    else:
        items = items_of(values)
    out = np.empty(len(items), dtype=object)  # (n,)
    out[:] = [format_number(v) if isinstance(v, float) else v for v in map(_plain, items)]
    return out
