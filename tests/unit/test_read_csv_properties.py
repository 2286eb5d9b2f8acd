"""Property tests of read_csv: generated tables written by Python's csv.writer read back unchanged, and
arbitrary bytes give a Table or a DataError, never anything else."""

import csv
import io
import re

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pellucid.tabular.cells import csv_numbers, is_csv_number, is_missing_text, may_refuse, why_not_a_number
from pellucid.tabular.csvio import read_csv
from pellucid.core.errors import DataError
from pellucid.tabular.table import Table

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DELIMITERS = [",", ";", "\t"]
MARKERS = ["", "NA", "na", "N/A", "#N/A", "?", "null", "NULL", "NaN", "nan", " NA "]
MISSING = {"", "na", "n/a", "#n/a", "?", "null", "nan"}  # "None" is a value


def characters(excluded):
    """Any printable unicode plus quotes and line breaks; no control characters (those mark binary)."""
    return st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff" + excluded,
                         whitelist_characters="\r\n\"' ")


def cells(excluded):
    numbers = st.one_of(st.integers(-10**6, 10**6).map(str),
                        st.floats(allow_nan=False, allow_infinity=False).map(repr),
                        st.floats(-1e3, 1e3).map(lambda v: f" {v:.3g} "),
                        # What float() reads but a CSV does not write as a number: codes, IDs, "1_000".
                        st.integers(0, 999).map(lambda v: f"0{v}"), st.integers(10**17, 10**19).map(str),
                        st.integers(1, 99).map(lambda v: f"{v}_000"),
                        st.sampled_from(["\u0661\u0662", "inf"]))
    return st.one_of(st.text(characters(excluded), max_size=12), numbers,
                     st.sampled_from(MARKERS), st.sampled_from(['"', '""', "a,b", "x;y", "\n", "  pad  "]))


# A number as a spreadsheet writes it: ASCII digits, an optional sign, point and exponent, no leading
# zero before another digit; or an infinity, as Python writes one.
NUMBER = re.compile(r"[+-]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                    r"|[+-]?(?:inf|infinity)", re.IGNORECASE)


def is_number(text):
    """Cell by cell, from the grammar above: an integer float64 would round (an ID) is not a number."""
    if not NUMBER.fullmatch(text):
        return False
    return not re.fullmatch(r"[+-]?[0-9]+", text) or int(float(text)) == int(text)


def oracle_column(texts):
    """What read_csv should make of a column of cell texts, computed cell by cell."""
    stripped = [t.strip() for t in texts]
    present = [t for t in stripped if t.lower() not in MISSING]
    if all(is_number(t) for t in present):
        return "numeric", [float(t) if t in present else float("nan") for t in stripped]
    return "categorical", [t if t in present else None for t in stripped]


@st.composite
def written_tables(draw):
    delimiter = draw(st.sampled_from(DELIMITERS))
    quoting = draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]))
    # Unquoted values must not hold the other candidate delimiters (they would be a different,
    # equally valid reading of the file); quoted ones may hold anything.
    others = "" if quoting == csv.QUOTE_ALL else "".join(d for d in DELIMITERS if d != delimiter)
    cell = cells(others).filter(lambda t: not any(d in t for d in others))
    n_cols = draw(st.integers(1, 5))
    n_rows = draw(st.integers(1, 8))
    name = st.text(characters(others), min_size=1, max_size=8).map(str.strip).filter(
        lambda t: t and not any(d in t for d in others))
    names = draw(st.lists(name, min_size=n_cols, max_size=n_cols, unique=True))
    rows = draw(st.lists(st.lists(cell, min_size=n_cols, max_size=n_cols), min_size=n_rows, max_size=n_rows))
    # csv.writer quotes a value holding "\r" only if "\r" is in its line terminator.
    lineterminator = draw(st.sampled_from(["\r\n", "\n"])) if quoting == csv.QUOTE_ALL else "\r\n"
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, quoting=quoting, lineterminator=lineterminator)
    writer.writerow(names)
    writer.writerows(rows)
    return out.getvalue(), names, rows


def assert_column_equal(table, name, kind, expected):
    assert table.kinds[name] == kind, (name, table.column(name), expected)
    got = table.column(name).tolist()
    if kind == "numeric":
        np.testing.assert_array_equal(np.array(got), np.array(expected))  # NaN equals NaN here
        assert table.missing[name] == int(np.isnan(expected).sum())
    else:
        assert got == expected
        assert table.missing[name] == expected.count(None)


@SETTINGS
@given(written_tables(), st.sampled_from(["utf-8", "utf-8-sig", "latin-1"]))
def test_written_tables_read_back_unchanged(written, encoding):
    text, names, rows = written
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        assume(False)
    if encoding == "latin-1":  # only the bytes that are not UTF-8 are read as Latin-1
        assume(data.isascii() or not _is_utf8(data))
    table = read_csv(data, header=True)
    assert table.columns == names
    assert table.read_info.header and not table.read_info.header_detected
    assert table.n_rows == len(rows)
    for j, name in enumerate(names):
        kind, expected = oracle_column([row[j] for row in rows])
        assert_column_equal(table, name, kind, expected)


def _is_utf8(data):
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


