"""Time one network's fit against scikit-learn's, both on one thread: one hidden layer of 32 units, Adam,
batches of 200, 50 epochs on 50,000 rows of 20 columns (tol 0, so every epoch runs in both).

Usage: python3 -m benchmarks.mlp_speed [--repeats 3]
"""

import argparse
import pathlib
import sys
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

import numpy as np  # noqa: E402
from sklearn.neural_network import MLPClassifier as SkMLPClassifier  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from pellucid import MLPClassifier  # noqa: E402

PARAMS = {"hidden_layer_sizes": (32,), "solver": "adam", "batch_size": 200, "max_iter": 50, "tol": 0.0,
          "n_iter_no_change": 1000, "random_state": 0}


def seconds(make, X, y):
    start = time.perf_counter()
    make().fit(X, y)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50_000, 20))
    y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int)
    warnings.simplefilter("ignore")
    with threadpool_limits(1):
        ours = min(seconds(lambda: MLPClassifier(**PARAMS), X, y) for _ in range(repeats))
        theirs = min(seconds(lambda: SkMLPClassifier(**PARAMS), X, y) for _ in range(repeats))
    print(f"pellucid {ours:.2f} s, scikit-learn {theirs:.2f} s (best of {repeats}): ratio {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
