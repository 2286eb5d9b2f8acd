"""Peak memory above the data's own, pellucid against scikit-learn: each (workload, library) in a fresh
process, which makes its data, notes its resident size, runs the workload, then reads its peak resident
size (VmHWM in /proc/self/status). The difference is what the workload needed beyond the data;
scikit-learn's compiled code allocates outside Python, so tracemalloc would miss it, and the peak resident
size does not. Not getrusage's ru_maxrss: Linux carries it over from the parent's size when the child
starts, so from a parent holding large tables (the grid) every workload read the parent's size.
"k-NN predict ..., fitted first" fits before the resident size is noted and resets the peak there
(Linux's /proc/self/clear_refs), so it measures the prediction alone, the fitted model counted as data.

Usage: python3 -m benchmarks.peak_memory [--rows 1000000] [--features 20] [--only SUBSTRING ...]
"""

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# A fresh process runs `setup`, which defines X (the data) and whatever the work needs, notes its resident
# size, runs `work`, then reads its peak resident size.
CHILD = r"""
import json, os, sys
os.environ.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
sys.path[:0] = [{py!r}, {root!r}]
import numpy as np
page = os.sysconf("SC_PAGE_SIZE")
{setup}
before = int(open("/proc/self/statm").read().split()[1]) * page
{work}
peak = int(next(line for line in open("/proc/self/status") if line.startswith("VmHWM")).split()[1]) * 1024
print(json.dumps({{"above_data_mb": (peak - before) / 1e6, "data_mb": X.nbytes / 1e6}}))
"""

# Forgets the peak so far (Linux): what comes after is measured alone.
RESET_PEAK = 'open("/proc/self/clear_refs", "w").write("5")'

SETUP = r"""
n, d, library = {n}, {d}, {library!r}
rng = np.random.default_rng(0)
X = rng.normal(size=(n, d))
y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=n) > 0).astype(int)
if library == "pellucid":
    from pellucid import DecisionTreeClassifier, KNeighborsClassifier, LogisticRegression, PCA
else:
    from sklearn.tree import DecisionTreeClassifier
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.decomposition import PCA
"""

WORK = {
    "tree fit + predict": "DecisionTreeClassifier(random_state=0).fit(X, y).predict(X)",
    "logistic regression fit": "LogisticRegression().fit(X, y)",
    "PCA(10) fit + transform": "PCA(n_components=10).fit(X).transform(X)",
    "k-NN fit + predict 1,000 rows": "KNeighborsClassifier().fit(X, y).predict(X[:1000])",
    "k-NN fit": "KNeighborsClassifier().fit(X, y)",
    "k-NN predict 1,000 rows, fitted first": "model.predict(X[:1000])",
}
# The fit's own peak is forgotten before measuring the prediction.
FIRST = {"k-NN predict 1,000 rows, fitted first": "model = KNeighborsClassifier().fit(X, y)\n" + RESET_PEAK}

WORKLOADS = tuple(WORK)


def peak_above(setup, work):
    """{"above_data_mb", "data_mb"}: the peak resident size of a fresh process running `work` (Python
    source) above its size after `setup` (source that defines X, the data, and what `work` uses)."""
    code = CHILD.format(py=str(ROOT / "py"), root=str(ROOT), setup=setup, work=work)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(library, workload, n, d):
    setup = SETUP.format(n=n, d=d, library=library) + FIRST.get(workload, "")
    return peak_above(setup, WORK[workload])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--only", nargs="*", help="run only workloads whose name contains one of these")
    args = parser.parse_args()
    print(f"Peak resident memory above the data ({args.rows:,} x {args.features}, "
          f"{args.rows * args.features * 8 / 1e6:.0f} MB), fresh process each\n")
    print("| workload | pellucid MB | scikit-learn MB | ratio |")
    print("|---|---|---|---|")
    for workload in [w for w in WORKLOADS if not args.only or any(part in w for part in args.only)]:
        ours = measure("pellucid", workload, args.rows, args.features)["above_data_mb"]
        theirs = measure("sklearn", workload, args.rows, args.features)["above_data_mb"]
        print(f"| {workload} | {ours:,.0f} | {theirs:,.0f} | {ours / max(theirs, 1):.2f} |", flush=True)


if __name__ == "__main__":
    main()
