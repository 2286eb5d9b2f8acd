"""The only module the web page calls: commands in, plain JSON-able dicts out.

The page's worker calls `handle_json(cmd, args_json)`. Tables and fitted models stay here, in Python,
in a `Session` under ids; what crosses to JavaScript is scalars, lists and dicts, never Python objects.
Every reply is `{"ok": True, "result": ...}` or `{"ok": False, "error": {"code", "type", "message"}}`,
so bad input becomes a message the page can show instead of an exception in the worker, and the page
tells the kinds of failure apart by `code` (docs/bridge.md).
"""

import importlib
import inspect
import itertools
import json
import traceback

from .core.errors import DataError, NotLoadedError
from .core.jsonable import plain
from .core.settings import MAX_BYTES, MAX_ROWS, preprocessing_defaults
from .learners import registry
from .workbench import tables, wire


class _OnFirstUse:
    """The workbench modules by name (`workbench.exports`), each imported the first time a command asks for
    it: the page's first screen (the menus, an example's table and profile) needs only `tables`, which is
    imported above with `wire`, so starting the page does not wait for the modules of training, the views
    and the exports."""

    def __getattr__(self, name):
        return importlib.import_module(f"{__package__}.workbench.{name}")


workbench = _OnFirstUse()


# --- the commands that need no session ------------------------------------------------------------------

def datasets():
    """The data menu: the built-in examples, then the generators with their parameters."""
    return tables.menu()


# Parameters the page does not offer: tracing is the steps view's business, and standardizing is the
# preprocessing step's (one switch for every learner, fitted on the training rows), not a second box.
NOT_IN_THE_FORM = ("trace", "standardize")


def models():
    """The model menu, from the learners' descriptors: each model's task, capabilities, the input it needs,
    whether it is sensitive to feature scale, its preprocessing defaults ({standardize, impute}: what
    `train` does when the page leaves them to the model) and its hyperparameters for the page to build
    controls."""
    menu = []
    for learner in registry.learners():
        cls = learner.estimator
        defaults = cls().get_params()
        params = [{"name": name, "default": defaults[name], **rule.describe()}
                  for name, rule in cls._param_rules.items() if name not in NOT_IN_THE_FORM]
        menu.append({"name": learner.name, "label": learner.label, "group": learner.group, "task": learner.task,
                     "capabilities": sorted(learner.capabilities), "needs": learner.needs,
                     "scale_sensitive": learner.scale_sensitive, "preprocessing": preprocessing_defaults(learner),
                     "max_rows": learner.max_rows, "params": params})
    return menu


# --- the session: one page's data and runs ------------------------------------------------------------------

