"""Importance timed: the page's Importance view, and for k-NN pellucid's beside scikit-learn's in the same Pyodide."""

from benchmarks.workflows_page import click_and_time


# The importance pair's worker: the site's Pyodide with scikit-learn, the pellucid wheel and the k-NN kernel
# (registered as the site's worker registers it), answering {csv, learner, target} with both times.
IMPORTANCE_WORKER = """import { loadPyodide } from "../pyodide/pyodide.mjs";
import { instantiateKnn, knnKernel } from "../wasm/knn.mjs";

const siteRoot = new URL("../", import.meta.url);
self.onmessage = async ({ data }) => {
  try {
    const info = await (await fetch(new URL("build-info.json", siteRoot), { cache: "no-cache" })).json();
    const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", siteRoot).href });
    const kernel = await instantiateKnn(await fetch(new URL("wasm/knn.wasm", siteRoot)));
    globalThis.pellucidKernels = { knn: knnKernel(kernel, () => pyodide._module.HEAPU8.buffer) };
    await pyodide.loadPackage(["numpy", "scikit-learn"], { messageCallback: () => {} });
    const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
    const wheel = await (await fetch(new URL(info.wheel, siteRoot))).arrayBuffer();
    pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
    pyodide.FS.writeFile("/table.csv", new Uint8Array(await (await fetch(data.csv)).arrayBuffer()));
    pyodide.globals.set("args_json", JSON.stringify(data));
    self.postMessage({ ok: true, result: JSON.parse(pyodide.runPython(data.script)) });
  } catch (error) {
    self.postMessage({ ok: false, message: String(error && error.message || error) });
  }
};
"""

# Run in that worker: the learner trained as the page trains it, then pellucid's importance command and
# scikit-learn's permutation_importance on the same prepared rows, each timed.
IMPORTANCE_PAIR = """
import json, time
import numpy as np
from sklearn.inspection import permutation_importance
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from pellucid.bridge import Session
from pellucid.learners.neighbors import wasm_kernel
from pellucid.workbench import judging
from pellucid.workbench.twin_check import _raw_matrix

args = json.loads(args_json)
session = Session()
info = session.load_csv("/table.csv", name="table.csv")
features = [c for c in info["columns"] if c != args["target"]]
reply = session.train(info["table_id"], args["target"], features, args["learner"], evaluation=args["evaluation"])
run = session.run(reply["model_id"])
started = time.perf_counter()
ours = session.importance(reply["model_id"])
pellucid_s = time.perf_counter() - started
seed, k = int(args["evaluation"]["seed"]), int(run.estimator.k)
rows = judging._sample(judging.held_out(run)[0], judging.MAX_IMPORTANCE_ROWS, seed)
X_train, X_held = _raw_matrix(run.model_input(run.train_rows())), _raw_matrix(run.model_input(rows))
y = run.table.column(args["target"])
twin = (KNeighborsClassifier if args["target"] == "label" else KNeighborsRegressor)(n_neighbors=k)
twin.fit(X_train, y[run.train_rows()])
started = time.perf_counter()
permutation_importance(twin, X_held, y[rows], n_repeats=judging.N_REPEATS, random_state=seed)
sklearn_s = time.perf_counter() - started
json.dumps({"pellucid_s": pellucid_s, "sklearn_s": sklearn_s, "rows": int(len(rows)), "features": len(features),
            "n_repeats": judging.N_REPEATS, "kernel": wasm_kernel._kernel() is not None})
"""

SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 0}


def importance_in_page(page):
    """Seconds from the click on the Importance tab to its bars on screen."""
    seconds = click_and_time(page, "#tab-importance")
    page.click("#tab-metrics")  # back where the other steps start
    return seconds


def importance_pair(page, learner, target, csv_name):
    """{pellucid_s, sklearn_s, ...}: the importance pair, timed in a second worker with the page's Pyodide."""
    answer = page.evaluate(
        """async (data) => {
            data.csv = new URL(data.csv, location.href).href;
            const worker = new Worker(new URL("bench-importance/worker.mjs", location.href), { type: "module" });
            const reply = await new Promise((resolve) => {
                worker.onmessage = ({ data }) => resolve(data);
                worker.postMessage(data);
            });
            worker.terminate();
            return reply;
        }""", {"csv": csv_name, "learner": learner, "target": target, "evaluation": SPLIT, "script": IMPORTANCE_PAIR})
    if not answer["ok"]:
        raise RuntimeError(f"the importance pair failed: {answer['message']}")
    return answer["result"]
