"""Date columns: which text is read as dates, in which order of day and month, and the parts a model
learns from, checked against Python's datetime."""

import datetime

import numpy as np
import pytest

from pellucid import Table
from pellucid.tabular.dates import date_parts, expand_dates, read_dates


def column(values):
    return np.array(values, dtype=object)


def as_dates(values):
    return read_dates(column(values))


def random_days(n, seed=0):
    rng = np.random.default_rng(seed)
    return [datetime.date(1900, 1, 1) + datetime.timedelta(days=int(d)) for d in rng.integers(0, 70_000, n)]


@pytest.mark.parametrize("pattern, order", [
    ("%Y-%m-%d", "ymd"), ("%Y/%m/%d", "ymd"), ("%Y.%m.%d", "ymd"),
    ("%d/%m/%Y", "dmy"), ("%d-%m-%Y", "dmy"), ("%d.%m.%Y", "dmy"),
    ("%m/%d/%Y", "mdy"), ("%Y-%m-%d %H:%M", "ymd"), ("%Y-%m-%dT%H:%M:%SZ", "ymd"), ("%d/%m/%Y %H:%M", "dmy"),
])
def test_each_format_reads_back_the_days_it_was_written_from(pattern, order):
    days = random_days(500)
    fmt, dates = as_dates([d.strftime(pattern) for d in days])
    assert fmt.order == order and not fmt.ambiguous
    assert dates.tolist() == days


def test_numbers_without_leading_zeros_are_read():
    fmt, dates = as_dates(["1/5/2012", "12/31/2012", "7/4/1999 10:30"])
    assert fmt.order == "mdy"
    assert dates.tolist() == [datetime.date(2012, 1, 5), datetime.date(2012, 12, 31), datetime.date(1999, 7, 4)]


def test_when_no_number_is_above_12_the_order_is_day_first_and_said_to_be_a_guess():
    fmt, dates = as_dates(["01/02/2012", "03/04/2012", "12/11/2010"])
    assert fmt.order == "dmy" and fmt.ambiguous
    assert "either way" in fmt.describe()
    assert dates[0] == np.datetime64("2012-02-01")


def test_the_order_is_decided_by_the_whole_column_not_only_the_first_rows():
    values = ["01/02/2012"] * 5000 + ["25/12/2012"]  # only the last row tells: day first
    fmt, dates = as_dates(values)
    assert fmt.order == "dmy" and not fmt.ambiguous
    assert dates[-1] == np.datetime64("2012-12-25")


def test_missing_cells_and_impossible_days_become_not_a_time():
    fmt, dates = as_dates(["2012-02-29", None, "2013-02-29"] + ["2012-03-01"] * 40)
    assert fmt is not None
    assert dates[0] == np.datetime64("2012-02-29")
    assert np.isnat(dates[1]) and np.isnat(dates[2])


@pytest.mark.parametrize("values", [
    ["Oslo", "Bergen", "2012-01-01"],
    ["1.2.3", "1.2.4", "2.0.1"],                    # version numbers
    ["A/5 21171", "PC 17599", "113803"],            # tickets
    ["2012-01-311", "2012-01-312", "2012-01-313"],  # a digit too many
    ["2012-13-01", "2012-14-02", "2012-15-03"],     # no month 13
    ["12/2012", "01/2013", "02/2013"],              # months, not days
    [None, None],
])
def test_text_that_is_not_dates_is_not_read_as_dates(values):
    assert as_dates(values) == (None, None)


def test_parts_agree_with_python_datetime():
    days = random_days(2000, seed=1)
    parts = date_parts(np.array(days, dtype="datetime64[D]"))
    assert parts["year"].tolist() == [d.year for d in days]
    assert parts["month"].tolist() == [d.month for d in days]
    assert parts["day of week"].tolist() == [d.weekday() for d in days]
    assert parts["day of year"].tolist() == [d.timetuple().tm_yday for d in days]


def test_expand_dates_replaces_a_date_feature_by_its_four_numeric_parts():
    table = Table({"when": ["31/01/2012", "29/02/2016", None], "city": ["Oslo", "Lima", "Oslo"],
                   "price": [1.5, 2.0, 3.0]})
    expanded, features = expand_dates(table, ["city", "when", "price"])
    assert features == ["city", "when year", "when month", "when day of week", "when day of year", "price"]
    assert expanded.columns[:3] == table.columns  # the table keeps its own columns, parts come after
    assert expanded.kinds["when year"] == "numeric"
    assert expanded.column("when day of year")[:2].tolist() == [31.0, 60.0]
    assert np.isnan(expanded.column("when month")[2])


def test_expand_dates_leaves_a_table_without_dates_as_it_is():
    table = Table({"city": ["Oslo", "Lima"], "price": [1.5, 2.0]})
    expanded, features = expand_dates(table, ["price", "city"])
    assert expanded is table and features == ["price", "city"]
