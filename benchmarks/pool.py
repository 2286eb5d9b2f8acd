"""Compare learners, and a model's permutation importance, in the page's pool of workers against the page's one
worker, and what a pool worker costs.

Usage: python3 -m benchmarks.pool [--rows 50000] [--folds 5] [--workload compare|importance|tune|both|none]
                                  [--learners NAME ...] [--train NAME] [--evaluation kfold|split]

The site is built into a temporary folder and served from there; headless Chromium opens it, a table of
`rows` x 20 numeric columns and a 3-class target is uploaded, and "Compare learners" ranks every
classification learner (the kernel perceptron, whose row limit is below the table's rows, is left out, as
the page leaves it out) on k folds: with 1 worker (the page's own), then with 2 pool workers started for it
(cold: the workers start and load the table first) and again (warm: kept from the run before). Each time is
from the click to the status line settling on "Ready" (benchmarks/workflows_page.py's clock); the rankings
must agree, the times aside.

With --train NAME, Train of that learner under the same k folds (or, with --evaluation split, the page's
default held-out split) is timed too, with 1 worker and with 2 (cold, warm): with more than one, the folds
are fitted in the pool, and so are a seeded forest's or bagging ensemble's trees (its final model's; a
random forest has 100 by default), the page's worker assembling them; the Metrics tab's text must agree.
`--train RandomForestClassifier --evaluation split --workload none` times the trees alone.

Then what one more worker costs: the seconds until a new worker (web/js/worker.js, from the same snapshot)
answers its first command, the first one the page starts after its own (cold) and two more (warm: the
browser has its files and compiled code by then); the seconds it takes to load the table; and Pyodide's heap
in it after the load and in a pool worker after the comparison (the budget web/js/pool.js sizes the pool by).

The tune workload (--workload tune): Tune of a decision tree over max_depth 2, 4, 6, 8, 10 against
min_samples_leaf 1, 5, 10, 20, 50 (25 cells) in k folds, with 1 worker, then 2 pool workers cold and warm; each
time is from pressing Tune to "Ready", and the heatmap's table twins must agree.

The importance workload: k-NN trained on the same table in k folds, then its Importance view opened (permutation
importance of the 20 features, each fold's model refitted and its held-out rows shuffled) with 1 worker, then 2
pool workers cold and warm; the model is trained again before each (the page keeps a model's importance), and
each time is from opening the view to "Ready". The importances' text twins must agree.
"""

import argparse
import os
import pathlib
import platform
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
for folder in (ROOT, ROOT / "tests"):  # the e2e tests' Chromium flags, and the helpers their module imports
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import build  # noqa: E402
from benchmarks.workflows import serve_site  # noqa: E402
from benchmarks.compare_walk import settled  # noqa: E402
from benchmarks.workflows_page import READY_CLOCK  # noqa: E402
from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402

MB = 2 ** 20

# A new worker, timed in the page until its Python answers, then given the table as the pool gives it.
NEW_WORKER = """async (csvName) => {
  const { PyClient } = await import("./js/pyclient.js");
  const started = performance.now();
  const client = new PyClient(new URL("js/worker.js", location.href));
  await client.call("models");
  const ready = performance.now();
  let loaded = null, heap = null;
  if (csvName) {
    const bytes = await (await fetch(csvName)).arrayBuffer();
    const t = performance.now();
    await client.call("load_csv", { path: bytes, name: csvName }, [bytes]);
    loaded = (performance.now() - t) / 1000;
    heap = (await client.call("memory")).heap_bytes;
  }
  client.worker.terminate();
  return { ready: (ready - started) / 1000, loaded, heap };
}"""

# The heap of the pool's first worker: the pool is the page's own module, imported again by the same URL.
POOL_HEAP = """async () => {
  const { pool } = await import("./js/pool.js");
  return (await pool.workers[0].client.call("memory")).heap_bytes;
}"""


def make_csv(path, rows, columns=20, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, rows)
    X = rng.normal(0, 1.5, (3, columns))[y] + rng.normal(0, 1, (rows, columns))
    header = ",".join([f"x{j + 1}" for j in range(columns)] + ["label"])
    lines = [",".join([f"{v:.5g}" for v in row] + [f"c{label}"]) for row, label in zip(X, y)]
    path.write_text(header + "\n" + "\n".join(lines) + "\n")
    return path


def ranking(page):
    """The ranking's rows as text, the two measured times left out."""
    rows = page.locator("#leaderboard-table tbody tr")
    return [[row.locator("th").inner_text()] + row.locator("td").all_inner_texts()[:-2] for row in rows.all()]


def timed_click(page, workers, button, what):
    """Seconds from clicking `button` with `workers` workers to the status line settling; an error ends the
    benchmark, naming `what` ended on it."""
    page.fill("#leaderboard-workers", str(workers))
    clicked_at = page.evaluate("() => performance.now()")
    page.click(button)
    seconds = settled(page, clicked_at)
    if page.locator("#message").is_visible():
        raise SystemExit(f"the {what} ended on an error: {page.locator('#message').inner_text()}")
    return seconds


