"""Unit tests of read_csv and the Table it returns."""

import csv
import io
import json

import numpy as np
import pytest

from pellucid.tabular.csvio import format_size, read_csv
from pellucid.core.errors import DataError
from pellucid.tabular.table import Table
from pellucid.core.validation import check_X


def values(table, name):
    """A column as a plain list with None for missing (NaN or None)."""
    return [None if v is None or v != v else v for v in table.column(name).tolist()]


# ---- delimiters, encodings, line endings, quotes -----------------------------------------------------

@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_each_delimiter_is_detected(delimiter):
    text = delimiter.join(["age", "city", "score"]) + "\n"
    text += delimiter.join(["31", "Oslo", "2.5"]) + "\n" + delimiter.join(["45", "Lima", "-1e3"]) + "\n"
    table = read_csv(text.encode())
    assert table.columns == ["age", "city", "score"]
    assert table.kinds == {"age": "numeric", "city": "categorical", "score": "numeric"}
    assert values(table, "age") == [31.0, 45.0]
    assert values(table, "city") == ["Oslo", "Lima"]
    assert values(table, "score") == [2.5, -1000.0]


def test_delimiter_inside_quotes_does_not_count():
    # Semicolon-separated, with commas inside quoted values (and a decimal comma, which stays text).
    data = b'name;note;x\n"Smith, J";"a, b, c";1,5\n"Doe, A";"d";2,5\n'
    table = read_csv(data)
    assert table.columns == ["name", "note", "x"]
    assert values(table, "name") == ["Smith, J", "Doe, A"]
    assert values(table, "note") == ["a, b, c", "d"]


@pytest.mark.parametrize("data, columns, last", [
    (b'a,";"\n0,";0"\n', ["a", ";"], ";0"),  # split at ";", the quotes pair across the line end
    (b'a,",",";a"\n0,0,";0"\n', ["a", ",", ";a"], ";0"),  # split at ";", quotes stay inside values
])
def test_a_semicolon_inside_quoted_values_does_not_win_over_the_comma(data, columns, last):
    """Written by Table.to_csv: the values themselves hold the semicolons."""
    table = read_csv(data, header=True)
    assert table.columns == columns and table.n_rows == 1
    assert values(table, columns[-1]) == [last]


def test_a_single_column_file_keeps_commas_in_its_values():
    table = read_csv(b"name\nSmith, John\nDoe\n\"Roe, R\"\n")
    assert table.columns == ["name"]
    assert values(table, "name") == ["Smith, John", "Doe", "Roe, R"]


def test_utf8_bom_is_stripped():
    table = read_csv("\ufeffid,name\n1,Zoë\n".encode("utf-8"))
    assert table.columns == ["id", "name"]
    assert values(table, "name") == ["Zoë"]


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_endings(newline):
    text = newline.join(["a,b", "1,x", "2,y", "3,z"]) + newline
    table = read_csv(text.encode())
    assert table.n_rows == 3
    assert values(table, "a") == [1.0, 2.0, 3.0]
    assert values(table, "b") == ["x", "y", "z"]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_quoted_fields_with_delimiters_doubled_quotes_and_newlines(delimiter):
    d = delimiter
    text = (f'id{d}text{d}n\r\n'
            f'1{d}"a{d} b"{d}3\r\n'
            f'2{d}"she said ""hi"""{d}4\r\n'
            f'3{d}"two\r\nlines{d} and\nmore"{d}5\r\n')
    table = read_csv(text.encode())
    assert table.n_rows == 3
    assert values(table, "text") == [f"a{d} b", 'she said "hi"', f"two\r\nlines{d} and\nmore"]
    assert values(table, "n") == [3.0, 4.0, 5.0]


def test_latin1_bytes_that_are_not_utf8():
    data = "name,city\nAnaïs,Café\nJosé,Zürich\n".encode("latin-1")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    table = read_csv(data)
    assert values(table, "name") == ["Anaïs", "José"]
    assert values(table, "city") == ["Café", "Zürich"]


def test_utf16_with_bom():
    table = read_csv("x;y\n1;é\n".encode("utf-16"))
    assert values(table, "x") == [1.0] and values(table, "y") == ["é"]


