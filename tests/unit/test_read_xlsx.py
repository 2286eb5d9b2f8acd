"""Excel workbooks (pellucid.tabular.xlsx): a sheet is read into the very table read_csv makes of the CSV Excel
would save of it (numbers as numbers, dates as the text the profile reads as dates, codes kept as text, empty
and error cells missing, formulas as their last calculated values), the first sheet unless another is named;
a damaged, encrypted or unknown-sheet workbook is a DataError naming the file; the bridge's load_csv reads a
file named .xlsx this way, with its sheets in read_info, and without openpyxl it answers "not_loaded"."""

import builtins
import datetime
import io

import numpy as np
import pytest

from pellucid import bridge
from pellucid.core.errors import DataError, NotLoadedError
from pellucid.tabular import profile
from pellucid.tabular.csvio import read_csv
from pellucid.tabular.datasets import load_iris
from pellucid.tabular.xlsx import read_xlsx


def openpyxl():
    """openpyxl, which writes the workbooks these tests read (the tests that need none run without it)."""
    return pytest.importorskip("openpyxl")


READINGS = [
    ["when", "station", "temperature", "code", "windy", "label"],
    [datetime.datetime(2024, 3, 1), "north", 11.5, "00501", True, "cold"],
    [datetime.datetime(2024, 3, 2), "south", 14, "00502", False, "mild"],
    [datetime.datetime(2024, 3, 13, 10, 15), "north", None, "00503", True, "cold"],
    [datetime.datetime(2024, 3, 14), "south", 1 / 3, None, False, "mild"],
]
# The same rows as the CSV Excel saves ("Save as CSV UTF-8"), for the oracle read_csv.
READINGS_CSV = """when,station,temperature,code,windy,label
2024-03-01,north,11.5,00501,TRUE,cold
2024-03-02,south,14,00502,FALSE,mild
2024-03-13 10:15:00,north,,00503,TRUE,cold
2024-03-14,south,0.3333333333333333,,FALSE,mild
"""


def workbook(*sheets):
    """The bytes of an .xlsx with the sheets given as (title, rows)."""
    book = openpyxl().Workbook()
    book.remove(book.active)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_sheet_reads_as_the_csv_of_it_would():
    table = read_xlsx(workbook(("readings", READINGS)), name="readings.xlsx")
    expected = read_csv(READINGS_CSV.encode())
    assert table.columns == expected.columns
    assert table.kinds == expected.kinds == {"when": "categorical", "station": "categorical",
                                             "temperature": "numeric", "code": "categorical",
                                             "windy": "categorical", "label": "categorical"}
    for column in table.columns:
        got, want = table.column(column), expected.column(column)
        if table.kinds[column] == "numeric":
            np.testing.assert_array_equal(got, want)  # the very floats: written in their round-trip form
        else:
            assert got.tolist() == want.tolist()
    assert table.column("temperature")[3] == 1 / 3
    assert table.column("code").tolist() == ["00501", "00502", "00503", None]  # codes keep their zeros
    kinds = {entry["name"]: entry["kind"] for entry in profile.profile(table, None)}
    assert kinds["when"] == "date"  # as a CSV's dates are
    info = table.read_info
    assert info.sheets == ("readings",) and info.sheet == "readings" and info.header
    assert "sheet 'readings'" in info.notes[0]


def test_the_first_sheet_is_read_unless_another_is_named():
    data = workbook(("first", [["a", "b"], [1, "x"], [2, "y"]]), ("second", [["p", "q", "r"], [1, 2, 3], [4, 5, 6]]))
    first = read_xlsx(data)
    assert first.columns == ["a", "b"] and first.read_info.sheets == ("first", "second")
    second = read_xlsx(data, sheet="second")
    assert second.columns == ["p", "q", "r"] and second.n_rows == 2 and second.read_info.sheet == "second"
    assert "(of 2: first, second)" in second.read_info.notes[0]
    with pytest.raises(DataError, match="book.xlsx has no sheet 'third'; its sheets are: first, second") as caught:
        read_xlsx(data, sheet="third", name="book.xlsx")
    assert caught.value.field == "sheet"


def test_formulas_give_their_cached_values_and_errors_and_blank_rows_are_missing(tmp_path):
    book = openpyxl().Workbook()
    sheet = book.active
    sheet.append(["x", "double", "ratio"])
    sheet.append([1, "=A2*2", 0.5])
    sheet.append([])  # a blank row, skipped like a blank line
    sheet.append([3, "=A4*2", "#DIV/0!"])
    sheet["C4"].data_type = "e"  # an error value, as Excel stores #DIV/0!
    path = tmp_path / "formulas.xlsx"
    book.save(path)
    # openpyxl writes no cached values: set them as Excel would have, in the sheet's XML.
    cached = _with_cached_values(path.read_bytes(), {"B2": "2", "B4": "6"})
    table = read_xlsx(cached)
    assert table.n_rows == 2 and table.kinds == {"x": "numeric", "double": "numeric", "ratio": "numeric"}
    assert table.column("double").tolist() == [2.0, 6.0]
    np.testing.assert_array_equal(table.column("ratio"), [0.5, np.nan])
    assert any("#DIV/0! (1)" in note for note in table.read_info.notes)