class Session:
    """The loaded table (with its name, suggested target and the steps applied to it), the runs trained
    on it, and the counter their ids come from. The page's worker keeps one (`handle`); a restarted
    worker starts a fresh one; tests make their own."""

    COMMANDS = ("load_csv", "load_example", "set_kind", "handle_missing", "train", "boundary",
                "export_predictions", "export_model", "import_model", "export_python", "timeline",
                "explain_row", "exercise", "check_exercise", "estimation_lab", "compare_sklearn", "export_sklearn",
                "curves", "importance", "show_run", "tune", "compare_learners", "apply_model")

    # How many fitted runs are kept at most: the one shown and the few before it, as many of those as fit
    # in about the loaded table's size (workbench.runs.runs_to_let_go). Each holds its model and its
    # predictions for every row (k-NN its training rows too), so keeping them all would grow the
    # browser's memory with every training; the page's history trains a run let go of again (same
    # arguments and seed: the same model).
    KEPT_RUNS = 5

    def __init__(self):
        self.tables = {}
        self.table_meta = {}  # table id -> {"name", "suggested_target", "steps": kind and missing changes}
        self.runs = {}  # model id -> workbench.runs.Run, oldest first
        self.evicted = set()  # ids of runs let go to bound the memory, so an old id gets a clear answer
        self.shown = None  # the id of the run the page shows (trained, shown again or imported to be shown)
        self._ids = itertools.count(1)

    def handle(self, cmd, args=None, convert=plain):
        """Run one command; never raise (errors come back as data the page can show). `convert` makes the
        result JSON-able (`wire.pack` keeps its bulk numbers apart)."""
        try:
            command = self._command(cmd)
            _check_args(cmd, command, args or {})
            return {"ok": True, "result": convert(command(**(args or {})))}
        except Exception as exc:  # every failure becomes a reply, and the worker stays alive
            return {"ok": False, "error": error_of(exc)}

    def handle_json(self, cmd, args_json):
        """`handle` for the page's worker: JSON text in, strict JSON text out."""
        return json.dumps(self.handle(cmd, json.loads(args_json)), allow_nan=False)

    def handle_binary(self, cmd, args_json):
        """`handle` for the page's worker with the bulk numbers apart: (JSON text, [numpy arrays]), the
        text holding a marker for each array (workbench/wire.py), which the worker sends as typed arrays."""
        bulk = []
        reply = self.handle(cmd, json.loads(args_json), convert=lambda result: wire.pack(result, bulk))
        return json.dumps(reply, allow_nan=False), bulk

    def _command(self, cmd):
        if cmd in STATELESS:
            return STATELESS[cmd]
        if cmd in self.COMMANDS:
            return getattr(self, cmd)
        raise DataError(f"Unknown command {cmd!r}.")

    # --- what the commands keep ---------------------------------------------------------------------------

    def table(self, table_id):
        try:
            return self.tables[table_id]
        except KeyError:
            raise DataError(f"No data set is loaded under id {table_id!r}; load a CSV first.") from None

    def run(self, model_id):
        try:
            return self.runs[model_id]
        except KeyError:
            if model_id in self.evicted:
                raise DataError(f"Model {model_id!r} is no longer kept: only the most recent models are (at "
                                f"most {self.KEPT_RUNS}, fewer when they are large); train it again.") from None
            raise DataError(f"No model is kept under id {model_id!r}; train one first.") from None

    def keep_table(self, table, name, suggested_target=None, uploaded=False, header=None):
        """Keep `table` as the one data set, forgetting the previous ones and their runs (so a session of
        many uploads does not pile up in the browser's memory); its TableInfo. `uploaded`: a user's file,
        whose reading the page shows; `header`: the user's say on its first row (None: the reader's)."""
        self.forget()
        table_id = self._new_id("t")
        self.tables[table_id] = table
        if suggested_target not in table.columns:  # a CSV: a column named like a target, else the last
            suggested_target = tables.suggested_target(table)
        self.table_meta[table_id] = {"name": name, "suggested_target": suggested_target,
                                     "steps": {"kinds": {}, "missing": []},
                                     "read_info": getattr(table, "read_info", None),  # how the file was read
                                     "uploaded": uploaded, "header": header}
        return self._table_info(table_id)

    def forget(self):
        """Let go of every table and run (the ids keep counting, so an old id never means a new thing)."""
        self.tables.clear()
        self.table_meta.clear()
        self.runs.clear()

    def keep_run(self, run, shown=True):
        """Keep `run` under a new id, letting go of the oldest runs beyond KEPT_RUNS or the bytes budget.
        shown=False: a model the page reads without showing it (Apply to new data's import), so the run
        on screen is kept whole beside it, however large, and its views and exports keep working."""
        model_id = self._new_id("m")
        self.runs[model_id] = run
        whole = 1
        if shown:
            self.shown = model_id
        elif self.shown in self.runs:  # the run on screen goes last, beside the new one: both kept whole
            self.runs[self.shown] = self.runs.pop(self.shown)
            whole = 2
        self._bound_runs(whole)
        return model_id

    def _bound_runs(self, whole=1):
        """Let go of the oldest runs beyond the bound; the `whole` newest keep all they hold."""
        from .workbench.runs import runs_to_let_go  # loaded with training, before any run is kept

        for oldest in runs_to_let_go(self.runs, self.tables.values(), self.KEPT_RUNS, whole):
            del self.runs[oldest]
            self.evicted.add(oldest)

    def _new_id(self, prefix):
        return f"{prefix}{next(self._ids)}"

    def _table_info(self, table_id):
        table, meta = self.tables[table_id], self.table_meta[table_id]
        read_info = meta.get("read_info") if meta.get("uploaded") else None  # an example's reading is no news
        return {"table_id": table_id, "name": meta["name"], **table.summary(), "preview": table.head(10),
                "suggested_target": meta["suggested_target"],
                "profile": tables.column_profile(table, meta["suggested_target"]),
                "read_info": read_info.to_dict() if read_info is not None else None}

    # --- data ---------------------------------------------------------------------------------------------

    def load_csv(self, path, name="data.csv", max_bytes=MAX_BYTES, max_rows=MAX_ROWS, header=None):
        """Read a CSV the page wrote into the worker's file system (within the size limits), keep it and
        describe it. `header`: null lets the reader decide whether the first row names the columns, true or
        false is the user's say (and goes into the exported scripts). Progress goes to the page."""
        return self.keep_table(tables.read_upload(path, name, max_bytes, max_rows, header), name,
                               uploaded=True, header=header)

    def load_example(self, name, **params):
        """Load a built-in data set (as if it had been uploaded), or draw a generated one: `params` are the
        generator's (n, noise, seed; arms for the spiral)."""
        return self.keep_table(*tables.example(name, params))

    def set_kind(self, table_id, column, kind):
        """Re-read one column as "numeric" or "categorical"; the table keeps its id."""
        self.tables[table_id] = tables.with_kind(self.table(table_id), column, kind)
        self.table_meta[table_id]["steps"]["kinds"][column] = kind
        return self._table_info(table_id)

    def handle_missing(self, table_id, strategy, columns=None):
        """"drop" the rows missing a value in `columns` (null: any column) or "fill" them (mean or mode);
        the table keeps its id. A library convenience acting on the whole table before any split (so a fill
        sees the test rows): the page imputes in the preprocessing step instead, fitted on training rows."""
        self.tables[table_id] = tables.with_missing_handled(self.table(table_id), strategy, columns)
        self.table_meta[table_id]["steps"]["missing"].append({"strategy": strategy, "columns": columns})
        return self._table_info(table_id)

    # --- models -------------------------------------------------------------------------------------------

    def train(self, table_id, target, features, model, params=None, evaluation=None, include_trace=False,
              preprocessing=None, sample=False):
        """Fit with an honest evaluation (split, k-fold or none) and the preprocessing step ({standardize,
        impute}; defaults from the learner's descriptor), fitted on the training rows; the TrainResult
        (docs/bridge.md). `sample`: a learner with a row limit works on a seeded sample of that many rows."""
        table = self.table(table_id)
        self._bound_runs(whole=0)  # what is kept waits as history from now: the training's peak comes on top
        run, result = workbench.evaluation.train(table, target, features, model, params, evaluation, include_trace,
                                                 preprocessing, sample)
        run.setup["table_id"] = table_id
        run.reply = result  # kept, so the page can show this run again (history, comparisons)
        return {"model_id": self.keep_run(run), **result}

    def compare_learners(self, table_id, target, features, learners, evaluation=None, preprocessing=None,
                         params=None, metric=None):
        """Several learners trained as `train` trains them, on the same rows, preprocessing and split or
        folds, ranked by `metric` (docs/bridge.md). The runs are not kept (a comparison of many would push
        the shown model out): `train` with a row's model and params makes that very model again."""
        return workbench.leaderboard.compare_learners(self.table(table_id), target, features, learners, evaluation,
                                                      preprocessing, params, metric)

    def show_run(self, model_id):
        """A kept run's TrainResult again, as `train` replied it: the page reopens an earlier run."""
        run = self.run(model_id)
        if run.reply is None:
            raise DataError(f"Model {model_id!r} was imported, not trained here, so it has no training result.")
        self.runs[model_id] = self.runs.pop(model_id)  # shown again: now the most recent, the last evicted
        self.shown = model_id
        self._bound_runs()  # the one shown before it now waits with the older ones, within their budget
        return {"model_id": model_id, **run.reply}

    def boundary(self, model_id, x=None, y=None, resolution=200, projection=None):
        """The model's predictions on a grid over two features (or the first two principal components)."""
        return workbench.boundary.boundary(self.run(model_id), x, y, resolution, projection)

    def export_predictions(self, model_id):
        run = self.run(model_id)
        name = self.table_meta.get(run.setup.get("table_id"), {}).get("name", "data.csv")
        return workbench.exports.predictions_csv(run, name)

    def export_model(self, model_id):
        return workbench.exports.model_json(self.run(model_id))

    def apply_model(self, model_id, path, name="new.csv", max_bytes=MAX_BYTES, max_rows=MAX_ROWS, header=None):
        """A kept model (trained or imported) applied to a CSV the page wrote into the worker's file system:
        its columns matched by name, predictions as a preview and as CSV; the loaded table is untouched."""
        return workbench.apply.apply_model(self.run(model_id), path, name, max_bytes, max_rows, header)

    def import_model(self, json=None, path=None, shown=True):
        """Keep a model from exported JSON: its text (`json`), or the file the page wrote into the worker's
        file system (`path`: the page sends the file's bytes); nothing changes when it is malformed.
        shown=False: the page applies it to new data without showing it (keep_run)."""
        run = workbench.exports.import_model(json, path)
        reply = {"label": run.label, "task": run.task, "capabilities": sorted(run.learner.capabilities),
                 "model": workbench.exports.compact_of(run), "features": run.features, "target": run.target,
                 "preprocessing_choices": run.setup.get("preprocessing") or _choices_of(run.preprocessor)}
        reply.update(workbench.showing.decisions(run, reply))
        return {"model_id": self.keep_run(run, shown), **reply}

    def export_python(self, setup=None, model_id=None):
        """A script reproducing a run: from the page's `setup`, or from a kept model (`model_id`), whose
        table's kind changes and missing-value steps are replayed too."""
        if model_id is not None:
            setup = self._setup_of(self.run(model_id), setup or {})
        return workbench.script.python_script(setup)

    def export_sklearn(self, model_id):
        """The kept run as a standalone scikit-learn script (numpy, pandas, scikit-learn): the same rows,
        preprocessing, split or folds, with the learner's scikit-learn twin; a DataError for a learner
        without one. scikit-learn need not be loaded: the script is written, not run."""
        run = self.run(model_id)
        meta = self.table_meta.get(run.setup.get("table_id"), {"name": "data.csv", "steps": {}})
        source = self.tables.get(run.setup.get("table_id"))
        return workbench.sklearn_script.sklearn_script(run, meta["name"], meta["steps"], source, meta.get("read_info"))

    def _setup_of(self, run, overrides):
        if run.table is None:
            raise DataError("This model was imported without its data, so there is no run to reproduce.")
        meta = self.table_meta.get(run.setup.get("table_id"), {"name": "data.csv", "steps": {}})
        setup = {"file": meta["name"], "target": run.target, "features": run.features, "model": run.model,
                 "params": run.setup.get("params", {}), "evaluation": run.setup.get("evaluation"),
                 "kinds": meta["steps"].get("kinds"), "missing": meta["steps"].get("missing"),
                 "preprocessing": run.setup.get("preprocessing"), "header": meta.get("header"),
                 "sample": run.setup.get("sample")}
        setup.update(overrides)
        return setup

    # --- learning, step by step -----------------------------------------------------------------------------

    def timeline(self, model_id, row=None):
        """The learner's steps replayed as frames (the model refitted with trace=True on its training rows)."""
        return workbench.steps.timeline(self.run(model_id), row)

    def explain_row(self, model_id, row):
        """Why the 1-based table `row` gets its prediction: tree path, neighbours, scores or log-probabilities."""
        return workbench.explain.explain_row(self.run(model_id), row)

    def exercise(self, model_id, seed=0):
        """A seeded exercise on the current data and model (the question only)."""
        return workbench.exercises.exercise(self.run(model_id), seed)

    def check_exercise(self, model_id, seed, answer):
        """The answer to exercise `seed` checked against the value computed from the data."""
        return workbench.exercises.check_exercise(self.run(model_id), seed, answer)

    def estimation_lab(self, distribution, n=20, seed=0, params=None, table_id=None, column=None, prior_a=1.0,
                       prior_b=1.0, k=1.0, positive=None):
        """MLE, likelihood curve, MAP and Laplace estimates of a drawn sample or of a table column."""
        if table_id is not None:
            sample = tables.column_sample(self.table(table_id), column)
        else:
            sample = workbench.lab.draw_sample(distribution, n, seed, params)
        return workbench.lab.lab(distribution, sample, prior_a, prior_b, k, positive)

    def compare_sklearn(self, model_id):
        """The run's model next to its scikit-learn equivalent, fitted on the same rows (scikit-learn is
        imported only here; without it: a NotLoadedError, code "not_loaded")."""
        return workbench.compare.compare_sklearn(self.run(model_id))

    # --- judging a run on rows its model did not see ----------------------------------------------------------

    def curves(self, model_id, pos_label=None):
        """A classifier's ROC, precision-recall and calibration curves on its held-out (k-fold: out-of-fold)
        rows, and for two classes the confusion counts at every threshold (docs/bridge.md)."""
        return workbench.judging.curves(self.run(model_id), pos_label)

    def importance(self, model_id):
        """Permutation importance of each feature on held-out rows (k-fold: in every fold), and a tree's
        impurity importance (docs/bridge.md)."""
        return workbench.judging.importance(self.run(model_id))

    # --- choosing hyperparameters ---------------------------------------------------------------------------

    def tune(self, table_id, target, features, model, grid, params=None, evaluation=None, preprocessing=None,
             metric=None, sample=False):
        """Every cell of a grid over one or two hyperparameters scored on `metric` by k-fold cross-validation
        (the page's k and seed; under a held-out split, without the test rows), and the best cell (docs/bridge.md)."""
        return workbench.tuning.tune(self.table(table_id), target, features, model, params, evaluation, preprocessing,
                                     grid, metric, sample)


