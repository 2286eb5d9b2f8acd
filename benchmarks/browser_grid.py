"""The grid in the page: a benchmark page whose own worker runs the grid (grid.py) in Pyodide, and reading it.

The worker loads Pyodide as the suite's does (browser_suite.BENCH_LOADER), writes the grid's modules
beside the suite's, and calls grid_worker a cell at a time: the same cells as the native grid, cut to the
sizes the page accepts (grid.page_cells), the same twins, timing, agreement checks and tables. Each
cell's progress lines go to stderr as they come and each learner's table to `out` as it is done, so a run
cut short still reports what it finished, and a cell that stops Pyodide itself is named.
"""

import json
import sys
import time

from benchmarks.browser_chromium import new_context
from benchmarks.browser_suite import SUITE_FILES

# Written into the worker's Pyodide beside browser_suite.SUITE_FILES (grid_cells times with suite.measure).
GRID_FILES = ("grid.py", "grid_cells.py", "grid_data.py", "grid_report.py", "grid_run.py", "grid_worker.py")

GRID_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pellucid grid</title></head>
<body><h1>The grid: pellucid vs scikit-learn in Pyodide</h1><pre id="log"></pre>
<script type="module">
const params = new URLSearchParams(location.search);
const log = document.getElementById("log");
window.bench = { done: false, meta: null, cell: null, tables: [], closing: null, error: null };
const worker = new Worker("grid-worker.mjs", { type: "module" });
worker.onmessage = ({ data }) => {
  if (data.type === "meta") {
    window.bench.meta = data.meta;
    console.log(`bench: ready ${JSON.stringify(data.meta)}`);
  } else if (data.type === "cell") {
    window.bench.cell = data;
  } else if (data.type === "lines") {
    log.textContent += data.text + "\\n";
    console.log(`bench: ${data.text}`);
  } else if (data.type === "table") {
    window.bench.tables.push(data);
  } else if (data.type === "done") {
    window.bench.closing = data.text;
    window.bench.done = true;
  } else if (data.type === "error") {
    window.bench.error = data.message;
    window.bench.done = true;
  }
};
worker.onerror = (event) => { window.bench.error = String(event.message || event); window.bench.done = true; };
worker.postMessage({ quick: params.get("quick") === "1", only: params.getAll("only") });
</script></body></html>
"""

# The grid's worker: the loader, then grid_worker's plan, a cell at a time, a table per learner.
GRID_WORKER = """import { loadBench } from "./load.mjs";

const FILES = __FILES__;

self.onmessage = async ({ data }) => {
  try {
    const { pyodide, meta } = await loadBench(FILES);
    const grid = pyodide.pyimport("benchmarks.grid_worker");
    self.postMessage({ type: "meta", meta });
    const plan = JSON.parse(grid.start(data.quick, JSON.stringify(data.only || [])));
    for (const [name, count] of plan) {
      const began = performance.now();
      for (let index = 0; index < count; index++) {
        self.postMessage({ type: "cell", name, index, count });
        self.postMessage({ type: "lines", text: grid.run_cell(name, index) });
      }
      const seconds = (performance.now() - began) / 1000;
      self.postMessage({ type: "lines", text: `${name}: ${seconds.toFixed(0)} s` });
      self.postMessage({ type: "table", name, seconds, text: grid.table(name) });
    }
    self.postMessage({ type: "done", text: grid.closing() });
  } catch (error) {
    self.postMessage({ type: "error", message: String(error && error.message || error) });
  }
};
"""
GRID_WORKER = GRID_WORKER.replace("__FILES__", json.dumps(SUITE_FILES + GRID_FILES))


def run_grid(browser, guard, base, quick=False, only=None, out=print, limit_s=3600):
    """Runs the grid in the page, giving each learner's table to `out` as it is done; the page's
    window.bench at the end ({"meta", "tables", "closing", ...}). Raises if the worker fails or the run
    takes more than `limit_s`, naming the cell it was in."""
    context = new_context(browser, guard)
    page = context.new_page()
    guard.watch(page)
    page.on("console", lambda m: m.text.startswith("bench: ") and print(m.text[7:], file=sys.stderr, flush=True))
    query = "?quick=" + ("1" if quick else "0") + "".join(f"&only={part}" for part in (only or []))
    page.goto(base + "bench/grid.html" + query)
    deadline, printed = time.monotonic() + limit_s, 0
    try:
        while True:
            state = page.evaluate("({ done: window.bench.done, tables: window.bench.tables.length, "
                                  "cell: window.bench.cell })")
            if state["tables"] > printed:
                for table in page.evaluate(f"window.bench.tables.slice({printed})"):
                    out(table["text"] + "\n")
                printed = state["tables"]
            if state["done"]:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"the grid did not finish in {limit_s} s; it was in {_where(state['cell'])}")
            time.sleep(2.0)
        bench = page.evaluate("window.bench")
    finally:
        context.close()
    if bench["error"]:
        raise RuntimeError(f"the grid worker failed in {_where(bench['cell'])}: {bench['error']}")
    return bench


def _where(cell):
    if not cell:
        return "loading"
    return f"{cell['name']}'s cell {cell['index'] + 1} of {cell['count']}"