def _with_cached_values(data, values):
    """The workbook with `values` ({cell: text}) written as the formula cells' cached results."""
    import re
    import zipfile

    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = content.decode()
                for cell, value in values.items():
                    text = re.sub(rf'(<c r="{cell}"[^>]*>)(<f>[^<]*</f>)(<v\s*/>|<v></v>)?',
                                  rf"\1\2<v>{value}</v>", text)
                content = text.encode()
            target.writestr(item, content)
    return out.getvalue()


def test_the_row_limit_and_the_header_switch_hold_as_for_a_csv():
    rows = [["n", "sq"]] + [[i, i * i] for i in range(30)]
    data = workbook(("squares", rows))
    with pytest.raises(DataError, match="the limit here is 10 rows"):
        read_xlsx(data, max_rows=10)
    table = read_xlsx(data, header=False)
    assert table.columns == ["column_1", "column_2"] and table.n_rows == 31


@pytest.mark.parametrize("data, words", [
    (b"PK\x03\x04 not really a zip", "damaged.xlsx could not be read as an Excel workbook"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "damaged.xlsx is password-protected"),
    (b"a,b\n1,2\n", "damaged.xlsx is not an Excel workbook"),
])
def test_a_workbook_that_cannot_be_read_is_a_data_error_naming_the_file(data, words):
    openpyxl()  # the reader asks for it first
    with pytest.raises(DataError, match=words):
        read_xlsx(data, name="damaged.xlsx")


def test_a_sheet_without_values_says_so():
    words = "The sheet 'blank' of book.xlsx is empty: it has no cells with values. Choose another sheet"
    with pytest.raises(DataError, match=words) as caught:
        read_xlsx(workbook(("blank", []), ("data", [["a"], [1]])), sheet="blank", name="book.xlsx")
    assert caught.value.field == "sheet"


def test_the_bridge_reads_a_workbook_by_its_name_and_lists_its_sheets(tmp_path):
    path = tmp_path / "upload-1"
    path.write_bytes(workbook(("first", [["a", "b"], [1, "x"], [2, "y"]]),
                              ("second", [["p", "q"], [1.5, "u"], [2.5, "v"], [3.5, "u"]])))
    session = bridge.Session()
    reply = session.handle("load_csv", {"path": str(path), "name": "book.xlsx", "sheet": "second"})
    assert reply["ok"], reply
    info = reply["result"]
    assert info["name"] == "book.xlsx" and info["n_rows"] == 3 and info["columns"] == ["p", "q"]
    assert info["read_info"]["sheets"] == ["first", "second"] and info["read_info"]["sheet"] == "second"
    wrong = session.handle("load_csv", {"path": str(path), "name": "book.xlsx", "sheet": "third"})
    assert wrong["error"]["code"] == "data_error" and wrong["error"]["field"] == "sheet"
    a_csv = session.handle("load_csv", {"path": str(path), "name": "data.csv", "sheet": "second"})
    assert a_csv["error"]["field"] == "sheet"


def test_without_openpyxl_the_reply_asks_for_it_to_be_loaded(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_openpyxl(name, *args, **kwargs):
        if name == "openpyxl" or name.startswith("openpyxl."):
            raise ImportError("No module named 'openpyxl'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_openpyxl)
    with pytest.raises(NotLoadedError, match="pip install openpyxl") as caught:
        read_xlsx(b"PK\x03\x04")
    assert caught.value.package == "openpyxl"
    path = tmp_path / "upload-1"
    path.write_bytes(b"PK\x03\x04")
    error = bridge.Session().handle("load_csv", {"path": str(path), "name": "book.xlsx"})["error"]
    assert error["code"] == "not_loaded" and error["package"] == "openpyxl"


def test_the_python_script_of_a_run_reads_the_same_sheet_and_scores_the_same(tmp_path):
    import os
    import subprocess
    import sys

    iris = [line.split(",") for line in load_iris().csv_text.strip().splitlines()]
    flowers = [iris[0]] + [[float(v) for v in row[:4]] + [row[4]] for row in iris[1:]]
    path = tmp_path / "flowers.xlsx"
    path.write_bytes(workbook(("About", [["what"], ["iris"]]), ("Flowers", flowers)))
    session = bridge.Session()
    info = session.handle("load_csv", {"path": str(path), "name": "flowers.xlsx", "sheet": "Flowers"})["result"]
    result = session.handle("train", {"table_id": info["table_id"], "target": "species",
                                      "features": info["columns"][:4], "model": "GaussianNB",
                                      "evaluation": {"method": "split", "test": 30, "seed": 3}})["result"]
    script = session.handle("export_python", {"model_id": result["model_id"]})["result"]["script"]
    assert "table = read_xlsx('flowers.xlsx', sheet='Flowers')" in script
    (tmp_path / "run.py").write_text(script)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("test accuracy"))
    assert float(line.split(":")[1]) == result["metrics"]["test"]["accuracy"]


@pytest.mark.parametrize("data, hint", [
    (b"PK\x03\x04\x14\x00\x00\x00", "perhaps an Excel workbook: open it under its .xlsx name"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "perhaps an old Excel .xls workbook"),
])
def test_a_workbook_read_as_a_csv_says_what_it_may_be(data, hint):
    with pytest.raises(DataError, match=hint):
        read_csv(data)
