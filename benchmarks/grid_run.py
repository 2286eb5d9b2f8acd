"""Running the grid: every learner's cells in turn under one BLAS thread (threadpoolctl), each learner's
table printed as it is done, its memory cell measured if asked, and the total wall time at the end.

`python3 -m benchmarks.native --grid` runs it (`--quick`: tiny cells, a smoke run; `--memory`: the memory
column; `--only SUBSTRING ...`: some learners)."""

import sys
import time

from benchmarks import grid, grid_cells, grid_memory, grid_report


def _progress(row):
    print(f"  {row['learner']}, {row['cell']}, {row['call']}: pellucid {row['pellucid_s']:.4f} s, "
          f"scikit-learn {row['sklearn_s']:.4f} s, ratio {row['ratio']:.2f} {row['agree']}",
          file=sys.stderr, flush=True)


def run_entry(entry, quick=False, progress=None):
    rows = []
    for cell in grid.cells(entry, quick):
        for row in grid_cells.run(cell):
            if progress:
                progress(row)
            rows.append(row)
    return rows


def run(quick=False, memory=False, only=None, out=print):
    """Every entry's rows (and memory if asked), each learner's table given to `out` as it is done."""
    from threadpoolctl import threadpool_limits
    started, every = time.perf_counter(), []
    with threadpool_limits(1):
        for entry in grid.entries(only):
            rows = run_entry(entry, quick, _progress)
            peak = (grid_memory.quick(entry) if quick else grid_memory.measure(entry)) if memory else None
            out(grid_report.table(entry, rows, peak) + "\n")
            every += rows
    out(f"Cells above the target or answers that differ:\n\n{grid_report.misses(every)}\n")
    out(f"Grid wall time: {time.perf_counter() - started:.0f} s.")
    return every