def test_a_one_megabyte_cell_reads_despite_the_default_field_size_limit():
    csv.field_size_limit(131072)  # the csv module's default, far below one cell here
    big = "x" * 1_000_000
    data = f'id,blob\n1,"{big}"\n2,{big}y\n'.encode()
    table = read_csv(data)
    assert values(table, "blob") == [big, big + "y"]
    assert values(table, "id") == [1.0, 2.0]


def test_cells_and_header_names_are_trimmed():
    table = read_csv(b"  a  ,\tb \n  1 , x y  \n 2,  z\n")
    assert table.columns == ["a", "b"]
    assert values(table, "a") == [1.0, 2.0]
    assert values(table, "b") == ["x y", "z"]


# ---- missing values and kinds ------------------------------------------------------------------------

MARKERS = ["", "NA", "na", "N/A", "n/a", "#N/A", "#n/a", "?", "null", "NULL", "NaN", "nan", "NAN", " NA ",
           "  ", "nUlL", " ? "]


@pytest.mark.parametrize("marker", MARKERS)
def test_each_missing_marker_in_a_numeric_column(marker):
    table = read_csv(f"x,y\n1,a\n{marker},b\n3,c\n".encode())
    assert table.kinds["x"] == "numeric"
    got = table.column("x")
    assert got[0] == 1.0 and np.isnan(got[1]) and got[2] == 3.0
    assert table.missing == {"x": 1, "y": 0}


@pytest.mark.parametrize("marker", MARKERS)
def test_each_missing_marker_in_a_categorical_column(marker):
    table = read_csv(f"x,y\n1,a\n2,{marker}\n3,c\n".encode())
    assert table.kinds["y"] == "categorical"
    assert values(table, "y") == ["a", None, "c"]
    assert table.column("y")[1] is None
    assert table.missing == {"x": 0, "y": 1}


def test_kinds_inference():
    data = b"f,g,h,i,j\n1e3,1,a,NA,1\n-2.5,2,2,,x\n 7 ,NaN,3,?,3\n"
    table = read_csv(data)
    assert table.kinds == {"f": "numeric", "g": "numeric", "h": "categorical", "i": "numeric",
                           "j": "categorical"}
    assert table.column("f").dtype == np.float64
    assert values(table, "f") == [1000.0, -2.5, 7.0]
    assert values(table, "h") == ["a", "2", "3"]  # one word makes the whole column text
    assert np.isnan(table.column("i")).all()      # all missing: numeric, all NaN
    assert table.column("h").dtype == object
    assert table.missing == {"f": 0, "g": 1, "h": 0, "i": 3, "j": 0}


def test_numbers_with_gaps_in_every_spelling():
    cells = ["1", "NA", "2.5", " n/a ", "nUlL", "", "-3"]
    table = read_csv(("v,w\n" + "".join(f"{c},{i}\n" for i, c in enumerate(cells))).encode())
    assert table.kinds == {"v": "numeric", "w": "numeric"} and table.missing == {"v": 4, "w": 0}
    np.testing.assert_array_equal(table.column("v"), [1.0, np.nan, 2.5, np.nan, np.nan, np.nan, -3.0])


def test_a_read_table_is_accepted_as_X():
    table = read_csv(b"a,b\n1,x\n2,y\n")
    columns = check_X(table)
    assert columns.names == ["a", "b"] and columns.kinds == ["numeric", "categorical"]
    np.testing.assert_array_equal(columns.data[0], [1.0, 2.0])


def test_blank_and_repeated_header_names():
    table = read_csv(b"a,,a,b,a (2), ,a\n1,2,3,4,5,6,7\n")
    assert table.columns == ["a", "column_2", "a (3)", "b", "a (2)", "column_6", "a (4)"]
    assert values(table, "a (2)") == [5.0]   # the named column keeps its name
    assert values(table, "a (3)") == [3.0]


def test_blank_lines_are_skipped_and_not_ragged():
    table = read_csv(b"\n\na,b\n\n1,2\r\n\r\n3,4\n   \n\n")
    assert table.n_rows == 2
    assert values(table, "b") == [2.0, 4.0]


