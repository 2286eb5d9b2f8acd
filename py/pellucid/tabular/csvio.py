"""Reading a CSV file into a Table: find the encoding and the delimiter, parse, decide whether the first
row names the columns, and type each column.

A plain file (no quotes, the same number of fields on every line) is read by csv_fast, numbers straight
into floats; any other by Python's C-implemented `csv` module (csv_parse; also present in Pyodide), its
numeric columns converted in bulk. Both give the same table. Whatever is wrong with the input is
reported as a DataError a person can act on: which line, what was expected, what was found. What was
decided about the file (delimiter, header, decimal commas, renamed columns) comes with the table as
`table.read_info`, for the page to show.
"""

import gc
import itertools
import re

import numpy as np

from ..core.errors import DataError
from . import csv_fast
from .csv_parse import check_ragged, parse, raise_field_size_limit, raise_too_many_rows
from .cells import (CATEGORICAL, NUMERIC, csv_numbers, is_csv_number, is_missing_text, may_refuse,
                    text_to_categorical)
from .dialect import delimiter_name, sniff_delimiter, splits, take_sep_line
from .header import detect_header, drop_trailing_empty, renaming_notes, unique_names
from .read_info import ReadInfo, header_note, text_column_note
from .table import Table
from .text_source import decode, format_size, read_source  # noqa: F401 (format_size: part of this API)

_HEADER_SAMPLE = 100  # rows below the first that the header rule looks at (header.py)


def read_csv(source, *, header=None, progress=None, max_bytes=None, max_rows=None):
    """Read a CSV into a Table, which carries what was decided about the file as `table.read_info` (a
    ReadInfo: delimiter, header, decimal-comma columns, renamed columns, notes for people).

    source: a path (str or pathlib.Path), bytes, or a file-like object opened in text or binary mode.
    header: True (the first row names the columns), False (it is data; the columns are called column_1,
        column_2, ...) or None (decide; the rule is in pellucid.tabular.header).
    progress: optional callable given fractions 0..1 while reading (a few dozen calls at most).
    max_bytes: optional size limit; a larger input is refused before it is parsed.
    max_rows: optional limit on data rows; parsing stops (with a DataError) as soon as it is passed.

    The delimiter (comma, semicolon or tab) is detected, unless the first line is Excel's "sep=X", which
    names it; a byte-order mark is dropped and text that is not UTF-8 is read as Windows-1252 (Latin-1);
    CRLF, LF and CR line endings are accepted; quoted values may hold delimiters, doubled quotes and line
    breaks. Blank lines are skipped. Cells and header names are trimmed; blank names become
    "column_<position>", repeated names get " (2)", " (3)"... (both noted); a trailing delimiter on every
    line (header included) adds no column.

    Missing: "", NA, N/A, #N/A (Excel's), ?, null and NaN, in any case; "None" too in a column whose other
    cells are numbers (in a text column it is a value). A column
    whose every non-missing cell is written as a number is numeric, else categorical (text). Written as
    a number means what float() reads, in ASCII, with no "_" separators, and, so that codes and IDs keep
    their digits, no leading zero before another digit ("00501", "007" are codes: "0" and "0.5" are
    numbers) and no integer longer than float64 holds exactly (beyond 2^53, such as an 18-digit ID):
    such columns are kept as text, exactly as written, with a note saying why. In a file separated by
    semicolons or tabs, a column of numbers with decimal commas ("1,5") is read as numbers; when such a
    column also holds a decimal point it stays text, with a note.
    """
    if header is not None and not isinstance(header, bool):
        raise DataError(f"header must be True (the first row names the columns), False (it is data) or "
                        f"None (decide from the file); got {header!r}.")
    report = _Progress(progress)
    raise_field_size_limit()
    text = decode(read_source(source, max_bytes))
    report(0.05)
    text, named = take_sep_line(text)
    delimiter = named or sniff_delimiter(text)
    # Parsing makes a list per row; the cyclic garbage collector would scan them all again and again
    # (a third of the time on a large file), though lists of strings hold no cycles. They are freed
    # (by reference counting) before it is switched back on.
    collecting = gc.isenabled()
    gc.disable()
    try:
        names, data, kinds, info = _read_text(text, delimiter, named, header, report, max_rows)
    finally:
        if collecting:
            gc.enable()
    report(1.0)
    table = Table._trusted(names, data, kinds)
    table.read_info = info
    return table


