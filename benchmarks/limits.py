"""Measure how much data the page handles in this machine's browser, to set and check its limits.

Usage: python3 -m benchmarks.limits [--quick | --memory-only | --million [--repeats 3]]

What it does:
  1. Builds the site into a temporary folder, writes generated CSVs next to it and serves it all.
  2. Page: in headless Chromium, uploads numeric CSVs of growing size (rows x 20 numeric columns plus a
     3-class `label`) through the real page and records the parse time (from choosing the file to the
     data summary showing its rows), whether the progress bar was shown, and the longest gap between
     animation frames meanwhile (the page must stay responsive: Python runs in the worker). Then it
     trains a decision tree on 100,000 rows and records the time and whether progress was visible.
  3. Memory: a helper worker (Pyodide + numpy + the same pellucid wheel) reads the same files and
     narrow ones (2 numeric columns) of up to 50 MB through `bridge.handle("load_csv")` with the limits
     lifted, and records Pyodide's wasm heap size after each (the heap never shrinks, so it is the
     high-water mark), or the error that stopped it.
Prints a Markdown section for benchmarks/RESULTS.md ("Browser limits").

`--million` only uploads a 1,000,000-row, 10-column file (`million_csv`: six measurements, two counts, a
colour and a 3-class label; 46 MB) through the page `--repeats` times, each in a new page, and prints the
parse + profile times with the machine's load average.
"""

import argparse
import datetime
import json
import os
import pathlib
import platform
import sys
import tempfile
import threading
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402

SUB_PATH = "pellucid"
MB = 1024 * 1024
WIDE_ROWS = [10_000, 50_000, 100_000, 200_000, 300_000, 400_000]
NARROW_ROWS = [1_000_000, 2_000_000, 4_000_000, 8_000_000]
TALL_ROWS = [12_000_000, 24_000_000]  # one column of one digit: the most rows 50 MB can hold

