"""What watching a network learn costs its training: the same fit with the live view on and off, through
the bridge's `train` (the page's network: 32 hidden units, Adam, 400 epochs with tol 0 on the moons), its
"fit_seconds" compared.

Natively (the default) a stand-in for the page's worker parses every progress report's detail as the
worker does, so the frames are made and read as in the page. With --page the site in dist/ (build it first:
python3 build.py build) is opened in headless Chromium and the page's own worker trains, its main thread
drawing the frames as they come.

Usage: python3 -m benchmarks.network_live [--repeats 3] [--page [--no-draw]] [--rows 400] [--epochs 400]
"""

import argparse
import json
import pathlib
import statistics
import sys
import threading
import time
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
for path in (ROOT / "py", ROOT, ROOT / "tests"):  # tests/: the e2e fixtures' Chromium flags import from it
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

PARAMS = {"hidden_layer_sizes": [32], "solver": "adam", "tol": 0.0, "n_iter_no_change": 100_000, "random_state": 0}


def native(rows, epochs, repeats):
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
    reply = session.handle("load_example", {"name": "moons", "n": rows})
    assert reply["ok"], reply
    args = {"table_id": reply["result"]["table_id"], "target": "class", "features": None, "model": "MLPClassifier",
            "params": {**PARAMS, "max_iter": epochs}}
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
  const reply = draw ? await run("Training…", train) : await train();
  stop();
  return [reply.timing.fit_seconds, frames];
}"""


def in_page(rows, epochs, repeats, draw=True):
    from playwright.sync_api import expect, sync_playwright

    import build
    from tests.e2e.conftest import CHROMIUM_FLAGS
    server = build.make_server(ROOT / "dist", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    seconds, frames = {True: [], False: []}, 0
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/#dataset=moons&n={rows}")
            expect(page.locator("#data-summary")).to_contain_text(f"{rows} rows", timeout=120_000)
            expect(page.locator("#status")).to_have_text("Ready", timeout=120_000)
            table_id = page.evaluate(TABLE_ID)
            args = {"table_id": table_id, "target": "class", "features": None, "model": "MLPClassifier",
                    "params": {**PARAMS, "max_iter": epochs}}
            for _ in range(repeats):
                for live in (False, True):
                    fit, sent = page.evaluate(PAGE_TRAIN, [args, live, draw])
                    seconds[live].append(fit)
                    frames = sent if live else frames
            browser.close()
    finally:
        server.shutdown()
    return seconds, frames, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--epochs", type=int, default=400)
    parser.add_argument("--page", action="store_true", help="train in the built page (Pyodide) instead")
    parser.add_argument("--no-draw", action="store_true", help="in the page, send the frames but draw none")
    options = parser.parse_args()
    if options.page:
        seconds, frames, overhead = in_page(options.rows, options.epochs, options.repeats, not options.no_draw)
    else:
        seconds, frames, overhead = native(options.rows, options.epochs, options.repeats)
    where = "natively (CPython)"
    if options.page:
        where = f"in the page (Pyodide, Chromium{', frames not drawn' if options.no_draw else ''})"
    print(f"{where}: moons {options.rows} rows, 32 hidden units, {options.epochs} epochs, {options.repeats} fits each, "
          "interleaved")
    for name, pick in (("best", min), ("median", statistics.median)):
        off, on = pick(seconds[False]), pick(seconds[True])
        print(f"  {name:6}  live view off: {off:.3f} s   on: {on:.3f} s   ratio on/off: {on / off:.3f}")
    print(f"  {frames} frames in the last live fit", end="")
    if overhead is not None:
        share = overhead / seconds[True][-1]
        print(f"; making and sending them took {overhead:.3f} s, {share:.1%} of its time", end="")
    print(f"\n  every fit, off: {', '.join(f'{s:.3f}' for s in seconds[False])}; "
          f"on: {', '.join(f'{s:.3f}' for s in seconds[True])}")


if __name__ == "__main__":
    main()
