"""A run: a fitted model with the table, columns and row split it was trained on, kept under an id."""

import sys
import types
from dataclasses import dataclass, field

import numpy as np

from ..core.descriptor import Task
from ..core.errors import DataError
from ..core.param_names import current_names
from ..learners import registry

SUPERVISED = tuple(task.value for task in Task if task.supervised)  # the tasks that learn a target
SPLITS = ("train", "validation", "test")


@dataclass
class Run:
    """estimator: fitted; table: the loaded table (None for an imported model); splits: split name ->
    0-based row indices of the table (k-fold: every row is "train" for the final model)."""

    estimator: object
    model: str
    features: list
    target: object
    table: object = None
    splits: dict = field(default_factory=dict)
    setup: dict = field(default_factory=dict)
    preprocessor: object = None  # a fitted preprocessing.Preprocessor, or None: the model reads X as it is
    preprocessing: list = field(default_factory=list)  # the steps shown to the page (workbench.prepare)
    predicted: object = None  # (n_rows,) the model's prediction for every table row, made once at training
    probabilities: object = None  # (n_rows, classes) kept when the prediction came with them (readouts.predict_rows)
    reply: dict = None  # the TrainResult the page was given (None for an imported model)
    held: dict = None  # each feature's training mean or mode, for the drawings (workbench.grid), once asked
    # A k-fold run's out-of-fold predictions, {"predicted" (n,), "proba" (n, classes) or None, "classes",
    # "fold" (n,) 0-based}: each row predicted by the model of the fold that held it out. Set when the run
    # is cross-validated (workbench.training) or first asked for (judging.out_of_fold); read by the curves,
    # the exports and the ranking of learners (leaderboard). None: not cross-validated, or not yet made.
    out_of_fold: dict = None
    replay: object = None  # a network's weights after chosen epochs (workbench.network_replay), or None

    @property
    def learner(self):
        """The model's descriptor: what it can do and show."""
        return registry.get(self.model)

    @property
    def label(self):
        return self.learner.label

    @property
    def task(self):
        return self.estimator.task

    def split_of_rows(self):
        """(n_rows,) array of split names for every table row ("" for rows in no split)."""
        names = np.full(self.table.n_rows, "", dtype=object)
        for name in SPLITS:
            names[self.splits.get(name, [])] = name
        return names

    def prepare(self, X):
        """X (the run's feature columns, in the user's units) as the model reads it: imputed and
        standardised exactly as the training rows were."""
        return X if self.preprocessor is None else self.preprocessor.transform(X)

    def model_input(self, rows=None):
        """The table's feature columns (only `rows`, if given) prepared for the model."""
        X = self.table.select(self.features)
        return self.prepare(X if rows is None else X.take(rows))

    def train_rows(self):
        return np.asarray(self.splits.get("train", np.arange(self.table.n_rows)), dtype=np.intp)

    def footprint(self, shared=()):
        """Bytes of the arrays this run holds (its model, predictions, reply...), not counting the objects
        in `shared` (the session's loaded table, which every run trained on it points to)."""
        return held_bytes(self, skip={id(obj) for obj in shared})

    def let_go_of_rebuildable(self):
        """Drop what a run shown earlier can make again when asked, to hold less while it waits in the
        history: the probabilities kept for the export (it predicts them anew) and the model's search
        structures built from its training rows (k-NN builds them again at its next prediction)."""
        self.probabilities = None
        release = getattr(self.estimator, "release_prepared", None)
        if release is not None:
            release()


# The runs before the newest are kept while their bytes stay within the size of the loaded data (and
# at least this much, so that small tables keep a handful): a session on a large table then holds the
# newest run and about the table's size again, not five models of it, and the browser's memory stops
# growing after the first trainings.
# (16 MB kept all five runs of a 20,000-row table and raised Pyodide's heap from 86 to 104 MB by the 6th
# training of benchmarks/soak_native.py --pyodide; 4 MB keeps two or three, and the heap stays at 86 MB.)
MIN_RUNS_BUDGET = 4 * 2 ** 20


