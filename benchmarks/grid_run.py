"""Running the grid: every learner's cells in turn under one BLAS thread (threadpoolctl), each learner's
table printed as it is done, its memory cell measured if asked, and the total wall time at the end.

`python3 -m benchmarks.native --grid` runs it (`--quick`: tiny cells, a smoke run; `--memory`: the memory
column; `--only SUBSTRING ...`: some learners). The grid in Pyodide (grid_worker.py) runs its cells one at
a time with `run_cell` and reports them with `progress_line` and `closing`."""

import gc
import sys
import time
import traceback

from benchmarks import grid, grid_cells, grid_report


def progress_line(row):
    return (f"  {row['learner']}, {row['cell']}, {row['call']}: pellucid {row['pellucid_s']:.4f} s, "
            f"scikit-learn {row['sklearn_s']:.4f} s, ratio {row['ratio']:.2f} {row['agree']}")


def _progress(row):
    print(progress_line(row), file=sys.stderr, flush=True)


def _failed(cell, exc):
    """The row of a cell that raised: a fifteen-minute run reports it and goes on to the next cell."""
    return {"learner": cell.entry.name, "cell": cell.label, "call": "fit", "pellucid_s": float("nan"),
            "sklearn_s": float("nan"), "ratio": float("nan"), "samples": 0, "agree": f"{type(exc).__name__}: {exc}",
            "ok": False}


def run_cell(cell, quick=False, tracebacks=None):
    """The cell's rows (grid_cells.run), or one row saying what it raised (its traceback appended to
    `tracebacks` if given)."""
    try:
        return grid_cells.run(cell, 0.0 if quick else grid_cells.MIN_TIME)
    except Exception as exc:  # noqa: BLE001 - any failure is reported in the table
        if tracebacks is not None:
            tracebacks.append(traceback.format_exc())
        return [_failed(cell, exc)]


def run_entry(entry, quick=False, progress=None):
    rows = []
    for cell in grid.cells(entry, quick):
        for row in run_cell(cell, quick):
            if progress:
                progress(row)
            rows.append(row)
    return rows


def freeze_imports():
    """Both libraries imported, then their objects kept out of the collector's way: suite.measure collects
    before every sample, and with scikit-learn's modules loaded a full collection takes 60-80 ms, which
    made a smoke run of tiny cells last minutes. Frozen objects are still alive; they are only not
    scanned again."""
    import pellucid.learners.registry  # noqa: F401
    grid_cells.sklearn()
    gc.collect()
    gc.freeze()


def closing(rows, seconds):
    """The Markdown after the tables: the misses of `rows` and the wall time."""
    return (f"Cells above the target or answers that differ:\n\n{grid_report.misses(rows)}\n\n"
            f"Grid wall time: {seconds:.0f} s.")


def run(quick=False, memory=False, only=None, out=print):
    """Every entry's rows (and memory if asked), each learner's table given to `out` as it is done."""
    from threadpoolctl import threadpool_limits

    from benchmarks import grid_memory
    started, every = time.perf_counter(), []
    freeze_imports()
    with threadpool_limits(1):
        for entry in grid.entries(only):
            began = time.perf_counter()
            rows = run_entry(entry, quick, _progress)
            peak = (grid_memory.quick(entry) if quick else grid_memory.measure(entry)) if memory else None
            print(f"{entry.name}: {time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
            out(grid_report.table(entry, rows, peak) + "\n")
            every += rows
    out(closing(every, time.perf_counter() - started))
    return every
