"""Reading a plain CSV quickly: a file with no quotes, the same number of fields on every line and no
blank lines, which is what most large files exported by programs look like.

Such a file needs no CSV state machine: its cells are what lies between the delimiters. numpy's
`loadtxt` (compiled) reads it in one pass into a structured array, numbers straight into float64 and
the other columns as text, instead of the `csv` module making a Python list for every row and a string
for every cell (a million rows of ten columns: about 15 s in the browser, against 2 here). Whatever does
not fit (quotes, ragged lines, a cell that is not a number after all) is left to csvio's general reader,
and every rule of csvio still decides what a column is: this module only finds the cells.
"""

import io

import numpy as np

from .cells import is_csv_number

_CHUNKS = 10           # loadtxt calls per file, so that progress can be reported between them
_MIN_CHUNK_CHARS = 1 << 20
_EXACT = 2 ** 53       # beyond this a float column may hold a rounded long integer: csvio judges its text


class PlainText:
    """A CSV text that `is_plain` accepted: `body` ends with one line break and starts with data (the
    blank lines before it dropped), `encoded` is it in UTF-8; every line has `n_fields` fields."""

    def __init__(self, body, encoded, delimiter, n_fields):
        self.body, self.encoded, self.delimiter, self.n_fields = body, encoded, delimiter, n_fields
        self.n_lines = encoded.count(b"\n")

    def head(self, n):
        """The first `n` lines as rows of cells, as csv.reader(skipinitialspace=True) gives them."""
        rows, start = [], 0
        while len(rows) < n and start < len(self.body):
            end = self.body.index("\n", start)
            first, *rest = self.body[start:end].split(self.delimiter)
            rows.append([first] + [cell.lstrip(" ") for cell in rest])
            start = end + 1
        return rows

    def columns(self, skip, number_columns, report):
        """The columns below the first `skip` lines: a float64 array for each of `number_columns` (indices)
        whose every cell loadtxt reads as a number, a list of str for the others; None when loadtxt cannot
        read the text as it was expected to be (csvio then reads it the general way).

        A column guessed to hold numbers that turns out not to (a missing marker, a word further down) is
        read again as text; a float column holding a number beyond 2^53 too, as csvio must see how
        it was written (an 18-digit ID is kept as text)."""
        if number_columns and not _number_safe(self.body, self.encoded, self.delimiter):
            number_columns = []
        for guess in (number_columns, []) if number_columns else ([],):
            read = self._read(skip, guess, report)
            if read is not None and not any(np.abs(read[j]).max(initial=0) >= _EXACT for j in guess):
                return [np.ascontiguousarray(read[j]) if j in guess else read[j].tolist()
                        for j in range(self.n_fields)]
        return None

    def _read(self, skip, number_columns, report):
        dtype = np.dtype([(f"f{j}", float if j in number_columns else object) for j in range(self.n_fields)])
        parts = []
        try:
            for k, chunk in enumerate(self._chunks(skip)):
                parts.append(np.loadtxt(io.StringIO(chunk), dtype=dtype, delimiter=self.delimiter,
                                        comments=None, quotechar=None, ndmin=1, encoding=None))
                report((k + 1) / _CHUNKS)
        except ValueError:  # a cell that is not a number in a column guessed to be numbers
            return None
        table = np.concatenate(parts) if len(parts) > 1 else parts[0] if parts else None
        if table is None or len(table) != self.n_lines - skip:  # each line a row, or it is not read as meant
            return None
        return [table[f"f{j}"] for j in range(self.n_fields)]

    def _chunks(self, skip):
        """The lines below the first `skip`, in about _CHUNKS pieces cut at line breaks."""
        start = 0
        for _ in range(skip):
            start = self.body.index("\n", start) + 1
        size = max(_MIN_CHUNK_CHARS, (len(self.body) - start) // _CHUNKS + 1)
        while start < len(self.body):
            end = self.body.find("\n", min(start + size, len(self.body) - 1)) + 1
            yield self.body[start:end]
            start = end


def is_plain(text, delimiter):
    """A PlainText when the text has no quote, no carriage return but in CRLF line ends, no blank line
    (but at the start) and as many fields on every line as on the first; else None."""
    if '"' in text:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    body = text.lstrip("\n")
    if not body.endswith("\n"):
        body += "\n"
    if "\n\n" in body:
        return None
    n_fields = body[:body.index("\n")].count(delimiter) + 1
    # The delimiters and line breaks alone, in order: on a rectangular file, n_fields - 1 delimiters
    # then a line break, over and over (compiled byte operations, no Python loop).
    encoded = body.encode("utf-8")
    keep = delimiter.encode("utf-8") + b"\n"
    if len(keep) != 2:
        return None
    separators = encoded.translate(None, bytes(set(range(256)) - set(keep)))
    n_lines = len(separators) // n_fields
    if separators != (keep[:1] * (n_fields - 1) + b"\n") * n_lines:
        return None
    return PlainText(body, encoded, delimiter, n_fields)


def guess_number_columns(rows):
    """Indices of the columns whose every cell in `rows` (a sample) is written as a number."""
    if not rows:
        return []
    return [j for j in range(len(rows[0])) if all(is_csv_number(row[j]) for row in rows)]


def _number_safe(body, encoded, delimiter):
    """Whether loadtxt's reading of a number agrees with csvio's rule on every cell it could read: an
    ASCII text (loadtxt, like float(), skips Unicode spaces that csvio refuses) with no cell starting
    with a zero then a digit ("007" is a code, not 7)."""
    if not body.isascii():
        return False
    # Each character by class: "|" a field's start, "s" a sign, "0" a zero, "d" another digit; spaces
    # dropped (they may precede a number). A code is "|0" then a digit, maybe after a sign.
    classes = bytes.maketrans(b"\n" + delimiter.encode("ascii") + b"+-0123456789",
                              b"||ss0ddddddddd")
    spaces = bytes(c for c in b" \t\x0b\x0c" if c != ord(delimiter))
    marked = b"|" + encoded.translate(classes, spaces)
    return not any(pattern in marked for pattern in (b"|00", b"|0d", b"|s00", b"|s0d"))
