"""Parsing CSV text with Python's C-implemented `csv` module, for any file csv_fast does not read: the
rows (blank lines dropped), and errors a person can act on (which line, what was expected, what was
found: a ragged line, a quote never closed, more rows than the limit).
"""

import csv
import io
import itertools
import sys

from ..core.errors import DataError
from .dialect import delimiter_name, is_blank

_END = "\uffffend of input\uffff"  # a last line no file ends with; see parse


def raise_field_size_limit():
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 2


def _reader(text, delimiter):
    return csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, skipinitialspace=True)


def parse(text, delimiter, report, max_rows=None):
    """The rows (blank lines dropped), the first (header or not) included; at least one."""
    lines = itertools.chain(io.StringIO(text, newline=""), (_END,))
    reader = csv.reader(lines, delimiter=delimiter, skipinitialspace=True)
    step = max(1000, (max(text.count("\n"), text.count("\r")) + 1) // 25)
    rows = []
    try:
        while True:
            chunk = list(itertools.islice(reader, step))
            if not chunk:
                break
            rows.extend(chunk)
            if max_rows is not None and len(rows) > max_rows + 1:
                _check_row_limit(text, rows, max_rows)
            report(0.05 + 0.7 * min(1.0, len(rows) / (step * 25)))
    except csv.Error as exc:
        raise DataError(f"Line {reader.line_num} could not be read as CSV: {exc}.") from None
    if rows.pop() != [_END]:
        _raise_unclosed_quote(text, delimiter)
    if not all(rows):
        rows = [r for r in rows if r]
    while rows and is_blank(rows[0]):
        rows.pop(0)
    if not rows:
        raise DataError("The file is empty: there is no header line and no data.")
    n_fields = len(rows[0])
    if set(map(len, rows)) - {n_fields}:
        rows = [r for r in rows if len(r) == n_fields or not is_blank(r)]
    return rows


def _check_row_limit(text, rows, max_rows):
    """Stop before all of a too-long file is held in memory, saying about how many rows it has."""
    kept = sum(1 for r in rows if r and r != [_END]) - 1  # blank lines are not rows; nor is the header
    if kept > max_rows:
        lines = max(text.count("\n"), text.count("\r")) + (not text.endswith(("\n", "\r")))
        raise_too_many_rows(max(kept, lines - 1), max_rows)


def raise_too_many_rows(n_rows, max_rows):
    raise DataError(f"This file has about {n_rows:,} rows; the limit here is {max_rows:,} "
                    "rows (more would run out of memory). Use a sample of the rows, or run pellucid "
                    "in Python, which has no such limit.")


def _kept_records(text, delimiter):
    """(first line number, row) for each record kept by parse, the first row first."""
    reader = _reader(text, delimiter)
    start, n_fields = 1, None
    for row in reader:
        if row and not (is_blank(row) and n_fields != 1):
            n_fields = n_fields or len(row)
            yield start, row
        start = reader.line_num + 1


def check_ragged(text, delimiter, rows, header):
    """Every row must have as many fields as the first; else say which line does not, and guess why."""
    first, n_fields = rows[0], len(rows[0])
    bad = next((i for i, r in enumerate(rows) if len(r) != n_fields), None)
    if bad is None:
        return
    records = _kept_records(text, delimiter)
    first_line = next(records)[0]
    line, row = next(itertools.islice(records, bad - 1, None))
    name = delimiter_name(delimiter)
    found = f"{len(row)} field" + ("" if len(row) == 1 else "s")
    first_is = "the header" if header else "the first row"
    message = (f"Line {line} has {found}, but {first_is} (line {first_line}) has {n_fields}: "
               f"expected {n_fields} {name}-separated values, found {len(row)}.")
    if any("\n" in f or "\r" in f for f in row):
        message += f" A quoted value on line {line} may be missing its closing quote."
    elif len(row) == n_fields + 1 and not row[-1].strip():
        message += f" Line {line} ends with a trailing {name}; {first_is} does not."
    elif len(row) == n_fields - 1 and not first[-1].strip():
        message += f" {first_is.capitalize()} ends with a trailing {name}; line {line} does not."
    else:
        message += f" Is there an unquoted {name} inside a value, or a value missing?"
    raise DataError(message)


def _raise_unclosed_quote(text, delimiter):
    """The last record ran to the end of the input inside quotes: say on which line that quote opened."""
    start, row = 1, None
    for start, row in _kept_records(text, delimiter):  # noqa: B007 (the last record is the one wanted)
        pass
    # Fields before the unclosed one may hold line breaks of their own (inside proper quotes).
    earlier = "".join(row[:-1]) if row else ""
    line = start + earlier.count("\n") + earlier.count("\r") - earlier.count("\r\n")
    raise DataError(f"A quoted value that starts on line {line} is never closed: its opening quote (\") "
                    "has no closing quote before the end of the file. Close it, and double any quote "
                    "that is part of a value (\"\").")
