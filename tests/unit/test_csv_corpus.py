"""A corpus of odd CSV files (tests/data/csv_corpus/), each the shape of a file people really bring:
what read_csv must make of every one of them, cell by cell, and what it must say it decided."""

import json
import pathlib

import numpy as np
import pytest

from pellucid.tabular.csvio import read_csv

CORPUS = pathlib.Path(__file__).parents[1] / "data" / "csv_corpus"
NAN = float("nan")

# file -> {column: (kind, values)}, and what read_info must say (a subset of its fields; "notes" lists
# words each note must contain, in order).
EXPECTED = {
    "zip_codes.csv": dict(
        columns={"zip": ("categorical", ["00501", "02134", "10001"]),
                 "code": ("categorical", ["007", "12", "3"]),  # one leading zero: a column of codes
                 "population": ("numeric", [12.0, 40.5, 0.0])},
        info={"header": True, "notes": ["column names", "'00501' starts with a zero", "'007' starts"]}),
    "long_ids.csv": dict(
        columns={"order_id": ("categorical",
                              ["123456789012345678", "123456789012345679", "9007199254740993"]),
                 "amount": ("numeric", [9.99, 19.5, 1.0])},
        info={"notes": ["column names", "beyond 2^53"]}),
    "excel_missing.csv": dict(
        columns={"city": ("categorical", ["Oslo", "Lima", "Rome", "Kiev"]),
                 "temp": ("numeric", [NAN, 21.5, NAN, 3.0]),
                 "rain": ("numeric", [1.5, NAN, NAN, 0.0])},
        info={"delimiter": ","}),
    "digit_separators.csv": dict(
        columns={"label": ("categorical", ["a", "b", "c"]),
                 "count": ("categorical", ["1_000", "2_500", "40"])},
        info={"notes": ["column names", "'1_000'"]}),
    "excel_sep_line.csv": dict(
        columns={"Name": ("categorical", ["Anna", "Björn"]),
                 "Weight": ("numeric", [61.5, 80.0]),
                 "Height": ("numeric", [1.72, 1.85])},
        info={"delimiter": ";", "sep_line": True, "decimal_comma": ["Weight", "Height"],
              "notes": ["sep=;", "column names", "decimal commas", "decimal commas"]}),
    "tab_separated_with_commas.tsv": dict(
        columns={"name": ("categorical", ["Smith, J", "Doe, A", "Roe, R"]),
                 "city": ("categorical", ["Oslo, Norway", "Lima, Peru", "Rome, Italy"]),
                 "score": ("numeric", [1.5, 2.0, 3.25])},
        info={"delimiter": "\t", "decimal_comma": []}),
    "semicolon_decimal_comma.csv": dict(
        columns={"Produkt": ("categorical", ["Brot", "Käse", "Milch"]),
                 "Preis": ("numeric", [2.49, 12.9, 0.99]),
                 "Menge": ("numeric", [3.0, 1.0, 12.0])},
        info={"delimiter": ";", "decimal_comma": ["Preis"]}),
    "decimal_comma_and_point.csv": dict(
        columns={"item": ("categorical", ["bread", "cheese"]),
                 "price": ("categorical", ["2,49", "12.90"])},
        info={"delimiter": ";", "decimal_comma": [],
              "notes": ["column names", "'12.90' holds a decimal point"]}),
    "duplicate_headers.csv": dict(
        columns={"x": ("numeric", [1.0, 6.0]), "y": ("numeric", [2.0, 7.0]), "x (2)": ("numeric", [3.0, 8.0]),
                 "column_4": ("numeric", [4.0, 9.0]), "y (2)": ("numeric", [5.0, 10.0])},
        info={"renamed": [["x", "x (2)"], ["", "column_4"], ["y", "y (2)"]],
              "notes": ["column names", "renamed 'x (2)'", "no name", "renamed 'y (2)'"]}),
    "utf8_bom.csv": dict(
        columns={"id": ("numeric", [1.0, 2.0]), "name": ("categorical", ["Zoë", "Renée"])}, info={}),
    "utf8_bom_then_latin1.csv": dict(
        columns={"id": ("numeric", [1.0, 2.0]), "name": ("categorical", ["Zoë", "Renée"])}, info={}),
    "utf16_bom.csv": dict(
        columns={"id": ("numeric", [1.0, 2.0]), "name": ("categorical", ["Åsa", "Ola"])},
        info={"delimiter": ";"}),
    "no_header_numbers.csv": dict(
        columns={"column_1": ("numeric", [5.1, 4.9, 6.3]), "column_2": ("numeric", [3.5, 3.0, 3.3]),
                 "column_3": ("numeric", [1.4, 1.4, 6.0]), "column_4": ("numeric", [0.2, 0.2, 2.5])},
        info={"header": False, "header_detected": True, "notes": ["read as data"]}),
    "no_header_text.csv": dict(
        columns={"column_1": ("categorical", ["Sunny", "Sunny", "Overcast", "Rain"]),
                 "column_2": ("categorical", ["Hot", "Hot", "Hot", "Mild"]),
                 "column_3": ("categorical", ["High"] * 4),
                 "column_4": ("categorical", ["No", "No", "Yes", "Yes"])},
        info={"header": False, "notes": ["'Sunny' occurs again"]}),
    # Names that are numbers above numbers cannot be told from data: read as data (a file without a
    # header must not lose its first row), and the page's switch (read_csv(header=True)) reads them as
    # names; see test_the_header_switch_overrides.
    "year_headers.csv": dict(
        columns={"column_1": ("categorical", ["country", "Norway", "Peru"]),
                 "column_2": ("numeric", [2019.0, 5.3, 32.5]), "column_3": ("numeric", [2020.0, 5.4, 33.0])},
        info={"header": False, "notes": ["holds numbers like the rows below"]}),
    "numbers_as_names.csv": dict(
        columns={"column_1": ("numeric", [2019.0, 5.3, 32.5]), "column_2": ("numeric", [2020.0, 5.4, 33.0])},
        info={"header": False, "header_detected": True}),
    "quoted_multiline_crlf.csv": dict(
        columns={"id": ("numeric", [1.0, 2.0]),
                 "comment": ("categorical", ["first line\r\nsecond, line", 'say "hi"']),
                 "score": ("numeric", [2.5, 3.0])}, info={}),
    "trailing_delimiters_and_blank_lines.csv": dict(
        columns={"a": ("numeric", [1.0, 2.0]), "b": ("categorical", ["x", "y"])}, info={"renamed": []}),
    "single_column.csv": dict(
        columns={"name": ("categorical", ["Smith, John", "Doe", "Roe, R"])}, info={"delimiter": None}),
    "pipe_sep_line.csv": dict(
        columns={"a": ("numeric", [1.5, 2.0]), "b": ("categorical", ["x", "y"])},
        info={"delimiter": "|", "sep_line": True, "decimal_comma": ["a"]}),
    "none_is_a_value.csv": dict(
        columns={"Pat": ("categorical", ["None", "Some", "Full"]),
                 "WillWait": ("categorical", ["No", "Yes", "Yes"])}, info={"header": True}),
    "mixed_markers_and_inf.csv": dict(
        columns={"a": ("numeric", [1.0, NAN, NAN, NAN]), "b": ("numeric", [np.inf, -np.inf, 1e5, NAN])},
        info={}),
}


