"""What Python and the page share, defined once: the default split and the split's limits, the range of k
for k-fold cross-validation and of its repeats, the range of a seed, the text read as a missing value,
the column kinds, the size limits of an upload, the task names, the metrics each task is scored and
ranked by (with their labels and which read as percentages), the ways to handle missing cells, the
longest vector written inside a formula, and the error fields (the controls a DataError can be about).

Python reads these constants directly; the page reads the same values from `settings.json`, which the
build writes from `shared_settings()` (build.py), so the two can never disagree.
"""

from .descriptor import Task

NUMERIC, CATEGORICAL = "numeric", "categorical"
COLUMN_KINDS = (NUMERIC, CATEGORICAL)

# The usual ways a spreadsheet or a database export writes "no value" (compared stripped, lower-cased);
# "#n/a" is Excel's. "None" is not one of them: it is a real value in a text column (the restaurant
# data's Patrons); in a column whose other cells are numbers it is missing (tabular.cells).
MISSING_MARKERS = frozenset({"", "na", "n/a", "#n/a", "?", "null", "nan"})

# The split the page starts with, in percent of the rows: fit on 70%, judge once on the other 30%.
DEFAULT_SPLIT = {"train": 70, "validation": 0, "test": 30}

# The most of the rows a held-out part may take (the training part keeps at least 1%), in percent.
SPLIT_LIMITS = {"train": {"min": 1, "max": 100}, "validation": {"min": 0, "max": 98}, "test": {"min": 0, "max": 99}}

# k-fold cross-validation: at least two folds; past 20 each fold adds time and little information.
CV_FOLDS = {"min": 2, "max": 20, "default": 5}

# Repeated k-fold (Compare learners): r repeats of the k folds, each reshuffled; 1 is plain k-fold. Ten
# repeats of ten folds is the usual design for comparing learners (Weka's Experimenter's default).
CV_REPEATS = {"min": 1, "max": 10, "default": 1}

# Every seed (a split's, a fold's, a sample's, an exercise's, permutation importance's, a generator's)
# is a whole number from 0 to SEED_MAX: numpy's generators take any of these, and scikit-learn's
# random_state (which a generated script passes it to) takes no more.
SEED_MAX = 2 ** 32 - 1

# How missing cells are handled by default, and the choices (the imputer's strategies, "drop", or "keep":
# missing numbers left to a learner that takes them, the trees, which is then its default).
IMPUTE_DEFAULT = "mean"
IMPUTE_KEEP = "keep"
IMPUTE_CHOICES = ("mean", "median", "most_frequent", "drop", IMPUTE_KEEP)

# Vectors up to this long are written inside a formula (the notes' examples); longer ones go to the
# page's per-feature table, so a 20-column table does not fill screens with math.
INLINE_MAX = 6

# The metrics a trained run shows per task, in order (the first is the headline): (key in the reply's
# metrics, label, read as a percentage).
RESULT_METRICS = {
    "classification": (("accuracy", "Accuracy", True), ("balanced_accuracy", "Balanced accuracy", True),
                       ("macro_precision", "Precision (macro)", False), ("macro_recall", "Recall (macro)", False),
                       ("macro_f1", "F1 (macro)", False)),
    "regression": (("r2", "R²", False), ("mse", "MSE", False), ("mae", "MAE", False)),
    "clustering": (("silhouette", "Silhouette", False), ("inertia", "Inertia", False), ("dunn", "Dunn index", False)),
    "projection": (("explained_variance", "Variance explained", True),),
}

# The metrics that rank learners (Compare learners) and score a tuning grid, per task: (scorer name,
# label, read as a percentage).
RANK_METRICS = {
    "classification": (("accuracy", "Accuracy", True), ("balanced_accuracy", "Balanced accuracy", True),
                       ("f1_macro", "F1 (macro)", False), ("precision_macro", "Precision (macro)", False),
                       ("recall_macro", "Recall (macro)", False)),
    "regression": (("r2", "R²", False), ("mean_squared_error", "MSE", False), ("mean_absolute_error", "MAE", False)),
}

# The fields a DataError can be about (its `field`, sent in a reply's error): each names one control of
# the page, which maps it to that control. "feature:<column>" and "params.<name>" carry a name after the
# prefix. docs/bridge.md lists what each means.
ERROR_FIELDS = ("target", "features", "feature:", "model", "params", "params.", "evaluation.method",
                "evaluation.split", "evaluation.k", "evaluation.repeats", "evaluation.seed", "evaluation.stratify",
                "preprocessing.standardize", "preprocessing.impute", "sample", "grid", "grid.", "learners", "metric",
                "model_file", "paste", "sheet")

# The largest upload the browser tab reads without running out of memory (benchmarks/RESULTS.md,
# "Browser limits"): 50 MB of text, and no more rows than the widest 50 MB file holds.
MAX_BYTES = 50 * 1024 * 1024
MAX_ROWS = 2_000_000


def preprocessing_defaults(learner):
    """{standardize, impute}: what a learner's preprocessing is unless the page says otherwise, the one rule
    (the `models` menu sends it with each learner, and the page and its run history read it there):
    standardise a learner that is sensitive to feature scale; leave missing numbers to a learner that takes
    them (a tree sends them down the side that gains more), else fill missing cells with the column's mean."""
    return {"standardize": bool(learner.scale_sensitive),
            "impute": IMPUTE_KEEP if takes_missing(learner) else IMPUTE_DEFAULT}


def takes_missing(learner):
    """Whether the learner's estimator reads missing numbers itself (the trees and their ensembles)."""
    return bool(getattr(learner.estimator, "takes_missing_values", False))


def is_error_field(field):
    """True for a field of the vocabulary (ERROR_FIELDS), a prefixed one with its name after the prefix."""
    return isinstance(field, str) and any(field == f if not f.endswith((":", ".")) else
                                          field.startswith(f) and len(field) > len(f) for f in ERROR_FIELDS)


def _metrics(table):
    return {task: [{"name": name, "label": label, "percent": percent} for name, label, percent in rows]
            for task, rows in table.items()}


def shared_settings():
    """The settings as plain JSON data, the contents of the site's settings.json."""
    return {"split": dict(DEFAULT_SPLIT),
            "split_limits": {part: dict(limits) for part, limits in SPLIT_LIMITS.items()},
            "cv_folds": dict(CV_FOLDS),
            "cv_repeats": dict(CV_REPEATS),
            "seed": {"min": 0, "max": SEED_MAX},
            "impute": {"default": IMPUTE_DEFAULT, "choices": list(IMPUTE_CHOICES)},
            "inline_max": INLINE_MAX,
            "metrics": {"result": _metrics(RESULT_METRICS), "rank": _metrics(RANK_METRICS)},
            "error_fields": list(ERROR_FIELDS),
            "missing_markers": sorted(MISSING_MARKERS),
            "column_kinds": list(COLUMN_KINDS),
            "limits": {"max_bytes": MAX_BYTES, "max_rows": MAX_ROWS},
            "tasks": [task.value for task in Task]}
