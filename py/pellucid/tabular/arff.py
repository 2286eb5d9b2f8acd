"""Weka's ARFF files: a header declaring the relation and each attribute with its type, then the rows.

    % a comment
    @relation weather
    @attribute outlook {sunny, overcast, rainy}
    @attribute temperature numeric
    @attribute 'play?' {yes, no}
    @data
    sunny, 85, no
    ?, 80, 'yes'

The declared types are the column kinds: numeric, real and integer columns are numbers; nominal ({...}),
string and date columns are categorical (the profile then tells dates apart, as for a CSV). "?" is the one
missing value; values and names may be quoted with ' or " (a backslash escapes the next character).
Keywords are read in any case. The size and row limits are those of read_csv, and a DataError names the
line of anything that cannot be read: an unknown type, a row with too few or too many values, a word in a
numeric column, a value outside a nominal column's list. Sparse rows ({0 x, 3 y}) and relational
attributes are refused by name.
"""

import numpy as np

from ..core.errors import DataError
from .cells import CATEGORICAL, NUMERIC
from .csv_parse import raise_too_many_rows
from .header import unique_names
from .read_info import ReadInfo
from .table import Table
from .text_source import decode, read_source

NUMBER_TYPES = ("numeric", "real", "integer")


def read_arff(source, *, progress=None, max_bytes=None, max_rows=None):
    """A Table from an ARFF file (a path, bytes or a file object), with a ReadInfo whose notes say it was
    read as ARFF; the limits as read_csv takes them."""
    report = progress or (lambda fraction: None)
    text = decode(read_source(source, max_bytes))
    lines = text.splitlines()
    relation, attributes, start = _header(lines)
    report(0.1)
    names = unique_names([name for name, _ in attributes])
    cells = [[] for _ in attributes]
    n_rows = 0
    for number in range(start, len(lines)):
        line = lines[number].strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("{"):
            raise DataError(f"Line {number + 1} is a sparse ARFF row ({line[:40]}...); only rows that list every "
                            "value are read here.")
        values = _split(line, number + 1)
        if len(values) != len(attributes):
            raise DataError(f"Line {number + 1} has {len(values)} values; the header declares "
                            f"{len(attributes)} attributes.")
        n_rows += 1
        if max_rows is not None and n_rows > max_rows:
            raise_too_many_rows(sum(1 for rest in lines[start:] if rest.strip() and not rest.lstrip().startswith("%")),
                                max_rows)
        for column, value in zip(cells, values):
            column.append((value, number + 1))
        if n_rows % 20_000 == 0:
            report(0.1 + 0.8 * number / len(lines))
    data, kinds = [], []
    for name, (_, kind), column in zip(names, attributes, cells):
        values, k = _column(name, kind, column)
        data.append(values)
        kinds.append(k)
    table = Table._trusted(names, data, kinds)
    note = (f"Read as a Weka ARFF file (relation {relation!r}): {len(names)} attributes, their declared "
            "types used as the column kinds; \"?\" is missing.")
    table.read_info = ReadInfo(delimiter=",", sep_line=False, header=True, header_detected=False, notes=(note,))
    report(1.0)
    return table


def _header(lines):
    """(relation name, [(attribute name, kind: "numeric", a tuple of nominal values, "string" or "date")],
    the index of the first line after @data)."""
    relation, attributes = "", []
    for number, raw in enumerate(lines):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        keyword = line.split(None, 1)[0].lower()
        if keyword == "@relation":
            relation = _unquote(line[len(keyword):].strip(), number + 1)
        elif keyword == "@attribute":
            attributes.append(_attribute(line[len(keyword):].strip(), number + 1))
        elif keyword == "@data":
            if not attributes:
                raise DataError(f"Line {number + 1}: @data comes before any @attribute; an ARFF file declares its "
                                "attributes first.")
            return relation, attributes, number + 1
        else:
            raise DataError(f"Line {number + 1} is not an ARFF header line (@relation, @attribute or @data): "
                            f"{line[:60]!r}.")
    raise DataError("This ARFF file has no @data line, so it holds no rows.")


