"""Time what a user waits for in the page, from the click to the result on screen, in headless Chromium.

Usage: python3 -m benchmarks.workflows [--rows 50000] [--repeats 3] [--only SUBSTRING ...]
                                       [--categorical 0] [--soak 0] [--skip-workflows] [--importance]

On a generated CSV (`--rows` x 20 numeric columns on scales from 0.01 to 10,000, `--categorical` text
columns, a 3-class "label"), the built site (served from a temporary folder) is driven as a user
drives it: upload the file, choose the target and a model, press Train, export the predictions and
the model, import the model back. For each step the page's own clock is read: a MutationObserver on
the status line notes performance.now() each time it reads "Ready", and a step's time is from the
click to the last "Ready" once the page has stayed ready for a second (so the views a result opens
with, drawn after the fit, are included). Downloads are timed to the browser's download event. Best of
`--repeats` per step. Beside each learner's Train: the fit times of pellucid and of its scikit-learn
twin on the same training rows in the same Pyodide (the page's check_twin command; fit only).
The 200 x 200 boundary is timed as the page's worker call (predict on the grid and the reply, its bulk
numbers as typed arrays) plus drawing it with the page's renderer (render/boundary.js).

`--importance` also opens the Importance view after each Train (held-out permutation importance, 5
shuffles per feature on at most 2,000 held-out rows) and times the click to the bars on screen. Beside
it, for k-NN, a second worker of the same page with the same Pyodide (numpy, scikit-learn, the pellucid
wheel, the k-NN kernel) trains the same learner on the same CSV and split and times the bridge's
importance command next to scikit-learn's permutation_importance of its twin, fitted on the same
prepared training rows and judged on the same held-out rows with the same repeats and seed.

`--soak N` trains N times in a row, switching models (tree, logistic regression, naive Bayes, k-NN in
turn), with a model exported and imported back and a k-NN training cancelled along the way, and reports
the WebAssembly heap after each (pyodide's HEAP8 size, the bridge's memory command), so memory that is never given
back shows as growth. A cancel replaces the worker, so the heap after it starts again from a new one.
"""

import argparse
import json
import pathlib
import platform
import sys
import tempfile
import threading

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402

SUB_PATH = "pellucid"
SETTLE_MS = 1000  # the page must read "Ready" this long before a step counts as finished
TRAIN_TARGET_S, EXPORT_TARGET_S, MODEL_TARGET_S, BOUNDARY_TARGET_MS = 5.0, 3.0, 3.0, 100.0

# Installed before the page's scripts run: the clock the steps are timed by.
READY_CLOCK = """
window.__ready = { at: 0, busyAt: 0 };
document.addEventListener("DOMContentLoaded", () => {
  const status = document.getElementById("status");
  new MutationObserver(() => {
    if (status.textContent === "Ready") window.__ready.at = performance.now();
    else window.__ready.busyAt = performance.now();
  }).observe(status, { childList: true, characterData: true, subtree: true, attributes: true });
});
"""


def make_csv(path, rows, numeric=20, categorical=0, seed=0):
    """A CSV like people bring: numeric columns on very different scales, a few text columns, 3 classes."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, rows)
    centres = rng.normal(0, 1.5, (3, numeric))
    X = (centres[y] + rng.normal(0, 1, (rows, numeric))) * np.logspace(-2, 4, numeric)
    header = [f"x{j + 1}" for j in range(numeric)] + [f"c{j + 1}" for j in range(categorical)] + ["label"]
    words = np.array(["red", "green", "blue", "amber", "violet"])
    cats = [words[(y + rng.integers(0, 3, rows)) % len(words)] for _ in range(categorical)]
    names = np.array(["alpha", "beta", "gamma"])[y]
    cells = [np.char.mod("%.6g", X[:, j]) for j in range(numeric)] + cats + [names]
    lines = [",".join(header)] + [",".join(row) for row in zip(*[c.tolist() for c in cells])]
    path.write_text("\n".join(lines) + "\n")
    return path


def since_click(page, clicked_at):
    """Seconds from `clicked_at` (performance.now(), ms) to the last "Ready" once it has held SETTLE_MS."""
    page.wait_for_function(
        """([t, settle]) => window.__ready.at > t && window.__ready.at >= window.__ready.busyAt
                            && performance.now() - window.__ready.at > settle""",
        arg=[clicked_at, SETTLE_MS], timeout=900_000, polling=100)
    return (page.evaluate("() => window.__ready.at") - clicked_at) / 1000


def click_and_time(page, selector):
    clicked_at = page.evaluate("() => performance.now()")
    page.click(selector)
    return since_click(page, clicked_at)


def time_download(page, selector):
    """(seconds from the click to the download, its size in bytes, its path)."""
    clicked_at = page.evaluate("() => performance.now()")
    with page.expect_download(timeout=900_000) as info:
        page.click(selector)
    seconds = (page.evaluate("() => performance.now()") - clicked_at) / 1000
    path = pathlib.Path(info.value.path())
    return seconds, path.stat().st_size, path


def time_model_import(page, path):
    """Seconds from choosing a model file in the page's "Import model" to the imported model on screen."""
    chosen_at = page.evaluate("() => performance.now()")
    page.set_input_files("#import-model", str(path))
    return since_click(page, chosen_at)


