"""Run the benchmark suite inside Pyodide in headless Chromium, and time how fast the site starts.

Usage: python3 -m benchmarks.browser [--repeats 5] [--only SUBSTRING ...] [--startup-runs 5]
                                     [--skip-startup] [--skip-suite] [--baseline REV] [--trace DIR
                                     [--trace-runs N]] [--bandwidth MBIT_PER_S [--latency MS]]

What it does:
  1. Builds the site into a temporary folder (build.build), adds a benchmark page, its own Web Worker, a
     bare Pyodide + numpy page and suite.py under <site>/bench/, and serves it all (build.py's handler,
     counting the files it sends).
  2. Startup: opens the real site (index.html) and the bare page, alternately, and records the time from
     navigation to the status line reading "Ready" (a MutationObserver notes performance.now() when it
     changes) and to DOMContentLoaded; cold = a first visit, a browser with a new empty profile each run
     (--private-cold: a new private context), warm = a reload in the same context; the medians of
     --startup-runs runs each are reported, with real / bare. With
     --baseline REV the site as it was at git revision REV is built too and timed in the same rounds
     (real, before, bare in turn), so a change is compared with what it replaces under the same load.
  3. Suite: the benchmark page starts a module Worker that loads Pyodide from the built site, loads numpy
     and scikit-learn, unpacks the pellucid wheel named in build-info.json into site-packages, writes
     suite.py into Pyodide's file system, imports it and measures every workload (the same definitions and
     timing as the native run), posting each result and finally the Markdown tables back to the page.
  4. --trace DIR: loads each page once more (--trace-runs N: N times, the pages in turn), cold, in a fresh
     browser with Chrome's tracing on, writes the traces to DIR/<page>-<run>.json and prints where each
     start went (medians of the runs): busy time by thread between navigation
     and Ready, and the main thread's and the worker's time by kind (script by file, style and layout,
     paint, GC, WebAssembly compiling; startup_trace.py).
With --bandwidth the server sends every file through one shared link of that speed (and --latency before
each response), so a start is also measured as a first visit over a network would see it, where what a page
downloads counts as well as what it computes.
Every request that does not go to the local server fails (and is reported).
"""

import argparse
import collections
import functools
import http.server
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from benchmarks import startup_trace  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402

SUB_PATH = "pellucid"
HERE = pathlib.Path(__file__).resolve().parent
STARTUP_TARGET = 1.0  # real site's time to Ready / bare Pyodide + numpy's, at most (issue 17)
CONTROLS_TARGET_MS = 1000  # DOMContentLoaded of index.html, under

# --- the files written next to the built site ----------------------------------------------------------

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

# The benchmark's own worker (not the site's): Pyodide + numpy + scikit-learn + the pellucid wheel + suite.py.
BENCH_WORKER = """import { loadPyodide } from "../pyodide/pyodide.mjs";

const siteRoot = new URL("../", import.meta.url);

async function text(url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`Could not load ${url} (HTTP ${response.status}).`);
  return response;
}

self.onmessage = async ({ data }) => {
  try {
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
    const suiteSource = await (await text(new URL("suite.py", import.meta.url))).text();
    pyodide.FS.mkdirTree("/bench");
    pyodide.FS.writeFile("/bench/suite.py", suiteSource);
    pyodide.runPython("import sys; sys.path.insert(0, '/bench'); import suite");
    const meta = JSON.parse(pyodide.runPython(`
import json, platform, numpy, sklearn, pellucid, pyodide
json.dumps({"python": platform.python_version(), "numpy": numpy.__version__, "sklearn": sklearn.__version__,
            "pellucid": pellucid.__version__, "pyodide": pyodide.__version__})`));
    meta.load_seconds = (performance.now() - started) / 1000;
    self.postMessage({ type: "meta", meta });
    const suite = pyodide.pyimport("suite");
    const names = suite.names().toJs();
    const only = data.only || [];
    const results = [];
    for (const name of names) {
      if (only.length && !only.some((part) => name.includes(part))) continue;
      const result = JSON.parse(pyodide.runPython(
        `import json, suite; json.dumps(suite.run_one(${JSON.stringify(name)}, ${data.repeats}))`));
      results.push(result);
      self.postMessage({ type: "result", result });
    }
    pyodide.globals.set("results_json", JSON.stringify(results));
    const tables = JSON.parse(pyodide.runPython(`
import json, suite
_results = json.loads(results_json)
json.dumps({"table": suite.table(_results), "checks": suite.checks_table(_results),
            "scaling": suite.scaling_table(_results)})`));
    self.postMessage({ type: "done", tables });
  } catch (error) {
    self.postMessage({ type: "error", message: String(error && error.message || error) });
  }
};
"""

