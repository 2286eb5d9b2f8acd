"""The grid in Pyodide, the worker's side: the benchmark page's grid worker (browser_grid.py) imports this
module in Pyodide and calls it a cell at a time, posting what each call returns, so the page shows the
grid as it goes and a cell that stops Pyodide itself is named. The cells are the page's
(grid.page_cells), run, reported and summed up by grid_run and grid_report as the native grid's are; the
memory column is not measured here.
"""

import json
import time

from benchmarks import grid, grid_report, grid_run

MEMORY = "not measured in Pyodide (the native grid's `--memory`)"

_run = {"quick": False, "started": 0.0, "rows": {}}


def _entry(name):
    return next(e for e in grid.ENTRIES if e.name == name)


def start(quick=False, only_json="[]"):
    """Imports both libraries (grid_run.freeze_imports) and starts the clock; the plan as JSON:
    [[learner, cells], ...] for the learners whose name contains one of `only_json`'s (all if none)."""
    grid_run.freeze_imports()
    _run.update(quick=bool(quick), started=time.perf_counter(), rows={})
    plan = [[e.name, len(grid.page_cells(e, _run["quick"]))] for e in grid.entries(json.loads(only_json) or None)]
    return json.dumps(plan)


def run_cell(name, index):
    """Runs the learner's cell `index` and keeps its rows; their progress lines, and the traceback of
    anything the cell raised."""
    cell = grid.page_cells(_entry(name), _run["quick"])[index]
    tracebacks = []
    rows = grid_run.run_cell(cell, _run["quick"], tracebacks)
    _run["rows"].setdefault(name, []).extend(rows)
    return "\n".join([grid_run.progress_line(r) for r in rows] + tracebacks)


def table(name):
    """The learner's Markdown table, its cells above the page's size said under it (not in a quick run)."""
    entry = _entry(name)
    left_out = "" if _run["quick"] else grid.page_left_out(entry)
    return grid_report.table(entry, _run["rows"].get(name, []), MEMORY, left_out)


def closing():
    """The misses of every cell run, and the wall time since `start`."""
    every = [row for rows in _run["rows"].values() for row in rows]
    return grid_run.closing(every, time.perf_counter() - _run["started"])
