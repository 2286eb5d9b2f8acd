"""How a text column is read at fit and predict time: missing values (None, NaN, pandas' NA; the CSV
reader's missing markers are text like any other in an array), numbers written as text, mixed types, and
the same answer from the quick reading of columns of only str and None (each distinct value judged once)
as from the cell-by-cell one."""

import math

import numpy as np
import pytest

from pellucid.core import values
from pellucid.core.errors import DataError
from pellucid.core.settings import CATEGORICAL, MISSING_MARKERS, NUMERIC
from pellucid.core.validation import check_X
from pellucid.tabular.table import Table


def column(cells):
    out = np.empty(len(cells), dtype=object)
    out[:] = cells
    return out


def readable_categorical(cells):
    """The definition, one cell at a time: missing by is_missing, else the value written as str."""
    missing = [values.is_missing(v) for v in cells]
    return [None if m else str(v) for v, m in zip(cells, missing)], missing


def readable_numeric(cells):
    """The definition, one cell at a time: NaN where missing, float(v) else, None if some cell is text."""
    out = []
    for v in cells:
        if values.is_missing(v):
            out.append(math.nan)
            continue
        try:
            out.append(float(v))
        except ValueError:
            return None
    return out


TEXT_COLUMNS = {
    "markers in any case and spacing": ["red", "", "NA", " na ", "N/A", "#N/A", "?", "NULL", "nan", "NaN", "blue"],
    "None beside the text 'None'": ["None", None, "none", "red", None],
    "numbers written as text": ["1", "2.5", " 3 ", "1e3", "-0", "NA", None],
    "number-like words": ["inf", "-Infinity", "1_000", "0x10", "7"],
    "one value, no gaps": ["amber"] * 50,
    "all missing": [None, "", "NA", " ? "],
    "no missing but near misses": ["n a", "na.", "nul", "NAN!", "\tred\n", "None"],
    "trailing NUL and odd spaces": ["NA\x00", "\u00a0NA\u00a0", "na\u2003", "x"],
}


@pytest.mark.parametrize("name", TEXT_COLUMNS)
def test_a_text_column_reads_as_its_definition_says(name):
    cells = TEXT_COLUMNS[name]
    read, missing = values._as_categorical(column(cells))
    expected, expected_missing = readable_categorical(cells)
    assert read.tolist() == expected
    assert missing.tolist() == expected_missing
    assert values._missing_mask(column(cells)).tolist() == expected_missing
    numeric = values._as_numeric(name, column(cells))
    wanted = readable_numeric(cells)
    if wanted is None:
        assert numeric is None
    else:
        np.testing.assert_array_equal(numeric, wanted)  # NaN where wanted is NaN


@pytest.mark.parametrize("name", TEXT_COLUMNS)
def test_a_fixed_width_text_array_reads_as_the_same_cells_as_objects(name):
    cells = [v for v in TEXT_COLUMNS[name] if v is not None]
    if not cells:
        return
    fixed = np.array(cells, dtype=str)  # numpy drops trailing NULs: read the cells it holds
    read, missing = values._as_categorical(fixed)
    expected, expected_missing = readable_categorical(fixed.tolist())
    assert read.dtype == object and read.tolist() == expected
    assert missing.tolist() == expected_missing


def test_in_an_array_every_missing_marker_is_a_value_however_it_is_written():
    """"NA" may be North America's code: only the CSV reader reads the markers as gaps."""
    spellings = [s for m in MISSING_MARKERS for s in (m, m.upper(), f"  {m.title()}\t")]
    read, missing = values._as_categorical(column(spellings + [None]))
    assert missing.tolist() == [False] * len(spellings) + [True]
    assert read.tolist() == spellings + [None]


MIXED_COLUMNS = {
    "numbers and text": [1, 2.5, "red", None, float("nan"), True, np.int64(3)],
    "equal keys of other types": [1, 1.0, True, "1", "True"],
    "bytes": [b"NA", b"red", "NA", "red"],
    "str subclass": [np.str_("NA"), np.str_("red"), "red", None],
    "pandas-like missing": [np.float32("nan"), "x", None],
}


@pytest.mark.parametrize("name", MIXED_COLUMNS)
def test_a_mixed_column_is_read_cell_by_cell_as_before(name):
    cells = MIXED_COLUMNS[name]
    read, missing = values._as_categorical(column(cells))
    expected, expected_missing = readable_categorical(cells)
    assert read.tolist() == expected
    assert missing.tolist() == expected_missing


def test_bytes_are_text_and_b_NA_is_a_value_not_a_gap():
    read, missing = values._as_categorical(column([b"NA", b"red"]))
    assert read.tolist() == ["b'NA'", "b'red'"] and not missing.any()


