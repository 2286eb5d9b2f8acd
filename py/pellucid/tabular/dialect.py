"""How a CSV file is written: its delimiter, from Excel's "sep=" first line when there is one, else
sniffed from the first lines.
"""

import csv
import io
import itertools
import re

DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}
# When several delimiters split every line alike, the first of these wins: a tab or a semicolon that
# does so is almost never inside the values, while commas often are ("Smith, J", a decimal comma "1,5").
_PREFERENCE = ("\t", ";", ",")
_SAMPLE_CHARS = 65536  # how much text the delimiter is judged on
_SAMPLE_ROWS = 50
_SINGLE_COLUMN_DELIMITERS = "\x1f\x1e\x1d\x1c"  # never in text, so one column stays one column
# Excel's first line naming the delimiter ("sep=;"), which it writes and honours on opening.
_SEP_LINE = re.compile(r'"?sep=([^"\r\n])"?[ \t]*(?=\r\n|\n|\r|$)', re.IGNORECASE)


def delimiter_name(delimiter):
    """"comma", "semicolon", "tab", or the character itself in quotes."""
    return DELIMITERS.get(delimiter, f"{delimiter!r}")


def splits(delimiter):
    """False for the delimiter `sniff_delimiter` gives a file of one column (one it does not hold)."""
    return delimiter not in _SINGLE_COLUMN_DELIMITERS


def take_sep_line(text):
    """(text, delimiter): the delimiter named by a first line "sep=X", and the text with that line
    blanked (blank lines are skipped, and the line numbers of errors stay those of the file); or
    (text, None) when the file has no such line."""
    found = _SEP_LINE.match(text)
    if not found:
        return text, None
    return text[found.end():], found.group(1)


def is_blank(row):
    return not row or (len(row) == 1 and not row[0].strip())


def sniff_delimiter(text):
    """The delimiter among tab, semicolon and comma that splits the first lines into a consistent
    number (> 1) of fields, counting only outside quotes (when several do, the one that reads the most
    rows, then the fewest values holding a quote, then the first in that order: split at a delimiter
    that is inside quotes, `a,";"` reads a quote in the middle of a value, as a value running over the
    line end or as a quote kept in the value); a
    single-column file gets a delimiter that never occurs in it. A reading in which quotes do not sit
    at the edges of fields (a strict reading fails) is a sign of the wrong delimiter, so strict readings
    are tried first."""
    sample = text[:_SAMPLE_CHARS]
    truncated = len(sample) < len(text)
    strict = {d: _field_counts(sample, d, truncated, strict=True) for d in _PREFERENCE}
    loose = {d: _field_counts(sample, d, truncated, strict=False) for d in _PREFERENCE}
    for counts in ({d: c for d, c in strict.items() if c is not None}, loose):
        consistent = [d for d, c in counts.items() if c and c[0] > 1 and len(set(c)) == 1]
        if consistent:  # a wrong delimiter can pair quotes across line ends, or leave them inside values
            return max(consistent, key=lambda d: (len(counts[d]), -_values_with_quotes(sample, d)))
    splitting = [d for d, c in loose.items() if c and c[0] > 1]
    if splitting:  # a ragged file: pick the best fit, so that parsing reports the odd line
        return max(splitting, key=lambda d: (strict[d] is not None,
                                             sum(n == loose[d][0] for n in loose[d]), loose[d][0]))
    return next((d for d in _SINGLE_COLUMN_DELIMITERS if d not in text), ",")


def _values_with_quotes(sample, delimiter):
    """How many values of the sample's first rows still hold a quote character once read."""
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter, skipinitialspace=True)
    try:
        return sum('"' in value for row in itertools.islice(reader, _SAMPLE_ROWS) for value in row)
    except csv.Error:
        return _SAMPLE_ROWS  # a sample cut inside a quoted value: no better than any other reading


def _field_counts(sample, delimiter, truncated, strict):
    """Fields in each non-blank row of the sample; None when a strict reading fails before its end."""
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter, skipinitialspace=True,
                        strict=strict)
    counts = []
    try:
        for row in itertools.islice(reader, _SAMPLE_ROWS):
            if not is_blank(row):
                counts.append(len(row))
    except csv.Error:
        n_lines = len(io.StringIO(sample, newline="").readlines())
        if not truncated or reader.line_num < n_lines:
            return None  # a misplaced quote, not just a sample cut inside a quoted value
    if truncated and len(counts) > 1:
        counts.pop()  # the sample may end inside this row
    return counts