# A bare page: Pyodide and numpy only, nothing else, showing "Ready" in a #status line as the site does.
BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide + numpy</title></head>
<body><p id="status" role="status">Loading Python…</p>
<script type="module">
const worker = new Worker("bare-worker.mjs", { type: "module" });
worker.onmessage = ({ data }) => { document.getElementById("status").textContent = data; };
</script></body></html>
"""

BARE_WORKER = """import { loadPyodide } from "../pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("../pyodide/", import.meta.url).href, packages: ["numpy"] });
pyodide.runPython("import numpy");  // numpy ready to use, as the real page's Python is
self.postMessage("Ready");
"""

# Notes when #status first reads "Ready" (performance.now(): ms since navigation started), and when it
# first read each text before (the phases of the start: "Loading Python…", "Loading pellucid…", ...).
READY_OBSERVER = """(() => {
  window.__phases = {};
  document.addEventListener("DOMContentLoaded", () => {
    const el = document.getElementById("status");
    if (!el) return;
    const check = () => {
      const text = el.textContent.trim();
      if (window.__readyAt === undefined && !(text in window.__phases)) window.__phases[text] = performance.now();
      if (window.__readyAt === undefined && text === "Ready") window.__readyAt = performance.now();
    };
    check();
    new MutationObserver(check).observe(el, { childList: true, characterData: true, subtree: true });
  });
})();
"""


class Link:
    """A network link every response shares, as a visitor's connection is shared by the files of a page:
    `mbit_per_s` in all, and `latency_ms` before each response starts (--bandwidth, --latency)."""

    CHUNK = 16 * 1024

    def __init__(self, mbit_per_s, latency_ms):
        self.bytes_per_s = mbit_per_s * 1e6 / 8
        self.latency = latency_ms / 1000
        self.lock = threading.Lock()
        self.free_at = 0.0  # when the link has sent everything queued so far

    def send(self, source, out):
        time.sleep(self.latency)
        while chunk := source.read(self.CHUNK):
            with self.lock:  # the chunk queues behind what the other responses have queued
                self.free_at = max(self.free_at, time.monotonic()) + len(chunk) / self.bytes_per_s
                wait = self.free_at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            out.write(chunk)


class CountingHandler(build.SiteHandler):
    """The site's handler, counting the files it sends whole (200 OK; a 304 to a revalidation is not a
    download) by path: a cold load that downloads a file twice has a cache that did not serve it. With a
    `link`, responses go through it (a slower network than the machine's own loopback)."""

    answered = collections.Counter()
    lock = threading.Lock()
    link = None

    def log_request(self, code="-", size="-"):
        if code == 200:
            with self.lock:
                self.answered[self.path.split("?")[0]] += 1

    def copyfile(self, source, outputfile):
        if self.link is None:
            return super().copyfile(source, outputfile)
        self.link.send(source, outputfile)


def make_counting_server(directory):
    handler = functools.partial(CountingHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)


def base_url(folder):
    """A site folder's address on the benchmark's server, without the origin."""
    return f"/{folder}/"


def write_bench_files(site):
    bench = site / "bench"
    bench.mkdir()
    (bench / "index.html").write_text(BENCH_HTML)
    (bench / "worker.mjs").write_text(BENCH_WORKER)
    (bench / "bare.html").write_text(BARE_HTML)
    (bench / "bare-worker.mjs").write_text(BARE_WORKER)
    (bench / "suite.py").write_text((HERE / "suite.py").read_text())


# --- the browser -------------------------------------------------------------------------------------

# Every host name but the local server's fails to resolve, so nothing leaves the machine. (Not by
# Playwright's request routing: routing turns the HTTP cache off, and a file asked for twice, such as
# numpy's wheel, fetched early by the worker and again by Pyodide's loadPackage, would download twice.)
OFFLINE_FLAGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


class Guard:
    """Remembers every request that leaves the local server (OFFLINE_FLAGS makes them fail); collects
    page errors."""

    def __init__(self, origin):
        self.origin, self.foreign, self.errors = origin, [], []

    def attach(self, context):
        context.on("request", self.on_request)

    def on_request(self, request):
        url = request.url
        if not url.startswith(self.origin) and not url.startswith(("data:", "blob:")):
            self.foreign.append(url)

    def watch(self, page, echo=False):
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        if echo:
            page.on("console", lambda m: m.text.startswith("bench: ") and print("  " + m.text[7:], flush=True))


VIEWPORT = {"width": 1280, "height": 800}


def _prepared(context, guard):
    guard.attach(context)
    context.add_init_script(READY_OBSERVER)
    return context


def new_context(browser, guard, service_workers="allow"):
    return _prepared(browser.new_context(viewport=VIEWPORT, service_workers=service_workers), guard)


def first_visit_context(playwright, chromium, guard, profile):
    """A browser with an empty profile of its own, as on a first visit: its HTTP cache is on disk, as a
    browser's normally is. (A new_context is a private window's, whose cache is in memory and small: a
    page that asked for Pyodide's 10 MB WebAssembly twice downloaded it twice in every such load, and in
    1 of 4 first visits.) Closing the context closes that browser."""
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=chromium, args=CHROMIUM_FLAGS + OFFLINE_FLAGS, viewport=VIEWPORT,
        service_workers="block")
    return _prepared(context, guard)


