"""The only module the web page calls: commands in, plain JSON-able dicts out.

The page's worker calls `handle_json(cmd, args_json)`. Tables and fitted models stay here, in Python,
in a `Session` under ids (workbench.keeping); what crosses to JavaScript is scalars, lists and dicts,
never Python objects.
Every reply is `{"ok": True, "result": ...}` or `{"ok": False, "error": {"code", "type", "message"}}`,
so bad input becomes a message the page can show instead of an exception in the worker, and the page
tells the kinds of failure apart by `code` (docs/bridge.md).
"""

import importlib
import inspect
import json
import traceback

from .core.errors import DataError, NotLoadedError
from .core.jsonable import plain
from .core.settings import MAX_BYTES, MAX_ROWS
from .host import memory, wire
from .tabular.pasted import NAME as PASTED_NAME
from .workbench import menus, tables
from .workbench.keeping import Keeping


class _OnFirstUse:
    """The workbench modules by name (`workbench.exports`), each imported the first time a command asks for
    it: the page's first screen (the menus, an example's table and profile) needs only `menus`, `tables` and
    `keeping`, imported above with `wire`, so starting the page does not wait for the modules of training, the views
    and the exports."""

    def __getattr__(self, name):
        return importlib.import_module(f"{__package__}.workbench.{name}")


workbench = _OnFirstUse()


# --- the session: one page's data and runs ------------------------------------------------------------------

