"""The grid in Pyodide (`python3 -m benchmarks.browser --grid`), checked without a browser: it keeps the
native grid's cells the page accepts, but for the heaviest learners' 10^4-row cell, and leaves out only
those, saying so; every learner keeps cells of
each sort; the files written into Pyodide are all the grid imports; the worker's side runs a cell and
reports it here in CPython; and the page's scripts are valid JavaScript."""

import ast
import json
import pathlib
import shutil
import subprocess

import pytest

from benchmarks import browser_build, browser_grid, browser_suite, grid, grid_run, grid_worker

BENCHMARKS = pathlib.Path(grid.__file__).resolve().parent


@pytest.mark.parametrize("entry", grid.ENTRIES, ids=lambda e: e.name)
def test_the_page_keeps_the_cells_within_its_size_and_says_which_it_leaves_out(entry):
    every, kept = grid.cells(entry), grid.page_cells(entry)
    heavy = [c for c in every if entry.name in grid.PAGE_HEAVY and (c.rows, c.features) == (10_000, 20)
             and not c.settings]
    assert kept == [c for c in every if c.rows * c.features <= grid.PAGE_VALUES and c not in heavy]  # in order
    left_out = [c.label for c in every if c not in kept]
    said = grid.page_left_out(entry)
    assert all(label in said for label in left_out)
    assert bool(said) == bool(left_out)


@pytest.mark.parametrize("entry", grid.ENTRIES, ids=lambda e: e.name)
def test_every_learner_keeps_cells_of_each_sort_in_the_page(entry):
    kept = grid.page_cells(entry)
    assert {c.features for c in kept} >= {5, 20, 200}
    assert any(c.rows < c.features for c in kept)
    assert [c.settings for c in kept if c.settings] == list(entry.settings)
    assert grid.page_cells(entry, quick=True) == grid.cells(entry, quick=True)


def test_the_page_cut_is_the_million_row_cells_and_the_heaviest_learners_ten_thousand():
    cut = {(e.name, c.rows, c.features) for e in grid.ENTRIES for c in grid.cells(e) if c not in grid.page_cells(e)}
    assert {(rows, features) for _, rows, features in cut} == {(1_000_000, 20), (10_000, 20)}
    assert {name for name, rows, _ in cut if rows == 10_000} == set(grid.PAGE_HEAVY)
    assert all(name in grid.PAGE_HEAVY for name, rows, features in cut if rows < 1_000_000)
    kept = {(c.rows, c.features) for e in grid.ENTRIES for c in grid.page_cells(e)}
    assert {(100_000, 20), (10_000, 200), (10_000, 20)} <= kept
    assert set(grid.PAGE_HEAVY) <= {e.name for e in grid.ENTRIES}


def _benchmark_imports(path):
    """The benchmarks modules a file imports when it is imported (from benchmarks import x / from
    benchmarks.x import ...; not those a function imports when called: grid_run.run's grid_memory)."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.module == "benchmarks":
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("benchmarks."):
            found.add(node.module.split(".", 1)[1])
    return found


def test_the_files_written_into_pyodide_hold_everything_the_grid_imports():
    written = set(browser_suite.SUITE_FILES + browser_grid.GRID_FILES)
    for name in written:
        source = (BENCHMARKS / name).read_text()
        compile(source, name, "exec")
        assert {f"{module}.py" for module in _benchmark_imports(BENCHMARKS / name)} <= written, name
    assert json.dumps(list(browser_suite.SUITE_FILES + browser_grid.GRID_FILES)) in browser_grid.GRID_WORKER


def test_the_worker_side_runs_a_cell_and_reports_it(monkeypatch):
    monkeypatch.setattr(grid_run, "freeze_imports", lambda: None)  # keep this process's collector as it is
    plan = json.loads(grid_worker.start(True, json.dumps(["GaussianNB"])))
    assert plan == [["GaussianNB", len(grid.cells(grid.entries(["GaussianNB"])[0], quick=True))]]
    lines = grid_worker.run_cell("GaussianNB", 0)
    assert "GaussianNB, 300 x 20, fit: pellucid" in lines and "predict" in lines
    table = grid_worker.table("GaussianNB")
    assert table.startswith("### GaussianNB") and "| 300 x 20 | fit |" in table
    assert grid_worker.MEMORY in table and "Left out here" not in table  # a quick run says no cut
    assert "Grid wall time:" in grid_worker.closing()


def test_a_cell_that_raises_gives_its_traceback(monkeypatch):
    def fails(cell, min_time):
        raise ValueError("no such thing")
    monkeypatch.setattr(grid_run.grid_cells, "run", fails)
    tracebacks = []
    rows = grid_run.run_cell(grid.cells(grid.ENTRIES[0], quick=True)[0], True, tracebacks)
    assert rows[0]["agree"] == "ValueError: no such thing" and not rows[0]["ok"]
    assert len(tracebacks) == 1 and "Traceback" in tracebacks[0] and "no such thing" in tracebacks[0]


def test_the_bench_pages_are_written_and_their_scripts_parse(tmp_path):
    browser_build.write_bench_files(tmp_path)
    bench = tmp_path / "bench"
    for name in browser_grid.GRID_FILES + browser_suite.SUITE_FILES:
        assert (bench / "benchmarks" / name).read_text() == (BENCHMARKS / name).read_text()
    assert 'new Worker("grid-worker.mjs"' in (bench / "grid.html").read_text()
    assert "export async function loadBench" in (bench / "load.mjs").read_text()
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    for script in ("load.mjs", "worker.mjs", "grid-worker.mjs"):
        subprocess.run([node, "--check", str(bench / script)], check=True, capture_output=True)