def worker_call(page, cmd, args):
    """A bridge command through the page's own worker client: (seconds for the round trip, result)."""
    return page.evaluate(
        """async ([cmd, args]) => {
            const { python } = await import(new URL("js/python.js", location.href).href);
            const t = performance.now();
            const result = await python.call(cmd, args);
            return [(performance.now() - t) / 1000, result];
        }""", [cmd, args])


def boundary_predicted_and_drawn(page, args):
    """(seconds for the worker's boundary reply, seconds to draw it with the page's renderer)."""
    return page.evaluate(
        """async (args) => {
            const { python } = await import(new URL("js/python.js", location.href).href);
            const { drawBoundary } = await import(new URL("js/render/boundary.js", location.href).href);
            const started = performance.now();
            const grid = await python.call("boundary", args);
            const replied = performance.now();
            const canvas = document.createElement("canvas");
            document.body.append(canvas);
            drawBoundary(canvas, grid, { width: 620, height: 420 });
            const drawn = performance.now();
            canvas.remove();
            return [(replied - started) / 1000, (drawn - replied) / 1000];
        }""", args)


def model_menu(page):
    return worker_call(page, "models", {})[1]


def open_page(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    context.add_init_script(READY_CLOCK)
    page = context.new_page()
    page.set_default_timeout(900_000)
    page.goto(url)
    page.wait_for_function("() => document.getElementById('status').textContent === 'Ready'", timeout=300_000)
    return context, page


def upload(page, csv_path):
    clicked_at = page.evaluate("() => performance.now()")
    page.set_input_files("#csv-file", str(csv_path))
    return since_click(page, clicked_at)


def best(values):
    values = [v for v in values if v is not None]
    return min(values) if values else None


def run_learner(page, learner, repeats, csv_path, importance=False):
    """Times of one learner's Train, exports, import and boundary (best of `repeats`)."""
    page.select_option("#model", learner["name"])
    if learner["task"] in ("classification",):
        page.select_option("#target", "label")
    elif learner["task"] == "regression":
        page.select_option("#target", "x1")
    row = {"name": learner["name"], "task": learner["task"]}
    if page.is_visible("#row-limit-sample"):  # a learner with a row limit (max_rows): train on its sample
        page.check("#row-limit-sample")
        row["sample_rows"] = learner["max_rows"]
    trains = []
    for _ in range(repeats):
        trains.append(click_and_time(page, "#train"))
    row["train_s"] = best(trains)
    result_ok = page.evaluate("() => !document.getElementById('result-area').hidden")
    row["shown"] = result_ok
    if not result_ok:
        row["message"] = page.text_content("#message")
        return row
    model_id = page.evaluate("""async () => {
        const { store } = await import(new URL("js/store.js", location.href).href);
        return store.get().result.model_id; }""")
    # The boundary and the comparison first: importing a model (below) shows it in place of the trained one,
    # which the session may then let go of.
    if learner["task"] == "classification" or "boundary" in learner["capabilities"]:
        # A regressor predicts x1, so its boundary is drawn over two of its features.
        x, y = ("x2", "x3") if learner["task"] == "regression" else ("x1", "x2")
        times = [boundary_predicted_and_drawn(page, {"model_id": model_id, "x": x, "y": y})
                 for _ in range(repeats)]
        row["boundary_ms"] = 1000 * best(call + draw for call, draw in times)
        row["boundary_draw_ms"] = 1000 * best(draw for _, draw in times)
    try:
        cmp = worker_call(page, "check_twin", {"model_id": model_id})[1]
        fit = cmp.get("fit_seconds") or {}
        row["pellucid_fit_s"], row["sklearn_fit_s"] = fit.get("pellucid"), fit.get("sklearn")
    except Exception as exc:  # no twin, or scikit-learn could not load: said in the table
        row["sklearn_note"] = str(exc).splitlines()[0][:80]
    if importance and learner["task"] in ("classification", "regression"):
        times = []
        for i in range(repeats):
            if i:  # the page keeps a model's importance once computed: a new model for each timing
                click_and_time(page, "#train")
            times.append(importance_in_page(page))
        row["importance_s"] = best(times)
        pair = importance_pair(page, learner["name"], "label" if learner["task"] == "classification" else "x1",
                               csv_path.name) if "KNeighbors" in learner["name"] else {}
        row["importance_pellucid_s"], row["importance_sklearn_s"] = pair.get("pellucid_s"), pair.get("sklearn_s")
        model_id = page.evaluate("""async () => {
            const { store } = await import(new URL("js/store.js", location.href).href);
            return store.get().result.model_id; }""")
    exports, sizes = [], []
    for _ in range(repeats):
        seconds, size, _ = time_download(page, "#export-predictions")
        since_click(page, 0)
        exports.append(seconds)
        sizes.append(size)
    row["export_predictions_s"], row["export_bytes"] = best(exports), sizes[-1]
    model_exports = []
    for _ in range(repeats):
        seconds, size, model_file = time_download(page, "#export-model")
        since_click(page, 0)
        model_exports.append(seconds)
    row["export_model_s"], row["model_bytes"] = best(model_exports), size
    # Last: the imported model takes the trained one's place on screen.
    row["import_model_s"] = best(time_model_import(page, model_file) for _ in range(repeats))
    return row


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


from benchmarks.soak_native import SOAK_MODELS  # noqa: E402  (the same steps natively)


def heap_mb(page):
    return page.evaluate("""async () => {
        const { python } = await import(new URL("js/python.js", location.href).href);
        return (await python.call("memory", {})).heap_bytes; }""") / 2 ** 20


def cancel_a_training(page, model):
    """Start training `model`, press Cancel once it is under way and wait for the page to settle: the
    seconds from the click to the data, the settings and the last result back in a new worker. (The job
    itself stops at the click: the worker running it is terminated there and then.)"""
    page.select_option("#model", model)
    page.click("#train")
    page.wait_for_selector("#cancel:not([hidden])", timeout=60_000)
    page.wait_for_timeout(1500)
    # The page ends a cancel reading "Training cancelled", not "Ready", once the data and the last result
    # are back in the new worker.
    return page.evaluate("""() => new Promise((resolve) => {
        const status = document.getElementById("status");
        const clicked = performance.now();
        new MutationObserver((_, observer) => {
            if (!status.textContent.endsWith("cancelled")) return;
            observer.disconnect();
            resolve((performance.now() - clicked) / 1000);
        }).observe(status, { childList: true, characterData: true, subtree: true });
        document.getElementById("cancel").click();
    })""")


def import_shown_model(page, folder):
    """Export the model on screen and import the file back through the page's import control."""
    with page.expect_download(timeout=900_000) as info:
        page.click("#export-model")
    path = folder / info.value.suggested_filename
    info.value.save_as(path)
    since_click(page, 0)
    time_model_import(page, path)


def soak(page, runs, folder):
    """[(step, heap MB after it)] for `runs` trainings in a row, models in turn; after the third training
    its model is exported and imported, and after the sixth a k-NN training is cancelled."""
    page.select_option("#target", "label")
    steps = []
    for i in range(runs):
        model = SOAK_MODELS[i % len(SOAK_MODELS)]
        page.select_option("#model", model)
        seconds = click_and_time(page, "#train")
        step = f"{i + 1}: {model} {seconds:.1f} s"
        if i == 2:
            import_shown_model(page, folder)
            step += " + export/import"
        if i == 5:
            restored = cancel_a_training(page, "KNeighborsClassifier")
            step += f" + a k-NN training cancelled (new worker; data and last result back in {restored:.1f} s)"
        steps.append((step, heap_mb(page)))
        print(f"  {step}: heap {steps[-1][1]:.0f} MB", flush=True)
    return steps


def fmt(value, unit="s", digits=2):
    return "—" if value is None else f"{value:.{digits}f} {unit}"


def draw_note(row):
    draw = row.get("boundary_draw_ms")
    return "" if draw is None else f" (draw {draw:.0f} ms)"


def report(rows, parse_s, n_rows, categorical, machine):
    lines = [f"Workflows on {n_rows:,} rows x 20 numeric + {categorical} categorical columns, 3 classes "
             f"({machine}). Times from the click to the result on screen, best of the repeats.", "",
             f"Upload: parse + profile {parse_s:.2f} s.", "",
             "| learner | Train (target 5 s) | pellucid fit | scikit-learn fit | Export predictions (3 s) "
             "| Export model (3 s) | Import model (3 s) | boundary 200x200 predicted + drawn (100 ms) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if not r.get("shown"):
            lines.append(f"| {r['name']} | {fmt(r.get('train_s'))}: {r.get('message', '')[:80]} | | | | | | |")
            continue
        sample = f" (sample of {r['sample_rows']:,} rows)" if r.get("sample_rows") else ""
        lines.append(f"| {r['name']}{sample} | {fmt(r['train_s'])} | {fmt(r.get('pellucid_fit_s'))} | "
                     f"{fmt(r.get('sklearn_fit_s')) if 'sklearn_note' not in r else r['sklearn_note']} | "
                     f"{fmt(r.get('export_predictions_s'))} ({r.get('export_bytes', 0) / 1e6:.1f} MB) | "
                     f"{fmt(r.get('export_model_s'))} ({r.get('model_bytes', 0) / 1e6:.1f} MB) | "
                     f"{fmt(r.get('import_model_s'))} | {fmt(r.get('boundary_ms'), 'ms', 0)}{draw_note(r)} |")
    return "\n".join(lines)


def importance_report(rows):
    lines = ["", "| learner | Importance view, click to bars | pellucid importance (worker) | scikit-learn "
             "permutation_importance (same Pyodide) |", "|---|---|---|---|"]
    for r in rows:
        if "importance_s" in r:
            lines.append(f"| {r['name']} | {fmt(r['importance_s'])} | {fmt(r.get('importance_pellucid_s'))} | "
                         f"{fmt(r.get('importance_sklearn_s'))} |")
    return "\n".join(lines)


def serve_site(tmp):
    """Build the site under `tmp`/site/<SUB_PATH> and serve it in a background thread; (its URL, the
    server, to shut down)."""
    build.build(out=tmp / "site" / SUB_PATH)
    server = build.make_server(tmp / "site", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/{SUB_PATH}/", server


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--categorical", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--soak", type=int, default=0, help="trainings in a row (models in turn), heap after each")
    parser.add_argument("--skip-workflows", action="store_true")
    parser.add_argument("--importance", action="store_true", help="also time the Importance view (and, for "
                        "k-NN, pellucid's importance beside scikit-learn's permutation_importance)")
    parser.add_argument("--json", help="also write the rows here")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        csv_path = make_csv(tmp / f"table{args.rows}.csv", args.rows, categorical=args.categorical)
        url, server = serve_site(tmp)
        (tmp / "site" / SUB_PATH / "bench-importance").mkdir()
        (tmp / "site" / SUB_PATH / "bench-importance" / "worker.mjs").write_text(IMPORTANCE_WORKER)
        (tmp / "site" / SUB_PATH / csv_path.name).write_bytes(csv_path.read_bytes())
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_FLAGS)
            machine = f"Chromium {browser.version}, {platform.machine()}, {__import__('os').cpu_count()} CPUs"
            context, page = open_page(browser, url)
            parse_s = upload(page, csv_path)
            print(f"upload: {parse_s:.2f} s", flush=True)
            rows = []
            if not args.skip_workflows:
                for learner in model_menu(page):
                    if args.only and not any(s in learner["name"] for s in args.only):
                        continue
                    row = run_learner(page, learner, args.repeats, csv_path, args.importance)
                    print(json.dumps(row), flush=True)
                    rows.append(row)
                print(report(rows, parse_s, args.rows, args.categorical, machine))
                if args.importance:
                    print(importance_report(rows))
            if args.soak:
                steps = soak(page, args.soak, tmp)
                heap = [mb for _, mb in steps]
                print("Heap after each training (MB): " + ", ".join(f"{h:.0f}" for h in heap))
                print(f"Last / first: {heap[-1] / heap[0]:.3f}; largest / first: {max(heap) / heap[0]:.3f}")
            if args.json:
                pathlib.Path(args.json).write_text(json.dumps({"rows": rows, "parse_s": parse_s}, indent=1))
            context.close()
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
