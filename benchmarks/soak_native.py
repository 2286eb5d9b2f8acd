"""What the bridge Session holds on to over many trainings, natively: the browser soak's steps
(benchmarks/workflows.py --soak) through `Session.handle`, with the Python memory still allocated after
each (tracemalloc, numpy's arrays included) and the high-water mark. Memory that nothing lets go of shows
as growth after the Session's KEPT_RUNS runs are reached.

Usage: python3 -m benchmarks.soak_native [--rows 20000] [--runs 20]
"""

import argparse
import gc
import pathlib
import sys
import tempfile
import tracemalloc

ROOT = pathlib.Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "py"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from benchmarks.workflows import SOAK_MODELS, make_csv  # noqa: E402
from pellucid import bridge  # noqa: E402


def ok(reply):
    assert reply["ok"], reply["error"]
    return reply["result"]


def soak(rows, runs):
    with tempfile.TemporaryDirectory() as tmp:
        session = bridge.Session()
        path = make_csv(pathlib.Path(tmp) / "table.csv", rows)
        table_id = ok(session.handle("load_csv", {"path": str(path), "name": "table.csv"}))["table_id"]
    features = [f"x{j + 1}" for j in range(20)]
    tracemalloc.start()
    for i in range(runs):
        model = SOAK_MODELS[i % len(SOAK_MODELS)]
        result = ok(session.handle("train", {"table_id": table_id, "target": "label", "features": features,
                                             "model": model}))
        if i == 2:  # as in the browser soak: the model exported and imported back
            text = ok(session.handle("export_model", {"model_id": result["model_id"]}))["json"]
            ok(session.handle("import_model", {"json": text}))
        gc.collect()
        held, peak = tracemalloc.get_traced_memory()
        print(f"{i + 1:2d} {model:24s} held {held / 2 ** 20:6.1f} MB, high-water {peak / 2 ** 20:6.1f} MB, "
              f"runs kept {len(session.runs)}", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    soak(args.rows, args.runs)


if __name__ == "__main__":
    main()
