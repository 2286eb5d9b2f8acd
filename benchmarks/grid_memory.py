"""The grid's memory column: for one large cell per learner (Entry.memory), the peak resident size of
fit and predict (or transform) above the data, pellucid against scikit-learn, each in a fresh process
(peak_memory.peak_above). The peak is reset after the data and the unfitted models are made, so what is
counted is the learner's work alone."""

from benchmarks import grid
from benchmarks.peak_memory import RESET_PEAK, peak_above

SETUP = r"""
import warnings
warnings.simplefilter("ignore")
from benchmarks import grid, grid_cells, grid_data
entry = next(e for e in grid.ENTRIES if e.name == {name!r})
cell = grid.Cell(entry, {rows}, {features}, {{}}, "")
X, y = grid_data.table(entry.data, cell.rows, cell.features)
Q = grid_data.queries(entry.data, cell.features)[0] if entry.queries else X
args = grid_cells.fit_args(cell, X, y)
model = grid_cells.models(cell)[{side}]
"""


def _work(entry):
    call = f"getattr(model, {entry.call!r})(Q)" if entry.call else ""
    return f"model.fit(*args)\n{call}"


def measure(entry, rows=None, features=None):
    """{"cell", "pellucid_mb", "sklearn_mb", "data_mb"} for the entry's memory cell (or rows x features)."""
    rows, features = rows or entry.memory[0], features or entry.memory[1]
    found = {}
    for side, library in enumerate(("pellucid", "sklearn")):
        setup = SETUP.format(name=entry.name, rows=rows, features=features, side=side) + RESET_PEAK
        found[library] = peak_above(setup, _work(entry))
    return {"cell": f"{rows:,} x {features}", "pellucid_mb": found["pellucid"]["above_data_mb"],
            "sklearn_mb": found["sklearn"]["above_data_mb"], "data_mb": found["pellucid"]["data_mb"]}


def quick(entry):
    """A tiny memory cell, for a smoke run."""
    return measure(entry, grid.QUICK["rows"][0], grid.QUICK["features"][0])