# Requests whose start is a phase of the start too: the worker's script (how soon the page starts Python)
# and Pyodide's WebAssembly (how soon the worker asks for the runtime).
WATCHED_REQUESTS = {"worker.js": "worker script requested", "bare-worker.mjs": "worker script requested",
                    "pyodide.mjs": "Pyodide's loader requested",
                    "pyodide.asm.wasm": "Pyodide's WebAssembly requested"}


def _watch_requests(page):
    """The first request of each WATCHED_REQUESTS file the page (or its worker) makes, by file name."""
    seen = {}
    page.on("request", lambda request: seen.setdefault(request.url.split("?")[0].rsplit("/", 1)[-1], request))
    return seen


def _timings(page, requests=None):
    # Polled on a timer, not on every animation frame (Playwright's default), which would keep the page's
    # main thread making frames throughout the start; the time itself is taken by READY_OBSERVER.
    page.wait_for_function("() => window.__readyAt !== undefined", polling=250, timeout=120_000)
    timings = page.evaluate("""() => ({
        ready: window.__readyAt, phases: window.__phases, origin: performance.timeOrigin,
        dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd })""")
    for name, request in (requests or {}).items():
        started = request.timing["startTime"]  # ms since the epoch, as performance.timeOrigin
        if name in WATCHED_REQUESTS and started > 0:
            timings["phases"][WATCHED_REQUESTS[name]] = started - timings["origin"]
    return timings


def build_baseline(rev, tmp):
    """The site as it was at git revision `rev`, built by that revision's own build.py into <tmp>/before/
    (sharing this tree's download and bytecode cache); its folder."""
    source = pathlib.Path(tmp) / "before-source"
    source.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    (source / ".cache").symlink_to(ROOT / ".cache")
    out = pathlib.Path(tmp) / "before" / SUB_PATH
    subprocess.run([sys.executable, "-c", "import build, pathlib, sys; build.build(out=pathlib.Path(sys.argv[1]))",
                    str(out)], cwd=source, check=True)
    return out


