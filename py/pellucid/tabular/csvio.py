"""Reading a CSV file into a Table: find the encoding and the delimiter, parse, and type each column.

Parsing is Python's C-implemented `csv` module (also present in Pyodide); numeric columns are converted
in bulk. Whatever is wrong with the input is reported as a DataError a person can act on: which line,
what was expected, what was found.
"""

import csv
import gc
import io
import itertools
import os
import pathlib
import sys

from ..core.errors import DataError
from .cells import CATEGORICAL, NUMERIC, text_to_categorical, text_to_numeric
from .table import Table

DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}
_SAMPLE_CHARS = 65536  # how much text the delimiter is judged on
_SAMPLE_ROWS = 50
_END = "\uffffend of input\uffff"  # a last line no file ends with; see _parse
_SINGLE_COLUMN_DELIMITERS = "\x1f\x1e\x1d\x1c"  # never in text, so one column stays one column
# ASCII control bytes that do not occur in text (tab, newlines and form feed do).
_CONTROL_BYTES = bytes(set(range(32)) - {9, 10, 12, 13} | {127})
_BINARY_SHARE = 0.05


def read_csv(source, *, progress=None, max_bytes=None, max_rows=None):
    """Read a CSV into a Table.

    source: a path (str or pathlib.Path), bytes, or a file-like object opened in text or binary mode.
    progress: optional callable given fractions 0..1 while reading (a few dozen calls at most).
    max_bytes: optional size limit; a larger input is refused before it is parsed.
    max_rows: optional limit on data rows; parsing stops (with a DataError) as soon as it is passed.

    The delimiter (comma, semicolon or tab) is detected; a UTF-8 byte-order mark is dropped and text that
    is not UTF-8 is read as Latin-1 (Windows-1252); CRLF, LF and CR line endings are accepted; quoted values
    may hold delimiters, doubled quotes and line breaks. Blank lines are skipped. Cells and header names
    are trimmed; blank names become "column_<position>", repeated names get " (2)", " (3)"... ; a trailing
    delimiter on every line (header included) adds no column. "", NA, N/A, ?, null, NaN and None (any
    case) are missing. A column whose every non-missing cell is a number is numeric, else categorical.
    """
    report = _Progress(progress)
    _raise_field_size_limit()
    text = _decode(_read_source(source, max_bytes))
    report(0.05)
    delimiter = sniff_delimiter(text)
    # Parsing makes a list per row; the cyclic garbage collector would scan them all again and again
    # (a third of the time on a large file), though lists of strings hold no cycles. They are freed
    # (by reference counting) before it is switched back on.
    collecting = gc.isenabled()
    gc.disable()
    try:
        names, data, kinds = _read_text(text, delimiter, report, max_rows)
    finally:
        if collecting:
            gc.enable()
    report(1.0)
    return Table._trusted(names, data, kinds)


def _read_text(text, delimiter, report, max_rows=None):
    """Column names, typed column arrays and their kinds."""
    header, rows = _parse(text, delimiter, report, max_rows)
    report(0.75)
    names = unique_names(header)
    columns = list(zip(*rows))
    del rows
    names, columns = _drop_trailing_empty(header, names, columns)
    data, kinds = [], []
    for j in range(len(columns)):
        cells, columns[j] = columns[j], None
        numeric = text_to_numeric(cells)
        data.append(numeric if numeric is not None else text_to_categorical(cells))
        kinds.append(NUMERIC if numeric is not None else CATEGORICAL)
        report(0.75 + 0.25 * (j + 1) / len(columns))
    return names, data, kinds


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


# ---- bytes in, text out -----------------------------------------------------------------------------

def _read_source(source, max_bytes):
    """The raw content (bytes, or str from a text-mode file), refused early if over max_bytes."""
    if isinstance(source, (str, pathlib.PurePath)):
        if isinstance(source, str) and ("\n" in source or "\r" in source):
            raise DataError("read_csv takes a path, bytes or a file object, and this text is not a path; "
                            "to read CSV text, pass source.encode() or io.StringIO(source).")
        if max_bytes is not None:
            _check_size(os.path.getsize(source), max_bytes)
        with open(source, "rb") as handle:
            return handle.read()
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif hasattr(source, "read"):
        data = source.read()
        if not isinstance(data, (str, bytes, bytearray)):
            raise DataError(f"The file object gave {type(data).__name__}, not text or bytes.")
    else:
        raise TypeError(f"read_csv needs a path, bytes or a file object; got {type(source).__name__}.")
    if max_bytes is not None:
        _check_size(len(data.encode("utf-8")) if isinstance(data, str) else len(data), max_bytes)
    return data


