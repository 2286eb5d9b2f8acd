"""The grid's Markdown: a table per learner (cell, call, both times, ratio, agreement), every ratio above
the target marked, the learner's memory cell and skipped sizes under it, and a list of the misses."""

from benchmarks.suite import TARGET_RATIO


def _ratio(ratio):
    return f"**{ratio:.2f}** (> {TARGET_RATIO:g})" if ratio > TARGET_RATIO else f"{ratio:.2f}"


def _agree(row):
    if not row["agree"]:
        return ""
    return row["agree"] if row["ok"] else f"**differs**: {row['agree']}"


def _memory(memory):
    if memory is None:
        return "not measured (`--memory`)"
    if isinstance(memory, str):
        return memory
    ratio = memory["pellucid_mb"] / max(memory["sklearn_mb"], 1.0)
    mark = f"**{ratio:.2f}** (> 2)" if ratio > 2 else f"{ratio:.2f}"
    return (f"{memory['cell']}: pellucid {memory['pellucid_mb']:,.0f} MB, scikit-learn {memory['sklearn_mb']:,.0f} MB "
            f"above the data ({memory['data_mb']:,.0f} MB), ratio {mark}")


def table(entry, rows, memory=None, left_out=""):
    """`memory`: grid_memory's figures, None if not measured, or a sentence saying why not; `left_out`: the
    cells this run leaves out beside the entry's own `skipped`, and why."""
    lines = [f"### {entry.name}\n", "| cell | call | pellucid s | scikit-learn s | ratio | samples | agreement |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['cell']} | {r['call']} | {r['pellucid_s']:.4f} | {r['sklearn_s']:.4f} | "
                     f"{_ratio(r['ratio'])} | {r['samples']} | {_agree(r)} |")
    lines.append(f"\nPeak memory above the data: {_memory(memory)}.")
    if entry.skipped:
        lines.append(f"Left out: {entry.skipped}.")
    if left_out:
        lines.append(f"Left out here: {left_out}.")
    return "\n".join(lines)


def misses(rows):
    """The rows above the target, and those whose answers differ, as a Markdown list."""
    out = [f"- {r['learner']}, {r['cell']}, {r['call']}: ratio {r['ratio']:.2f}" for r in rows
           if r["ratio"] > TARGET_RATIO]
    out += [f"- {r['learner']}, {r['cell']}: answers differ ({r['agree']})" for r in rows if not r["ok"]]
    return "\n".join(out) if out else "- none"
