"""The --million timing: a 1,000,000-row file uploaded through the page, again and again, each in a new page."""

import os
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from benchmarks.limits_files import MB, million_csv  # noqa: E402
from benchmarks.limits_page import SUB_PATH, serve, upload_through_page  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402


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