def test_a_trailing_delimiter_on_every_line_is_fine():
    table = read_csv(b"a,b,\n1,2,\n3,4,\n")
    assert table.columns == ["a", "b"]
    assert values(table, "b") == [2.0, 4.0]


# ---- malformed input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("data", [b"", b"\n\n", b"  \r\n \t \n", b"\xef\xbb\xbf"])
def test_empty_input(data):
    with pytest.raises(DataError, match="empty"):
        read_csv(data)


def test_header_without_rows():
    with pytest.raises(DataError, match=r"header line \(a, b\) but no data rows"):
        read_csv(b"a,b\n\n")


def test_ragged_row_names_its_line_and_the_counts():
    # Line 5 of the file: header on 1, a blank line (3) and a two-line quoted value (3-4) before it.
    data = b'a,b,c\n1,2,3\n\n4,"x\ny",6\n7,8\n9,10,11\n'
    with pytest.raises(DataError) as error:
        read_csv(data)
    message = str(error.value)
    assert "Line 6 has 2 fields" in message
    assert "header (line 1) has 3" in message and "expected 3" in message and "found 2" in message


def test_ragged_row_with_too_many_fields():
    with pytest.raises(DataError, match="Line 3 has 4 fields.*expected 3.*found 4"):
        read_csv(b"a;b;c\n1;2;3\n1;2;3;4\n5;6;7\n")


def test_trailing_delimiter_only_on_data_lines_is_ragged():
    with pytest.raises(DataError, match="Line 2 has 3 fields.*trailing comma"):
        read_csv(b"a,b\n1,2,\n3,4,\n")


def test_unclosed_quote_names_the_line_it_opens_on():
    data = b'a,b\n1,"ok\nstill ok"\n2,"never closed\n3,4\n5,6\n'
    with pytest.raises(DataError, match="starts on line 4 is never closed"):
        read_csv(data)


def test_unclosed_quote_after_a_multiline_value_on_the_same_row():
    data = b'a,b,c\n1,"two\nlines","open\n'
    with pytest.raises(DataError, match="starts on line 3 is never closed"):
        read_csv(data)


@pytest.mark.parametrize("data", [
    b"a,b\n1,2\x00\n",
    bytes(range(1, 9)) * 200,
    b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4,
], ids=["nul", "control-bytes", "png"])
def test_binary_content(data):
    with pytest.raises(DataError, match="this looks like a binary file, not a CSV"):
        read_csv(data)


def test_binary_message_mentions_spreadsheets_for_zip_archives():
    with pytest.raises(DataError, match="binary file.*Excel"):
        read_csv(b"PK\x03\x04\x14\x00\x06\x00" + b"\x00" * 100)


def test_larger_than_max_bytes(tmp_path):
    data = b"a,b\n" + b"1,2\n" * 3_074_999  # 12,299,000 bytes
    with pytest.raises(DataError, match=r"the file is 12\.3 MB; the limit is 10 MB"):
        read_csv(data, max_bytes=10_000_000)
    path = tmp_path / "big.csv"
    path.write_bytes(data)
    with pytest.raises(DataError, match=r"the file is 12\.3 MB; the limit is 10 MB"):
        read_csv(path, max_bytes=10_000_000)
    assert read_csv(b"a\n1\n", max_bytes=10).n_rows == 1


def test_format_size():
    assert [format_size(n) for n in (532, 4_100, 10_000_000, 12_345_678, 2_000_000_000)] == \
        ["532 bytes", "4.1 kB", "10 MB", "12.3 MB", "2 GB"]


def test_size_just_over_the_limit_is_not_reported_as_equal():
    with pytest.raises(DataError, match=r"10,000,001 bytes; the limit is 10,000,000 bytes"):
        read_csv(b"a\n" + b"1" * 9_999_999, max_bytes=10_000_000)


def test_csv_text_passed_as_a_path_says_how_to_pass_it():
    with pytest.raises(DataError, match="not a path"):
        read_csv("a,b\n1,2\n")


# ---- sources and progress ----------------------------------------------------------------------------

