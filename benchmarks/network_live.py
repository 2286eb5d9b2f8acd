"""What watching a network learn costs its training: the same fit with the live view on and off, through
the bridge's `train` (the page's network: 32 hidden units, Adam, 400 epochs with tol 0 on the moons), its
"fit_seconds" compared.

Natively (the default) a stand-in for the page's worker parses every progress report's detail as the
worker does, so the frames are made and read as in the page. With --page the site in dist/ (build it first:
python3 build.py build) is opened in headless Chromium and the page's own worker trains, its main thread
drawing the frames as they come.

With --wide the table is instead 50,000 x 20 numeric columns and a 3-class target (benchmarks/pool.py's,
uploaded as a CSV) and the network the speed target's: 32 hidden units, Adam, batches of 200, 50 epochs
(tol 0, so every epoch runs); the page's time from the `train` call to its reply is printed as well.

Usage: python3 -m benchmarks.network_live [--repeats 3] [--page [--no-draw]] [--rows 400] [--epochs 400]
                                          [--wide]
"""

import argparse
import json
import pathlib
import statistics
import sys
import tempfile
import threading
import time
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
for path in (ROOT / "py", ROOT, ROOT / "tests"):  # tests/: the e2e fixtures' Chromium flags import from it
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

PARAMS = {"hidden_layer_sizes": [32], "solver": "adam", "tol": 0.0, "n_iter_no_change": 100_000, "random_state": 0}
WIDE = {"rows": 50_000, "epochs": 50, "params": {"batch_size": 200}}  # --wide: the speed target


def native(rows, epochs, repeats, wide=False):
    """{live: [fit seconds per repeat]}, the frames of the last live fit, and the seconds of its time spent
    making frames and sending them (a clock around just that work: a busy machine slows both sides alike)."""
    sys.modules["pellucid_host"] = types.SimpleNamespace(  # the worker's side: JSON.parse of the detail
        progress=lambda fraction, label, detail=None: detail is None or json.loads(detail))
    import pellucid.learners.network.epochs as epoch_loop
    from pellucid.bridge import Session
    from pellucid.workbench import network_live, training
    views, sending = [], []
    reported, made = epoch_loop.report, network_live.live_view

    def report(fraction, label, detail=None):
        started = time.perf_counter()
        reported(fraction, label, detail)
        if detail and "frame" in detail:
            sending.append(time.perf_counter() - started)

    def live_view(run, estimator):
        views.append(made(run, estimator))
        return views[-1]

    epoch_loop.report, training.network_live.live_view = report, live_view
    session = Session()
    if wide:
        from benchmarks.pool import make_csv
        with tempfile.TemporaryDirectory() as tmp:
            reply = session.handle("load_csv", {"path": str(make_csv(pathlib.Path(tmp) / "wide.csv", rows))})
    else:
        reply = session.handle("load_example", {"name": "moons", "n": rows})
    assert reply["ok"], reply
    args = {"table_id": reply["result"]["table_id"], "target": "label" if wide else "class", "features": None,
            "model": "MLPClassifier", "params": {**PARAMS, "max_iter": epochs, **(WIDE["params"] if wide else {})}}
    seconds = {True: [], False: []}
    for _ in range(repeats):
        for live in (False, True):  # interleaved, so a busy moment of the machine falls on both alike
            views.clear()
            sending.clear()
            reply = session.handle("train", {**args, "live": live})
            assert reply["ok"], reply
            seconds[live].append(reply["result"]["timing"]["fit_seconds"])
    return seconds, views[-1].frames, views[-1].spent + sum(sending)


TABLE_ID = "async () => (await import(new URL('js/store.js', location.href))).store.get().table.table_id"

# In the page: its worker trains (python.js), inside work.js's `run` so the page is busy and draws the frames
# (with `draw` false, outside it: the frames come and are read, but the page, not busy, draws none).
PAGE_TRAIN = """async ([args, live, draw]) => {
  const { python } = await import(new URL("js/python.js", location.href));
  const { run } = await import(new URL("js/work.js", location.href));
  let frames = 0;
  const { store } = await import(new URL("js/store.js", location.href));
  const stop = store.subscribe(["progressDetail"], (s) => { if (s.progressDetail?.frame) frames += 1; });
  const train = () => python.call("train", { ...args, live });
  const started = performance.now();
  const reply = draw ? await run("Training…", train) : await train();
  const seconds = (performance.now() - started) / 1000;
  stop();
  return [reply.timing.fit_seconds, frames, seconds];
}"""


