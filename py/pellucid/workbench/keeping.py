"""What one page's session keeps between commands: the loaded table (with its name, suggested target and
the steps applied to it), the runs trained on it under ids, and which of them are let go of to bound the
browser's memory. The bridge's Session is a Keeping with the page's commands on top.
"""

import itertools

from ..core.errors import DataError
from ..tabular.target_task import target_tasks
from . import tables


class Keeping:
    """Tables and runs under ids ("t1", "m2", ...; the ids keep counting, so an old id never means a new
    thing), the id of the run the page shows, and the ids of runs let go of."""

    # How many fitted runs are kept at most: the one shown and the few before it, as many of those as fit
    # in about the loaded table's size (workbench.runs.runs_to_let_go). Each holds its model and its
    # predictions for every row (k-NN its training rows too), so keeping them all would grow the
    # browser's memory with every training; the page's history trains a run let go of again (same
    # arguments and seed: the same model).
    KEPT_RUNS = 5

    def __init__(self):
        self.tables = {}
        self.table_meta = {}  # table id -> {"name", "suggested_target", "target_candidates", "steps": ...}
        self.runs = {}  # model id -> workbench.runs.Run, oldest first
        self.evicted = set()  # ids of runs let go to bound the memory, so an old id gets a clear answer
        self.shown = None  # the id of the run the page shows (trained, shown again or imported to be shown)
        self._ids = itertools.count(1)

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
        # A CSV: the clear target (named like one, else the last column) or none, with the candidates.
        suggested_target, candidates, entries = tables.target_choice(table, suggested_target)
        self.table_meta[table_id] = {"name": name, "suggested_target": suggested_target,
                                     "target_candidates": candidates,
                                     "steps": {"kinds": {}, "missing": []},
                                     "read_info": getattr(table, "read_info", None),  # how the file was read
                                     "uploaded": uploaded, "header": header}
        return self._table_info(table_id, entries)

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
        from .runs import runs_to_let_go  # loaded with training, before any run is kept

        for oldest in runs_to_let_go(self.runs, self.tables.values(), self.KEPT_RUNS, whole):
            del self.runs[oldest]
            self.evicted.add(oldest)

    def _new_id(self, prefix):
        return f"{prefix}{next(self._ids)}"

    def _table_info(self, table_id, entries=None):
        """The TableInfo; `entries`: the table's profile when it was just made for its target."""
        table, meta = self.tables[table_id], self.table_meta[table_id]
        read_info = meta.get("read_info") if meta.get("uploaded") else None  # an example's reading is no news
        entries = entries if entries is not None else tables.column_profile(table, meta["suggested_target"])
        return {"table_id": table_id, "name": meta["name"], **table.summary(), "preview": table.head(10),
                "suggested_target": meta["suggested_target"], "target_candidates": meta["target_candidates"],
                "target_tasks": target_tasks(entries, table.n_rows), "profile": entries,
                "read_info": read_info.to_dict() if read_info is not None else None}

    def _setup_of(self, run, overrides):
        if run.table is None:
            raise DataError("This model was imported without its data, so there is no run to reproduce.")
        meta = self.table_meta.get(run.setup.get("table_id"), {"name": "data.csv", "steps": {}})
        setup = {"file": meta["name"], "target": run.target, "features": run.features, "model": run.model,
                 "params": run.setup.get("params", {}), "evaluation": run.setup.get("evaluation"),
                 "kinds": meta["steps"].get("kinds"), "missing": meta["steps"].get("missing"),
                 "preprocessing": run.setup.get("preprocessing"), "header": meta.get("header"),
                 "sheet": getattr(meta.get("read_info"), "sheet", None), "sample": run.setup.get("sample")}
        setup.update(overrides)
        return setup