def test_path_bytes_and_file_objects_give_the_same_table(tmp_path):
    data = "id;name;score\r\n1;Ana;2.5\r\n2;\"Bo; Jr\";NA\r\n3;Zoë;4\r\n".encode()
    path = tmp_path / "people.csv"
    path.write_bytes(data)
    tables = [read_csv(data), read_csv(bytearray(data)), read_csv(path), read_csv(str(path)),
              read_csv(io.BytesIO(data)), read_csv(io.StringIO(data.decode("utf-8"), newline="")),
              read_csv(open(path, "rb")), read_csv(open(path, encoding="utf-8-sig", newline=""))]
    first = tables[0]
    assert first.columns == ["id", "name", "score"] and first.n_rows == 3
    for table in tables[1:]:
        assert table.summary() == first.summary()
        for name in first.columns:
            assert values(table, name) == values(first, name)


def test_progress_is_reported_a_few_dozen_times_from_0_to_1():
    rows = "\n".join(f"{i},{i * 0.5},label{i % 7}" for i in range(50_000))
    seen = []
    read_csv(("a,b,c\n" + rows).encode(), progress=seen.append)
    assert 3 <= len(seen) <= 40
    assert seen == sorted(seen) and seen[0] >= 0 and seen[-1] == 1.0


def test_100k_by_20_numeric_parses_exactly():
    # How fast belongs to benchmarks/ (benchmarks.limits times reading files in the page), not to a test.
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(100_000, 20)) * 1000, 2)  # (100000, 20)
    lines = [",".join(f"c{j}" for j in range(20))] + [",".join(map(repr, row)) for row in X.tolist()]
    data = "\n".join(lines).encode()
    assert len(data) > 10_000_000
    table = read_csv(data)
    assert table.n_rows == 100_000 and set(table.kinds.values()) == {"numeric"}
    np.testing.assert_array_equal(np.column_stack([table.column(f"c{j}") for j in range(20)]), X)


# ---- the Table ---------------------------------------------------------------------------------------

@pytest.fixture
def table():
    return Table({"x": np.array([1.0, np.nan, 3.0, 3.0, 5.0]),
                  "city": ["Oslo", None, "Lima", "Lima", "NA"],
                  "n": ["1", "2", "?", " 4 ", "5"]})


def test_constructor_infers_kinds(table):
    assert table.kinds == {"x": "numeric", "city": "categorical", "n": "numeric"}
    assert table.missing == {"x": 1, "city": 2, "n": 1}
    assert values(table, "n") == [1.0, 2.0, None, 4.0, 5.0]
    forced = Table({"code": [1, 2, 2]}, kinds={"code": "categorical"})
    assert values(forced, "code") == ["1", "2", "2"]


def test_constructor_errors():
    with pytest.raises(DataError, match="same number of rows"):
        Table({"a": [1, 2], "b": [1]})
    with pytest.raises(DataError, match="blank"):
        Table({" ": [1]})
    with pytest.raises(DataError, match="row 2 holds 'b'"):
        Table({"a": ["1", "b"]}, kinds={"a": "numeric"})
    with pytest.raises(DataError, match="'numeric' or 'categorical'"):
        Table({"a": [1]}, kinds={"a": "number"})


def test_the_callers_data_is_never_changed_or_shared():
    x, city = np.array([1.0, 2.0]), ["a", "b"]
    table = Table({"x": x, "city": city})
    x[0], city[0] = 99.0, "z"
    assert values(table, "x") == [1.0, 2.0] and values(table, "city") == ["a", "b"]
    with pytest.raises(ValueError):
        table.column("x")[0] = 5.0  # read-only: a Table is not changed behind its back
    filled = table.fill_missing()
    assert filled is not table


def test_take_with_indices_and_mask(table):
    picked = table.take([3, 0])
    assert values(picked, "x") == [3.0, 1.0] and values(picked, "city") == ["Lima", "Oslo"]
    assert picked.kinds == table.kinds
    masked = table.take(np.array([True, False, False, False, True]))
    assert values(masked, "n") == [1.0, 5.0]
    assert table.take([]).n_rows == 0
    with pytest.raises(DataError, match="out of range"):
        table.take([7])
    with pytest.raises(DataError, match="mask has 2 entries but the table has 5 rows"):
        table.take([True, False])


