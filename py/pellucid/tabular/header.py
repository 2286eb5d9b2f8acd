"""The first row of a CSV: column names or data, and the names the columns get.

The rule (`detect_header`), judged on the first row and up to 100 rows below it:
1. Columns of numbers below: if the first row holds text above any of them, it is a header (names
   above numbers); if it holds numbers above them (and no text), it is data, and the columns are named
   column_1, column_2, ... (so a file without a header keeps its first row; names that are numbers,
   such as years, need the switch).
2. No such column (an all-text table): the first row is data when one of its cells occurs again in
   its column below (names do not recur as values; "Sunny" in a weather column does), else a header.
3. A file of one row is data when that row is all numbers, else a header (and has no data rows).
The page shows what was decided and offers the switch; `read_csv(header=True/False)` overrides it.
"""

from .cells import is_missing_number_text, is_missing_text

_SAMPLE_ROWS = 100


def detect_header(rows, is_number):
    """(is_header, reason): whether the first of `rows` (lists of cell texts) names the columns of the
    rows after it, and why, in words for the page. is_number(text) says whether a cell is a number."""
    first = rows[0]
    sample = [row for row in rows[1:_SAMPLE_ROWS + 1] if len(row) == len(first)]
    present = [j for j, cell in enumerate(first) if not is_missing_text(cell)]
    if not sample:
        if present and all(is_number(first[j]) for j in present):
            return False, "it is the only row, and it holds numbers"
        return True, "it is the only row, and it holds text"
    numeric = [j for j in present if _numbers_below(sample, j, is_number)]
    if any(not is_number(first[j]) for j in numeric):
        return True, "it holds text above columns of numbers"
    if numeric:
        return False, "it holds numbers like the rows below it"
    for j in present:
        value = first[j].strip()
        if any(row[j].strip() == value for row in sample):
            return False, f"its value {value!r} occurs again in the column below it"
    return True, "its values do not occur again in the columns below them"


def _numbers_below(sample, j, is_number):
    """Whether column j of the sample holds numbers (at least one) and missing markers (or "None") only."""
    cells = [row[j] for row in sample if not is_missing_number_text(row[j])]
    return bool(cells) and all(map(is_number, cells))


def unique_names(raw):
    """Trimmed, non-blank, unique column names: blank -> "column_<position>", repeats -> "name (2)"."""
    names = [h.strip() or f"column_{j + 1}" for j, h in enumerate(raw)]
    given, taken, out = set(names), set(), []
    for name in names:
        unique, k = name, 2
        while unique in taken:  # a repeat: the first free suffix that no other column is called
            unique, k = f"{name} ({k})", k + 1
            if unique in given:
                unique = name
        taken.add(unique)
        out.append(unique)
    return out


def renaming_notes(raw, names):
    """A sentence for each header name that was blank or repeated, saying what the column is called."""
    notes = []
    for j, (given, name) in enumerate(zip(raw, names)):
        given = given.strip()
        if not given:
            notes.append(f"Column {j + 1} has no name in the header; it is called {name!r}.")
        elif given != name:
            notes.append(f"More than one column is called {given!r}; column {j + 1} is renamed {name!r}.")
    return notes


def drop_trailing_empty(header, names, columns):
    """Drop columns made by a trailing delimiter: unnamed, last, and empty on every line."""
    while len(columns) > 1 and not header[len(columns) - 1].strip() and not "".join(columns[-1]).strip():
        columns.pop()
    return names[:len(columns)], columns