def _read_text(text, delimiter, named, header, report, max_rows=None):
    """Column names, typed column arrays, their kinds, and the ReadInfo saying what was decided."""
    decimal_comma = delimiter != ","  # "1,5" can only be one number where commas do not separate values
    notes = [f"The first line, sep={named}, names the delimiter ({delimiter_name(named)}); it is not "
             "read as data."] if named else []
    detected = header is None
    plain = csv_fast.is_plain(text, delimiter) if splits(delimiter) else None
    cells = _plain_cells(plain, header, decimal_comma, report, max_rows) if plain else None
    if cells is None:
        cells = _general_cells(text, delimiter, header, decimal_comma, report, max_rows)
    header, reason, first, columns = cells
    if detected:
        notes.append(header_note(header, reason, len(first)))
    names = unique_names(first)
    names, columns = _without_trailing_empty(first, names, columns)
    renamed = [(given.strip(), name) for given, name in zip(first, names) if header and given.strip() != name]
    notes.extend(renaming_notes(first, names) if header else [])
    # Whether any cell below the header could be a code or a "1_000", judged on the whole text at once
    # (and only if a column of text turns out to be numbers).
    doubtful = _Once(lambda: may_refuse(text[_first_line_end(text):] if header else text, delimiter))
    data, kinds, decimal_columns = _typed_columns(names, columns, (decimal_comma, doubtful), notes, report)
    info = ReadInfo(delimiter=delimiter if splits(delimiter) else None, sep_line=named is not None,
                    header=header, header_detected=detected, decimal_comma=tuple(decimal_columns),
                    renamed=tuple(renamed), notes=tuple(notes))
    return names, data, kinds, info


def _without_trailing_empty(first, names, columns):
    """header.drop_trailing_empty, on columns some of which are read as numbers already (so not empty)."""
    texts = [("0",) if isinstance(column, np.ndarray) else column for column in columns]
    names, kept = drop_trailing_empty(first, names, texts)
    return names, columns[:len(kept)]


def _decide_header(rows, header, decimal_comma):
    """(header, reason): the caller's say, or the rule of pellucid.tabular.header on the first rows."""
    if header is not None:
        return header, None
    return detect_header(rows, lambda cell: is_csv_number(cell, decimal_comma) or is_csv_number(cell))


def _general_cells(text, delimiter, header, decimal_comma, report, max_rows):
    """(header, reason, first row, columns as tuples of str), parsed by the csv module."""
    rows = parse(text, delimiter, report, max_rows)
    report(0.75)
    header, reason = _decide_header(rows, header, decimal_comma)
    check_ragged(text, delimiter, rows, header)
    first = rows.pop(0) if header else [""] * len(rows[0])
    _check_data_rows(first, len(rows), max_rows)
    columns = list(zip(*rows))
    del rows
    return header, reason, first, columns


def _plain_cells(plain, header, decimal_comma, report, max_rows):
    """As _general_cells, for a file csv_fast found plain (no quotes, rectangular); the columns that
    hold numbers come as float64 arrays. None when it is not as plain as it looked."""
    rows = plain.head(_HEADER_SAMPLE + 1)
    header, reason = _decide_header(rows, header, decimal_comma)
    if max_rows is not None and plain.n_lines > max_rows + 1:
        raise_too_many_rows(plain.n_lines - 1, max_rows)
    first = rows.pop(0) if header else [""] * len(rows[0])
    _check_data_rows(first, plain.n_lines - header, max_rows)
    columns = plain.columns(int(header), csv_fast.guess_number_columns(rows),
                            lambda fraction: report(0.05 + 0.7 * fraction))
    return None if columns is None else (header, reason, first, columns)


