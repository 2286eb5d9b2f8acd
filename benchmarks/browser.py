"""Run the benchmark suite inside Pyodide in headless Chromium, and time how fast the site starts.

Usage: python3 -m benchmarks.browser [--repeats 5] [--only SUBSTRING ...] [--startup-runs 5]
                                     [--skip-startup] [--skip-suite] [--baseline REV] [--trace DIR
                                     [--trace-runs N]] [--bandwidth MBIT_PER_S [--latency MS]]
       python3 -m benchmarks.browser --grid [--quick] [--only LEARNER ...]

What it does:
  1. Builds the site into a temporary folder (build.build), adds a benchmark page, its own Web Worker, a
     bare Pyodide + numpy page and the suite's modules under <site>/bench/, and serves it all (build.py's
     handler, counting the files it sends).
  2. Startup: opens the real site (index.html) and the bare page, alternately, and records the time from
     navigation to the status line reading "Ready" (a MutationObserver notes performance.now() when it
     changes) and to DOMContentLoaded; cold = a first visit, a browser with a new empty profile each run
     (--private-cold: a new private context), warm = a reload in the same context; the medians of
     --startup-runs runs each are reported, with real / bare. With
     --baseline REV the site as it was at git revision REV is built too and timed in the same rounds
     (real, before, bare in turn), so a change is compared with what it replaces under the same load.
  3. Suite: the benchmark page starts a module Worker that loads Pyodide from the built site, loads numpy
     and scikit-learn, unpacks the pellucid wheel named in build-info.json into site-packages, writes
     the suite's modules into Pyodide's file system, imports them and measures every workload (the same
     definitions and timing as the native run), posting each result and finally the Markdown tables back to
     the page.
  4. --trace DIR: loads each page once more (--trace-runs N: N times, the pages in turn), cold, in a fresh
     browser with Chrome's tracing on, writes the traces to DIR/<page>-<run>.json and prints where each
     start went (medians of the runs): busy time by thread between navigation
     and Ready, and the main thread's and the worker's time by kind (script by file, style and layout,
     paint, GC, WebAssembly compiling; startup_trace.py).
  5. --grid, instead of 2-4: the grid (grid.py) in Pyodide, the cells the page accepts (grid.page_cells),
     timed, checked and reported as `native --grid` does them (browser_grid); --quick: tiny cells.
With --bandwidth the server sends every file through one shared link of that speed (and --latency before
each response), so a start is also measured as a first visit over a network would see it, where what a page
downloads counts as well as what it computes.
Every request that does not go to the local server fails (and is reported).

This module is the command line; the rest is in browser_build (the sites), browser_serve (serving them),
browser_chromium (the browser), browser_startup (step 2 and 4), browser_suite (step 3) and browser_grid
(step 5).
"""

import argparse
import json
import os
import pathlib
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from benchmarks import startup_trace  # noqa: E402
from benchmarks.browser_build import SUB_PATH, base_url, build_baseline, write_bench_files  # noqa: E402
from benchmarks.browser_chromium import OFFLINE_FLAGS, Guard  # noqa: E402
from benchmarks.browser_grid import run_grid  # noqa: E402
from benchmarks.browser_serve import CountingHandler, Link, make_counting_server  # noqa: E402
from benchmarks.browser_startup import phases_table, startup, startup_table, trace_startup, twice_line  # noqa: E402
from benchmarks.browser_suite import boundary_table, run_suite  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402


def _grid(browser, guard, base, args):
    started = time.perf_counter()
    bench = run_grid(browser, guard, base, args.quick, args.only, out=lambda text: print(text, flush=True))
    meta = bench["meta"]
    print(f"{bench['closing']}\n")
    print(f"In the browser: Pyodide {meta['pyodide']}, Python {meta['python']}, numpy {meta['numpy']}, "
          f"scikit-learn {meta['sklearn']}, pellucid {meta['pellucid']} (loaded in {meta['load_seconds']:.1f} s); "
          f"the page open {time.perf_counter() - started:.0f} s; load average at the end "
          f"{os.getloadavg()[0]:.2f}", flush=True)


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
    parser.add_argument("--grid", action="store_true",
                        help="run the grid (grid.py) in Pyodide instead, the sizes the page accepts; --only then "
                             "names learners")
    parser.add_argument("--quick", action="store_true", help="with --grid: tiny cells, a smoke run")
    args = parser.parse_args(argv)
    if args.grid:
        args.skip_startup, args.skip_suite, args.trace = True, True, None
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
                if args.grid:
                    _grid(browser, guard, base, args)
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
