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

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from benchmarks.workflows_csv import make_csv  # noqa: E402
from benchmarks.workflows_importance import IMPORTANCE_WORKER  # noqa: E402
from benchmarks.workflows_learner import run_learner  # noqa: E402
from benchmarks.workflows_page import model_menu, open_page, upload  # noqa: E402
from benchmarks.workflows_report import importance_report, report  # noqa: E402
from benchmarks.workflows_soak import soak  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402

SUB_PATH = "pellucid"


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
