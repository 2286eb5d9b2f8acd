"""A table pasted into the page (pellucid.tabular.pasted): the tab-separated text spreadsheets and browsers
put on the clipboard reads as the same CSV would, and a paste that is no table (nothing, one cell, one row)
is a DataError about the paste box (field "paste"); the bridge's load_pasted keeps it as the "pasted table"."""

import numpy as np
import pytest

from pellucid import bridge
from pellucid.core.errors import DataError
from pellucid.tabular.csvio import read_csv
from pellucid.tabular.pasted import read_pasted

# As Excel and LibreOffice copy a range: tabs between cells, CRLF after each row, a decimal comma from a
# spreadsheet in a German locale, an empty cell.
FROM_EXCEL = "flower\tpetal length\tpetal width\r\nsetosa\t1,4\t0,2\r\nversicolor\t4,7\t1,4\r\nvirginica\t\t2,5\r\n"


def test_tab_separated_cells_read_as_the_csv_reader_reads_them():
    table = read_pasted(FROM_EXCEL.encode())
    assert table.columns == ["flower", "petal length", "petal width"]
    assert table.kinds == {"flower": "categorical", "petal length": "numeric", "petal width": "numeric"}
    np.testing.assert_array_equal(table.column("petal length"), [1.4, 4.7, np.nan])
    assert table.read_info.delimiter == "\t" and table.read_info.header
    same = read_csv(FROM_EXCEL.encode())
    assert same.columns == table.columns and same.kinds == table.kinds


def test_a_table_copied_from_a_web_page_reads_too():
    # A browser copies an HTML table as rows of tab-separated cells, often with a trailing tab.
    text = "Rank\tCountry\tPopulation\t\n1\tIndia\t1428627663\t\n2\tChina\t1425671352\t\n"
    table = read_pasted(text.encode())
    assert table.columns == ["Rank", "Country", "Population"]
    assert table.column("Population").tolist() == [1428627663.0, 1425671352.0]


@pytest.mark.parametrize("text, words", [
    ("", "Nothing was pasted"),
    ("  \r\n\t\n", "Nothing was pasted"),
    ("42", "The pasted text is a single cell"),
    ("sepal\tpetal\tspecies\n", "The pasted text is a single row of 3 cells"),
])
def test_a_paste_that_is_no_table_points_at_the_paste_box(text, words):
    with pytest.raises(DataError, match=words) as caught:
        read_pasted(text.encode())
    assert caught.value.field == "paste"
    assert "header row and at least one row of data" in str(caught.value)


def test_what_the_reader_refuses_is_said_of_the_paste_and_the_limits_hold():
    with pytest.raises(DataError, match="The pasted table cannot be read: .*limit here is 2 rows") as caught:
        read_pasted(b"a\tb\n1\t2\n3\t4\n5\t6\n", max_rows=2)
    assert caught.value.field == "paste"
    with pytest.raises(DataError, match="The pasted text cannot be read: the file is too large") as caught:
        read_pasted(b"a\tb\n1\t2\n", max_bytes=4)
    assert caught.value.field == "paste"


def test_the_bridge_keeps_it_as_the_pasted_table(tmp_path):
    path = tmp_path / "upload-1"
    path.write_bytes(FROM_EXCEL.encode())
    session = bridge.Session()
    reply = session.handle("load_pasted", {"path": str(path)})
    assert reply["ok"], reply
    assert reply["result"]["name"] == "pasted table" and reply["result"]["n_rows"] == 3
    path.write_bytes(b"only one cell")
    error = session.handle("load_pasted", {"path": str(path), "header": True})["error"]
    assert error["code"] == "data_error" and error["field"] == "paste"