STATELESS = {"datasets": datasets, "models": models}


def _choices_of(preprocessor):
    """An imported model's preprocessing choices, read off its fitted steps (impute null: none fitted)."""
    if preprocessor is None:
        return {"standardize": False, "impute": None}
    return {"standardize": bool(preprocessor.standardize), "impute": preprocessor.impute}


# --- replies ----------------------------------------------------------------------------------------------

def error_of(exc):
    """The error part of a reply. `code` is what the page switches on: "data_error" (bad input; the
    message is for the user), "not_loaded" (an on-demand package such as scikit-learn must be loaded
    first) or "internal" (a bug: reported whole, with its traceback, so it can be fixed). `type` is
    "DataError" for every kind of bad input, else the exception's class name. A DataError's `field` is
    the setting it is about (core.settings.ERROR_FIELDS; null when none is), which the page maps to a
    control."""
    if isinstance(exc, DataError):
        code = "not_loaded" if isinstance(exc, NotLoadedError) else "data_error"
        return {"code": code, "type": "DataError", "message": str(exc), "field": exc.field}
    return {"code": "internal", "type": type(exc).__name__, "message": str(exc),
            "traceback": traceback.format_exc()}


def _check_args(cmd, command, args):
    """A DataError naming unknown or missing arguments (rather than a TypeError from the call)."""
    try:
        inspect.signature(command).bind(**args)
    except TypeError as exc:
        raise DataError(f"Command {cmd!r}: {exc}.") from None


# The worker's session: created when the worker imports this module, so a restarted worker starts empty.
worker_session = Session()


def handle(cmd, args=None):
    """Run one command in the worker's session; never raise."""
    return worker_session.handle(cmd, args)


def handle_json(cmd, args_json):
    """`handle` for the page's worker: JSON text in, strict JSON text out."""
    return worker_session.handle_json(cmd, args_json)


def handle_binary(cmd, args_json):
    """`handle` for the page's worker: JSON text in, (JSON text, [numpy arrays]) out (Session.handle_binary)."""
    return worker_session.handle_binary(cmd, args_json)