HELPER_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>limits</title></head>
<body><script type="module">
window.limits = { worker: new Worker("worker.mjs", { type: "module" }) };
window.measure = (url) => new Promise((resolve) => {
  const w = window.limits.worker;
  w.onmessage = ({ data }) => resolve(data);
  w.onerror = (e) => { e.preventDefault(); resolve({ ok: false, error: `worker died: ${e.message}` }); };
  w.postMessage({ url });
});
window.restart = () => {
  window.limits.worker.terminate();
  window.limits.worker = new Worker("worker.mjs", { type: "module" });
};
</script></body></html>
"""

HELPER_WORKER = """import { loadPyodide } from "../pyodide/pyodide.mjs";
const root = new URL("../", import.meta.url);
let py = null;
async function boot() {
  const info = await (await fetch(new URL("build-info.json", root))).json();
  py = await loadPyodide({ indexURL: new URL("pyodide/", root).href, packages: info.packages });
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  const wheel = await (await fetch(new URL(info.wheel, root))).arrayBuffer();
  py.unpackArchive(wheel, "wheel", { extractDir: site });
  py.runPython("from pellucid import bridge");
}
const booted = boot();
const heap = () => py._module?.HEAPU8?.length ?? py.runPython("import pyodide_js; pyodide_js._module.HEAPU8.length");
self.onmessage = async ({ data }) => {
  try {
    await booted;
    const bytes = new Uint8Array(await (await fetch(data.url)).arrayBuffer());
    py.FS.writeFile("/tmp/limits.csv", bytes);
    const before = heap();
    const started = performance.now();
    const reply = py.runPython(`
import gc, json
from pellucid import bridge
r = bridge.handle("load_csv", {"path": "/tmp/limits.csv", "name": "limits.csv", "max_bytes": 10**10, "max_rows": 10**9})
bridge.worker_session.forget(); gc.collect()
json.dumps({"ok": r["ok"], "rows": r["result"]["n_rows"] if r["ok"] else None,
            "error": None if r["ok"] else r["error"]["message"]})`);
    const seconds = (performance.now() - started) / 1000;
    py.FS.unlink("/tmp/limits.csv");
    self.postMessage({ ...JSON.parse(reply), seconds, heap_before: before, heap_after: heap(), bytes: bytes.length });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error.message || error).slice(0, 300) });
  }
};
"""

# Runs in the page before the upload: notes when the file was chosen, when the summary changed, whether
# the progress bar was shown, and the longest gap between animation frames meanwhile.
WATCH_JS = """(rowsText) => {
  const w = window.__limits = { chosen: null, shown: null, progress: false, maxGap: 0, frames: 0, done: false };
  document.getElementById("csv-file").addEventListener("change", () => { w.chosen = performance.now(); },
                                                     { once: true, capture: true });
  const summary = document.getElementById("data-summary");
  const progress = document.getElementById("progress");
  new MutationObserver(() => { if (!progress.hidden) w.progress = true; }).observe(progress, { attributes: true });
  new MutationObserver(() => {
    if (summary.textContent.includes(rowsText) && w.shown === null) {
      w.shown = performance.now();
      w.done = true;
    }
  }).observe(summary, { childList: true, characterData: true, subtree: true });
  const alert = document.getElementById("message");
  new MutationObserver(() => {
    if (!alert.hidden && alert.textContent) { w.error = alert.textContent; w.done = true; }
  }).observe(alert, { attributes: true, childList: true, subtree: true });
  let last = performance.now();
  const tick = (now) => {
    w.maxGap = Math.max(w.maxGap, now - last); last = now; w.frames++;
    if (!w.done) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

TRAIN_WATCH_JS = """() => {
  const w = window.__train = { started: performance.now(), shown: null, progress: false, busyText: "", maxGap: 0,
                               done: false };
  const score = document.getElementById("accuracy");
  const progress = document.getElementById("progress");
  const status = document.getElementById("status");
  new MutationObserver(() => { if (!progress.hidden) w.progress = true; }).observe(progress, { attributes: true });
  new MutationObserver(() => { if (status.dataset.state === "busy") w.busyText = status.textContent; })
    .observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
  new MutationObserver(() => { if (score.textContent !== "—") { w.shown = performance.now(); w.done = true; } })
    .observe(score, { childList: true, characterData: true, subtree: true });
  let last = performance.now();
  const tick = (now) => {
    w.maxGap = Math.max(w.maxGap, now - last); last = now;
    if (!w.done) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def wide_csv(path, n_rows, n_cols=20, seed=0):
    """n_rows of n_cols numbers (4 decimals) and a 3-class label that depends on the first two."""
    rng = np.random.default_rng(seed)
    with open(path, "w") as out:
        out.write(",".join(f"f{j}" for j in range(n_cols)) + ",label\n")
        for start in range(0, n_rows, 50_000):
            X = rng.normal(size=(min(50_000, n_rows - start), n_cols)).round(4)  # (b, n_cols)
            labels = np.where(X[:, 0] + X[:, 1] > 0.5, "a", np.where(X[:, 0] < -0.5, "b", "c"))  # (b,)
            body = np.char.add(np.array([",".join(map(str, row)) for row in X.tolist()]), ",")
            out.write("\n".join(np.char.add(body, labels).tolist()) + "\n")
    return path.stat().st_size


def million_csv(path, n_rows=1_000_000, seed=0):
    """n_rows x 10 as a program exports them: six measurements (2 decimals), two counts, a colour and a
    3-class label; a million rows fit under the 50 MB upload limit."""
    rng = np.random.default_rng(seed)
    colours = np.array(["red", "green", "blue", "amber", "violet"])
    with open(path, "w") as out:
        out.write("m1,m2,m3,m4,m5,m6,count1,count2,colour,label\n")
        for start in range(0, n_rows, 100_000):
            b = min(100_000, n_rows - start)
            M = rng.normal(size=(b, 6)).round(2)  # (b, 6)
            counts = rng.integers(0, 100, size=(b, 2))  # (b, 2)
            label = np.where(M[:, 0] + M[:, 1] > 0.5, "a", np.where(M[:, 0] < -0.5, "b", "c"))  # (b,)
            cells = [np.char.mod("%.2f", M[:, j]) for j in range(6)] + [counts[:, 0].astype(str),
                     counts[:, 1].astype(str), colours[rng.integers(0, 5, b)], label]
            out.write("\n".join(",".join(row) for row in zip(*[c.tolist() for c in cells])) + "\n")
    return path.stat().st_size


def measure_million(repeats):
    """Upload million_csv through the page `repeats` times; print each parse + profile time."""
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        site = root / SUB_PATH
        build.build(out=site)
        path = root / "million.csv"
        size = million_csv(path)
        server, url = serve(root)
        times = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_FLAGS)
            for _ in range(repeats):
                load = os.getloadavg()[0]
                r = upload_through_page(browser, url, path, 1_000_000)
                r.update(load_before=load, load_after=os.getloadavg()[0])
                print(f"1,000,000 x 10 ({size / MB:.1f} MB): {r}", flush=True)
                times.append(r)
            version = browser.version
            browser.close()
        server.shutdown()
    parsed = [r["parse_s"] for r in times if "parse_s" in r]
    print(f"best {min(parsed):.2f} s, median {sorted(parsed)[len(parsed) // 2]:.2f} s of {len(parsed)}; "
          f"Chromium {version}, {os.cpu_count()} CPUs")


def narrow_csv(path, n_rows, seed=0):
    """n_rows of two small whole numbers: the most rows per megabyte a real file has."""
    rng = np.random.default_rng(seed)
    with open(path, "w") as out:
        out.write("x,y\n")
        for start in range(0, n_rows, 500_000):
            X = rng.integers(0, 100, size=(min(500_000, n_rows - start), 2))  # (b, 2)
            out.write("\n".join(f"{a},{b}" for a, b in X.tolist()) + "\n")
    return path.stat().st_size


def tall_csv(path, n_rows):
    """n_rows of one digit, one column."""
    with open(path, "w") as out:
        out.write("x\n")
        block = "".join(f"{i % 10}\n" for i in range(1_000_000))
        for start in range(0, n_rows, 1_000_000):
            out.write(block if n_rows - start >= 1_000_000 else block[:2 * (n_rows - start)])
    return path.stat().st_size


def serve(root):
    server = build.make_server(root, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/{SUB_PATH}/"


def open_page(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(600_000)
    page.goto(url)
    page.wait_for_function("document.getElementById('status').textContent === 'Ready' && "
                           "!document.getElementById('data-summary').hidden", timeout=120_000)
    return context, page


def upload_through_page(browser, url, path, n_rows):
    context, page = open_page(browser, url)
    try:
        page.evaluate(WATCH_JS, f"{n_rows} rows")
        page.locator("#csv-file").set_input_files(str(path))
        page.wait_for_function("window.__limits.done", timeout=900_000, polling=200)
        w = page.evaluate("window.__limits")
        if w.get("error"):
            return {"error": w["error"]}
        return {"parse_s": (w["shown"] - w["chosen"]) / 1000, "progress": w["progress"],
                "max_frame_gap_ms": w["maxGap"], "frames": w["frames"]}
    finally:
        context.close()


def train_through_page(browser, url, path, n_rows):
    context, page = open_page(browser, url)
    try:
        page.locator("#csv-file").set_input_files(str(path))
        page.wait_for_function(f"document.getElementById('data-summary').textContent.includes('{n_rows} rows')",
                               timeout=600_000)
        page.wait_for_function("document.getElementById('status').textContent === 'Ready'")
        page.locator("#model").select_option("DecisionTreeClassifier")
        page.evaluate(TRAIN_WATCH_JS)
        page.locator("#train").click()
        page.wait_for_function("window.__train.done", timeout=900_000, polling=200)
        w = page.evaluate("window.__train")
        return {"train_s": (w["shown"] - w["started"]) / 1000, "progress": w["progress"],
                "status": w["busyText"], "max_frame_gap_ms": w["maxGap"]}
    finally:
        context.close()


def measure_memory(browser, base, files):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(900_000)
    page.goto(base + "limits/index.html")
    out = []
    for label, name, n_rows, size in files:
        started = time.perf_counter()
        r = page.evaluate("(url) => window.measure(url)", base + "limits/" + name)
        r.update(label=label, n_rows=n_rows, size=size, wall_s=time.perf_counter() - started)
        print(f"memory {label}: {json.dumps(r)[:300]}", flush=True)
        out.append(r)
        if not r.get("ok"):
            page.evaluate("window.restart()")
    context.close()
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the two smallest wide files")
    parser.add_argument("--memory-only", action="store_true", help="only the worker's reading, narrow files")
    parser.add_argument("--million", action="store_true", help="only a 1,000,000 x 10 upload, timed")
    parser.add_argument("--repeats", type=int, default=3, help="uploads of the --million file")
    args = parser.parse_args(argv)
    if args.million:
        return measure_million(args.repeats)
    from playwright.sync_api import sync_playwright

    wide = WIDE_ROWS[:2] if args.quick else WIDE_ROWS
    narrow = [] if args.quick else NARROW_ROWS
    tall = TALL_ROWS if args.memory_only else []
    if args.memory_only:
        wide = []
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        site = root / SUB_PATH
        build.build(out=site)
        data = site / "limits"
        data.mkdir()
        (data / "index.html").write_text(HELPER_HTML)
        (data / "worker.mjs").write_text(HELPER_WORKER)
        files = []
        for n in wide:
            files.append((f"{n:,} x 20", f"wide-{n}.csv", n, wide_csv(data / f"wide-{n}.csv", n)))
        for n in narrow:
            files.append((f"{n:,} x 2", f"narrow-{n}.csv", n, narrow_csv(data / f"narrow-{n}.csv", n)))
        for n in tall:
            files.append((f"{n:,} x 1", f"tall-{n}.csv", n, tall_csv(data / f"tall-{n}.csv", n)))
        server, url = serve(root)
        page_rows, memory, training = [], [], None
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_FLAGS)
            for label, name, n, size in files:
                if size > 50 * MB or not name.startswith("wide"):
                    continue
                r = upload_through_page(browser, url, data / name, n)
                r.update(label=label, size=size)
                print(f"page {label}: {r}", flush=True)
                page_rows.append(r)
            over = next((f for f in files if f[3] > 50 * MB), None)
            if over:
                r = upload_through_page(browser, url, data / over[1], over[2])
                r.update(label=over[0], size=over[3])
                print(f"page {over[0]}: {r}", flush=True)
                page_rows.append(r)
            if 100_000 in wide:
                training = train_through_page(browser, url, data / "wide-100000.csv", 100_000)
                print(f"train 100,000 x 20: {training}", flush=True)
            memory = measure_memory(browser, url, files)
            version = browser.version
            browser.close()
        server.shutdown()
    print(report(page_rows, training, memory, version))


def report(page_rows, training, memory, version):
    lines = ["## Browser limits", "",
             f"Measured {datetime.date.today().isoformat()} with `python3 -m benchmarks.limits` on "
             f"{platform.processor() or platform.machine()} ({platform.system()}), headless Chromium {version}.", "",
             "### Upload through the page (parse: choosing the file to the data summary showing its rows)", "",
             "| file | size | parse (s) | progress bar shown | longest frame gap (ms) |",
             "| --- | ---: | ---: | --- | ---: |"]
    for r in page_rows:
        if "error" in r:
            lines.append(f"| {r['label']} | {r['size'] / MB:.1f} MB | refused: {r['error']} | | |")
        else:
            lines.append(f"| {r['label']} | {r['size'] / MB:.1f} MB | {r['parse_s']:.2f} | "
                         f"{'yes' if r['progress'] else 'no'} | {r['max_frame_gap_ms']:.0f} |")
    if training:
        lines += ["", f"Decision tree on 100,000 x 20 (3 classes, default settings, 70/30 split): "
                      f"{training['train_s']:.1f} s from Train to the score; status line "
                      f"\"{training['status']}\", progress bar {'shown' if training['progress'] else 'not shown'}, "
                      f"longest frame gap {training['max_frame_gap_ms']:.0f} ms."]
    lines += ["", "### Reading in the worker with the limits lifted (wasm heap = Pyodide's memory afterwards)", "",
              "| file | size | rows read | read (s) | wasm heap after |", "| --- | ---: | ---: | ---: | ---: |"]
    for r in memory:
        result = f"{r['rows']:,}" if r.get("ok") else f"failed: {r.get('error', '')[:80]}"
        heap = f"{r['heap_after'] / MB:,.0f} MB" if r.get("heap_after") else "-"
        secs = f"{r['seconds']:.1f}" if r.get("seconds") else "-"
        lines.append(f"| {r['label']} | {r['size'] / MB:.1f} MB | {result} | {secs} | {heap} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