def test_every_file_of_the_corpus_has_its_expectation():
    assert sorted(p.name for p in CORPUS.iterdir() if not p.name.startswith(".")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file_reads_to_the_expected_cells(name):
    expected = EXPECTED[name]
    table = read_csv(CORPUS / name)
    assert table.columns == list(expected["columns"])
    for column, (kind, values) in expected["columns"].items():
        assert table.kinds[column] == kind, column
        got = table.column(column)
        if kind == "numeric":
            np.testing.assert_array_equal(got, values)  # NaN equals NaN here
        else:
            assert got.tolist() == values


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file_says_what_was_decided(name):
    info = read_csv(CORPUS / name).read_info.to_dict()
    assert json.loads(json.dumps(info)) == info
    wanted = dict(EXPECTED[name]["info"])
    words = wanted.pop("notes", None)
    assert {key: info[key] for key in wanted} == wanted
    if words is not None:
        assert len(info["notes"]) == len(words), info["notes"]
        for note, word in zip(info["notes"], words):
            assert word in note, (word, note)


def test_the_header_switch_overrides():
    for name, columns in (("numbers_as_names.csv", ["2019", "2020"]),
                          ("year_headers.csv", ["country", "2019", "2020"])):
        named = read_csv(CORPUS / name, header=True)
        assert named.columns == columns and named.n_rows == 2
        assert [named.kinds[c] for c in columns if c != "country"] == ["numeric", "numeric"]
        info = named.read_info
        assert info.header and not info.header_detected and info.notes == ()
    data = read_csv(CORPUS / "zip_codes.csv", header=False)
    assert data.columns == ["column_1", "column_2", "column_3"] and data.n_rows == 4
    assert data.column("column_1").tolist() == ["zip", "00501", "02134", "10001"]
    assert not data.read_info.header and not data.read_info.header_detected