def _check_size(size, max_bytes):
    if size > max_bytes:
        found, limit = format_size(size), format_size(max_bytes)
        if found == limit:
            found, limit = f"{size:,} bytes", f"{max_bytes:,} bytes"
        raise DataError(f"The file is too large to load here: the file is {found}; the limit is {limit}.")


def format_size(n_bytes):
    """Bytes for people: 532 bytes, 4.1 kB, 12.3 MB, 2 GB."""
    if n_bytes < 1000:
        return f"{n_bytes} bytes"
    for unit, scale in (("kB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if n_bytes < scale * 999.95 or unit == "GB":
            return f"{n_bytes / scale:.1f}".rstrip("0").rstrip(".") + f" {unit}"


def _decode(data):
    """Text from bytes: UTF-16 with a BOM, else UTF-8 (BOM dropped), else Latin-1; binary is refused."""
    if isinstance(data, (bytes, bytearray)):
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            try:
                data = data.decode("utf-16")
            except UnicodeDecodeError:
                raise DataError("The file starts like UTF-16 text but is not valid UTF-16; "
                                "save it as UTF-8 CSV.") from None
        else:
            _refuse_binary(data, b"\x00", _CONTROL_BYTES, data[:4] == b"PK\x03\x04")
            data = _decode_8bit(data)
    else:
        _refuse_binary(data, "\x00", _CONTROL_BYTES.decode("latin-1"), False)
    text = data[1:] if data.startswith("\ufeff") else data
    if not text.strip():
        raise DataError("The file is empty: there is no header line and no data.")
    return text


def _refuse_binary(data, nul, controls, zipped):
    sample = data[:_SAMPLE_CHARS]
    n_control = sum(sample.count(c) for c in controls) if isinstance(sample, str) else \
        len(sample) - len(sample.translate(None, controls))
    if nul in data or n_control > _BINARY_SHARE * len(sample):
        hint = (" (it is a zip archive, perhaps an Excel workbook: save it as CSV first)" if zipped else
                "; a CSV is plain text with one row per line")
        raise DataError(f"Cannot read this file: this looks like a binary file, not a CSV{hint}.")


def _decode_8bit(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")  # Latin-1 plus the printable characters Windows puts in 0x80-0x9f
    except UnicodeDecodeError:
        return data.decode("latin-1")


# ---- the delimiter ----------------------------------------------------------------------------------

def _reader(text, delimiter):
    return csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, skipinitialspace=True)


def _is_blank(row):
    return not row or (len(row) == 1 and not row[0].strip())


def sniff_delimiter(text):
    """The delimiter among comma, semicolon and tab that splits the first lines into a consistent
    number (> 1) of fields, counting only outside quotes; a single-column file gets a delimiter that
    never occurs in it. A reading in which quotes do not sit at the edges of fields (a strict reading
    fails) is a sign of the wrong delimiter, so strict readings are tried first."""
    sample = text[:_SAMPLE_CHARS]
    truncated = len(sample) < len(text)
    strict = {d: _field_counts(sample, d, truncated, strict=True) for d in DELIMITERS}
    loose = {d: _field_counts(sample, d, truncated, strict=False) for d in DELIMITERS}
    for counts in ({d: c for d, c in strict.items() if c is not None}, loose):
        consistent = [d for d, c in counts.items() if c and c[0] > 1 and len(set(c)) == 1]
        if consistent:
            return max(consistent, key=lambda d: counts[d][0])  # ties: the first in DELIMITERS
    splitting = [d for d, c in loose.items() if c and c[0] > 1]
    if splitting:  # a ragged file: pick the best fit, so that parsing reports the odd line
        return max(splitting, key=lambda d: (strict[d] is not None,
                                             sum(n == loose[d][0] for n in loose[d]), loose[d][0]))
    return next((d for d in _SINGLE_COLUMN_DELIMITERS if d not in text), ",")


def _field_counts(sample, delimiter, truncated, strict):
    """Fields in each non-blank row of the sample; None when a strict reading fails before its end."""
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter, skipinitialspace=True,
                        strict=strict)
    counts = []
    try:
        for row in itertools.islice(reader, _SAMPLE_ROWS):
            if not _is_blank(row):
                counts.append(len(row))
    except csv.Error:
        n_lines = len(io.StringIO(sample, newline="").readlines())
        if not truncated or reader.line_num < n_lines:
            return None  # a misplaced quote, not just a sample cut inside a quoted value
    if truncated and len(counts) > 1:
        counts.pop()  # the sample may end inside this row
    return counts


# ---- parsing -----------------------------------------------------------------------------------------

def _raise_field_size_limit():
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 2


def _parse(text, delimiter, report, max_rows=None):
    """The header and the data rows (blank lines dropped), each row with as many fields as the header."""
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
    while rows and _is_blank(rows[0]):
        rows.pop(0)
    if not rows:
        raise DataError("The file is empty: there is no header line and no data.")
    header, rows = rows[0], rows[1:]
    n_fields = len(header)
    if set(map(len, rows)) - {n_fields}:
        rows = [r for r in rows if len(r) == n_fields or not _is_blank(r)]
        _check_ragged(text, delimiter, header, rows)
    if not rows:
        names = ", ".join(h.strip() for h in header)
        raise DataError(f"The file has a header line ({names}) but no data rows.")
    return header, rows


def _check_row_limit(text, rows, max_rows):
    """Stop before all of a too-long file is held in memory, saying about how many rows it has."""
    kept = sum(1 for r in rows if r and r != [_END]) - 1  # blank lines are not rows; nor is the header
    if kept > max_rows:
        lines = max(text.count("\n"), text.count("\r")) + (not text.endswith(("\n", "\r")))
        raise DataError(f"This file has about {max(kept, lines - 1):,} rows; the limit here is {max_rows:,} "
                        "rows (more would run out of memory). Use a sample of the rows, or run pellucid "
                        "in Python, which has no such limit.")


def _kept_records(text, delimiter):
    """(first line number, row) for each record kept by _parse, the header first."""
    reader = _reader(text, delimiter)
    start, n_fields = 1, None
    for row in reader:
        if row and not (_is_blank(row) and n_fields != 1):
            n_fields = n_fields or len(row)
            yield start, row
        start = reader.line_num + 1


def _check_ragged(text, delimiter, header, rows):
    n_fields = len(header)
    bad = next((i for i, r in enumerate(rows) if len(r) != n_fields), None)
    if bad is None:
        return
    records = _kept_records(text, delimiter)
    header_line = next(records)[0]
    line, row = next(itertools.islice(records, bad, None))
    name = DELIMITERS.get(delimiter, "delimiter")
    found = f"{len(row)} field" + ("" if len(row) == 1 else "s")
    message = (f"Line {line} has {found}, but the header (line {header_line}) has {n_fields}: "
               f"expected {n_fields} {name}-separated values, found {len(row)}.")
    if any("\n" in f or "\r" in f for f in row):
        message += f" A quoted value on line {line} may be missing its closing quote."
    elif len(row) == n_fields + 1 and not row[-1].strip():
        message += f" Line {line} ends with a trailing {name}; the header does not."
    elif len(row) == n_fields - 1 and not header[-1].strip():
        message += f" The header ends with a trailing {name}; line {line} does not."
    else:
        message += f" Is there an unquoted {name} inside a value, or a value missing?"
    raise DataError(message)


def _raise_unclosed_quote(text, delimiter):
    """The last record ran to the end of the input inside quotes: say on which line that quote opened."""
    start, row = 1, None
    for start, row in _kept_records(text, delimiter):
        pass
    # Fields before the unclosed one may hold line breaks of their own (inside proper quotes).
    earlier = "".join(row[:-1]) if row else ""
    line = start + earlier.count("\n") + earlier.count("\r") - earlier.count("\r\n")
    raise DataError(f"A quoted value that starts on line {line} is never closed: its opening quote (\") "
                    "has no closing quote before the end of the file. Close it, and double any quote "
                    "that is part of a value (\"\").")


# ---- header names ------------------------------------------------------------------------------------

def unique_names(raw):
    """Trimmed, non-blank, unique column names: blank -> "column_<position>", repeats -> "name (2)"."""
    names = [h.strip() or f"column_{j + 1}" for j, h in enumerate(raw)]
    given, taken, out = set(names), set(), []
    for name in names:
        unique, k = name, 2
        while unique in taken:  # a repeat: the first free suffix that no other column is called
            unique, k = f"{name} ({k})", k + 1
            if unique in given:
                unique = name
        taken.add(unique)
        out.append(unique)
    return out


def _drop_trailing_empty(header, names, columns):
    """Drop columns made by a trailing delimiter: unnamed, last, and empty on every line."""
    while len(columns) > 1 and not header[len(columns) - 1].strip() and not "".join(columns[-1]).strip():
        columns.pop()
    return names[:len(columns)], columns
