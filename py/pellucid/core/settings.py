"""What Python and the page share, defined once: the default split, the range of k for k-fold
cross-validation, the text read as a missing value, the column kinds, the size limits of an upload and
the task names.

Python reads these constants directly; the page reads the same values from `settings.json`, which the
build writes from `shared_settings()` (build.py), so the two can never disagree.
"""

from .descriptor import Task

NUMERIC, CATEGORICAL = "numeric", "categorical"
COLUMN_KINDS = (NUMERIC, CATEGORICAL)

# The usual ways a spreadsheet or a database export writes "no value" (compared stripped, lower-cased);
# "#n/a" is Excel's. "None" is not one of them: it is a real value (the restaurant data's Patrons).
MISSING_MARKERS = frozenset({"", "na", "n/a", "#n/a", "?", "null", "nan"})

# The split the page starts with, in percent of the rows: fit on 70%, judge once on the other 30%.
DEFAULT_SPLIT = {"train": 70, "validation": 0, "test": 30}

# k-fold cross-validation: at least two folds; past 20 each fold adds time and little information.
CV_FOLDS = {"min": 2, "max": 20, "default": 5}

# The largest upload the browser tab reads without running out of memory (benchmarks/RESULTS.md,
# "Browser limits"): 50 MB of text, and no more rows than the widest 50 MB file holds.
MAX_BYTES = 50 * 1024 * 1024
MAX_ROWS = 2_000_000


def shared_settings():
    """The settings as plain JSON data, the contents of the site's settings.json."""
    return {"split": dict(DEFAULT_SPLIT),
            "cv_folds": dict(CV_FOLDS),
            "missing_markers": sorted(MISSING_MARKERS),
            "column_kinds": list(COLUMN_KINDS),
            "limits": {"max_bytes": MAX_BYTES, "max_rows": MAX_ROWS},
            "tasks": [task.value for task in Task]}
