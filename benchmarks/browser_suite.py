"""The suite in the page: a benchmark page whose own worker runs the suite in Pyodide, and reading its results."""

import json
import time

from benchmarks.browser_chromium import new_context

# The suite's modules, written into the worker's Pyodide as the package `benchmarks`, as native imports them.
SUITE_FILES = ("suite.py", "suite_data.py", "suite_workloads.py", "suite_tables.py")


BENCH_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pellucid benchmark</title></head>
<body><h1>pellucid vs scikit-learn in Pyodide</h1><pre id="log"></pre>
<script type="module">
const params = new URLSearchParams(location.search);
const log = document.getElementById("log");
window.bench = { done: false, results: [], tables: null, meta: null, error: null };
const worker = new Worker("worker.mjs", { type: "module" });
worker.onmessage = ({ data }) => {
  if (data.type === "meta") {
    window.bench.meta = data.meta;
    console.log(`bench: ready ${JSON.stringify(data.meta)}`);
  } else if (data.type === "result") {
    const r = data.result;
    window.bench.results.push(r);
    const line = `${r.name}: pellucid ${r.pellucid_ms.toFixed(2)} ms, scikit-learn ${r.sklearn_ms.toFixed(2)} ms, ` +
                 `ratio ${r.ratio.toFixed(2)} (${r.repeats} runs)`;
    log.textContent += line + "\\n";
    console.log(`bench: ${line}`);
  } else if (data.type === "done") {
    window.bench.tables = data.tables;
    window.bench.done = true;
  } else if (data.type === "error") {
    window.bench.error = data.message;
    window.bench.done = true;
  }
};
worker.onerror = (event) => { window.bench.error = String(event.message || event); window.bench.done = true; };
worker.postMessage({ repeats: Number(params.get("repeats") || 5), only: params.getAll("only") });
</script></body></html>
"""


# What the benchmark's own workers (not the site's) share: Pyodide + numpy + scikit-learn + the pellucid
# wheel, and the benchmark's modules written into /bench/benchmarks (the suite's, or the grid's too).
BENCH_LOADER = """import { loadPyodide } from "../pyodide/pyodide.mjs";

const siteRoot = new URL("../", import.meta.url);

async function text(url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`Could not load ${url} (HTTP ${response.status}).`);
  return response;
}

// { pyodide, meta }: Pyodide ready, with `files` importable as benchmarks.<name>.
export async function loadBench(files) {
  const started = performance.now();
  const info = await (await text(new URL("build-info.json", siteRoot))).json();
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", siteRoot).href });
  // k-NN's WebAssembly kernel, registered as the site's worker registers it (older builds have none).
  await import("../wasm/knn.mjs").then(async ({ instantiateKnn, knnKernel }) => {
    const kernel = await instantiateKnn(await fetch(new URL("wasm/knn.wasm", siteRoot)));
    globalThis.pellucidKernels = { knn: knnKernel(kernel, () => pyodide._module.HEAPU8.buffer) };
  }).catch(() => {});
  await pyodide.loadPackage(["numpy", "scikit-learn"]);
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  const wheel = await (await text(new URL(info.wheel, siteRoot))).arrayBuffer();
  pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  pyodide.FS.mkdirTree("/bench/benchmarks");
  for (const file of files) {
    const source = await (await text(new URL(`benchmarks/${file}`, import.meta.url))).text();
    pyodide.FS.writeFile(`/bench/benchmarks/${file}`, source);
  }
  pyodide.runPython("import sys; sys.path.insert(0, '/bench')");
  const meta = JSON.parse(pyodide.runPython(`
import json, platform, numpy, sklearn, pellucid, pyodide
json.dumps({"python": platform.python_version(), "numpy": numpy.__version__, "sklearn": sklearn.__version__,
            "pellucid": pellucid.__version__, "pyodide": pyodide.__version__})`));
  meta.load_seconds = (performance.now() - started) / 1000;
  return { pyodide, meta };
}
"""


# The suite's worker: the loader, then every workload in turn.
BENCH_WORKER = """import { loadBench } from "./load.mjs";

const SUITE_FILES = __SUITE_FILES__;

self.onmessage = async ({ data }) => {
  try {
    const { pyodide, meta } = await loadBench(SUITE_FILES);
    pyodide.runPython("from benchmarks import suite");
    self.postMessage({ type: "meta", meta });
    const suite = pyodide.pyimport("benchmarks.suite");
    const names = suite.names().toJs();
    const only = data.only || [];
    const results = [];
    for (const name of names) {
      if (only.length && !only.some((part) => name.includes(part))) continue;
      const result = JSON.parse(pyodide.runPython("import json; from benchmarks import suite; " +
        `json.dumps(suite.run_one(${JSON.stringify(name)}, ${data.repeats}))`));
      results.push(result);
      self.postMessage({ type: "result", result });
    }
    pyodide.globals.set("results_json", JSON.stringify(results));
    const tables = JSON.parse(pyodide.runPython(`
import json
from benchmarks import suite
_results = json.loads(results_json)
json.dumps({"table": suite.table(_results), "checks": suite.checks_table(_results),
            "scaling": suite.scaling_table(_results)})`));
    self.postMessage({ type: "done", tables });
  } catch (error) {
    self.postMessage({ type: "error", message: String(error && error.message || error) });
  }
};
"""
BENCH_WORKER = BENCH_WORKER.replace("__SUITE_FILES__", json.dumps(SUITE_FILES))


def run_suite(browser, guard, base, repeats, only, limit_s=900):
    context = new_context(browser, guard)
    page = context.new_page()
    guard.watch(page, echo=True)
    query = f"?repeats={repeats}" + "".join(f"&only={part}" for part in (only or []))
    page.goto(base + "bench/index.html" + query)
    deadline = time.monotonic() + limit_s
    while not page.evaluate("window.bench && window.bench.done"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the benchmark did not finish in {limit_s} s")
        time.sleep(1.0)
    bench = page.evaluate("window.bench")
    context.close()
    if bench["error"]:
        raise RuntimeError(f"the benchmark worker failed: {bench['error']}")
    return bench


def boundary_table(results):
    lines = ["| model | pellucid predict (ms) | scikit-learn predict (ms) |", "|---|---:|---:|"]
    for r in results:
        if r["group"] == "grid":
            lines.append(f"| {r['name'].split(': ', 1)[1]} | {r['pellucid_ms']:.1f} | {r['sklearn_ms']:.1f} |")
    return "\n".join(lines)
