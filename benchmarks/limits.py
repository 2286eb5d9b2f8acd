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

This module is the command line; the rest is in limits_files (the CSVs), limits_page (step 2), limits_memory
(step 3), limits_million (--million) and limits_report (the Markdown section).
"""

import argparse
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from benchmarks.limits_files import MB, NARROW_ROWS, TALL_ROWS, WIDE_ROWS, narrow_csv, tall_csv, wide_csv  # noqa: E402
from benchmarks.limits_memory import HELPER_HTML, HELPER_WORKER, measure_memory  # noqa: E402
from benchmarks.limits_million import measure_million  # noqa: E402
from benchmarks.limits_page import SUB_PATH, serve, train_through_page, upload_through_page  # noqa: E402
from benchmarks.limits_report import report  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402


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


if __name__ == "__main__":
    main()
