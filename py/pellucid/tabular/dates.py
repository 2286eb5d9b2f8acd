"""Columns of dates: telling them apart from other text, reading them, and turning each into parts a model
can learn from (year, month, day of week, day of year) instead of one category per date.

A column is read as dates when nearly all of a sample of its values is written as one of
  2012-01-31, 2012/01/31, 2012.01.31   (year first)
  31/01/2012, 31-01-2012, 31.01.2012   (day first)
  01/31/2012, 1/31/2012                (month first)
optionally followed by a time ("2012-01-31 10:15", "2012-01-31T10:15:00Z"), which is left aside. Whether
the day or the month comes first is decided by the whole column: a first number above 12 means day first,
a second number above 12 means month first. When no number is above 12 the order cannot be told; the
column is read day first and the format says it was ambiguous.

Reading is vectorised: the first 11 characters of every value become arrays of code points, and the three
numbers are accumulated position by position (11 steps over all rows, not one step per row).
"""

import re
from dataclasses import dataclass

import numpy as np

from .cells import CATEGORICAL, NUMERIC
from .table import Table

PARTS = ("year", "month", "day of week", "day of year")

_SAMPLE = 200          # values looked at to decide whether a column holds dates
_SAMPLE_SHARE = 0.9    # the share of the sample that must look like dates
_WIDTH = 11            # a date is at most 10 characters; the 11th must end it (space, "T" or nothing)
_YEAR_FIRST = re.compile(r"\d{4}([-/.])\d{1,2}\1\d{1,2}(?:[ T].*)?")
_YEAR_LAST = re.compile(r"\d{1,2}([-/.])\d{1,2}\1\d{4}(?:[ T].*)?")
_ORDER_NAMES = {"ymd": "year-month-day", "dmy": "day/month/year", "mdy": "month/day/year"}


@dataclass(frozen=True)
class DateFormat:
    """How a column writes its dates: the order of the numbers, their separator, and whether the order
    was a guess (no day above 12 told day and month apart)."""

    order: str        # "ymd", "dmy" or "mdy"
    separator: str    # "-", "/" or "."
    ambiguous: bool = False

    def describe(self):
        text = _ORDER_NAMES[self.order].replace("-", self.separator).replace("/", self.separator)
        if self.ambiguous:
            text += " (no day above 12, so day and month could be either way round; read day first)"
        return text