def test_select(table):
    chosen = table.select(["n", "x"])
    assert chosen.columns == ["n", "x"] and chosen.kinds == {"n": "numeric", "x": "numeric"}
    with pytest.raises(DataError, match=r"Unknown column 'age'; the columns are 'x', 'city', 'n'"):
        table.select(["x", "age"])
    with pytest.raises(DataError, match="Unknown column"):
        table.column("age")


def test_head_is_json_able(table):
    rows = table.head(3)
    assert rows == [[1.0, "Oslo", 1.0], [None, None, 2.0], [3.0, "Lima", None]]
    json.dumps(rows, allow_nan=False)
    assert len(table.head()) == 5
    infinite = Table({"v": [float("inf"), -float("inf")]}).head()
    assert json.loads(json.dumps(infinite, allow_nan=False)) == [["inf"], ["-inf"]]


def test_with_kind(table):
    as_text = table.with_kind("x", "categorical")
    assert as_text.kinds["x"] == "categorical" and values(as_text, "x") == ["1", None, "3", "3", "5"]
    back = as_text.with_kind("x", "numeric")
    assert values(back, "x") == [1.0, None, 3.0, 3.0, 5.0]
    assert table.kinds["x"] == "numeric"  # unchanged
    with pytest.raises(DataError, match=r"Column 'city' cannot be read as numeric: row 1 holds 'Oslo'"):
        table.with_kind("city", "numeric")
    with pytest.raises(DataError, match="'numeric' or 'categorical'"):
        table.with_kind("x", "text")


def test_drop_missing(table):
    assert values(table.drop_missing(["x"]), "x") == [1.0, 3.0, 3.0, 5.0]
    kept = table.drop_missing()
    assert kept.n_rows == 2 and values(kept, "city") == ["Oslo", "Lima"]
    assert table.n_rows == 5


def test_fill_missing(table):
    filled = table.fill_missing()
    assert values(filled, "x") == [1.0, 3.0, 3.0, 3.0, 5.0]        # mean of 1, 3, 3, 5
    assert values(filled, "n") == [1.0, 2.0, 3.0, 4.0, 5.0]        # mean of 1, 2, 4, 5
    assert values(filled, "city") == ["Oslo", "Lima", "Lima", "Lima", "Lima"]  # mode for text
    assert filled.missing == {"x": 0, "city": 0, "n": 0}
    moded = table.fill_missing(["x"], strategy="mode")
    assert values(moded, "x") == [1.0, 3.0, 3.0, 3.0, 5.0] and moded.missing["city"] == 2
    assert table.missing == {"x": 1, "city": 2, "n": 1}


def test_fill_missing_ties_go_to_the_value_seen_first():
    table = Table({"c": ["b", None, "a", "a", "b"], "v": [2.0, 1.0, None, 1.0, 2.0]})
    filled = table.fill_missing(strategy="mode")
    assert values(filled, "c")[1] == "b" and values(filled, "v")[2] == 2.0
    with pytest.raises(DataError, match="no values at all"):
        Table({"e": [None, None]}).fill_missing()


def test_summary_is_json_able(table):
    summary = table.summary()
    assert json.loads(json.dumps(summary)) == {
        "columns": ["x", "city", "n"], "kinds": {"x": "numeric", "city": "categorical", "n": "numeric"},
        "missing": {"x": 1, "city": 2, "n": 1}, "n_rows": 5}


def test_to_csv_round_trips():
    original = Table({"id": [1.0, 2.5, np.nan, 1e-300, -7.0, 0.1],
                      "text": ['a, "b"', "two\nlines", None, "x;y", "tab\there", "Zoë"]})
    text = original.to_csv()
    assert text.splitlines()[0] == "id,text" and "\n1,\"a, \"\"b\"\"\"\n" in "\n" + text
    back = read_csv(text.encode())
    assert back.summary() == original.summary()
    assert values(back, "text") == values(original, "text")
    np.testing.assert_array_equal(back.column("id"), original.column("id"))