def test_equal_keys_of_other_types_keep_their_own_spelling():
    read, _ = values._as_categorical(column([1, 1.0, True, "1"]))
    assert read.tolist() == ["1", "1.0", "True", "1"]


def test_check_X_reads_numbers_written_as_text_as_numbers_and_words_as_categories():
    X = np.empty((4, 2), dtype=object)
    X[:, 0] = ["1", " 2.5", None, "4"]
    X[:, 1] = ["red", "blue", "red", "green"]
    columns = check_X(X, allow_missing=True)
    assert columns.kinds == [NUMERIC, CATEGORICAL]
    np.testing.assert_array_equal(columns.data[0], [1.0, 2.5, np.nan, 4.0])
    X[2, 0] = "NA"  # a word among the numbers: the column is text
    assert check_X(X).kinds == [CATEGORICAL, CATEGORICAL]
    assert columns.data[1].tolist() == ["red", "blue", "red", "green"]


def test_a_missing_category_is_refused_with_its_rows_even_where_missing_numbers_are_allowed():
    """allow_missing="numbers" (a tree's reading) keeps missing numbers as NaN; a missing category has no
    side to go to in a multiway test, so it is refused then too."""
    X = np.empty((5, 1), dtype=object)
    X[:, 0] = ["red", float("nan"), "blue", None, "None"]
    for allow in (False, "numbers"):
        with pytest.raises(DataError, match=r"Column 'x0' has 2 missing values \(rows 2, 4\); drop those rows"):
            check_X(X, allow_missing=allow)
    columns = check_X(X, allow_missing=True)
    assert columns.data[0].tolist() == ["red", None, "blue", None, "None"]
    numbers = np.array([[1.0, 2.0], [np.nan, 3.0], [4.0, np.inf]])
    with pytest.raises(DataError, match=r"Column 'x0' has 1 missing values"):
        check_X(numbers[:2])
    assert np.isnan(check_X(numbers[:2], allow_missing="numbers").data[0][1])
    with pytest.raises(DataError, match=r"Column 'x1' has infinite values \(rows 3\)"):
        check_X(numbers, allow_missing="numbers")


def test_a_column_all_missing_is_refused_naming_every_row():
    table = Table({"colour": [None, None, None]}, kinds={"colour": CATEGORICAL})
    with pytest.raises(DataError, match=r"Column 'colour' has 3 missing values \(rows 1, 2, 3\)"):
        check_X(table)


def test_a_table_column_reads_as_it_is_held_and_the_table_is_untouched():
    table = Table({"colour": ["red", "NA", "None", None, "blue"]}, kinds={"colour": CATEGORICAL})
    held = table.column("colour").tolist()
    columns = check_X(table, allow_missing=True)
    assert columns.data[0].tolist() == held == ["red", None, "None", None, "blue"]
    assert columns.data[0] is not table.column("colour") and columns.data[0].flags.writeable


def test_a_fitted_numeric_column_given_text_at_predict_time_is_refused():
    from pellucid.tabular.features import columns_for_predict
    from pellucid.learners.tree import DecisionTreeClassifier
    from pellucid import GaussianNB

    tree = DecisionTreeClassifier().fit(Table({"size": [1.0, 2.0, 3.0, 4.0]}), ["a", "a", "b", "b"])
    model = GaussianNB().fit(Table({"size": [1.0, 2.0, 3.0, 4.0]}), ["a", "a", "b", "b"])
    X = np.empty((2, 1), dtype=object)
    X[:, 0] = ["big", "small"]
    with pytest.raises(DataError, match="Column 'size' must be numeric, as when the model was fitted, "
                                        "but it holds text."):
        columns_for_predict(model, X)
    X[:, 0] = ["2", None]  # numbers written as text are numbers, and None a gap ...
    with pytest.raises(DataError, match=r"Column 'size' has 1 missing values \(NaN, rows 2\)"):
        columns_for_predict(model, X)
    assert np.isnan(columns_for_predict(tree, X).data[0][1])  # ... which a tree takes
    X[:, 0] = ["2", " NA "]  # a word, not a gap
    with pytest.raises(DataError, match="Column 'size' must be numeric"):
        columns_for_predict(model, X)
    X[:, 0] = ["2", "3.5"]
    np.testing.assert_array_equal(columns_for_predict(model, X).data[0], [2.0, 3.5])


def test_the_quick_reading_agrees_with_the_definition_on_a_large_random_column():
    rng = np.random.default_rng(3)
    pool = ["red", "green", "NA", " n/a", None, "None", "", "3", "?", "violet "]
    cells = [pool[i] for i in rng.integers(0, len(pool), 5000)]
    read, missing = values._as_categorical(column(cells))
    expected, expected_missing = readable_categorical(cells)
    assert read.tolist() == expected and missing.tolist() == expected_missing