def runs_to_let_go(runs, tables, most, whole=1):
    """The ids among `runs` (id -> Run, oldest first) to let go of. The `whole` newest are kept as they
    are (the one on screen; none when a training is about to start); the ones before them, newest first,
    lose what they can rebuild and stay while the kept number at most `most` and their bytes fit the
    budget (the loaded `tables`' bytes, at least MIN_RUNS_BUDGET); the first one that does not fit goes,
    and every older one with it."""
    tables = list(tables)
    budget = max(MIN_RUNS_BUDGET, held_bytes(tables))
    waiting = list(runs)[:len(runs) - whole]  # oldest first
    total = 0
    for place, model_id in enumerate(reversed(waiting)):
        run = runs[model_id]
        run.let_go_of_rebuildable()
        total += run.footprint(shared=tables)
        if whole + place + 1 > most or total > budget:
            return waiting[:len(waiting) - place]
    return []


def held_bytes(obj, skip=frozenset()):
    """Bytes of the numpy arrays reachable from `obj` through dicts, lists, tuples and objects'
    attributes, each buffer counted once (a view counts as the array it looks into); objects whose id is
    in `skip` are not entered. An object array counts its pointers, not the Python objects they name."""
    seen, total, stack = set(skip), 0, [obj]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            base = item
            while isinstance(base.base, np.ndarray):  # a view: the memory is its base's
                base = base.base
            if base is item or id(base) not in seen:
                seen.add(id(base))
                total += base.nbytes
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)) and item and isinstance(item[0], (int, float, str)):
            total += sys.getsizeof(item) + len(item) * sys.getsizeof(item[0])  # a reply's row numbers
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif hasattr(item, "__dict__") and not isinstance(item, (type, types.ModuleType)):
            stack.extend(vars(item).values())
    return total


def make_estimator(model, params, trace=False):
    """A new estimator of the learner called `model` with the page's params (unknown names: a DataError)."""
    learner = registry.get(model)
    cls = learner.estimator
    params = current_names(cls, dict(params or {}))  # a link or saved session from before a rename
    unknown = sorted(set(params) - set(cls._param_rules))
    if unknown:
        raise DataError(f"{learner.label} has no parameter {', '.join(map(repr, unknown))}.",
                        field=f"params.{unknown[0]}")
    params["trace"] = bool(trace)
    return cls(**params)


def choose_columns(table, estimator, model, target, features):
    """(features, target) checked against the table: the target must be a column (and is required for
    classifiers and regressors), features default to every other column."""
    supervised = Task(estimator.task).supervised
    if target is not None and target not in table.columns:
        raise DataError(f"The target column {target!r} is not in the data.", field="target")
    if supervised and target is None:
        raise DataError(f"{registry.get(model).label} learns to predict a target: choose the Target column.",
                        field="target")
    unknown = [f for f in (features or []) if f not in table.columns]
    if unknown:
        raise DataError(f"Feature column {', '.join(map(repr, unknown))} is not in the data.",
                        field=f"feature:{unknown[0]}")
    features = [f for f in (features or table.columns) if f != target]
    if not features:
        raise DataError("Choose at least one feature column besides the target.", field="features")
    return features, target


def check_not_empty(table, columns, target=None):
    """A DataError naming every chosen column without a single value (nothing to impute it with, and
    dropping its rows would leave none). Other missing cells are the preprocessing's to handle."""
    empty = [name for name, n in table.missing.items() if name in columns and n and n == table.n_rows]
    if empty:
        raise DataError(f"Column {', '.join(map(repr, empty))} has no values at all (every cell is missing), "
                        "so no model can use it: set its role to ignore.",
                        field="target" if empty[0] == target else f"feature:{empty[0]}")


def check_two_classes(table, target):
    """A DataError when a classifier's target holds fewer than two classes, saying what to do."""
    values = [v for v in table.column(target).tolist() if v is not None and v == v]
    classes = sorted(set(map(str, values)))
    if len(classes) < 2:
        found = f"only the class {classes[0]!r}" if classes else "no values"
        raise DataError(f"The target {target!r} has {found}: a classifier needs at least two classes to "
                        "tell apart. Choose another Target column, or use data with rows of two or more classes.",
                        field="target")