def compare(page, workers):
    return timed_click(page, workers, "#leaderboard-run", "comparison"), ranking(page)


def train(page, workers):
    """Seconds of Train with `workers` (under k-fold: the folds in the pool when more than one) and the
    Metrics tab's text."""
    seconds = timed_click(page, workers, "#train", "training")
    page.click("#tab-metrics")
    return seconds, page.locator("#metrics-body").inner_text()


def cancel_latency(page):
    """Seconds from pressing Cancel during a pooled comparison to every pool worker closed, as Chromium tells
    Playwright (its report comes over the DevTools connection, so this is an upper bound), and of that the
    press itself (Playwright's click, until the page has handled it)."""
    closed = []
    for worker in page.workers[1:]:
        worker.on("close", lambda gone: closed.append(time.perf_counter()))
    count = len(page.workers) - 1
    page.click("#leaderboard-run")
    page.wait_for_function("() => /learners in \\d+ workers/.test(document.getElementById('status').textContent)")
    page.wait_for_timeout(2000)  # well into the pieces
    cancel = page.get_by_role("button", name="Cancel")
    cancel.wait_for()
    pressed = time.perf_counter()
    cancel.click()
    handled = time.perf_counter()
    while len(closed) < count:
        page.wait_for_timeout(10)
    return max(closed) - pressed, handled - pressed


def importance(page, workers):
    """Seconds to open the Importance view of a k-NN trained again (k folds) with `workers` workers, and its
    text twin. The training is not timed."""
    if page.get_by_role("tab", name="Metrics").is_visible():
        page.get_by_role("tab", name="Metrics").click()
    page.select_option("#model", "KNeighborsClassifier")
    timed_click(page, workers, "#train", "training")
    page.evaluate("() => document.getElementById('importance-text').replaceChildren()")
    seconds = timed_click(page, workers, "#tab-importance", "importance")
    page.wait_for_function("() => document.querySelector('#importance-text table')")
    return seconds, page.locator("#importance-text").text_content()


TUNE_GRID = ("max_depth", "2, 4, 6, 8, 10", "min_samples_leaf", "1, 5, 10, 20, 50")


def tune(page, workers):
    """Seconds of Tune over TUNE_GRID with `workers` workers, and the heatmap's table twin as text."""
    page.evaluate("() => document.getElementById('tune-text').replaceChildren()")
    first, values, second, second_values = TUNE_GRID
    page.select_option("#tune-param-1", first)
    page.fill("#tune-values-1", values)
    page.select_option("#tune-param-2", second)
    page.fill("#tune-values-2", second_values)
    seconds = timed_click(page, workers, "#tune", "tuning")
    page.wait_for_function("() => document.querySelector('#tune-text table')")
    return seconds, page.locator("#tune-text").text_content()


def tune_workload(page, args):
    page.select_option("#model", "DecisionTreeClassifier")
    page.fill("#tune-k", str(args.folds))
    runs = one_cold_warm(page, tune, "Tune")
    report_runs(f"Tune of a decision tree, 25 cells x {args.folds} folds, {args.rows:,} x 20", runs, "heatmaps")


def one_cold_warm(page, timed, what):
    """`timed(page, workers)` with 1 worker, then 2 (cold: started for it), then 2 again (warm: kept), each
    said as it ends: [(seconds, what it showed)] in that order."""
    runs = []
    for workers, run in ((1, "1 worker"), (2, "2 workers, cold"), (2, "2 workers, warm")):
        runs.append(timed(page, workers))
        say(f"{what}, {run}: {runs[-1][0]:.1f} s")
    return runs


def importance_workload(page, args):
    runs = one_cold_warm(page, importance, "importance")
    report_runs(f"Permutation importance of k-NN, {args.rows:,} x 20, {args.folds} folds", runs, "importances")


def report_runs(title, runs, what):
    """The table of one_cold_warm's `runs` (1 worker, 2 cold, 2 warm) with their ratios to 1 worker; the
    benchmark ends if what they showed (`what`) differs."""
    (one, one_text), (cold, cold_text), (warm, warm_text) = runs
    same = one_text == cold_text == warm_text
    print(f"\n{title} ({platform.machine()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}), "
          f"{what} identical: {same}\n")
    print("| run | seconds | ratio to 1 worker |\n|---|---|---|")
    print(f"| 1 worker (the page's own) | {one:.1f} | 1 |")
    print(f"| 2 pool workers, cold (started, table loaded) | {cold:.1f} | {cold / one:.2f} |")
    print(f"| 2 pool workers, warm (kept) | {warm:.1f} | {warm / one:.2f} |\n")
    if not same:
        raise SystemExit(f"the {what} differ between 1 and 2 workers")


def say(text):
    print(text, flush=True)


