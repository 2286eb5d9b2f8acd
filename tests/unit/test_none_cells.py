""""None" in a column whose other cells are numbers is a missing value, as pandas reads it; in a text
column it is a value (the restaurant data's Patrons has None as a level). The quick and the general
CSV readers agree on both."""

import numpy as np
import pytest

from pellucid.tabular import csv_fast
from pellucid.tabular.cells import text_to_numeric
from pellucid.tabular.csvio import read_csv
from pellucid.tabular.datasets import load_restaurant


def read(data, quick, monkeypatch):
    with monkeypatch.context() as m:
        if not quick:
            m.setattr(csv_fast, "is_plain", lambda text, delimiter: None)
        return read_csv(data)


@pytest.mark.parametrize("quick", [True, False])
@pytest.mark.parametrize("spelling", ["None", "none", "NONE", " None "])
def test_none_in_a_number_column_is_missing(spelling, quick, monkeypatch):
    table = read(f"x,y\n1,a\n{spelling},b\n3,c\n2.5,d\n".encode(), quick, monkeypatch)
    assert table.kinds["x"] == "numeric"
    np.testing.assert_array_equal(table.column("x"), [1.0, np.nan, 3.0, 2.5])
    assert table.missing["x"] == 1


@pytest.mark.parametrize("quick", [True, False])
def test_none_in_a_text_column_stays_a_value(quick, monkeypatch):
    table = read(b"x,level\n1,Some\n2,None\n3,Full\n", quick, monkeypatch)
    assert table.kinds["level"] == "categorical"
    assert table.column("level").tolist() == ["Some", "None", "Full"] and table.missing["level"] == 0


@pytest.mark.parametrize("quick", [True, False])
def test_a_column_of_none_and_gaps_is_text(quick, monkeypatch):
    table = read(b"x,w\n1,None\n2,\n3,None\n", quick, monkeypatch)
    assert table.kinds["w"] == "categorical"
    assert table.column("w").tolist() == ["None", None, "None"]


def test_the_header_is_still_found_above_numbers_with_none():
    table = read_csv(b"price,n\n1.5,None\nNone,2\n3,4\n")
    assert table.columns == ["price", "n"] and table.kinds == {"price": "numeric", "n": "numeric"}
    assert table.missing == {"price": 1, "n": 1}


def test_text_to_numeric_reads_none_only_beside_numbers():
    np.testing.assert_array_equal(text_to_numeric(["1", "None", " none", "NA"]), [1.0, np.nan, np.nan, np.nan])
    assert text_to_numeric(["None", ""]) is None
    assert text_to_numeric(["None", "x"]) is None
    assert np.isnan(text_to_numeric(["", "NA"])).all()  # gaps alone: still an all-missing number column


def test_the_restaurant_patrons_keep_none_as_a_level():
    table = read_csv(load_restaurant().csv_text.encode())
    patrons = next(name for name in table.columns if name.lower().startswith("pat"))
    assert "None" in set(table.column(patrons).tolist())


def test_pandas_reads_none_in_numbers_as_missing_too():
    pd = pytest.importorskip("pandas")
    import io
    frame = pd.read_csv(io.StringIO("x\n1\nNone\n3\n"))
    assert frame["x"].isna().tolist() == [False, True, False]
