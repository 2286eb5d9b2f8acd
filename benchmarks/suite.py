"""How the suite times its workloads: pellucid's call and scikit-learn's alternated, the best of each kept.

The suite is four modules, which both runners use unchanged: this one (timing and running the workloads),
suite_data (the data), suite_workloads (the workloads) and suite_tables (the Markdown tables).
`benchmarks.native` imports them in CPython, `benchmarks.browser` writes them into Pyodide's file system (as
the package `benchmarks`) and imports them there. They need only numpy, scikit-learn and pellucid
(whichever copy is importable), and make their own data with scikit-learn's generators and fixed seeds, so
both runtimes time the same numbers.

Timing. For each workload the pellucid call and the scikit-learn call alternate (A, B, A, B, ...) in the
same process; each sample is timed with time.perf_counter with the garbage collector paused, and the
table reports the best (smallest) sample of each. Calls faster than BATCH_TIME / 2 are timed several in
a row per sample, enough for the faster side's sample to last BATCH_TIME (the same number of calls on
both sides; samples taken with fewer are dropped), and a sample's time is divided by its calls, so a
coarse clock (performance.now() in a browser, about 0.1 ms) does not decide a fast workload's result.
Every workload takes at least `repeats` (default 5) samples; fast ones repeat until about half a second
has been spent on them (at most 50 samples). Data preparation and, for the predict workloads, fitting
the models happen before the timing and are not counted.

Target: pellucid's time / scikit-learn's time <= 1.0 for every workload.
"""

import gc
import math
import time
import warnings

from benchmarks.suite_tables import checks_table, scaling_table, table
from benchmarks.suite_workloads import WORKLOADS, Workload, names

__all__ = ["TARGET_RATIO", "MIN_TIME", "MAX_REPEATS", "BATCH_TIME", "MAX_CALLS", "Workload", "WORKLOADS", "names",
           "measure", "run_one", "run", "table", "checks_table", "scaling_table"]

TARGET_RATIO = 1.0
MIN_TIME = 0.5  # seconds a fast workload is repeated for (at least `repeats` samples) ...
MAX_REPEATS = 50  # ... but never more samples than this
BATCH_TIME = 0.02  # seconds a sample lasts at least: faster calls are timed several to a sample ...
MAX_CALLS = 1000  # ... but never more than this many


def _timed(call, calls=1):
    """(seconds per call, the last call's result) of `calls` calls in a row."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(calls):
            result = call()
        return (time.perf_counter() - start) / calls, result
    finally:
        gc.enable()


def measure(workload, repeats=5, min_time=MIN_TIME):
    """{"name", "group", "pellucid_ms", "sklearn_ms", "ratio", "met", "repeats", "calls", "check"} for one
    workload: the best time per call of each side, over `repeats` samples of `calls` calls each (more
    while less than `min_time` seconds have been spent)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence chatter is reported by `check`, not as warnings
        p_call, s_call, check = workload.prepare()
        calls, p_times, s_times, spent = 1, [], [], 0.0
        while len(p_times) < repeats or (spent < min_time and len(p_times) < MAX_REPEATS):
            tp, p_result = _timed(p_call, calls)
            ts, s_result = _timed(s_call, calls)
            spent += (tp + ts) * calls
            faster = min(tp, ts)
            if faster * calls < BATCH_TIME / 2 and calls < MAX_CALLS:  # too short for the clock: more calls
                calls = min(MAX_CALLS, math.ceil(BATCH_TIME / max(faster, 1e-9)))  # per sample, and the
                p_times, s_times = [], []  # shorter samples are dropped
                continue
            p_times.append(tp)
            s_times.append(ts)
        try:
            note = check(p_result, s_result)
        except Exception as exc:  # a check is informative only; never lose the timing over it
            note = f"check failed: {type(exc).__name__}: {exc}"
    p_best, s_best = min(p_times) * 1e3, min(s_times) * 1e3
    ratio = p_best / s_best
    return {"name": workload.name, "group": workload.group, "pellucid_ms": p_best, "sklearn_ms": s_best,
            "ratio": ratio, "met": ratio <= TARGET_RATIO, "repeats": len(p_times), "calls": calls,
            "check": note}


def run_one(name, repeats=5):
    return measure(next(w for w in WORKLOADS if w.name == name), repeats)


def run(repeats=5, only=None, progress=None):
    """Measure every workload (or those whose name contains one of `only`), in the order defined."""
    results = []
    for workload in WORKLOADS:
        if only and not any(part in workload.name for part in only):
            continue
        result = measure(workload, repeats)
        if progress:
            progress(result)
        results.append(result)
    return results
