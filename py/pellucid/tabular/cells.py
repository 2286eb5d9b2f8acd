"""How the cells of a column become values: the missing markers, numbers (float64, NaN = missing) and
categories (str, None = missing), with the first cell that is not a number named for error messages.

A CSV column is read as numbers only when its cells are written as numbers (`csv_numbers`): Python's
float() reads more than that ("1_000", "007", Arabic-Indic digits), and float64 rounds long integers.
"""

import itertools
import numbers
import operator
import re

import numpy as np

from ..core.errors import DataError
from ..host import page_numbers
# The column kinds and the missing markers are defined once, with what else the page shares.
from ..core.settings import CATEGORICAL, COLUMN_KINDS as KINDS, MISSING_MARKERS, NUMERIC  # noqa: F401


def is_missing_text(text):
    """True when `text` is one of the missing markers, ignoring case and surrounding whitespace."""
    return text.strip().lower() in MISSING_MARKERS


# "None" (Python's and pandas' word for no value) is missing in a column whose other cells are numbers,
# as pandas reads it; in a text column it stays a value (the restaurant data's Patrons).
NUMBER_ONLY_MARKERS = frozenset({"none"})


def is_missing_number_text(text):
    """True when `text` is missing in a column of numbers: a missing marker or "None"."""
    text = text.strip().lower()
    return text in MISSING_MARKERS or text in NUMBER_ONLY_MARKERS


def format_number(value):
    """The shortest text that reads back as exactly `value` ("3" for 3.0); None for NaN."""
    if value != value:
        return None
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


def format_numbers(values, missing=""):
    """`format_number` of every value of a float array, as a list of str (`missing` for NaN), without a
    Python call per value: repr over the whole list, then the whole numbers and the gaps rewritten. In the
    page, many are written by its JavaScript (page_numbers), to the same text."""
    values = np.asarray(values, dtype=float)  # (n,)
    in_page = page_numbers.writer() if len(values) >= page_numbers.MIN_VALUES else None
    if in_page is not None:
        return in_page(values, missing)
    text = list(map(repr, values.tolist()))
    with np.errstate(invalid="ignore"):  # a NaN with its signalling bit set warns in trunc
        whole = np.flatnonzero((values == np.trunc(values)) & (np.abs(values) < 1e16))  # not NaN nor infinity
    list(map(text.__setitem__, whole.tolist(), map(str, values[whole].astype(np.int64).tolist())))
    gaps = np.flatnonzero(np.isnan(values)).tolist()
    list(map(text.__setitem__, gaps, [missing] * len(gaps)))
    return text


# ---- reading cells: text (from a CSV) -------------------------------------------------------------

# The markers as they are usually spelled, for a quick exact look-up before the general, slower one.
_USUAL_SPELLINGS = frozenset([spelling for marker in MISSING_MARKERS
                              for spelling in (marker, marker.upper(), marker.capitalize(), marker.title())]
                             + ["NaN"])
_USUAL_NUMBER_GAPS = _USUAL_SPELLINGS | frozenset([spelling for marker in NUMBER_ONLY_MARKERS
                                                   for spelling in (marker, marker.upper(), marker.capitalize())])


def text_to_numeric(cells):
    """A float64 array from a sequence of str (missing markers, and "None", become NaN), or None if some
    cell is not a number, or if "None" is written where no cell is a number (a text column)."""
    n = len(cells)
    try:
        return np.fromiter(map(float, cells), dtype=float, count=n)  # (n,) the common no-gaps case
    except ValueError:
        pass
    gaps = list(map(_USUAL_NUMBER_GAPS.__contains__, cells))
    present = itertools.compress(cells, map(operator.not_, gaps))
    out = np.full(n, np.nan)  # (n,)
    try:
        present_values = np.fromiter(map(float, present), dtype=float, count=n - sum(gaps))  # (n - gaps,)
    except ValueError:
        pass
    else:
        out[~np.array(gaps, dtype=bool)] = present_values
        return _unless_only_none(cells, out)
    lookup = {}  # markers in other spellings (" NA "), or text: each distinct cell is judged once
    for cell in set(cells):
        if is_missing_number_text(cell):
            lookup[cell] = np.nan
            continue
        try:
            lookup[cell] = float(cell)
        except ValueError:
            return None
    return _unless_only_none(cells, np.fromiter(map(lookup.__getitem__, cells), dtype=float, count=n))


def _unless_only_none(cells, values):
    """`values`, or None (text) when no cell is a number and some cell is "None": a column of "None"
    and gaps is a column of the word, not of numbers."""
    if not np.isnan(values).all():
        return values
    if any(cell.strip().lower() in NUMBER_ONLY_MARKERS for cell in set(cells)):
        return None
    return values


def text_to_categorical(cells):
    """An object array of stripped str (None for missing markers) from a sequence of str."""
    lookup = {cell: None if is_missing_text(cell) else cell.strip() for cell in set(cells)}
    out = np.empty(len(cells), dtype=object)  # (n,)
    out[:] = list(map(lookup.__getitem__, cells))
    return out



# ---- which text is a number in a CSV ----------------------------------------------------------------

_EXACT = 2 ** 53  # float64 holds every integer up to here exactly, and only some beyond
_LEADING_ZERO = re.compile(r"[+-]?0[0-9]")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_ASCII_SPACE = frozenset(b" \t\n\r\x0b\x0c")


