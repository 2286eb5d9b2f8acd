"""What the bridge Session holds on to over many trainings, without a browser: the browser soak's steps
(benchmarks/workflows.py --soak: the tree, logistic regression, naive Bayes and k-NN in turn on a hold-out
split, an export and import after the third) through `Session.handle_binary`, as the page's worker calls
it. After each training it reports the bytes the kept runs hold (`kept_bytes`) and either

- natively: the Python memory still allocated and the high-water mark (tracemalloc, numpy's arrays
  included), or
- with --pyodide: the WebAssembly heap (HEAP8.length, the high-water mark: wasm memory never shrinks), the
  same figure the browser soak reads, in Pyodide under Node from a built site's runtime (dist/ unless
  --site says otherwise), with this checkout's py/ on the path.

Usage: python3 -m benchmarks.soak_native [--rows 20000] [--runs 20] [--pyodide [--site DIR]]
"""

import argparse
import gc
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "py"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

SOAK_MODELS = ["DecisionTreeClassifier", "LogisticRegression", "GaussianNB", "KNeighborsClassifier"]
HOLD_OUT = {"method": "split", "train": 70, "validation": 0, "test": 30, "stratify": True, "seed": 0}
MB = 2 ** 20


def ok(session, cmd, args):
    """The command's result, through the worker's own entry point (bulk numbers packed apart)."""
    text, _bulk = session.handle_binary(cmd, json.dumps(args))
    reply = json.loads(text)
    assert reply["ok"], reply["error"]
    return reply["result"]


def kept_bytes(session):
    """About how many bytes the session's kept runs hold beside the loaded table."""
    return sum(run.footprint(shared=session.tables.values()) for run in session.runs.values())


def soak(csv_path, runs, memory):
    """Load `csv_path` and train `runs` times in turn; `memory()` -> the figures printed after each."""
    from pellucid import bridge

    session = bridge.Session()
    table_id = ok(session, "load_csv", {"path": str(csv_path), "name": "table.csv"})["table_id"]
    print(f" 0 {'(loaded)':24s} {memory()}", flush=True)
    features = [f"x{j + 1}" for j in range(20)]
    for i in range(runs):
        model = SOAK_MODELS[i % len(SOAK_MODELS)]
        result = ok(session, "train", {"table_id": table_id, "target": "label", "features": features,
                                       "model": model, "evaluation": HOLD_OUT})
        if i == 2:  # as in the browser soak: the model exported and imported back
            text = ok(session, "export_model", {"model_id": result["model_id"]})["json"]
            ok(session, "import_model", {"json": text})
        gc.collect()
        print(f"{i + 1:2d} {model:24s} {memory()}, runs kept {len(session.runs)} "
              f"({kept_bytes(session) / MB:.1f} MB)", flush=True)


def traced_memory():
    import tracemalloc

    held, peak = tracemalloc.get_traced_memory()
    traced_memory.high_water = max(peak, getattr(traced_memory, "high_water", 0))
    tracemalloc.reset_peak()  # the next figure: the peak during the next step alone
    return (f"held {held / MB:6.1f} MB, peak during it {peak / MB:6.1f} MB, "
            f"high-water {traced_memory.high_water / MB:6.1f} MB")


def wasm_heap():
    import wasm_heap  # registered by NODE_RUNNER: the HEAP8 size

    return f"heap {wasm_heap.size() / MB:6.1f} MB"


# Pyodide under Node: the runtime of a built site, numpy, this checkout mounted at /repo, the CSV written
# into the in-memory file system (as the page's worker writes an upload), then this module's soak.
NODE_RUNNER = """
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [runtime, repo, csv, runs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: runtime + path.sep });
await pyodide.loadPackage("numpy", { messageCallback: () => {} });
pyodide.mountNodeFS("/repo", repo);
pyodide.FS.writeFile("/tmp/table.csv", fs.readFileSync(csv));
pyodide.registerJsModule("wasm_heap", { size: () => pyodide._module.HEAP8.length });
try {
  pyodide.runPython(`
import sys
sys.path[:0] = ["/repo", "/repo/py"]
from benchmarks import soak_native
soak_native.soak("/tmp/table.csv", ${Number(runs)}, soak_native.wasm_heap)
`);
} catch (error) {
  console.error(error.message);  // the Python traceback, without the runtime's source
  process.exit(1);
}
"""


def soak_in_pyodide(csv_path, runs, site):
    with tempfile.TemporaryDirectory() as tmp:
        runner = pathlib.Path(tmp) / "soak.mjs"
        runner.write_text(NODE_RUNNER)
        subprocess.run(["node", str(runner), str(site / "pyodide"), str(ROOT), str(csv_path), str(runs)],
                       check=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--pyodide", action="store_true", help="in Pyodide under Node: the wasm heap")
    parser.add_argument("--site", type=pathlib.Path, default=ROOT / "dist", help="a built site (for --pyodide)")
    args = parser.parse_args(argv)
    from benchmarks.workflows_csv import make_csv

    with tempfile.TemporaryDirectory() as tmp:
        csv_path = make_csv(pathlib.Path(tmp) / "table.csv", args.rows)
        if args.pyodide:
            soak_in_pyodide(csv_path, args.runs, args.site)
        else:
            import tracemalloc

            tracemalloc.start()  # before the load, as the wasm heap counts it too
            soak(csv_path, args.runs, traced_memory)


if __name__ == "__main__":
    main()
