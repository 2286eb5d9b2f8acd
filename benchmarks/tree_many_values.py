"""Time the trees on a table with a category of hundreds of values: a fit with that column split as
categorical_split="auto" makes it (one value against the rest), as "binary" (the best set of values) and
as "multiway" (one branch per value), next to a fit without it; regression, two and three classes.

The table is tests/oracle/test_tree_many_values.py's menu: three numbers, a 6-value kind and a dish name
of --values values that carries little signal.

Usage: python3 -m benchmarks.tree_many_values [--rows 2000 20000] [--values 500] [--repeats 3]
"""

import argparse
import io
import sys
import time
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests")]

from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402
from pellucid.tabular.csvio import read_csv  # noqa: E402
from menu_table import menu_csv  # noqa: E402

SPLITS = ("auto", "binary", "multiway")


def best_seconds(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def fit_seconds(model, params, X, y, repeats):
    return best_seconds(lambda: model(**params).fit(X, y), repeats)


def run(rows_list, n_values, repeats):
    cases = (("regression", DecisionTreeRegressor, None), ("two classes", DecisionTreeClassifier, 2),
             ("three classes", DecisionTreeClassifier, 3))
    for rows in rows_list:
        for name, model, classes in cases:
            table = read_csv(io.StringIO(menu_csv(n=rows, n_dishes=n_values, classes=classes)))
            y = table.column("price")
            without = table.select(["a", "b", "c", "kind"])
            t = fit_seconds(model, {}, without, y, repeats)
            print(f"{rows:>7} {name:14} {'without the column':24} {t * 1e3:9.1f} ms", flush=True)
            used = table.select(["a", "b", "c", "kind", "dish"])
            for split in SPLITS:
                t = fit_seconds(model, {"categorical_split": split}, used, y, repeats)
                print(f"{rows:>7} {name:14} {'categorical_split=' + split:24} {t * 1e3:9.1f} ms", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--values", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    run(args.rows, args.values, args.repeats)


if __name__ == "__main__":
    main()