class Session(Keeping):
    """The page's commands on what it keeps (workbench.keeping: the loaded table with its name, suggested
    target and the steps applied to it, the runs trained on it, and the counter their ids come from).
    The page's worker keeps one (`handle`); a restarted worker starts a fresh one; tests make their own."""

    COMMANDS = ("load_csv", "load_pasted", "load_example", "set_kind", "handle_missing", "train", "boundary",
                "export_predictions", "export_model", "import_model", "export_python", "timeline",
                "explain_row", "exercise", "check_exercise", "estimation_lab", "check_twin", "export_sklearn",
                "curves", "importance", "importance_piece", "importance_merge", "show_run", "tune", "tune_piece",
                "tune_merge", "rank_learners", "rank_piece", "rank_merge", "rank_fold_piece", "train_fold",
                "train_trees", "apply_model", "grow_yourself", "forest",
                "forest_votes", "forest_tree", "staged", "network")

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
        text holding a marker for each array (host/wire.py), which the worker sends as typed arrays."""
        bulk = []
        reply = self.handle(cmd, json.loads(args_json), convert=lambda result: wire.pack(result, bulk))
        return json.dumps(reply, allow_nan=False), bulk

    def _command(self, cmd):
        if cmd in STATELESS:
            return STATELESS[cmd]
        if cmd in self.COMMANDS:
            return getattr(self, cmd)
        raise DataError(f"Unknown command {cmd!r}.")

    # --- data ---------------------------------------------------------------------------------------------

    def load_csv(self, path, name="data.csv", max_bytes=MAX_BYTES, max_rows=MAX_ROWS, header=None, sheet=None):
        """Read a CSV the page wrote into the worker's file system (within the size limits), keep it and
        describe it. `header`: null lets the reader decide whether the first row names the columns, true or
        false is the user's say (and goes into the exported scripts). An .arff or .xlsx file (by `name`) is
        read as such; `sheet` picks a workbook's sheet (null: the first). Progress goes to the page."""
        return self.keep_table(tables.read_upload(path, name, max_bytes, max_rows, header, sheet), name,
                               uploaded=True, header=header)

    def load_pasted(self, path, max_bytes=MAX_BYTES, max_rows=MAX_ROWS, header=None):
        """Read text pasted into the page (a table copied from a spreadsheet or a web page, which the page
        wrote into the worker's file system) as load_csv reads a file, and keep it as the "pasted table"."""
        return self.keep_table(tables.read_paste(path, max_bytes, max_rows, header), PASTED_NAME,
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
              preprocessing=None, sample=False, live=False, folds=None, trees=None):
        """Fit with an honest evaluation (split, k-fold or none) and the preprocessing step ({standardize,
        impute}; defaults from the learner's descriptor), fitted on the training rows; the TrainResult
        (docs/bridge.md). `sample`: a learner with a row limit works on a seeded sample of that many rows.
        `live`: a small network's progress reports carry frames of it as it learns (workbench.network_live).
        `folds`: under k-fold, the `train_fold` replies of every fold (the page's pool made them): only the
        final model is fitted here. `trees`: a forest's `train_trees` replies, every tree once: its final
        model is assembled from them, not grown here."""
        table = self.table(table_id)
        pieces = None if folds is None else workbench.fold_pieces.received(folds)
        grown = None if trees is None else workbench.tree_pieces.received(trees)
        self._bound_runs(whole=0)  # what is kept waits as history from now: the training's peak comes on top
        run, result = workbench.training.train(table, target, features, model, params, evaluation, include_trace,
                                                 preprocessing, sample, live, pieces, grown)
        run.setup["table_id"] = table_id
        run.reply = result  # kept, so the page can show this run again (history, comparisons)
        return {"model_id": self.keep_run(run), **result}

    def train_fold(self, table_id, target, features, model, index, params=None, evaluation=None,
                   preprocessing=None, sample=False):
        """Fold `index`'s share of a k-fold `train` with the same arguments: its model fitted on the other
        folds, its held-out rows' predictions (docs/bridge.md). Nothing is kept: the page's pool makes the
        folds side by side and hands them to the page's worker's `train` as `folds`."""
        piece = workbench.training.train_fold(self.table(table_id), target, features, model, index, params,
                                              evaluation, preprocessing, sample)
        return workbench.fold_pieces.sent(piece)

    def train_trees(self, table_id, target, features, model, start, stop, params=None, evaluation=None,
                    preprocessing=None, sample=False):
        """Trees `start` .. `stop` - 1 of the forest a `train` with the same arguments fits as its final
        model (docs/bridge.md). Nothing is kept: the page's pool grows the ranges side by side and hands
        them to the page's worker's `train` as `trees`."""
        return workbench.training.train_trees(self.table(table_id), target, features, model, start, stop, params,
                                              evaluation, preprocessing, sample)

    def rank_learners(self, table_id, target, features, learners, evaluation=None, preprocessing=None,
                         params=None, metric=None, sample=False):
        """Several learners trained as `train` trains them, on the same rows, preprocessing and split or
        folds, ranked by `metric` (docs/bridge.md). The runs are not kept (a comparison of many would push
        the shown model out): `train` with a row's model and params makes that very model again. `sample`:
        a learner with a row limit ranks on a seeded sample of that many rows, else it is left out."""
        return workbench.leaderboard.rank_learners(self.table(table_id), target, features, learners, evaluation,
                                                      preprocessing, params, metric, sample)

    def rank_piece(self, table_id, target, features, learners, index, evaluation=None, preprocessing=None,
                   params=None, metric=None, sample=False, folds=None):
        """One learner's share of `rank_learners` (learner `index` of `learners`, all its folds): the page's
        pool of workers runs the pieces side by side and hands them to `rank_merge` (docs/bridge.md). `folds`:
        under k-fold, the learner's `rank_fold_piece` replies, so no fold is fitted again."""
        pieces = None if folds is None else workbench.ranking_folds.received(folds, evaluation)
        piece = workbench.leaderboard.rank_piece(self.table(table_id), target, features, learners, index,
                                                 evaluation, preprocessing, params, metric, sample, pieces)
        return workbench.ranking_pieces.sent(piece)

    def rank_fold_piece(self, table_id, target, features, learners, index, fold, evaluation=None,
                        preprocessing=None, params=None, metric=None, sample=False):
        """One fold of one learner's share of `rank_learners` under k-fold (fold `fold` of every repeat's
        folds, of learner `index`): the pool makes them side by side and hands a learner's to `rank_piece`
        as its `folds` (docs/bridge.md)."""
        fold_piece = workbench.leaderboard.rank_fold_piece(self.table(table_id), target, features, learners,
                                                           index, fold, evaluation, preprocessing, params, metric,
                                                           sample)
        return workbench.ranking_folds.sent(fold_piece, workbench.training.check_evaluation(evaluation)["k"])

    def rank_merge(self, learners, pieces, evaluation=None, metric=None):
        """The ranking of `learners` from their `rank_piece` replies: the very reply `rank_learners` gives
        with the same arguments (docs/bridge.md). Needs no table."""
        return workbench.leaderboard.merge_pieces(learners, workbench.ranking_pieces.received(pieces),
                                                  evaluation, metric)

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

    def network(self, model_id, x=None, y=None, epoch=None):
        """A trained network's Network view over the plane (x, y): its units' maps on the lattice; with
        `epoch` (one of its reply's replay epochs), at that epoch's weights with the boundary they draw."""
        run = self.run(model_id)
        if run.table is None or not run.learner.can("network"):
            raise DataError(f"{run.label} is not a network trained on a loaded table; the Network view draws one.")
        if epoch is not None:
            return workbench.network_replay.epoch_view(run, epoch, x, y)
        return workbench.network_view.network_view(run, x, y)

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

    def import_model(self, json=None, path=None, shown=True, table_id=None):
        """Keep a model from exported JSON: its text (`json`), or the file the page wrote into the worker's
        file system (`path`: the page sends the file's bytes); nothing changes when it is malformed.
        shown=False: the page applies it to new data without showing it (keep_run). `table_id`: the loaded
        table, on which the model is scored when it has the model's columns and target (workbench.imported)."""
        table = self.table(table_id) if table_id is not None else None
        name = self.table_meta[table_id]["name"] if table_id is not None else None
        run = workbench.exports.import_model(json, path)
        reply = {"label": run.label, "task": run.task, "capabilities": sorted(run.learner.capabilities),
                 "model": workbench.exports.compact_of(run), "features": run.features, "target": run.target,
                 "preprocessing_choices": run.setup.get("preprocessing") or _choices_of(run.preprocessor),
                 **(workbench.imported.reply(run, table, name) if shown else {})}
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

    # --- learning, step by step -----------------------------------------------------------------------------

    def timeline(self, model_id, row=None):
        """The learner's steps replayed as frames (the model refitted with trace=True on its training rows)."""
        return workbench.steps.timeline(self.run(model_id), row)

    def explain_row(self, model_id, row):
        """Why the 1-based table `row` gets its prediction: tree path, neighbours, scores or log-probabilities."""
        return workbench.explain.explain_row(self.run(model_id), row)

    def grow_yourself(self, model_id, choices=None, finish=False):
        """The notes' tree grown with the student's attribute at each node ({node path: attribute}), every
        candidate's gain and ID3's pick; once no node is open (`finish`: ID3 picks at the ones left), both
        trees scored on held-out rows."""
        return workbench.grow_yourself.grow_yourself(self.run(model_id), choices, finish)

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

    def check_twin(self, model_id):
        """The run's model next to its scikit-learn equivalent, fitted on the same rows (scikit-learn is
        imported only here; without it: a NotLoadedError, code "not_loaded")."""
        return workbench.twin_check.check_twin(self.run(model_id))

    # --- judging a run on rows its model did not see ----------------------------------------------------------

    def curves(self, model_id, pos_label=None):
        """A classifier's ROC, precision-recall and calibration curves on its held-out (k-fold: out-of-fold)
        rows, and for two classes the confusion counts at every threshold (docs/bridge.md)."""
        return workbench.judging.curves(self.run(model_id), pos_label)

    def importance(self, model_id):
        """Permutation importance of each feature on held-out rows (k-fold: in every fold), and a tree's
        impurity importance (docs/bridge.md)."""
        return workbench.judging.importance(self.run(model_id))

    def importance_piece(self, table_id, target, features, model, index, blocks=1, params=None, evaluation=None,
                         preprocessing=None, sample=False):
        """One piece of a model's `importance` in a worker without that model: the run `train` makes with
        these arguments (its fitted model made again when it is judged by it: workbench.rebuilt_run), its
        piece `index` with the features cut into `blocks`. The page's pool of workers runs the pieces side
        by side and hands them to `importance_merge` (docs/bridge.md)."""
        run = workbench.rebuilt_run.rebuilt(self.table(table_id), target, features, model, params, evaluation,
                                            preprocessing, sample)
        return workbench.importance_pieces.sent(workbench.judging.importance_piece(run, index, blocks))

    def importance_merge(self, model_id, pieces):
        """The `importance` of a kept model from its `importance_piece` replies: the very reply `importance`
        gives (docs/bridge.md). Merged where the model is kept, whose tree gives the impurity importance."""
        return workbench.judging.merge_importance(self.run(model_id), workbench.importance_pieces.received(pieces))

    # --- an ensemble of trees -------------------------------------------------------------------------------

    def forest(self, model_id, row=None):
        """An ensemble's trees as small multiples (the first 24, shapes only), their count, and every tree's
        vote for the 1-based table `row` (null: the first held-out row) beside the ensemble's answer."""
        return workbench.ensemble_view.forest(self.run(model_id), row)

    def forest_votes(self, model_id, row):
        """Every tree's vote for the 1-based table `row`, the share of trees per class, the ensemble's mean
        probability and prediction (a regressor: every tree's value and their mean)."""
        return workbench.ensemble_view.votes(self.run(model_id), row)

    def forest_tree(self, model_id, index, row=None):
        """Tree `index` (0-based) of an ensemble, as the Tree view draws a tree, and the path the 1-based
        table `row` (if given) takes in it."""
        return workbench.ensemble_view.tree(self.run(model_id), index, row)

    def staged(self, model_id):
        """The score on each split after each stage (each tree) from the model's staged_predict, and the
        out-of-bag score when the model has one."""
        return workbench.ensemble_view.staged(self.run(model_id))

    # --- choosing hyperparameters ---------------------------------------------------------------------------

    def tune(self, table_id, target, features, model, grid, params=None, evaluation=None, preprocessing=None,
             metric=None, sample=False):
        """Every cell of a grid over one or two hyperparameters scored on `metric` by k-fold cross-validation
        (the page's k and seed; under a held-out split, without the test rows), and the best cell (docs/bridge.md)."""
        return workbench.tuning.tune(self.table(table_id), target, features, model, params, evaluation, preprocessing,
                                     grid, metric, sample)

    def tune_piece(self, table_id, target, features, model, grid, index, params=None, evaluation=None,
                   preprocessing=None, metric=None, sample=False):
        """One cell's share of `tune` (cell `index` of the grid, all its folds): the page's pool of workers
        scores the cells side by side and hands them to `tune_merge` (docs/bridge.md)."""
        piece = workbench.tuning.tune_piece(self.table(table_id), target, features, model, index, params, evaluation,
                                            preprocessing, grid, metric, sample)
        return workbench.tuning_pieces.sent(piece)

    def tune_merge(self, model, grid, pieces, params=None, metric=None):
        """The tuning from its `tune_piece` replies: the very reply `tune` gives with the same arguments
        (docs/bridge.md). Needs no table."""
        return workbench.tuning.merge_tune(model, workbench.tuning_pieces.received(pieces), params, grid, metric)