def startup(browser, guard, pages, runs, cold_profile=None):
    """{page: {"cold": [...], "warm": [...]}} of {"ready", "dcl"} ms, the `pages` ({key: url}) in turn;
    each cold run also notes the files the server sent more than once ("twice"). Cold runs are in a
    private window's context, or with `cold_profile` ((playwright, chromium, folder)) each in a browser
    with an empty profile of its own in a new subfolder of that folder."""
    out = {key: {"cold": [], "warm": []} for key in pages}
    for run in range(runs):
        for key, url in pages.items():
            # No service worker cold: the site registers it only after Ready, and its precaching would
            # count as files sent twice.
            if cold_profile:
                playwright, chromium, folder = cold_profile
                context = first_visit_context(playwright, chromium, guard, pathlib.Path(folder) / f"{key}-{run}")
            else:
                context = new_context(browser, guard, service_workers="block")
            page = context.new_page()
            guard.watch(page)
            requests = _watch_requests(page)
            before = collections.Counter(CountingHandler.answered)
            page.goto(url)
            timings = _timings(page, requests)
            timings["twice"] = {name: n for name, n in (CountingHandler.answered - before).items() if n > 1}
            out[key]["cold"].append(timings)
            context.close()
    contexts = {}
    for key, url in pages.items():
        contexts[key] = new_context(browser, guard)
        page = contexts[key].new_page()
        guard.watch(page)
        page.goto(url)
        _timings(page)  # the first load fills the cache; reloads are what is measured
    for _ in range(runs):
        for key in pages:
            page = contexts[key].pages[0]
            page.reload()
            out[key]["warm"].append(_timings(page))
    for context in contexts.values():
        context.close()
    return out