def _attribute(rest, number):
    """(name, kind) of the text after "@attribute"."""
    if rest[:1] in ("'", '"'):
        end = _closing_quote(rest, 0, number)
        name, kind = _unquote(rest[:end + 1], number), rest[end + 1:].strip()
    else:
        name, kind = (rest.split(None, 1) + [""])[:2]
        if "{" in name:  # "@attribute colour{red,green}"
            name, kind = rest[:rest.index("{")].strip(), rest[rest.index("{"):]
        kind = kind.strip()
    if not name or not kind:
        raise DataError(f"Line {number}: an @attribute needs a name and a type; got {rest[:60]!r}.")
    if kind.startswith("{"):
        if not kind.endswith("}"):
            raise DataError(f"Line {number}: the list of values of {name!r} does not end with '}}'.")
        return name, tuple(_split(kind[1:-1], number))
    word = kind.split(None, 1)[0].lower()
    if word in NUMBER_TYPES:
        return name, "numeric"
    if word in ("string", "date"):
        return name, word
    if word == "relational":
        raise DataError(f"Line {number}: {name!r} is a relational attribute, which is not read here.")
    raise DataError(f"Line {number}: {name!r} has the type {kind.split(None, 1)[0]!r}; ARFF types are numeric, "
                    "real, integer, string, date or a {list, of, values}.")


def _split(line, number):
    """The comma-separated values of a row (or a nominal list), unquoted; "?" unquoted stays "?"."""
    if "'" not in line and '"' not in line:
        return [value.strip() for value in line.split(",")]
    values, i = [], 0
    while True:
        while i < len(line) and line[i] in " \t":
            i += 1
        if i < len(line) and line[i] in ("'", '"'):
            end = _closing_quote(line, i, number)
            values.append(("quoted", _unquote(line[i:end + 1], number)))
            i = line.find(",", end + 1)
            if i >= 0 and line[end + 1:i].strip():
                raise DataError(f"Line {number}: text after a closing quote: {line[end + 1:i].strip()[:30]!r}.")
        else:
            comma = line.find(",", i)
            values.append(line[i:comma if comma >= 0 else len(line)].strip())
            i = comma
        if i < 0:
            return [value[1] if isinstance(value, tuple) else value for value in _mark_quoted(values)]
        i += 1


def _mark_quoted(values):
    """A quoted "?" is the text ?, not a missing value: kept apart from the unquoted one."""
    return [("quoted", "\x00?") if isinstance(v, tuple) and v[1] == "?" else v for v in values]


def _closing_quote(text, start, number):
    quote, i = text[start], start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i
        i += 1
    raise DataError(f"Line {number}: a value opened with {quote} is not closed.")


def _unquote(text, number):
    if text[:1] in ("'", '"'):
        if len(text) < 2 or text[-1] != text[0]:
            raise DataError(f"Line {number}: the name {text[:40]!r} is not closed with its quote.")
        body, out, i = text[1:-1], [], 0
        while i < len(body):
            if body[i] == "\\" and i + 1 < len(body):
                out.append({"n": "\n", "t": "\t"}.get(body[i + 1], body[i + 1]))
                i += 2
            else:
                out.append(body[i])
                i += 1
        return "".join(out)
    return text


def _column(name, kind, cells):
    """(values, kind) of one attribute's cells [(text, line number)]."""
    if kind == "numeric":
        out = np.empty(len(cells))  # (n,)
        for i, (text, number) in enumerate(cells):
            if text == "?":
                out[i] = np.nan
                continue
            try:
                out[i] = float(text)
            except ValueError:
                raise DataError(f"Line {number}: {text!r} in the numeric attribute {name!r} is not a "
                                "number.") from None
        return out, NUMERIC
    allowed = {"?" if v == "\x00?" else v for v in kind} if isinstance(kind, tuple) else None
    out = np.empty(len(cells), dtype=object)  # (n,)
    for i, (text, number) in enumerate(cells):
        if text == "?":
            out[i] = None
            continue
        text = "?" if text == "\x00?" else text
        if allowed is not None and text not in allowed:
            raise DataError(f"Line {number}: {text!r} is not one of the values declared for {name!r} "
                            f"({', '.join(sorted(allowed))[:80]}).")
        out[i] = text
    return out, CATEGORICAL
