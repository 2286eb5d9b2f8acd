"""Where a page's start goes, from a Chrome trace of one cold load: CPU busy time by thread between
navigation and "Ready", and what each of the page's two busiest threads (the page's main thread and
Python's worker) spent it on.

Used by `python3 -m benchmarks.browser --trace DIR`, which loads each page once in a fresh browser with
tracing on, writes DIR/<page>.json (open it in Chrome's Performance panel or https://ui.perfetto.dev)
and prints `summary()`. Tracing slows a load by up to a third, so read the summary for proportions and
for what the page does that the bare page does not, not for the start-up's duration.
"""

import collections
import json

# Enough to see tasks, scripts by file, style, layout, paint, GC and WebAssembly compiling, without the
# per-call "v8" and "blink" events that would slow the load further.
CATEGORIES = ["toplevel", "disabled-by-default-devtools.timeline", "devtools.timeline", "v8.execute",
              "blink.user_timing", "v8.wasm", "disabled-by-default-v8.compile", "__metadata"]

# What an event's own time is counted as, by the first pattern its name starts with or contains.
KINDS = [
    ("garbage collection", ("MinorGC", "MajorGC", "V8.GC", "BlinkGC")),
    ("WebAssembly compile", ("wasm.", "v8.wasm")),
    ("inflating (DecompressionStream)", ("DecompressionStream",)),
    ("HTML parsing", ("ParseHTML", "HTMLDocumentParser")),
    ("style and layout", ("UpdateLayoutTree", "Layout", "LocalFrameView::performLayout", "Document::recalcStyle",
                          "Document::updateStyle", "StyleEngine", "UpdateStyleAndLayout", "InlineNode", "RecalcStyle")),
    ("paint and composite", ("Paint", "PrePaint", "Commit", "Layerize", "UpdateLayer", "Composite", "Raster")),
    ("script", ("EvaluateScript", "v8.", "V8.", "FunctionCall", "RunMicrotasks", "TimerFire", "FireAnimationFrame",
                "EventDispatch", "CustomElement", "AsyncTask Run", "BlinkScheduler_PerformMicrotaskCheckpoint")),
    ("network and loading", ("Resource", "URLLoader", "Loader", "ResponseBody", "Mojo", "mojo")),
]
SCRIPT_EVENTS_WITH_FILE = ("EvaluateScript", "v8.compileModule", "v8.compile", "FunctionCall", "v8.run")


def kind_of(name):
    for kind, patterns in KINDS:
        if any(name.startswith(p) or p in name for p in patterns):
            return kind
    return "other"


def _events(trace_bytes):
    data = json.loads(trace_bytes)
    return data["traceEvents"] if isinstance(data, dict) else data


def _file_of(event):
    args = event.get("args") or {}
    data = args.get("data") if isinstance(args.get("data"), dict) else {}
    url = data.get("url") or args.get("fileName") or ""
    return url.split("?")[0].rsplit("/", 1)[-1]


def _spans_by_thread(events):
    """{(pid, tid): [(start, end, event)]} of the complete events ("X", and "B"/"E" pairs), sorted so
    that an event comes before the events inside it."""
    spans, open_ = collections.defaultdict(list), collections.defaultdict(list)
    for e in sorted((e for e in events if e.get("ph") in ("X", "B", "E")), key=lambda e: e["ts"]):
        key = (e["pid"], e["tid"])
        if e["ph"] == "X":
            spans[key].append((e["ts"], e["ts"] + e.get("dur", 0), e))
        elif e["ph"] == "B":
            open_[key].append(e)
        elif open_[key]:
            begun = open_[key].pop()
            spans[key].append((begun["ts"], e["ts"], begun))
    for key in spans:
        spans[key].sort(key=lambda s: (s[0], -s[1]))
    return spans


class Window:
    """Navigation to Ready, in the trace's microseconds."""

    def __init__(self, start, end):
        self.start, self.end = start, end

    def clip(self, a, b):
        return max(0, min(b, self.end) - max(a, self.start))


def busy_us(spans, window):
    """Time in the window covered by at least one event (tasks nest, so their union)."""
    total, run_start, run_end = 0, None, None
    for a, b, _ in spans:
        if run_end is None or a > run_end:
            if run_end is not None:
                total += window.clip(run_start, run_end)
            run_start, run_end = a, b
        else:
            run_end = max(run_end, b)
    return total + (window.clip(run_start, run_end) if run_end is not None else 0)


