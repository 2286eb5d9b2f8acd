"""The target a new table starts with, or none when no column is clearly one, with the likely candidates.

A column can be a target unless it is a date or a timestamp (a number named like a time, counted in seconds
since 1970 or finer), an ID, free text, a column of one value (or none), or a category of more than
MANY_LEVELS values: the profile (profile.py) tells which. Of the others, the clear target is
  1. the first present of TARGET_NAMES (any case): target, label, class, outcome, survived, species, y;
     except y when the table also has an x and a z (then x, y and z are coordinates);
  2. else the last column, unless it is one of such coordinates.
When neither is, there is no suggestion (the page asks the user to choose) and the candidates say which
columns are likely, first: a category of a few values (classes), then numbers (a value to predict), then
a category of many values, then the coordinates; later columns first within each (targets tend to come
last). A table that ends in its coordinates (gems: ..., price, x, y, z) puts the last column before them
first, beside any column named like a target. Each candidate has its reason in words, and says whether
it is likely (the first three groups).
"""

import re

from .profile import MANY_LEVELS

TARGET_NAMES = ("target", "label", "class", "outcome", "survived", "species", "y")  # by priority
COORDINATES = ("x", "y", "z")
FEW_CLASSES = 20        # a category of at most this many values is a likely class
RARE_SHARE = 0.1        # a class in fewer rows than this share is named as rare in the reason
MAX_CANDIDATES = 8
EPOCH_FROM = 1e8        # seconds since 1970 past March 1973: a number named like a time and this large is one
LIKELY = 3              # the ranks up to numbers are likely targets; many categories and coordinates less so

_TIME_NAME = re.compile(r"time|date|epoch|(?:^|[\s_.\-])(?:created|updated|modified)(?:$|[\s_.\-])|_at$",
                        re.IGNORECASE)


def why_not_target(entry, n_rows):
    """Why a profiled column cannot be the target, or None when it can."""
    present = n_rows - entry["missing"]
    if present == 0 or entry["unique"] == 0:
        return "every cell is missing"
    if entry["unique"] == 1:
        return "one value in every row"
    if entry["kind"] in ("date", "id", "text"):
        return {"date": "a date", "id": "an ID", "text": "free text"}[entry["kind"]]
    if entry["kind"] == "number" and _TIME_NAME.search(entry["name"]) and _epoch_like(entry):
        return "a timestamp"
    if entry["kind"] == "category" and entry["unique"] > MANY_LEVELS:
        return "too many categories"
    return None


def _epoch_like(entry):
    """A number column whose values all lie past EPOCH_FROM: seconds (or milliseconds) since 1970, as a
    timestamp is written; a duration named like a time ("delivery_time", in minutes) stays a target."""
    edges = (entry.get("histogram") or {}).get("edges") or []
    return bool(edges) and edges[0] >= EPOCH_FROM


def _coordinates(names):
    """The columns named x, y and z (any case) when all three are there, else none."""
    lower = {name.strip().lower(): name for name in reversed(names)}
    return {lower[c] for c in COORDINATES} if all(c in lower for c in COORDINATES) else set()


def choose_target(entries, n_rows):
    """(suggested target or None, candidates [{name, reason, likely}], likeliest first) for profiled
    columns; `likely` is false for a category of many values and for a coordinate."""
    names = [e["name"] for e in entries]
    able = [e for e in entries if why_not_target(e, n_rows) is None]
    coordinates = _coordinates(names)
    suggested = _clear_target(able, coordinates, names)
    before = _last_before_coordinates(able, coordinates, names)
    rank = {e["name"]: _rank(e, coordinates, suggested, before) for e in able}
    ranked = sorted(reversed(able), key=lambda e: rank[e["name"]])  # stable: later first
    candidates = [{"name": e["name"], "reason": _reason(e, coordinates, suggested, n_rows, before),
                   "likely": rank[e["name"]] <= LIKELY} for e in ranked[:MAX_CANDIDATES]]
    return suggested, candidates


def _last_before_coordinates(able, coordinates, names):
    """When the table's last column is a coordinate, the last column that can be a target before it."""
    if not names or names[-1] not in coordinates:
        return None
    usable = [e["name"] for e in able if e["name"] not in coordinates]
    return usable[-1] if usable else None


def _clear_target(able, coordinates, names):
    by_name = {e["name"].strip().lower(): e["name"] for e in reversed(able)}  # the first of a repeated name
    for name in TARGET_NAMES:
        if name in by_name and by_name[name] not in coordinates:
            return by_name[name]
    last = names[-1] if names else None
    if any(e["name"] == last for e in able) and last not in coordinates:
        return last
    return None


def _rank(entry, coordinates, suggested, before):
    if entry["name"] == suggested:
        return 0
    if entry["name"] in coordinates:
        return 5
    if entry["name"].strip().lower() in TARGET_NAMES or entry["name"] == before:
        return 1
    if entry["kind"] == "category":
        return 2 if entry["unique"] <= FEW_CLASSES else 4
    return 3


def _reason(entry, coordinates, suggested, n_rows, before=None):
    if entry["name"] in coordinates:
        return "one of the coordinates x, y, z: more likely a feature"
    named = entry["name"].strip().lower() in TARGET_NAMES
    if entry["kind"] == "category":
        what = f"{entry['unique']} classes" if entry["unique"] <= FEW_CLASSES else f"{entry['unique']} categories"
        bars = entry.get("bars") or []
        if bars and len(bars) == entry["unique"]:
            value, count = min(bars, key=lambda bar: bar[1])
            if count < RARE_SHARE * (n_rows - entry["missing"]):
                what += f", the rarest ({value}) in {count} rows"
    else:
        what = f"numbers, {entry['unique']} distinct: a value to predict"
    if named:
        return f"named like a target; {what}"
    if entry["name"] == suggested:
        return f"the last column; {what}"
    if entry["name"] == before:
        return f"the last column before the coordinates; {what}"
    return what
