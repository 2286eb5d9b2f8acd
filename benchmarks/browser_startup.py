"""How fast the site starts: pages loaded cold and warm against a bare Pyodide page, traced, and the tables."""

import collections
import math
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import startup_trace  # noqa: E402
from benchmarks.browser_chromium import OFFLINE_FLAGS, first_visit_context, new_context  # noqa: E402
from benchmarks.browser_serve import CountingHandler  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402

STARTUP_TARGET = 1.0  # real site's time to Ready / bare Pyodide + numpy's, at most (issue 17)
CONTROLS_TARGET_MS = 1000  # DOMContentLoaded of index.html, under

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