def test_to_csv_of_one_column_keeps_missing_rows():
    back = read_csv(Table({"v": ["a", None, "b"]}).to_csv().encode())
    assert values(back, "v") == ["a", None, "b"]


def test_none_is_a_value_not_a_missing_marker():
    # The restaurant data's Patrons column has the category "None"; it must survive as a value.
    table = read_csv(b"Pat,WillWait\nNone,No\nSome,Yes\nFull,No\n")
    assert table.kinds["Pat"] == "categorical"
    assert table.missing["Pat"] == 0
    assert list(table.column("Pat")) == ["None", "Some", "Full"]


# ---- numbers as a spreadsheet writes them ------------------------------------------------------------

@pytest.mark.parametrize("cells, kind", [
    (["0", "0.5", "-0.25", "1e5", "+3", ".5", "7."], "numeric"),
    (["00501", "02134"], "categorical"),            # zip codes keep their leading zeros
    (["12", "007"], "categorical"),                 # one code makes the column codes
    (["-01", "5"], "categorical"),
    (["0e3", "-0.0"], "numeric"),                  # a zero before an exponent or a point is a number
    (["1_000", "2"], "categorical"),                # float() reads it; a CSV does not write it
    (["\u0661\u0662", "3"], "categorical"),         # Arabic-Indic digits
    (["9007199254740992", "1"], "numeric"),         # 2^53: exact
    (["9007199254740993", "1"], "categorical"),     # 2^53 + 1: float64 would round it
    (["-123456789012345678"], "categorical"),       # an 18-digit ID
    (["100000000000000000000", "1e300"], "numeric"),  # integers float64 holds exactly are numbers
])
def test_which_cells_are_numbers(cells, kind):
    table = read_csv(("v,w\n" + "".join(f"{c},x{i}\n" for i, c in enumerate(cells))).encode())
    assert table.kinds["v"] == kind
    if kind == "categorical":
        assert values(table, "v") == cells  # exactly as written, digit for digit
        assert any("'v' is read as text" in note for note in table.read_info.notes)
    else:
        np.testing.assert_array_equal(table.column("v"), [float(c) for c in cells])


def test_a_quoted_code_with_spaces_before_it_is_still_a_code():
    table = read_csv(b'v,w\n" 007",a\n12,b\n')
    assert table.kinds["v"] == "categorical" and values(table, "v") == ["007", "12"]


def test_a_numeric_column_can_still_be_made_of_codes_on_request():
    table = read_csv(b"zip,n\n00501,1\n02134,2\n").with_kind("zip", "numeric")
    assert values(table, "zip") == [501.0, 2134.0]


# ---- delimiters: Excel's sep= line, tabs and semicolons before commas, decimal commas ---------------

def test_excel_sep_line_names_the_delimiter_and_keeps_line_numbers():
    table = read_csv(b"sep=,\na;b,c\n1;2,3\n")
    assert table.columns == ["a;b", "c"] and table.read_info.sep_line and table.read_info.delimiter == ","
    with pytest.raises(DataError, match=r"Line 4 has 1 field, but the header \(line 2\) has 2"):
        read_csv(b"sep=;\na;b\n1;2\n3\n")


def test_tab_separated_values_holding_comma_space_are_tab_separated():
    table = read_csv(b"Last, First\tCity, Country\nSmith, J\tOslo, Norway\nDoe, A\tLima, Peru\n")
    assert table.columns == ["Last, First", "City, Country"] and table.read_info.delimiter == "\t"


def test_semicolons_with_decimal_commas_read_as_numbers():
    table = read_csv(b"1,5;2\n3,25;-4,0\n", header=False)
    assert table.read_info.delimiter == ";" and table.read_info.decimal_comma == ("column_1", "column_2")
    np.testing.assert_array_equal(table.column("column_1"), [1.5, 3.25])
    np.testing.assert_array_equal(table.column("column_2"), [2.0, -4.0])


def test_decimal_comma_with_a_point_stays_text_and_says_why():
    table = read_csv(b"a;b\n1,5;x\n1.234,5;y\n")
    assert table.kinds["a"] == "categorical" and table.read_info.decimal_comma == ()
    assert any("'1.234,5' holds a decimal point" in note for note in table.read_info.notes)