def why_not_a_number(text):
    """None when `text`, which float() reads, is also written as a number; else why it is text:
    "leading zero" (a code such as "00501"), "too long" (an integer float64 would round, such as an
    18-digit ID), "digit separator" ("1_000") or "not ASCII" (digits of another script)."""
    text = text.strip()
    if not text.isascii():
        return "not ASCII"
    if "_" in text:
        return "digit separator"
    if _LEADING_ZERO.match(text):
        return "leading zero"
    if _INTEGER.fullmatch(text) and len(text) > 15 and not _exact_integer(text):
        return "too long"
    return None


def is_csv_number(text, decimal_comma=False):
    """Whether one cell is written as a number (the rule of `csv_numbers`, one cell at a time)."""
    if decimal_comma:
        if "." in text:
            return False
        text = text.replace(",", ".")
    try:
        float(text)
    except ValueError:
        return False
    return why_not_a_number(text) is None


def _exact_integer(text):
    """Whether float64 holds the integer written in `text` exactly."""
    if len(text) > 300:  # past 1e300; int() of thousands of digits is refused by Python anyway
        return False
    value = int(text)
    return abs(value) <= _EXACT or int(float(value)) == value


def may_refuse(text, delimiter):
    """Whether `why_not_a_number` could refuse any cell of this text (a whole file, or its rows below
    the header): it holds a character other than ASCII, an "_", or a "0" then a digit at the start of a
    number. One pass over the file, so that the columns of the usual file skip the checks; it may say
    True for a file whose numbers are all fine ("01/02/2020" is a date), never False wrongly."""
    if not text.isascii() or "_" in text:
        return True
    chars = np.frombuffer(text.encode("ascii"), dtype=np.uint8)  # (chars,)
    at = np.flatnonzero((chars[:-1] == ord("0")) & (chars[1:] >= ord("0")) & (chars[1:] <= ord("9")))
    if at.size == 0:
        return False
    before = chars[np.maximum(at - 1, 0)]  # (zeros,) what comes before each "0" followed by a digit
    signed = (before == ord("+")) | (before == ord("-"))
    before = np.where(signed, chars[np.maximum(at - 2, 0)], before)
    # A digit, a point or a letter before it ("105", "1.05", "1e-05") means it is inside a number;
    # punctuation, space, a line break or the delimiter, that it starts one.
    starts = (before < ord("0")) & (before != ord(".")) | (before == ord(delimiter))
    return bool((starts | (at == 0) | (at - signed == 0)).any())


def csv_numbers(cells, decimal_comma=False, doubtful=True):
    """(values, refused) for a column of CSV cells: values is a float64 array (NaN for missing) when every
    cell is a missing marker or written as a number, else None; refused is (cell, reason) when float()
    read every cell but `why_not_a_number` refused one (so the page can say why the column is text).
    decimal_comma: read "1,5" as 1.5 (a file separated by semicolons or tabs); a cell holding a point
    then makes the column text, as "1.234,5" and "1.5" are ambiguous there.
    doubtful: False when `may_refuse` said no cell of the file can be refused but for its length."""
    if decimal_comma:
        joined = "\x00".join(cells)
        if "." in joined:
            return None, None
        cells = joined.replace(",", ".").split("\x00")
    values = text_to_numeric(cells)
    if values is None:
        return None, None
    refused = (doubtful and _first_refused(cells)) or _first_too_long(cells, values)
    return (None, refused) if refused else (values, None)


def _first_too_long(cells, values):
    for i in np.flatnonzero(np.abs(values) >= _EXACT):  # few: only these can be rounded integers
        if why_not_a_number(cells[i]) == "too long":
            return cells[i], "too long"
    return None


def _first_refused(cells):
    """(cell, reason) of the first cell that is not ASCII, holds "_" or starts with a zero then a digit
    (of cells float() read), or None.

    Whole columns at once: the cells joined into one ASCII byte string, and the character after each
    separator looked at with numpy; only the rare column with other characters is judged cell by cell."""
    joined = "\x00" + "\x00".join(cells) + "\x00\x00\x00"
    if not joined.isascii() or "_" in joined:
        return _first_refused_by_cell(cells)
    text = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)  # (chars,)
    starts = np.flatnonzero(text[:-3] == 0) + 1  # (n,) where each cell begins
    first, second, third = text[starts], text[starts + 1], text[starts + 2]  # (n,) each
    if np.isin(first, list(_ASCII_SPACE)).any():  # " 007": a quoted cell with spaces before it
        return _first_refused_by_cell(cells)
    signed = (first == ord("+")) | (first == ord("-"))  # (n,)
    digit = np.where(signed, second, first)  # (n,) the first character after a sign
    after = np.where(signed, third, second)  # (n,)
    leading_zero = np.flatnonzero((digit == ord("0")) & (after >= ord("0")) & (after <= ord("9")))
    if len(leading_zero):
        return cells[leading_zero[0]], "leading zero"
    return None


def _first_refused_by_cell(cells):
    for cell in dict.fromkeys(cells):  # each distinct cell once, in order
        reason = None if is_missing_text(cell) else why_not_a_number(cell)
        if reason and reason != "too long":
            return cell, reason
    return None

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
