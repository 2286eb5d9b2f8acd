"""The suite's Markdown tables: the times and ratios, what each pair computed, how each cost grows."""


def _ms(value):
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def table(results):
    """The Markdown results table."""
    lines = ["| workload | pellucid (ms) | scikit-learn (ms) | ratio (pellucid/sklearn) | target met |",
             "|---|---:|---:|---:|:---:|"]
    for r in results:
        lines.append(f"| {r['name']} | {_ms(r['pellucid_ms'])} | {_ms(r['sklearn_ms'])} | {r['ratio']:.2f} | "
                     f"{'yes' if r['met'] else 'NO'} |")
    return "\n".join(lines)


def checks_table(results):
    """What each pair computed, side by side (pellucid vs scikit-learn), and how often each was timed
    (samples, times the calls per sample when more than one)."""
    lines = ["| workload | runs | pellucid vs scikit-learn |", "|---|---:|---|"]
    lines += [f"| {r['name']} | {_runs(r)} | {r['check']} |" for r in results]
    return "\n".join(lines)


def _runs(result):
    calls = result.get("calls", 1)
    return f"{result['repeats']} x {calls}" if calls > 1 else str(result["repeats"])


def scaling_table(results):
    """How each cost grows: time at each size relative to the smallest size."""
    rows = {}
    for r in results:
        if r["group"] == "scaling":
            model, size = r["name"].removeprefix("scaling: ").rsplit(", ", 1)
            rows.setdefault(model, []).append((size, r["pellucid_ms"], r["sklearn_ms"]))
    lines = ["| model | size | pellucid (ms) | x smallest | scikit-learn (ms) | x smallest |",
             "|---|---|---:|---:|---:|---:|"]
    for model, entries in rows.items():
        p0, s0 = entries[0][1], entries[0][2]
        for size, p, s in entries:
            lines.append(f"| {model} | {size} | {_ms(p)} | {p / p0:.1f} | {_ms(s)} | {s / s0:.1f} |")
    return "\n".join(lines)
