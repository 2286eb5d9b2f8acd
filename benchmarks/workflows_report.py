"""The workflow benchmarks' Markdown tables: each learner's steps against their targets, and importance."""

TRAIN_TARGET_S, EXPORT_TARGET_S, MODEL_TARGET_S, BOUNDARY_TARGET_MS = 5.0, 3.0, 3.0, 100.0


def fmt(value, unit="s", digits=2):
    return "—" if value is None else f"{value:.{digits}f} {unit}"


def draw_note(row):
    draw = row.get("boundary_draw_ms")
    return "" if draw is None else f" (draw {draw:.0f} ms)"


def report(rows, parse_s, n_rows, categorical, machine):
    lines = [f"Workflows on {n_rows:,} rows x 20 numeric + {categorical} categorical columns, 3 classes "
             f"({machine}). Times from the click to the result on screen, best of the repeats.", "",
             f"Upload: parse + profile {parse_s:.2f} s.", "",
             "| learner | Train (target 5 s) | pellucid fit | scikit-learn fit | Export predictions (3 s) "
             "| Export model (3 s) | Import model (3 s) | boundary 200x200 predicted + drawn (100 ms) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if not r.get("shown"):
            lines.append(f"| {r['name']} | {fmt(r.get('train_s'))}: {r.get('message', '')[:80]} | | | | | | |")
            continue
        sample = f" (sample of {r['sample_rows']:,} rows)" if r.get("sample_rows") else ""
        lines.append(f"| {r['name']}{sample} | {fmt(r['train_s'])} | {fmt(r.get('pellucid_fit_s'))} | "
                     f"{fmt(r.get('sklearn_fit_s')) if 'sklearn_note' not in r else r['sklearn_note']} | "
                     f"{fmt(r.get('export_predictions_s'))} ({r.get('export_bytes', 0) / 1e6:.1f} MB) | "
                     f"{fmt(r.get('export_model_s'))} ({r.get('model_bytes', 0) / 1e6:.1f} MB) | "
                     f"{fmt(r.get('import_model_s'))} | {fmt(r.get('boundary_ms'), 'ms', 0)}{draw_note(r)} |")
    return "\n".join(lines)


def importance_report(rows):
    lines = ["", "| learner | Importance view, click to bars | pellucid importance (worker) | scikit-learn "
             "permutation_importance (same Pyodide) |", "|---|---|---|---|"]
    for r in rows:
        if "importance_s" in r:
            lines.append(f"| {r['name']} | {fmt(r['importance_s'])} | {fmt(r.get('importance_pellucid_s'))} | "
                         f"{fmt(r.get('importance_sklearn_s'))} |")
    return "\n".join(lines)