STATELESS = {"datasets": menus.datasets, "models": menus.models, "memory": memory.heap_size}


def import_sklearn():
    """Import the scikit-learn modules the twin check uses, once the page has loaded the package (importing
    is part of loading: seconds the first time). True when they imported; a failure shows in the command's
    reply, so it is not raised here."""
    try:
        workbench.twin_check.import_sklearn()
    except Exception:
        return False
    return True


def _choices_of(preprocessor):
    """An imported model's preprocessing choices, read off its fitted steps (impute null: none fitted)."""
    if preprocessor is None:
        return {"standardize": False, "impute": None}
    return {"standardize": bool(preprocessor.standardize), "impute": preprocessor.impute}


# --- replies ----------------------------------------------------------------------------------------------

def error_of(exc):
    """The error part of a reply. `code` is what the page switches on: "data_error" (bad input; the
    message is for the user), "not_loaded" (an on-demand package such as scikit-learn must be loaded
    first; `package` says which: "scikit-learn" or "openpyxl") or "internal" (a bug: reported whole, with
    its traceback, so it can be fixed). `type` is "DataError" for every kind of bad input, else the
    exception's class name. A DataError's `field` is the setting it is about (core.settings.ERROR_FIELDS;
    null when none is), which the page maps to a control."""
    if isinstance(exc, DataError):
        code = "not_loaded" if isinstance(exc, NotLoadedError) else "data_error"
        error = {"code": code, "type": "DataError", "message": str(exc), "field": exc.field}
        if code == "not_loaded":  # which package to load before asking again
            error["package"] = exc.package
        return error
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
