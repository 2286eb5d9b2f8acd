"""A profile of each column before training: what kind of values it holds, how many are missing and how
many distinct, a small histogram or bar chart, and whether it should be a feature.

Kinds, decided in this order:
  number    a numeric column (an ID when it is one of the ID cases below);
  date      text that reads as dates (dates.py); by default a feature, learned from as its parts;
  text      free text: mostly distinct values (at least half of them) that are long (a median over 20
            characters) or of three words or more ("Braund, Mr. Owen Harris"; a ticket "A/5 21171" is not,
            and answers that repeat, "Strongly agree with the statement", are categories);
  id        named like an ID (id, *_id, *Id, *ID, key, uuid, guid) with a distinct value in at least 90% of
            its rows; or whole numbers or short text with a distinct value in every row (numbers) or in
            at least 95% of them (text), in more than 20 rows. A column of measurements with decimals is
            never an ID, however distinct its values, and neither is one named like a year (one row a year);
  category  the rest of the text.

Roles: the target column is "target"; an ID, free text, a column with no values, a constant column (one
distinct value, missing cells aside: nothing to learn from) and a category with more than 100 distinct
values (tickets, cabins, zip codes: a few rows per value, little to learn from each) are "ignore", each
with a reason the page shows next to a "use anyway" button; every other column is a "feature". Such a
category also says what using it anyway does ("if_used"): a tree tests it one value against the rest
(learners/tree: categorical_split="auto"), never with one branch per value.

The default target, or none with the likely candidates, is chosen from the profile (target_choice.py).

Fast enough for large uploads: counts are numpy or one Counter per text column, text length and spaces
are judged on a sample, and dates are parsed vectorised.
"""

import re
from collections import Counter

import numpy as np

from .cells import NUMERIC
from . import dates

BINS = 12           # histogram bars for numbers and dates
TOP = 8             # bars for the most frequent categories; the rest are counted as "other"
MIN_ROWS_FOR_ID = 20
ID_SHARE_NAMED, ID_SHARE_TEXT = 0.9, 0.95
MANY_LEVELS = 100
MOSTLY_DISTINCT = 0.5
TEXT_MEDIAN_LENGTH, TEXT_MEDIAN_WORDS = 20, 3
_SAMPLE = 1000      # values looked at for lengths and spaces
IF_USED_MANY_LEVELS = ("Used anyway, a tree tests it one value against the rest (two branches, as on "
                       "one-hot columns, never one branch per value); models of numbers read it as one "
                       "0/1 column per value.")

_ID_NAME = re.compile(r"(?:^|[\s_.\-])(?:id|key|uuid|guid)$|^(?:id|uuid|guid)(?:[\s_.\-]|$)|(?:uu|gu)id$",
                      re.IGNORECASE)
_ID_CAMEL = re.compile(r"[a-z0-9](?:Id|ID|Key)$")


def named_like_id(name):
    """True for names such as id, PassengerId, customer_id, CustomerID, order key, uuid."""
    name = name.strip()
    return bool(_ID_NAME.search(name) or _ID_CAMEL.search(name))


def profile(table, target=None):
    """One dict per column, in order: {name, kind, missing, unique, role, reason, and a histogram
    {edges, counts} (numbers, dates; a number also says whether its values are all "whole") or bars
    [[value, count], ...] of the most frequent values and "other", the rows holding the rest (categories,
    text, IDs; no bars when more than half the values are distinct)}. A date column also has its
    "date_format", the "parts" it becomes and how many values are "not_dates" (read as missing)."""
    return [_profile_column(table, name, target) for name in table.columns]


def column_entry(table, name):
    """The profile of one column, as `profile` gives it (with no target chosen)."""
    return _profile_column(table, name, None)


def _profile_column(table, name, target):
    values, n = table.column(name), table.n_rows
    missing = table.missing[name]
    if table.kinds[name] == NUMERIC:
        entry = _number(name, values, n - missing)
    else:
        entry = _text(name, values, n - missing)
    entry = {"name": name, "missing": missing, **entry}
    entry["role"], entry["reason"] = _role(entry, name == target, n)
    if entry["reason"] is not None and _many_levels(entry):
        entry["if_used"] = IF_USED_MANY_LEVELS
    return entry


def _number(name, values, present):
    # One sort serves all three: distinct values are where the sorted ones change, the finite ones lie
    # between the infinities, and a histogram's counts are binary searches for its edges.
    ordered = np.sort(values[~np.isnan(values)])  # (present,) infinities at the ends
    unique = _count_distinct(ordered)
    finite = ordered[np.searchsorted(ordered, -np.inf, "right"):np.searchsorted(ordered, np.inf, "left")]
    whole = bool(len(finite)) and bool(np.all(finite == np.round(finite)))
    is_id = whole and present > MIN_ROWS_FOR_ID and "year" not in name.lower() and (
        unique == present or (named_like_id(name) and unique >= ID_SHARE_NAMED * present))
    return {"kind": "id" if is_id else "number", "unique": unique, "whole": whole, "histogram": _histogram(finite)}


