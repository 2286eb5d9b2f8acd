"""The limits benchmark's Markdown section for benchmarks/RESULTS.md ("Browser limits")."""

import datetime
import platform

from benchmarks.limits_files import MB


def report(page_rows, training, memory, version):
    lines = ["## Browser limits", "",
             f"Measured {datetime.date.today().isoformat()} with `python3 -m benchmarks.limits` on "
             f"{platform.processor() or platform.machine()} ({platform.system()}), headless Chromium {version}.", "",
             "### Upload through the page (parse: choosing the file to the data summary showing its rows)", "",
             "| file | size | parse (s) | progress bar shown | longest frame gap (ms) |",
             "| --- | ---: | ---: | --- | ---: |"]
    for r in page_rows:
        if "error" in r:
            lines.append(f"| {r['label']} | {r['size'] / MB:.1f} MB | refused: {r['error']} | | |")
        else:
            lines.append(f"| {r['label']} | {r['size'] / MB:.1f} MB | {r['parse_s']:.2f} | "
                         f"{'yes' if r['progress'] else 'no'} | {r['max_frame_gap_ms']:.0f} |")
    if training:
        lines += ["", f"Decision tree on 100,000 x 20 (3 classes, default settings, 70/30 split): "
                      f"{training['train_s']:.1f} s from Train to the score; status line "
                      f"\"{training['status']}\", progress bar {'shown' if training['progress'] else 'not shown'}, "
                      f"longest frame gap {training['max_frame_gap_ms']:.0f} ms."]
    lines += ["", "### Reading in the worker with the limits lifted (wasm heap = Pyodide's memory afterwards)", "",
              "| file | size | rows read | read (s) | wasm heap after |", "| --- | ---: | ---: | ---: | ---: |"]
    for r in memory:
        result = f"{r['rows']:,}" if r.get("ok") else f"failed: {r.get('error', '')[:80]}"
        heap = f"{r['heap_after'] / MB:,.0f} MB" if r.get("heap_after") else "-"
        secs = f"{r['seconds']:.1f}" if r.get("seconds") else "-"
        lines.append(f"| {r['label']} | {r['size'] / MB:.1f} MB | {result} | {secs} | {heap} |")
    return "\n".join(lines)