def test_decimal_commas_are_not_read_in_a_comma_separated_file():
    table = read_csv(b'a,b\n"1,5",x\n"2,5",y\n')
    assert table.kinds["a"] == "categorical" and values(table, "a") == ["1,5", "2,5"]


def test_a_utf8_bom_before_bytes_that_are_not_utf8_is_dropped_too():
    table = read_csv(b"\xef\xbb\xbfid,name\n1,Zo\xeb\n")
    assert table.columns == ["id", "name"] and values(table, "name") == ["Zoë"]


# ---- the first row: header or data -------------------------------------------------------------------

@pytest.mark.parametrize("data, header, why", [
    (b"age,city\n31,Oslo\n45,Lima\n", True, "text above columns of numbers"),
    (b"31,Oslo\n45,Lima\n28,Rome\n", False, "numbers like the rows below"),
    (b",a\n0,1\n1,2\n", True, "text above columns of numbers"),   # a blank name (an index column)
    (b"Sunny,No\nRain,Yes\nSunny,Yes\n", False, "'Sunny' occurs again"),
    (b"Outlook,Play\nSunny,No\nRain,Yes\n", True, "do not occur again"),
    (b"1,2.5\n", False, "the only row"),
    (b"x,NA\n1,\n2,3\n", True, "text above columns of numbers"),
])
def test_header_detection(data, header, why):
    info = read_csv(data).read_info
    assert info.header is header and info.header_detected
    assert why in info.notes[0]


def test_header_false_keeps_the_first_row_and_names_the_columns():
    table = read_csv(b"a,b\n1,2\n", header=False)
    assert table.columns == ["column_1", "column_2"] and values(table, "column_1") == ["a", "1"]
    assert table.read_info.to_dict()["header"] is False and table.read_info.renamed == ()


def test_header_true_reads_names_that_look_like_numbers():
    table = read_csv(b"1,2\n3,4\n", header=True)
    assert table.columns == ["1", "2"] and table.n_rows == 1


@pytest.mark.parametrize("header", ["yes", 1, 0])
def test_header_must_be_true_false_or_none(header):
    with pytest.raises(DataError, match="header must be True"):
        read_csv(b"a\n1\n", header=header)


def test_a_ragged_file_without_header_says_first_row():
    with pytest.raises(DataError, match=r"Line 3 has 1 field, but the first row \(line 1\) has 2"):
        read_csv(b"1,2\n3,4\n5\n", header=False)


def test_max_rows_counts_the_first_row_when_it_is_data():
    read_csv(b"1,2\n3,4\n", header=False, max_rows=2)
    read_csv(b"a,b\n3,4\n5,6\n", header=True, max_rows=2)
    with pytest.raises(DataError, match="limit here is 2 rows"):
        read_csv(b"1,2\n3,4\n5,6\n", header=False, max_rows=2)


def test_read_info_is_json_able_and_tables_built_otherwise_have_none():
    info = read_csv(b"a,a\n1,2\n").read_info.to_dict()
    assert json.loads(json.dumps(info)) == info
    assert info["renamed"] == [["a", "a (2)"]] and info["delimiter_name"] == "comma"
    assert Table({"a": [1]}).read_info is None


def test_text_holding_digit_comma_digit_gets_no_decimal_comma_note():
    table = read_csv(b"room;floor\nRoom 1,2;x\nHall;y\nAttic;z\n")
    assert table.kinds["room"] == "categorical"
    assert not any("decimal comma" in note for note in table.read_info.notes)


@pytest.mark.parametrize("data", [b"sep=|\na|b\n007|x\n12|y\n", b"a,b\n1,x\n-007,y\n", b'a,b\n1,x\n"007",y\n',
                                  b"a\tb\n1\tx\n007\ty\n", b"007,x\n12,y\n"])
def test_codes_are_found_after_any_delimiter_quote_or_sign(data):
    table = read_csv(data, header=not data.startswith(b"007"))  # the last: a code in the first row
    first = table.columns[0]
    assert table.kinds[first] == "categorical", data
