"""Ensembles of trees natively, side by side with scikit-learn in the same run (one thread each): fit of a
forest of 100 trees, prediction of 50,000 rows and of a 200 x 200 grid, and the model file's export and
import; gradient boosting's fit of 100 rounds against scikit-learn's GradientBoostingClassifier and its
HistGradientBoostingClassifier. Prints a Markdown table with the ratio pellucid / scikit-learn (below 1:
pellucid is faster).

Usage: python3 -m benchmarks.ensembles [--rows 50000] [--features 20] [--trees 100] [--repeats 1]
                                       [--only forest|boosting] [--quick]

--quick: 20,000 rows and 30 trees (about a minute for the forests): enough to compare two versions.
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

import numpy as np  # noqa: E402

from benchmarks.native import machine  # noqa: E402


def best_of(repeats, call):
    """(the last result, the least seconds of `repeats` calls)."""
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - started)
    return result, min(times)


def data(task, rows, features):
    from sklearn.datasets import make_classification, make_regression
    if task == "classification":
        return make_classification(rows, features, n_informative=features // 2, n_classes=3, random_state=0)
    return make_regression(rows, features, n_informative=features // 2, noise=10.0, random_state=0)


def twins(task, trees):
    import pellucid
    from sklearn import ensemble
    if task == "classification":
        return (pellucid.RandomForestClassifier(n_estimators=trees, random_state=0),
                ensemble.RandomForestClassifier(n_estimators=trees, random_state=0, n_jobs=1))
    return (pellucid.RandomForestRegressor(n_estimators=trees, random_state=0),
            ensemble.RandomForestRegressor(n_estimators=trees, random_state=0, n_jobs=1))


def rows_for(task, rows, features, trees, repeats):
    """The table's rows for one task: fit, predict, grid predict, and the model file."""
    import pellucid
    X, y = data(task, rows, features)
    ours, theirs = twins(task, trees)
    (_, fit_p), (_, fit_s) = best_of(repeats, lambda: ours.fit(X, y)), best_of(repeats, lambda: theirs.fit(X, y))
    answer = "predict_proba" if task == "classification" else "predict"
    queries = np.random.default_rng(1).normal(size=(50_000, features))
    (_, pred_p), (_, pred_s) = (best_of(repeats, lambda m=m: getattr(m, answer)(queries)) for m in (ours, theirs))
    lattice = np.stack(np.meshgrid(np.linspace(-3, 3, 200), np.linspace(-3, 3, 200)), -1).reshape(-1, 2)
    grid = np.zeros((len(lattice), features))
    grid[:, :2] = lattice  # the boundary's plane: two features vary, the others held at 0
    (_, grid_p), (_, grid_s) = (best_of(repeats, lambda m=m: getattr(m, answer)(grid)) for m in (ours, theirs))
    text, export = best_of(repeats, lambda: json.dumps(ours.to_dict()))
    _, load = best_of(repeats, lambda: pellucid.from_dict(json.loads(text)))
    label = f"{trees}-tree forest, {task}, {rows:,} x {features}"
    score = f"train score {ours.score(X, y):.3f} vs {theirs.score(X, y):.3f}"
    return [(f"{label}: fit", fit_p, fit_s, score),
            (f"{label}: {answer} 50,000 rows", pred_p, pred_s, ""),
            (f"{label}: {answer} 200 x 200 grid", grid_p, grid_s, ""),
            (f"{label}: model file export / import", export, load, f"{len(text) / 2 ** 20:.1f} MB of JSON; "
                                                                   "second column: import")]


def boosting_rows(rows, features, rounds, repeats):
    """Gradient boosting's fit of `rounds` rounds (3 classes: 3 trees a round, depth 3) against scikit-learn's
    twin and its histogram-based booster with as many rounds."""
    import pellucid
    from sklearn import ensemble
    X, y = data("classification", rows, features)
    ours = pellucid.GradientBoostingClassifier(n_estimators=rounds)
    twin = ensemble.GradientBoostingClassifier(n_estimators=rounds, random_state=0)
    histogram = ensemble.HistGradientBoostingClassifier(max_iter=rounds, early_stopping=False, random_state=0)
    (_, p), (_, s), (_, h) = (best_of(repeats, lambda m=m: m.fit(X, y)) for m in (ours, twin, histogram))
    label = f"gradient boosting, {rounds} rounds, 3 classes, {rows:,} x {features}: fit"
    score = f"train score {ours.score(X, y):.3f} vs {twin.score(X, y):.3f} vs {histogram.score(X, y):.3f}"
    return [(f"{label} (vs GradientBoostingClassifier)", p, s, score),
            (f"{label} (vs HistGradientBoostingClassifier)", p, h, "")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--only", choices=("forest", "boosting"))
    parser.add_argument("--quick", action="store_true", help="20,000 rows and 30 trees")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.trees = 20_000, 30
    print(machine(), "\n")
    print("| workload | pellucid s | scikit-learn s | ratio | note |\n|---|---|---|---|---|")
    tables = []
    if args.only != "boosting":
        tables += [lambda task=task: rows_for(task, args.rows, args.features, args.trees, args.repeats)
                   for task in ("classification", "regression")]
    if args.only != "forest":
        tables.append(lambda: boosting_rows(args.rows, args.features, args.trees, args.repeats))
    for table in tables:
        for name, ours, theirs, note in table():
            ratio = "—" if "model file" in name else f"{ours / theirs:.2f}"
            print(f"| {name} | {ours:.3f} | {theirs:.3f} | {ratio} | {note} |", flush=True)


if __name__ == "__main__":
    main()
