"""The quick reader of plain CSVs (tabular/csv_fast.py) gives exactly the table the general reader gives:
same names, kinds, values, notes and header decision, on generated plain files whose cells include
every kind of trap (codes with leading zeros, long IDs, missing markers, Unicode spaces, decimal commas),
and the same errors. The general reader is the oracle: the quick one is switched off to get its answer."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pellucid.core.errors import DataError
from pellucid.tabular import csv_fast
from pellucid.tabular.csvio import read_csv

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CELLS = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.floats(-1e3, 1e3).map(lambda v: f"{v:.3g}"),
    st.sampled_from(["007", "-012", "00.5", "0", "-0", "0.25", "12345678901234567890", "9007199254740993",
                     "1_000", "inf", "-inf", "nan", "NaN", "NA", "", "?", "null", "#N/A", "None", " 3", "4 ",
                     "\u00a05", "\u0661", "1,5", "2,25", "1.5", "abc", "Oslo", "a b c", "2020-01-05",
                     "01/02/2020", "x|05", "é"]),
    st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, blacklist_characters='",;\t\r\n'),
            max_size=6))


@st.composite
def plain_files(draw):
    """A plain CSV (no quotes, rectangular) of 1-5 columns, each column drawn from one few-valued pool so
    that whole columns of numbers are common, with or without a header line."""
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    n_cols = draw(st.integers(1, 5))
    n_rows = draw(st.integers(1, 30))
    pools = [draw(st.lists(CELLS, min_size=1, max_size=4)) for _ in range(n_cols)]
    pools = [[cell.replace(delimiter, "") for cell in pool] for pool in pools]
    rows = [[draw(st.sampled_from(pool)) for pool in pools] for _ in range(n_rows)]
    # Often the first row again and again, past the rows a column's kind is guessed from, so that what
    # breaks the guess comes further down.
    rows = rows[:1] * draw(st.sampled_from([0, 120])) + rows
    if draw(st.booleans()):
        rows.insert(0, [f"col{j}" for j in range(n_cols)])
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(delimiter.join(row) for row in rows) + draw(st.sampled_from(["", newline]))
    return text.encode("utf-8")


def read_both(data, monkeypatch, **kwargs):
    """(the general reader's outcome, the quick reader's outcome): a table or the DataError's message."""
    outcomes = []
    for quick in (False, True):
        with monkeypatch.context() as m:
            if not quick:
                m.setattr(csv_fast, "is_plain", lambda text, delimiter: None)
            try:
                outcomes.append(read_csv(data, **kwargs))
            except DataError as exc:
                outcomes.append(str(exc))
    return outcomes


def assert_same_table(general, quick):
    assert type(general) is type(quick)
    if isinstance(general, str):
        assert general == quick
        return
    assert general.columns == quick.columns
    assert general.kinds == quick.kinds
    assert general.read_info.to_dict() == quick.read_info.to_dict()
    for name in general.columns:
        a, b = general.column(name), quick.column(name)
        if general.kinds[name] == "numeric":
            np.testing.assert_array_equal(a, b)  # bit for bit, NaN where NaN
        else:
            assert a.tolist() == b.tolist()


@SETTINGS
@given(data=plain_files(), header=st.sampled_from([None, True, False]))
def test_the_quick_reader_gives_the_general_readers_table(data, header, monkeypatch_module):
    general, quick = read_both(data, monkeypatch_module, header=header)
    assert_same_table(general, quick)


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as m:
        yield m


def test_a_plain_file_of_numbers_is_read_by_the_quick_reader_into_floats(monkeypatch):
    rows = "\n".join(f"{i * 0.5},{i % 7},{'abc'[i % 3]}" for i in range(1000))
    calls = []
    original = csv_fast.PlainText.columns
    monkeypatch.setattr(csv_fast.PlainText, "columns",
                        lambda self, *a: calls.append(a[1]) or original(self, *a))
    table = read_csv(("x,k,c\n" + rows + "\n").encode())
    assert calls == [[0, 1]]  # the two columns of numbers were read as floats in one pass
    assert table.kinds == {"x": "numeric", "k": "numeric", "c": "categorical"}
    np.testing.assert_array_equal(table.column("x"), np.arange(1000) * 0.5)
    assert table.column("c")[:4].tolist() == ["a", "b", "c", "a"]


@pytest.mark.parametrize("text, why", [
    ('a,b\n1,"2"\n', "a quote"),
    ("a,b\n1,2\n\n3,4\n", "a blank line"),
    ("a,b\n1,2\n3\n", "a short line"),
    ("a,b\r1,2\r", "old Mac line ends"),
])
def test_files_that_are_not_plain_go_to_the_general_reader(text, why):
    assert csv_fast.is_plain(text, ",") is None, why


def test_a_column_that_is_not_numbers_further_down_is_read_again_as_text(monkeypatch):
    text = "x,y\n" + "1,2\n" * 300 + "1,NA\n" + "3,seven\n"
    general, quick = read_both(text.encode(), monkeypatch)
    assert_same_table(general, quick)
    assert quick.kinds == {"x": "numeric", "y": "categorical"}


@pytest.mark.parametrize("delimiter, trap, kind", [
    (",", "007", "categorical"),                    # a code: its leading zero is kept as text
    (",", "-012", "categorical"),
    (",", "\u00a05", "numeric"),                    # a no-break space around a number is trimmed
    (",", "\u0665", "categorical"),                 # an Arabic-Indic digit
    (",", "12345678901234567890", "categorical"),   # a long ID float64 would round
    (",", "1_000", "categorical"),
    (";", "2,5", "numeric"),                        # a decimal comma in a file of semicolons
    (",", "nan", "numeric"),
    (",", "", "numeric"),                           # missing
])
def test_a_trap_below_the_guessing_rows_is_judged_as_the_general_reader_does(delimiter, trap, kind,
                                                                              monkeypatch):
    rows = [f"{i}{delimiter}{i % 10}" for i in range(200)] + [f"1{delimiter}{trap}"]
    data = ("a" + delimiter + "b\n" + "\n".join(rows) + "\n").encode()
    general, quick = read_both(data, monkeypatch)
    assert_same_table(general, quick)
    assert quick.kinds["b"] == kind


def test_the_row_limit_is_told_the_same_way(monkeypatch):
    text = ("a,b\n" + "1,2\n" * 50).encode()
    for header, max_rows in ((None, 10), (True, 49), (False, 50), (None, 50)):
        general, quick = read_both(text, monkeypatch, header=header, max_rows=max_rows)
        assert_same_table(general, quick)