def _check_data_rows(first, n_rows, max_rows):
    if not n_rows:
        names = ", ".join(h.strip() for h in first)
        raise DataError(f"The file has a header line ({names}) but no data rows.")
    if max_rows is not None and n_rows > max_rows:
        raise_too_many_rows(n_rows, max_rows)


class _Once:
    """A truth value worked out the first time it is asked for, and only then."""

    def __init__(self, compute):
        self.compute, self.value = compute, None

    def __bool__(self):
        if self.value is None:
            self.value = bool(self.compute())
        return self.value


def _first_line_end(text):
    """Where the first line ends (the header's first line: if a quoted name holds a line break, the
    rest of the header is judged with the data, which only costs time)."""
    ends = [i for i in (text.find("\n"), text.find("\r")) if i >= 0]
    return min(ends, default=len(text))


def _typed_columns(names, columns, rules, notes, report):
    """Each column's array and kind, and the names of those read with decimal commas; `notes` gets a
    sentence for each column read with decimal commas, or read as text though it looks like numbers.
    rules: (decimal_comma, doubtful), as `csv_numbers` takes them."""
    data, kinds, decimal_columns = [], [], []
    for j, name in enumerate(names):
        cells, columns[j] = columns[j], None  # each column's text is freed once it is converted
        if isinstance(cells, np.ndarray):  # read as numbers already (csv_fast)
            values, note = cells, None
        else:
            values, note = _column_values(name, cells, *rules)
        if values is not None and note:
            decimal_columns.append(name)
        notes.extend([note] if note else [])
        data.append(values if values is not None else text_to_categorical(cells))
        kinds.append(NUMERIC if values is not None else CATEGORICAL)
        report(0.75 + 0.25 * (j + 1) / len(names))
    return data, kinds, decimal_columns


def _column_values(name, cells, decimal_comma, doubtful):
    """(float64 values or None for text, a note or None): a note when the column is read with decimal
    commas, or is text though it looks like numbers."""
    values, refused = csv_numbers(cells, doubtful=doubtful)
    if refused:
        return None, text_column_note(name, *refused)
    if values is not None or not decimal_comma or not _has_decimal_commas(cells):
        return values, None
    values, refused = csv_numbers(cells, decimal_comma=True, doubtful=doubtful)
    if refused:
        return None, text_column_note(name, *refused)
    if values is not None:
        return values, f"Column {name!r} is read as numbers with decimal commas (1,5 is 1.5)."
    return None, _why_not_decimal_commas(name, cells)


def _has_decimal_commas(cells):
    joined = "\x00".join(cells)
    return "," in joined and _DECIMAL_COMMA.search(joined) is not None


_DECIMAL_COMMA = re.compile(r"[0-9],[0-9]")


def _why_not_decimal_commas(name, cells):
    """A note when most of a text column's first distinct values are numbers with decimal commas (so
    the file meant numbers), naming a cell that is not one; None for a column of text."""
    distinct = [cell for cell in itertools.islice(dict.fromkeys(cells), 1000) if not is_missing_text(cell)]
    odd = [cell for cell in distinct if not is_csv_number(cell, decimal_comma=True)]
    if not odd or len(odd) > len(distinct) / 2:
        return None
    why = "holds a decimal point too" if "." in odd[0] else "is not a number"
    return (f"Column {name!r} has numbers with decimal commas, but {odd[0].strip()!r} {why}; "
            "it is read as text.")


class _Progress:
    """Forwards fractions to the caller's callback, at most about 35 times, never going backwards."""

    def __init__(self, callback):
        self.callback, self.last = callback, None

    def __call__(self, fraction):
        if self.callback is None:
            return
        if self.last is None or fraction >= min(1.0, self.last + 0.03) and fraction > self.last:
            self.last = fraction
            self.callback(float(fraction))