def _count_distinct(ordered):
    """How many distinct values a sorted float array holds (np.unique would also build the array of them)."""
    if len(ordered) == 0:
        return 0
    return 1 + int(np.count_nonzero(ordered[1:] != ordered[:-1]))


def _text(name, values, present):
    distinct_values = set(values.tolist())
    distinct_values.discard(None)
    unique = len(distinct_values)
    fmt, parsed = dates.read_dates(values) if present else (None, None)
    if fmt is not None:
        days = parsed[~np.isnat(parsed)].astype(np.int64)
        return {"kind": "date", "unique": unique, "date_format": fmt.describe(), "not_dates": present - len(days),
                "parts": [dates.part_name(name, part) for part in dates.PARTS],
                "histogram": _histogram(np.sort(days), as_dates=True)}
    distinct = unique / present if present else 0.0
    if _is_free_text(list(distinct_values), distinct):
        kind = "text"
    elif present > MIN_ROWS_FOR_ID and (distinct >= ID_SHARE_TEXT or
                                        (named_like_id(name) and distinct >= ID_SHARE_NAMED)):
        kind = "id"
    else:
        kind = "category"
    # Mostly distinct values have no bars worth drawing (nearly every count is 1), and counting them all
    # is the slow part of a large profile.
    mostly_distinct = unique > MOSTLY_DISTINCT * present
    return {"kind": kind, "unique": unique,
            **_bars(Counter() if mostly_distinct else Counter(values.tolist()), present)}


def _is_free_text(distinct_values, distinct_share):
    sample = distinct_values[::max(1, len(distinct_values) // _SAMPLE)][:_SAMPLE]
    if not sample or distinct_share < MOSTLY_DISTINCT:
        return False
    return (np.median([len(v) for v in sample]) > TEXT_MEDIAN_LENGTH
            or np.median([len(v.split()) for v in sample]) >= TEXT_MEDIAN_WORDS)


def _role(entry, is_target, n_rows):
    """(role, reason): why a column is left out of the features by default, or None."""
    if is_target:
        return "target", None
    present, unique = n_rows - entry["missing"], entry["unique"]
    if present == 0:
        return "ignore", "every cell is missing"
    if unique == 1:
        return "ignore", f"one value in every row{' with a value' if entry['missing'] else ''}: {_one_value(entry)}"
    if entry["kind"] == "id":
        return "ignore", f"looks like an ID, {unique} distinct values in {present} rows"
    if entry["kind"] == "text":
        return "ignore", f"free text, {unique} distinct values"
    if _many_levels(entry):
        return "ignore", f"too many categories ({unique})"
    return "feature", None


def _many_levels(entry):
    return entry["kind"] == "category" and entry["unique"] > MANY_LEVELS


def _one_value(entry):
    if entry.get("bars"):
        return str(entry["bars"][0][0])
    edges = (entry.get("histogram") or {}).get("edges")
    if not edges:
        return "?"
    return f"{edges[0]:g}" if isinstance(edges[0], float) else str(edges[0])


def _histogram(values, as_dates=False):
    """{edges, counts} over BINS equal bins of the sorted, finite `values` (none when there are none), as
    np.histogram counts them (each bin holds its left edge, the last its right one too); dates' edges are
    ISO days."""
    if len(values) == 0:
        return {"edges": [], "counts": []}
    low, high = float(values[0]), float(values[-1])
    with np.errstate(over="ignore", invalid="ignore"):  # a span beyond float64 is caught just below
        edges = np.linspace(low, high, BINS + 1)  # (BINS + 1,)
    if np.all(np.isfinite(edges)) and np.all(np.diff(edges) > 0):
        ends = np.concatenate([[0], np.searchsorted(values, edges[1:-1], "left"), [len(values)]])  # (BINS + 1,)
        counts = np.diff(ends)
    else:  # one value, or a span float64 cannot cut in BINS (-1e308 to 1e308, 0 to 5e-324): a single bar
        counts, edges = np.array([len(values)]), np.array([low, high])
    if as_dates:
        edges = [str(np.datetime64(int(round(e)), "D")) for e in edges]
    else:
        edges = edges.tolist()
    return {"edges": edges, "counts": counts.tolist()}


def _bars(counts, present):
    """{bars: [[value, count], ...] of the TOP most frequent values, other: how many rows hold the rest}."""
    counts.pop(None, None)
    top = counts.most_common(TOP)
    return {"bars": [[value, count] for value, count in top], "other": present - sum(c for _, c in top)}