def self_time_by_kind(spans, window):
    """{label: µs}: each event's own time (its duration less its children's), by kind; script's by the
    file it runs (the nearest enclosing event that names one)."""
    out, stack = collections.Counter(), []  # stack: (end, label, file)
    for a, b, event in spans:
        while stack and stack[-1][0] <= a:
            stack.pop()
        duration = window.clip(a, b)
        if stack:
            out[stack[-1][1]] -= duration
        name = event["name"]
        file = (_file_of(event) if name.startswith(SCRIPT_EVENTS_WITH_FILE) else "") or (stack[-1][2] if stack else "")
        kind = kind_of(name)
        label = f"script: {file}" if kind == "script" and file else kind
        out[label] += duration
        stack.append((b, label, file))
    return out


def _thread_names(events):
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"}


def _process_names(events):
    return {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}


def page_window(events, url, ready_ms):
    """The page's renderer process and the window from its navigation to Ready (`ready_ms` after the
    navigation, as performance.now() read it)."""
    starts = [e for e in events if e.get("name") == "navigationStart"
              and ((e.get("args") or {}).get("data") or {}).get("documentLoaderURL") == url]
    if not starts:
        raise ValueError(f"no navigation to {url} in the trace")
    nav = min(starts, key=lambda e: e["ts"])
    return nav["pid"], Window(nav["ts"], nav["ts"] + ready_ms * 1000)


def analyse(trace_bytes, url, ready_ms):
    """{"ready_ms", "threads": {name: busy ms} of the page's process, "other_processes": {name: busy ms},
    "kinds": {thread: {label: ms}} for the main thread and the worker}."""
    events = _events(trace_bytes)
    pid, window = page_window(events, url, ready_ms)
    threads, processes = _thread_names(events), _process_names(events)
    spans = _spans_by_thread(events)
    mine, others, kinds = collections.Counter(), collections.Counter(), {}
    for key, thread_spans in spans.items():
        busy = busy_us(thread_spans, window)
        name = threads.get(key, f"thread {key[1]}")
        if key[0] == pid:
            mine[name] += busy
            if name in ("CrRendererMain", "DedicatedWorker thread"):
                kinds[name] = self_time_by_kind(thread_spans, window)
        else:
            others[processes.get(key[0], f"process {key[0]}")] += busy

    def ms(counter):
        return {k: v / 1000 for k, v in counter.most_common() if v >= 500}

    return {"ready_ms": ready_ms, "threads": ms(mine), "other_processes": ms(others),
            "kinds": {name: ms(counter) for name, counter in kinds.items()}}


def median_analysis(analyses):
    """One analysis from several loads of the same page: each figure the median of the loads' (a figure
    a load lacks counts as 0)."""
    def median(values):
        values = sorted(values)
        middle = len(values) // 2
        return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2

    def merged(dicts):
        keys = {k for d in dicts for k in d}
        return dict(sorted(((k, median([d.get(k, 0) for d in dicts])) for k in keys), key=lambda kv: -kv[1]))

    threads = {t for a in analyses for t in a["kinds"]}
    return {"ready_ms": median([a["ready_ms"] for a in analyses]),
            "threads": merged([a["threads"] for a in analyses]),
            "other_processes": merged([a["other_processes"] for a in analyses]),
            "kinds": {t: merged([a["kinds"].get(t, {}) for a in analyses]) for t in threads}}


THREAD_LABELS = {"CrRendererMain": "main thread", "DedicatedWorker thread": "Python's worker",
                 "ThreadPoolForegroundWorker": "the renderer's pool (WebAssembly tier-up, script streaming)"}


def summary(results, top=12):
    """Markdown: busy ms by thread for each page side by side, then each page's main-thread and worker
    time by kind."""
    keys = list(results)
    lines = ["| busy between navigation and Ready (ms, traced) | " + " | ".join(keys) + " |",
             "|---|" + "---:|" * len(keys),
             "| navigation -> Ready | " + " | ".join(f"{results[k]['ready_ms']:.0f}" for k in keys) + " |"]
    names = sorted({n for k in keys for n in results[k]["threads"]},
                   key=lambda n: -max(results[k]["threads"].get(n, 0) for k in keys))
    for name in names[:8]:
        cells = " | ".join(f"{results[k]['threads'].get(name, 0):.0f}" for k in keys)
        lines.append(f"| {THREAD_LABELS.get(name, name)} | {cells} |")
    cells = " | ".join(f"{sum(results[k]['other_processes'].values()):.0f}" for k in keys)
    lines.append(f"| other processes (browser, GPU, Chrome's own pages) | {cells} |")
    for key in keys:
        for thread, kinds in results[key]["kinds"].items():
            listed = ", ".join(f"{label} {ms:.0f}" for label, ms in list(kinds.items())[:top])
            lines.append(f"\n{key}, {THREAD_LABELS.get(thread, thread)} by kind (ms of own time): {listed}")
    return "\n".join(lines)