def choose_learners(page, names):
    """Every learner of the task ticked, or only `names`."""
    page.click("#leaderboard-all")
    if names:
        for box in page.locator("#leaderboard-learners input").all():
            box.set_checked(box.get_attribute("value") in names)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--learners", nargs="*", default=[], help="these learners (names) instead of every one")
    parser.add_argument("--workload", choices=("compare", "importance", "tune", "both", "none"), default="both")
    parser.add_argument("--train", help="also time Train of this learner (name), 1 and 2 workers")
    parser.add_argument("--evaluation", choices=("kfold", "split"), default="kfold",
                        help="how Train and the other workloads evaluate (split: the page's held-out rows)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        url, server = serve_site(tmp)
        csv_name = f"table{args.rows}.csv"
        csv_path = make_csv(tmp / "site" / url.rstrip("/").rsplit("/", 1)[-1] / csv_name, args.rows)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_FLAGS)
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            context.add_init_script(READY_CLOCK)
            page = context.new_page()
            page.set_default_timeout(900_000)
            page.goto(url)
            page.wait_for_function("() => document.getElementById('status').textContent === 'Ready'")
            comparing = args.workload in ("compare", "both")
            starts = [page.evaluate(NEW_WORKER, None) for _ in range(3)] if comparing else None
            page.set_input_files("#csv-file", str(csv_path))
            page.wait_for_function(f"() => document.getElementById('data-summary').textContent.includes('{csv_name}')")
            page.select_option("#target", "label")
            if args.evaluation == "kfold":
                page.check('input[name="eval-method"][value="kfold"]')
                page.fill("#cv-k", str(args.folds))
            else:
                page.check('input[name="eval-method"][value="split"]')
            trained = train_workload(page, args) if args.train else None
            if comparing:
                compare_workload(page, args, csv_name, starts)
            if args.workload in ("importance", "both"):
                importance_workload(page, args)
            if args.workload == "tune":
                tune_workload(page, args)
            browser.close()
        server.shutdown()
    say_train(args, trained)


def train_workload(page, args):
    """Train of args.train with 1 worker, then 2 (cold, warm): [(seconds, metrics text)]."""
    page.select_option("#model", args.train)
    return one_cold_warm(page, train, "Train")


def compare_workload(page, args, csv_name, starts):
    say("one more worker ready in " + ", ".join(f"{start['ready']:.2f}" for start in starts) + " s")
    load = page.evaluate(NEW_WORKER, csv_name)
    say(f"the table loaded in another worker in {load['loaded']:.2f} s, its heap {load['heap'] / MB:.0f} MB")
    choose_learners(page, args.learners)
    (one, one_rows), (cold, cold_rows), (warm, warm_rows) = one_cold_warm(page, compare, "Compare")
    pool_heap = page.evaluate(POOL_HEAP)
    cancelled, press = cancel_latency(page)
    same = one_rows == cold_rows == warm_rows
    learners = len([row for row in one_rows if not row[0].startswith("Baseline")])
    print(f"\nCompare learners, {args.rows:,} x 20, {learners} classification learners x {args.folds} folds "
          f"({platform.machine()}, {os.cpu_count()} CPUs), rankings identical: {same}\n")
    print("| run | seconds |\n|---|---|")
    print(f"| 1 worker (the page's own) | {one:.1f} |")
    print(f"| 2 pool workers, cold (started, table loaded) | {cold:.1f} |")
    print(f"| 2 pool workers, warm (kept) | {warm:.1f} |")
    print(f"| Cancel pressed to every pool worker closed (of which the press: {press:.2f}) | {cancelled:.2f} |\n")
    print("| one more worker | |\n|---|---|")
    print(f"| ready (first after the page's own: cold) | {starts[0]['ready']:.2f} s |")
    print(f"| ready (warm: the next two) | {starts[1]['ready']:.2f} s, {starts[2]['ready']:.2f} s |")
    print(f"| load the table in it | {load['loaded']:.2f} s |")
    print(f"| heap after loading the table | {load['heap'] / MB:.0f} MB |")
    print(f"| heap of a pool worker after the comparison | {pool_heap / MB:.0f} MB |")
    if not same:
        raise SystemExit("the rankings differ between 1 and 2 workers")


def say_train(args, trained):
    if not trained:
        return
    same = len({text for _, text in trained}) == 1
    evaluated = f"under {args.folds}-fold" if args.evaluation == "kfold" else "with rows held out"
    print(f"\nTrain {args.train} {evaluated}, {args.rows:,} x 20, metrics identical: {same} (load average "
          f"{', '.join(f'{load:.2f}' for load in os.getloadavg())})\n")
    print("| run | seconds | ratio to 1 worker |\n|---|---|---|")
    runs = ("1 worker (the page's own)", "2 pool workers, cold", "2 pool workers, warm")
    for (seconds, _), run in zip(trained, runs):
        print(f"| {run} | {seconds:.1f} | {seconds / trained[0][0]:.2f} |")
    if not same:
        raise SystemExit("the metrics differ between 1 and 2 workers")


if __name__ == "__main__":
    main()