def in_page(rows, epochs, repeats, draw=True, wide=False):
    """As `native`, in the page; with `wide`, also {live: [seconds from the train call to its reply]}."""
    from playwright.sync_api import sync_playwright

    import build
    from tests.e2e.conftest import CHROMIUM_FLAGS
    server = build.make_server(ROOT / "dist", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    seconds, calls, frames = {True: [], False: []}, {True: [], False: []}, 0
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
            browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(600_000)
            target = load_table(page, f"http://127.0.0.1:{server.server_address[1]}/", rows, wide, pathlib.Path(tmp))
            args = {"table_id": page.evaluate(TABLE_ID), "target": target, "features": None, "model": "MLPClassifier",
                    "params": {**PARAMS, "max_iter": epochs, **(WIDE["params"] if wide else {})}}
            for _ in range(repeats):
                for live in (False, True):
                    fit, sent, call = page.evaluate(PAGE_TRAIN, [args, live, draw])
                    seconds[live].append(fit)
                    calls[live].append(call)
                    frames = sent if live else frames
            browser.close()
    finally:
        server.shutdown()
    return seconds, frames, None, calls


def load_table(page, url, rows, wide, tmp):
    """Opens the page on its table (the moons, or with `wide` a 50,000 x 20 CSV uploaded); the target's name."""
    from playwright.sync_api import expect

    from benchmarks.pool import make_csv
    page.goto(url if wide else f"{url}#dataset=moons&n={rows}")
    expect(page.locator("#status")).to_have_text("Ready", timeout=120_000)
    if wide:
        page.set_input_files("#csv-file", str(make_csv(tmp / "wide.csv", rows)))
    expect(page.locator("#data-summary")).to_contain_text(f"{rows} rows", timeout=120_000)
    expect(page.locator("#status")).to_have_text("Ready", timeout=120_000)
    return "label" if wide else "class"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--epochs", type=int, default=400)
    parser.add_argument("--page", action="store_true", help="train in the built page (Pyodide) instead")
    parser.add_argument("--no-draw", action="store_true", help="in the page, send the frames but draw none")
    parser.add_argument("--wide", action="store_true", help="50,000 x 20, batches of 200, 50 epochs (see above)")
    options = parser.parse_args()
    if options.wide:
        options.rows, options.epochs = WIDE["rows"], WIDE["epochs"]
    calls = None
    if options.page:
        seconds, frames, overhead, calls = in_page(options.rows, options.epochs, options.repeats, not options.no_draw,
                                                   options.wide)
    else:
        seconds, frames, overhead = native(options.rows, options.epochs, options.repeats, options.wide)
    where = "natively (CPython)"
    if options.page:
        where = f"in the page (Pyodide, Chromium{', frames not drawn' if options.no_draw else ''})"
    table = f"{options.rows:,} x 20, 3 classes, batches of 200" if options.wide else f"moons {options.rows} rows"
    print(f"{where}: {table}, 32 hidden units, {options.epochs} epochs, {options.repeats} fits each, interleaved")
    for name, pick in (("best", min), ("median", statistics.median)):
        off, on = pick(seconds[False]), pick(seconds[True])
        print(f"  {name:6}  live view off: {off:.3f} s   on: {on:.3f} s   ratio on/off: {on / off:.3f}")
    print(f"  {frames} frames in the last live fit", end="")
    if overhead is not None:
        share = overhead / seconds[True][-1]
        print(f"; making and sending them took {overhead:.3f} s, {share:.1%} of its time", end="")
    print(f"\n  every fit, off: {', '.join(f'{s:.3f}' for s in seconds[False])}; "
          f"on: {', '.join(f'{s:.3f}' for s in seconds[True])}")
    if calls:
        print(f"  train call to reply, off: {', '.join(f'{s:.2f}' for s in calls[False])} s; "
              f"on: {', '.join(f'{s:.2f}' for s in calls[True])} s")


if __name__ == "__main__":
    main()
