"""Time reading text (categorical) columns at fit and predict time: check_X on the workflow table's five
text columns (words red/green/blue/amber/violet, as benchmarks/workflows.py's CSV with --categorical 5),
as a Table and as an object array, and a logistic regression's predict on the whole table (its text
columns read again, then one-hot encoded).

Usage: python3 -m benchmarks.text_columns [--rows 35000 50000] [--repeats 5] [--only SUBSTRING ...]
                                          [--site DIR]

`--site DIR` runs the same workloads in Pyodide under Node, with the wheel and runtime of a site built
into DIR (build.py's `build(out=DIR)`; tests/pyodide_run.mjs), as the page's worker runs them.
"""

import argparse
import ast
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]

# Self-contained (numpy and pellucid only), so the same text runs natively and in Pyodide; the table is
# made by workflows_csv.py's own make_csv, whose text is put in (workflows.py itself needs a browser).
WORKLOADS = '''
import io, pathlib, tempfile, time
import numpy as np
from pellucid.core.validation import check_X
from pellucid.learners.logistic.logistic import LogisticRegression
from pellucid.tabular.csvio import read_csv


def workflow_csv(rows):
    """The text of benchmarks/workflows.py's CSV with 5 categorical columns (`make_csv`, put in below)."""
    path = pathlib.Path(tempfile.mkdtemp()) / "table.csv"
    return make_csv(path, rows, categorical=5).read_text()


def best_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def run(rows_list, repeats, only):
    for rows in rows_list:
        table = read_csv(io.StringIO(workflow_csv(rows)))
        features = [c for c in table.columns if c != "label"]
        text = table.select([c for c in features if c.startswith("c")])
        as_array = np.column_stack([text.column(c) for c in text.columns])  # (n, 5) object
        model = LogisticRegression().fit(table.select(features), table.column("label"))
        workloads = {"check_X table 5 text": lambda: check_X(text),
                     "check_X array 5 text": lambda: check_X(as_array),
                     "check_X table 25 columns": lambda: check_X(table.select(features)),
                     "logistic predict": lambda: model.predict(table.select(features))}
        for name, fn in workloads.items():
            if not only or any(s.lower() in name.lower() for s in only):
                print(f"{rows:>7} {name:28} {best_ms(fn, repeats):9.1f} ms", flush=True)
'''


def make_csv_source():
    """The source of benchmarks/workflows_csv.py's make_csv, read without importing that module."""
    source = (ROOT / "benchmarks" / "workflows_csv.py").read_text()
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == "make_csv")
    return ast.get_source_segment(source, node) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[35000, 50000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--site", help="a built site: run in Pyodide under Node instead")
    args = parser.parse_args()
    workloads = WORKLOADS + make_csv_source()
    call = ("\nimport warnings\nwarnings.simplefilter('ignore')\n"
            f"run({args.rows!r}, {args.repeats}, {args.only!r})\n")
    print(f"{'rows':>7} {'workload':28} {'best':>12}  ({'Pyodide' if args.site else 'native'})")
    if args.site:
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
            script.write(workloads + call)
        subprocess.run(["node", str(ROOT / "tests" / "pyodide_run.mjs"), args.site, script.name], check=True)
    else:
        sys.path.insert(0, str(ROOT / "py"))
        exec(workloads + call, {})


if __name__ == "__main__":
    main()
