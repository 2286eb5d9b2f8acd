"""Gradient boosting's histogram path (max_bins=255) natively, side by side with scikit-learn in the same run
(one thread each): the fit of 100 rounds on 50,000 x 20, classifier (two classes) and regressor, against
scikit-learn's HistGradientBoosting with the same rounds, learning rate (0.1), depth (3, so at most 8
leaves: max_leaf_nodes=8), leaf size (min_samples_leaf=1), no l2_regularization and no early stopping,
and against the exact gradient boosting, scikit-learn's and pellucid's own (max_bins=None). Both
histogram boosters bin the features inside fit, so their time counts the binning. Prints a Markdown
table of seconds (the least of --repeats fits; wall clock, and the process's CPU time, steadier on a
shared machine) with the ratio pellucid / scikit-learn (below 1: pellucid is faster).

Usage: python3 -m benchmarks.boosting_hist [--rows 50000] [--features 20] [--rounds 100] [--repeats 1]
                                           [--no-exact]
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

import numpy as np  # noqa: E402

from benchmarks.native import machine  # noqa: E402


def least_of(repeats, call):
    """(least wall seconds, least CPU seconds) of `repeats` calls."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def data(task, rows, features):
    from sklearn.datasets import make_classification, make_regression
    if task == "classification":
        return make_classification(rows, features, n_informative=features // 2, random_state=0)
    return make_regression(rows, features, n_informative=features // 2, noise=10.0, random_state=0)


def models(task, rounds, exact):
    """{name: model}: pellucid's histogram booster first, then those it is compared with."""
    import pellucid
    from sklearn import ensemble
    ours, hist, twin = ((pellucid.GradientBoostingClassifier, ensemble.HistGradientBoostingClassifier,
                         ensemble.GradientBoostingClassifier) if task == "classification" else
                        (pellucid.GradientBoostingRegressor, ensemble.HistGradientBoostingRegressor,
                         ensemble.GradientBoostingRegressor))
    chosen = {"pellucid max_bins=255": ours(n_estimators=rounds, max_bins=255),
              "scikit-learn HistGradientBoosting": hist(max_iter=rounds, learning_rate=0.1, max_depth=3,
                                                        max_leaf_nodes=8, min_samples_leaf=1, l2_regularization=0.0,
                                                        early_stopping=False, random_state=0)}
    if exact:
        chosen["scikit-learn GradientBoosting"] = twin(n_estimators=rounds, max_depth=3, random_state=0)
        chosen["pellucid max_bins=None (exact)"] = ours(n_estimators=rounds)
    return chosen


def rows_for(task, rows, features, rounds, repeats, exact):
    """The table's rows for one task: each model's fit beside pellucid's histogram booster's."""
    X, y = data(task, rows, features)
    fitted = models(task, rounds, exact)
    times = {name: least_of(repeats, lambda m=model: m.fit(X, y)) for name, model in fitted.items()}
    ours_name = next(iter(fitted))
    (wall, cpu), score = times[ours_name], fitted[ours_name].score(X, y)
    label = f"{task}, {rounds} rounds, depth 3, {rows:,} x {features}: fit"
    out = []
    for name, (their_wall, their_cpu) in list(times.items())[1:]:
        note = f"train score {score:.3f} vs {fitted[name].score(X, y):.3f}"
        out.append((f"{label}, {ours_name} vs {name}", wall, their_wall, cpu, their_cpu, note))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--no-exact", action="store_true", help="leave out the exact boosters (minutes on 50,000 rows)")
    args = parser.parse_args(argv)
    np.random.seed(0)
    print(machine(), "\n")
    print("| workload | pellucid s | other s | wall ratio | pellucid CPU s | other CPU s | CPU ratio | note |\n"
          "|---|---|---|---|---|---|---|---|")
    for task in ("classification", "regression"):
        for name, wall, their_wall, cpu, their_cpu, note in rows_for(task, args.rows, args.features, args.rounds,
                                                                     args.repeats, not args.no_exact):
            print(f"| {name} | {wall:.3f} | {their_wall:.3f} | {wall / their_wall:.2f} | {cpu:.3f} | "
                  f"{their_cpu:.3f} | {cpu / their_cpu:.2f} | {note} |", flush=True)


if __name__ == "__main__":
    main()