def _sample(values, where):
    step = max(1, len(where) // _SAMPLE)
    return values[where[::step][:_SAMPLE]]


def _looks_like_dates(sample):
    """(pattern family "ymd" or "xxy", separator) when nearly all of the sample is written as dates."""
    for family, pattern in (("ymd", _YEAR_FIRST), ("xxy", _YEAR_LAST)):
        matches = [m.group(1) for m in map(pattern.fullmatch, sample) if m]
        if len(matches) >= _SAMPLE_SHARE * len(sample):
            separator = max(set(matches), key=matches.count)
            return family, separator
    return None


def _numbers(present, separator):
    """(3, n) the three numbers of each value, (3, n) how many digits each had, and (n,) whether the value
    is exactly three digit runs split by `separator` and ended by nothing, a space or a "T"."""
    n = len(present)
    codes = present.astype(f"U{_WIDTH}").view(np.uint32).reshape(n, _WIDTH).T.copy()  # (11, n) by position
    values = np.zeros((3, n), dtype=np.int64)  # (3, n)
    lengths = np.zeros((3, n), dtype=np.int64)  # (3, n)
    field = np.zeros(n, dtype=np.int64)  # (n,) which number the position is in
    in_date = np.ones(n, dtype=bool)  # (n,) still within the digits and separators at the start
    end = np.zeros(n, dtype=np.int64)  # (n,) where that stretch ends
    for code in codes:  # (n,) the characters at one position
        digit = (code >= ord("0")) & (code <= ord("9"))
        split = code == ord(separator)
        in_date &= digit | split
        field += split & in_date
        end += in_date
        for f in range(3):
            mine = in_date & digit & (field == f)
            values[f] = np.where(mine, values[f] * 10 + (code.astype(np.int64) - ord("0")), values[f])
            lengths[f] += mine
    after = codes[np.minimum(end, _WIDTH - 1), np.arange(n)]  # (n,) the character after the date
    ended = (end < _WIDTH) & ((after == 0) | (after == ord(" ")) | (after == ord("T")))
    return values, lengths, ended & (field == 2) & (lengths > 0).all(axis=0)


def _days(year, month, day, ok):
    """(n,) days since 1970-01-01, and (n,) which rows are real dates (month 1-12, day within the month)."""
    ok = ok & (month >= 1) & (month <= 12) & (day >= 1) & (year >= 1) & (year <= 9999)
    months = np.where(ok, (year - 1970) * 12 + month - 1, 0).astype("datetime64[M]")  # (n,)
    first = months.astype("datetime64[D]").astype(np.int64)  # (n,)
    length = (months + 1).astype("datetime64[D]").astype(np.int64) - first  # (n,) days in the month
    ok &= day <= length
    return np.where(ok, first + day - 1, 0), ok


def _read(present, family, separator, order=None):
    """(order, ambiguous, days, ok) for the present values; `order` None decides it from the values."""
    values, lengths, ok = _numbers(present, separator)
    a, b, c = values
    if family == "ymd":
        ok &= lengths[0] == 4
        days, ok = _days(a, b, c, ok)
        return "ymd", False, days, ok
    ok &= lengths[2] == 4
    ambiguous = False
    if order is None:
        day_first, month_first = (ok & (a > 12)).any(), (ok & (b > 12)).any()
        ambiguous = not day_first and not month_first
        order = "mdy" if month_first and not day_first else "dmy"
        if day_first and month_first:  # some rows each way: the order that reads more rows
            order = max(("dmy", "mdy"), key=lambda o: _days(c, *((b, a) if o == "dmy" else (a, b)), ok)[1].sum())
    month, day = (b, a) if order == "dmy" else (a, b)
    days, ok = _days(c, month, day, ok)
    return order, ambiguous, days, ok


def read_dates(values):
    """(DateFormat, (n,) datetime64[D] with NaT where a value is missing or not a date) when a categorical
    column (an object array of str, None = missing) holds dates, else (None, None)."""
    values = np.asarray(values, dtype=object)
    where = np.flatnonzero(np.not_equal(values, None))
    if len(where) == 0:
        return None, None
    found = _looks_like_dates(list(_sample(values, where)))
    if found is None:
        return None, None
    order, ambiguous, days, ok = _read(values[where], *found)
    if ok.mean() < _SAMPLE_SHARE:
        return None, None
    dates = np.full(len(values), np.datetime64("NaT"), dtype="datetime64[D]")  # (n,)
    dates[where[ok]] = days[ok].astype("datetime64[D]")
    return DateFormat(order, found[1], ambiguous), dates


def date_format(values):
    """The DateFormat of a categorical column when it holds dates, else None."""
    return read_dates(values)[0]


def date_parts(dates):
    """dict part -> (n,) float64 (NaN where the date is NaT): year, month (1-12), day of week (Monday 0)
    and day of year (1-366)."""
    missing = np.isnat(dates)
    days = dates.astype(np.int64)  # (n,) since 1970-01-01, a Thursday
    years = dates.astype("datetime64[Y]")
    parts = {"year": years.astype(np.int64) + 1970.0,
             "month": dates.astype("datetime64[M]").astype(np.int64) % 12 + 1.0,
             "day of week": (days + 3) % 7 + 0.0,
             "day of year": days - years.astype("datetime64[D]").astype(np.int64) + 1.0}
    return {name: np.where(missing, np.nan, part) for name, part in parts.items()}


def part_name(column, part):
    return f"{column} {part}"


def expand_dates(table, columns):
    """(table, columns): every date column among `columns` replaced in the list by its four parts, which
    are added to the table as numeric columns after the existing ones ("<column> year", ...); the other
    columns and the table's own columns stay as they were."""
    names, data, kinds = table.columns, [], []
    chosen = []
    for column in columns:
        fmt, dates = read_dates(table.column(column)) if table.kinds[column] == CATEGORICAL else (None, None)
        if fmt is None:
            chosen.append(column)
            continue
        for part, values in date_parts(dates).items():
            name = part_name(column, part)
            chosen.append(name)
            if name not in names:
                names.append(name)
                data.append(values)
                kinds.append(NUMERIC)
    if not data:
        return table, list(columns)
    old = table.columns
    expanded = Table._trusted(names, [table.column(n) for n in old] + data, [table.kinds[n] for n in old] + kinds)
    return expanded, chosen