def trace_startup(playwright, chromium, guard, pages, folder, runs=1):
    """Each page loaded `runs` times, cold, the pages in turn, each load in a browser of its own with
    tracing on: {page: analysis}, the median of the runs' figures; the traces are written to
    <folder>/<page>-<run>.json."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    analyses = {key: [] for key in pages}
    for run in range(runs):
        for key, url in pages.items():
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS + OFFLINE_FLAGS)
            context = new_context(browser, guard, service_workers="block")
            page = context.new_page()
            guard.watch(page)
            browser.start_tracing(categories=startup_trace.CATEGORIES)
            page.goto(url)
            ready = _timings(page)["ready"]
            trace = browser.stop_tracing()
            (folder / f"{key}-{run}.json").write_bytes(trace)
            analyses[key].append(startup_trace.analyse(trace, url, ready))
            browser.close()
    return {key: startup_trace.median_analysis(loads) for key, loads in analyses.items()}


LABELS = {"real": "real site (index.html)", "before": "the baseline's site (index.html)",
          "bare": "bare Pyodide + numpy page"}


def startup_table(data):
    """Medians, and bests (the least loaded runs on a shared machine), with real / bare for each (and the
    baseline's / bare when there is one)."""
    stats = {"median": statistics.median, "best": min}
    lines = ["| measure | cold median | cold best | warm median | warm best | target | met |",
             "|---|---:|---:|---:|---:|---|:---:|"]
    of = {key: {kind: {name: {field: f(run[field] for run in runs) for field in ("ready", "dcl")}
                       for name, f in stats.items()} for kind, runs in kinds.items()} for key, kinds in data.items()}

    def cells(key, field, fmt):
        return " | ".join(fmt(of[key][kind][name][field]) for kind in ("cold", "warm") for name in stats)

    def ms(v):
        return f"{v:.0f}"

    for key in data:
        lines.append(f"| {LABELS[key]}: navigation -> \"Ready\" (ms) | {cells(key, 'ready', ms)} | | |")
    for key in [key for key in data if key != "bare"]:
        ratios = [of[key][kind][name]["ready"] / of["bare"][kind][name]["ready"]
                  for kind in ("cold", "warm") for name in stats]
        met = all(r <= STARTUP_TARGET for r in ratios)
        lines.append(f"| ratio {key} / bare | {' | '.join(f'{r:.2f}' for r in ratios)} | <= {STARTUP_TARGET} | "
                     f"{'yes' if met else 'NO'} |")
        # Each round loads the pages one after the other, so a round's own ratio shares its load.
        paired = {kind: statistics.median(mine["ready"] / bare["ready"]
                                          for mine, bare in zip(data[key][kind], data["bare"][kind]))
                  for kind in ("cold", "warm")}
        lines.append(f"| ratio {key} / bare, median of the rounds' own ratios | {paired['cold']:.2f} | | "
                     f"{paired['warm']:.2f} | | | |")
    dcl_met = all(of["real"][kind]["median"]["dcl"] < CONTROLS_TARGET_MS for kind in ("cold", "warm"))
    lines.append(f"| controls usable: index.html DOMContentLoaded (ms) | {cells('real', 'dcl', ms)} | "
                 f"< {CONTROLS_TARGET_MS} | {'yes' if dcl_met else 'NO'} |")
    return "\n".join(lines)


def phases_table(data, key="real"):
    """When a page's status line first read each text, and when its worker's script and Pyodide's
    WebAssembly were requested (cold only), in order: median ms since navigation."""
    lines = [f"| {key} page: status first reads, or request | cold (ms, median) | warm (ms, median) |",
             "|---|---:|---:|"]

    def median(kind, text):
        return statistics.median(run["phases"].get(text, math.nan) for run in data[key][kind])

    texts = sorted(data[key]["cold"][0]["phases"], key=lambda text: median("cold", text))
    for text in texts:
        lines.append(f"| {text} | {median('cold', text):.0f} | {median('warm', text):.0f} |")
    return "\n".join(lines)


def twice_line(data):
    """Which files the server sent whole more than once in a cold load, for each page (none: whatever a
    page asked for again came from its cache)."""
    parts = []
    for key, kinds in data.items():
        twice = collections.Counter()
        for run in kinds["cold"]:
            twice.update({name: 1 for name in run["twice"]})
        listed = ", ".join(f"{name} in {n} of {len(kinds['cold'])} loads" for name, n in sorted(twice.items()))
        parts.append(f"{key}: {listed or 'none'}")
    return "Files the server sent more than once in a cold load: " + "; ".join(parts) + "\n"


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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each side at least (default 5)")
    parser.add_argument("--only", nargs="*", help="run only workloads whose name contains one of these")
    parser.add_argument("--startup-runs", type=int, default=5, help="cold and warm loads of each page (default 5)")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--private-cold", action="store_true",
                        help="cold loads in a private window's context (cache in memory) instead of a new profile")
    parser.add_argument("--skip-suite", action="store_true")
    parser.add_argument("--baseline", metavar="REV",
                        help="also build the site at this git revision and time its start-up in the same rounds")
    parser.add_argument("--trace", metavar="DIR",
                        help="also load each page once with Chrome's tracing on; write the traces to DIR and "
                             "print where each start's time went")
    parser.add_argument("--trace-runs", type=int, default=1, metavar="N",
                        help="traced cold loads of each page, the pages in turn; the summary gives medians (default 1)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="build the site without compiled bytecode (to measure what it saves)")
    parser.add_argument("--bandwidth", type=float, metavar="MBIT_PER_S",
                        help="serve every file through one link of this many Mbit/s, as a visitor's network")
    parser.add_argument("--latency", type=float, default=0.0, metavar="MS",
                        help="with --bandwidth: wait this long before each response starts (default 0)")
    args = parser.parse_args(argv)
    if args.bandwidth:
        CountingHandler.link = Link(args.bandwidth, args.latency)

    from playwright.sync_api import sync_playwright
    chromium = build.find_chromium()
    if chromium is None:
        print("Chromium is not installed (Debian: apt-get install chromium).", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="pellucid-bench-") as tmp:
        site = build.build(out=pathlib.Path(tmp) / SUB_PATH, bytecode=not args.no_bytecode)
        write_bench_files(site)
        pages = {"real": base_url(SUB_PATH) + "index.html"}
        if args.baseline and (args.trace or not args.skip_startup):
            build_baseline(args.baseline, tmp)
            pages["before"] = base_url(f"before/{SUB_PATH}") + "index.html"
        pages["bare"] = base_url(SUB_PATH) + "bench/bare.html"
        server = make_counting_server(tmp)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        base = f"{origin}/{SUB_PATH}/"
        pages = {key: origin + url for key, url in pages.items()}
        guard = Guard(origin)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS + OFFLINE_FLAGS)
                print(f"Browser: Chromium {browser.version} (headless), flags {' '.join(CHROMIUM_FLAGS)}; "
                      f"load average at start {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs\n", flush=True)
                if args.bandwidth:
                    print(f"Network: every file through one {args.bandwidth:g} Mbit/s link, {args.latency:g} ms "
                          "before each response\n", flush=True)
                if not args.skip_startup:
                    profiles = None if args.private_cold else (playwright, chromium, pathlib.Path(tmp) / "profiles")
                    data = startup(browser, guard, pages, args.startup_runs, profiles)
                    cold = ("a private window (cache in memory)" if args.private_cold
                            else "a new profile (cache on disk)")
                    print(f"Cold: each load in {cold}\n")
                    phases = "\n\n".join(phases_table(data, key) for key in pages)
                    print(f"## Startup ({args.startup_runs} runs each)\n\n{startup_table(data)}\n\n{phases}\n")
                    print(twice_line(data))
                    print("raw (ms): " + json.dumps({k: {kind: [round(r['ready']) for r in runs]
                                                          for kind, runs in v.items()} for k, v in data.items()}))
                    print(flush=True)
                if args.trace:
                    traced = trace_startup(playwright, chromium, guard, pages, args.trace, args.trace_runs)
                    print(f"## Startup, traced ({args.trace_runs} cold load(s) each, medians; "
                          f"traces in {args.trace})\n\n"
                          f"{startup_trace.summary(traced)}\n", flush=True)
                if not args.skip_suite:
                    bench = run_suite(browser, guard, base, args.repeats, args.only)
                    meta = bench["meta"]
                    print(f"\nIn the browser: Pyodide {meta['pyodide']}, Python {meta['python']}, numpy "
                          f"{meta['numpy']}, scikit-learn {meta['sklearn']}, pellucid {meta['pellucid']} "
                          f"(loaded in {meta['load_seconds']:.1f} s)\n")
                    tables = bench["tables"]
                    print(f"## Suite\n\n{tables['table']}\n\n{tables['checks']}\n")
                    if any(r["group"] == "scaling" for r in bench["results"]):
                        print(f"{tables['scaling']}\n")
                    print(f"## Boundary: 200 x 200 grid predict in Pyodide\n\n{boundary_table(bench['results'])}\n")
                    print(f"load average at the end {os.getloadavg()[0]:.2f}")
                    missed = [r for r in bench["results"] if not r["met"]]
                    print(f"{len(bench['results']) - len(missed)} of {len(bench['results'])} workloads meet the "
                          f"target (ratio <= 1.0).")
                browser.close()
        finally:
            server.shutdown()
    if guard.errors:
        print(f"page errors: {guard.errors}", file=sys.stderr)
    if guard.foreign:
        print(f"requests to other hosts (they failed): {guard.foreign}", file=sys.stderr)
    return 1 if guard.errors else 0


if __name__ == "__main__":
    sys.exit(main())