@SETTINGS
@given(written_tables())
def test_bytes_text_file_and_binary_file_agree(written):
    text = written[0]
    tables = [read_csv(text.encode()), read_csv(io.StringIO(text, newline="")),
              read_csv(io.BytesIO(text.encode()))]
    assert len({table.read_info for table in tables}) == 1
    for table in tables[1:]:
        assert table.summary() == tables[0].summary()
        for name in table.columns:
            np.testing.assert_array_equal(table.column(name), tables[0].column(name))


plain_text = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff"),
                     min_size=1, max_size=10).map(str.strip).filter(
    lambda t: t.lower() not in MISSING)


@st.composite
def tables(draw):
    n_rows = draw(st.integers(1, 6))
    numeric = st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=n_rows, max_size=n_rows)
    text = st.lists(st.one_of(st.none(), plain_text), min_size=n_rows, max_size=n_rows)
    names = draw(st.lists(st.text("abc xyz,;\"", min_size=1, max_size=5).map(str.strip).filter(bool),
                          min_size=1, max_size=4, unique=True))
    return Table({name: draw(st.one_of(numeric, text)) for name in names})


@SETTINGS
@given(tables())
def test_to_csv_reads_back_to_the_same_values(table):
    back = read_csv(table.to_csv().encode(), header=True)
    assert back.columns == table.columns and back.n_rows == table.n_rows
    for name in table.columns:
        if table.kinds[name] == "numeric":
            np.testing.assert_array_equal(back.column(name), table.column(name))
        else:  # text that happens to be all numbers is read back as numbers, as any CSV would be
            kind, expected = oracle_column(["" if v is None else v for v in table.column(name).tolist()])
            assert_column_equal(back, name, kind, expected)


def check_table_invariants(table):
    assert table.n_rows >= 1
    assert len(set(table.columns)) == len(table.columns)
    assert all(name.strip() == name and name for name in table.columns)
    for name in table.columns:
        column = table.column(name)
        assert len(column) == table.n_rows
        if table.kinds[name] == "numeric":
            assert column.dtype == np.float64
            assert table.missing[name] == int(np.isnan(column).sum())
        else:
            assert column.dtype == object
            assert all(v is None or isinstance(v, str) for v in column.tolist())
            assert table.missing[name] == sum(v is None for v in column.tolist())


def read_or_data_error(data):
    try:
        table = read_csv(data)
    except DataError as error:
        assert str(error)
        return None
    check_table_invariants(table)
    return table


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_give_a_table_or_a_data_error(data):
    read_or_data_error(data)


PIECES = [b"a", b"B", b"1", b"2.5", b"-", b"e", b" ", b",", b";", b"\t", b'"', b'""', b"\n", b"\r", b"\r\n",
          b"NA", b"?", b"\xe9", b"\xc3\xa9", b"\xef\xbb\xbf", b"\xff\xfe", b"\x00", b"\x01"]


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join))
def test_messy_csv_like_bytes_give_a_table_or_a_data_error(data):
    read_or_data_error(data)


@SETTINGS
@given(written_tables(), st.data())
def test_damaged_csv_gives_a_table_or_a_data_error(written, data):
    raw = bytearray(written[0].encode())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw)))
        raw[at:at] = data.draw(st.sampled_from(PIECES))
    read_or_data_error(bytes(raw))


# ---- a column is numbers exactly when each of its cells is one ---------------------------------------

number_like_cells = st.one_of(
    st.from_regex(r"\A[ ]?[+-]?0{0,2}[0-9]{0,20}(\.[0-9]{0,3})?([eE][+-]?[0-9]{1,3})?[ ]?\Z"),
    st.from_regex(r"\A[+-]?[0-9]{0,3},[0-9]{0,3}\Z"),
    st.sampled_from(MARKERS + ["inf", "-Infinity", "1_0", "\u0661", "\xa01\xa0", " 007", "0", "-0"]),
    st.text(max_size=4))


@SETTINGS
@given(st.lists(number_like_cells, min_size=1, max_size=30), st.booleans())
def test_a_column_is_numbers_exactly_when_each_cell_is_a_number(cells, decimal_comma):
    values, refused = csv_numbers(cells, decimal_comma=decimal_comma)
    each = [is_missing_text(c) or is_csv_number(c, decimal_comma) for c in cells]
    assert (values is not None) == all(each)
    if values is not None:
        expected = [np.nan if is_missing_text(c) else float(c.replace(",", ".") if decimal_comma else c)
                    for c in cells]
        np.testing.assert_array_equal(values, expected)
    if refused is not None:  # the cell named is one the column holds, and one float() reads
        cell, reason = refused
        assert reason == why_not_a_number(cell)
        assert cell.replace(",", ".") in [c.replace(",", ".") for c in cells]


@SETTINGS
@given(written_tables())
def test_a_file_said_to_hold_no_doubtful_numbers_holds_none(written):
    text, _, rows = written
    delimiter = read_csv(text.encode(), header=True).read_info.delimiter or ","
    if not may_refuse(text, delimiter):
        numbers = [cell for row in rows for cell in row if _reads_as_float(cell)]
        assert all(why_not_a_number(cell) in (None, "too long") for cell in numbers)


def _reads_as_float(text):
    try:
        float(text)
        return True
    except ValueError:
        return False
