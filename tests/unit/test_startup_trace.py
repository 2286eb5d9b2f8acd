"""The start-up trace summary (benchmarks/startup_trace.py) on a small hand-made Chrome trace: busy time is
the union of a thread's tasks inside navigation -> Ready, and each event's own time goes to its kind, script
to the file it runs."""

import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from benchmarks import startup_trace  # noqa: E402

URL = "http://127.0.0.1:8000/pellucid/index.html"
PAGE, OTHER = 10, 20  # process ids: the page's renderer, another renderer
MAIN, WORKER = 1, 2


def meta(pid, tid, name):
    return {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": name}}


def task(pid, tid, name, start_ms, ms, url=None):
    args = {"data": {"url": url}} if url else {}
    return {"ph": "X", "name": name, "pid": pid, "tid": tid, "ts": start_ms * 1000, "dur": ms * 1000, "args": args}


@pytest.fixture
def analysis():
    nav_ms = 1000
    events = [
        meta(PAGE, MAIN, "CrRendererMain"), meta(PAGE, WORKER, "DedicatedWorker thread"),
        meta(OTHER, MAIN, "CrRendererMain"),
        {"ph": "I", "name": "navigationStart", "pid": PAGE, "tid": MAIN, "ts": nav_ms * 1000,
         "args": {"data": {"documentLoaderURL": URL}}},
        # main thread: a task before navigation (not counted), a task evaluating main.js with a layout in it
        task(PAGE, MAIN, "RunTask", nav_ms - 50, 20),
        task(PAGE, MAIN, "RunTask", nav_ms + 10, 30),
        task(PAGE, MAIN, "EvaluateScript", nav_ms + 12, 20, url="http://127.0.0.1:8000/pellucid/js/main.js?v=1"),
        task(PAGE, MAIN, "Layout", nav_ms + 20, 5),
        # the worker: one task straddling Ready (counted up to Ready), as a B/E pair, with GC inside
        {"ph": "B", "name": "RunMicrotasks", "pid": PAGE, "tid": WORKER, "ts": (nav_ms + 100) * 1000},
        task(PAGE, WORKER, "MinorGC", nav_ms + 110, 4),
        {"ph": "E", "name": "RunMicrotasks", "pid": PAGE, "tid": WORKER, "ts": (nav_ms + 400) * 1000},
        task(OTHER, MAIN, "RunTask", nav_ms + 10, 100),
    ]
    return startup_trace.analyse(json.dumps({"traceEvents": events}).encode(), URL, ready_ms=300)


def test_busy_time_is_the_union_of_tasks_inside_the_window(analysis):
    assert analysis["threads"]["CrRendererMain"] == pytest.approx(30)
    assert analysis["threads"]["DedicatedWorker thread"] == pytest.approx(200)  # 100 -> 300 of 100 -> 400
    assert analysis["other_processes"] == {"process 20": pytest.approx(100)}


def test_own_time_by_kind_and_script_by_file(analysis):
    main = analysis["kinds"]["CrRendererMain"]
    assert main["script: main.js"] == pytest.approx(15)  # 20 less the 5 of layout inside it
    assert main["style and layout"] == pytest.approx(5)
    assert main["other"] == pytest.approx(10)  # the task's own time around the script
    worker = analysis["kinds"]["DedicatedWorker thread"]
    assert worker == {"script": pytest.approx(196), "garbage collection": pytest.approx(4)}


def test_a_trace_without_the_page_says_so():
    with pytest.raises(ValueError, match="no navigation"):
        startup_trace.analyse(b'{"traceEvents": []}', URL, ready_ms=100)


def test_the_summary_lists_each_page():
    text = startup_trace.summary({"real": {"ready_ms": 10, "threads": {"CrRendererMain": 5}, "other_processes": {},
                                           "kinds": {"CrRendererMain": {"script: main.js": 4}}},
                                  "bare": {"ready_ms": 8, "threads": {"CrRendererMain": 2}, "other_processes": {},
                                           "kinds": {}}})
    assert "| main thread | 5 | 2 |" in text
    assert "script: main.js 4" in text


def test_several_loads_are_summed_up_by_their_medians():
    def load(ready, main, gc=None):
        kinds = {"script: main.js": main} | ({"garbage collection": gc} if gc else {})
        return {"ready_ms": ready, "threads": {"CrRendererMain": main}, "other_processes": {"browser": ready / 2},
                "kinds": {"CrRendererMain": kinds}}

    merged = startup_trace.median_analysis([load(300, 40, gc=9), load(100, 10), load(200, 70)])
    assert merged["ready_ms"] == 200
    assert merged["threads"] == {"CrRendererMain": 40}
    assert merged["other_processes"] == {"browser": 100}
    # a kind one load lacks counts as nothing in that load: the median of 9, 0 and 0
    assert merged["kinds"]["CrRendererMain"] == {"script: main.js": 40, "garbage collection": 0}
    assert startup_trace.median_analysis([load(100, 10), load(200, 20)])["ready_ms"] == 150
