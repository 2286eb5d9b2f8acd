"""The perceptron, wide linear regression, Gaussian naive Bayes prediction, PCA and k-NN against
scikit-learn, one thread each, at a few sizes: each pair timed best of `--repeats`, the two interleaved
(ours, theirs, ours, ...) so that a busy machine slows both alike. Prints a Markdown table with the ratio pellucid /
scikit-learn (below 1: pellucid is faster).

Perceptron rows: "5 epochs" runs exactly five passes in both (pellucid's tol=None, scikit-learn's
tol=None), on rows where about 45% ("noisy") or 1% ("clean") of the visits are mistakes; "tol" uses
scikit-learn's stopping rule (tol=1e-3, n_iter_no_change=5) in both.

Usage: python3 -m benchmarks.speed_grid [--repeats 3] [--quick]
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

import numpy as np  # noqa: E402


def interleaved(repeats, ours, theirs, *args):
    """The least seconds of `repeats` calls of each on `args`, alternating between them."""
    best = [np.inf, np.inf]
    for _ in range(repeats):
        for k, call in enumerate((ours, theirs)):
            started = time.perf_counter()
            call(*args)
            best[k] = min(best[k], time.perf_counter() - started)
    return best


def perceptron_data(rows, noise):
    """(rows, 5) normal features, labels from a line with `noise` of them drawn at random."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(rows, 5))
    y = (X @ [1.0, -0.5, 0.25, 0.0, 2.0] + 0.1 > 0).astype(int)
    flip = rng.random(rows) < noise
    y[flip] = rng.integers(0, 2, int(flip.sum()))
    return X, y


def perceptron_rows(sizes, repeats):
    import pellucid
    from sklearn.linear_model import Perceptron
    rows = []
    for n in sizes:
        for name, noise in (("noisy", 0.9), ("clean", 0.02)):
            X, y = perceptron_data(n, noise)
            ours = pellucid.Perceptron(max_iter=5)
            theirs = Perceptron(max_iter=5, tol=None, shuffle=False)
            times = interleaved(repeats, ours.fit, theirs.fit, X, y)
            rows.append((f"Perceptron fit, 5 epochs, {name} ({ours.mistakes_[-1] / n:.0%} mistakes)",
                         f"{n:,} x 5", *times))
        X, y = perceptron_data(n, 0.2)
        ours = pellucid.Perceptron(max_iter=1000, tol=1e-3, n_iter_no_change=5)
        theirs = Perceptron(max_iter=1000, tol=1e-3, n_iter_no_change=5, shuffle=False)
        times = interleaved(repeats, ours.fit, theirs.fit, X, y)
        rows.append((f"Perceptron fit, tol=1e-3 ({ours.n_iter_} and {theirs.n_iter_} epochs)", f"{n:,} x 5",
                     *times))
    return rows


def linear_rows(shapes, repeats):
    import pellucid
    from sklearn.linear_model import LinearRegression
    rows = []
    for n, d in shapes:
        rng = np.random.default_rng(1)
        X, y = rng.normal(size=(n, d)), rng.normal(size=n)
        ours, theirs = pellucid.LinearRegression(), LinearRegression()
        times = interleaved(repeats, ours.fit, theirs.fit, X, y)
        gap = np.abs(ours.coef_ - theirs.coef_).max() / np.abs(theirs.coef_).max()
        rows.append((f"Linear regression fit, wide (coef within {gap:.0e})", f"{n:,} x {d:,}", *times))
    return rows


def naive_bayes_rows(shapes, repeats):
    import pellucid
    from sklearn.naive_bayes import GaussianNB
    rows = []
    for n, d, k in shapes:
        rng = np.random.default_rng(2)
        X = rng.normal(size=(n, d))
        y = np.digitize(X[:, 0] + rng.normal(size=n), np.linspace(-1.5, 1.5, k - 1))
        ours, theirs = pellucid.GaussianNB().fit(X, y), GaussianNB().fit(X, y)
        times = interleaved(repeats, ours.predict, theirs.predict, X)
        rows.append((f"Gaussian NB predict, {k} classes", f"{n:,} x {d}", *times))
    return rows


def pca_rows(shapes, repeats):
    import pellucid
    from sklearn.decomposition import PCA
    rows = []
    for n, d, k in shapes:
        X = np.random.default_rng(3).normal(size=(n, d))
        ours = pellucid.PCA(n_components=k)
        theirs = PCA(n_components=k, svd_solver="full")
        rows.append((f"PCA({k}) fit", f"{n:,} x {d}", *interleaved(repeats, ours.fit, theirs.fit, X)))
        rows.append((f"PCA({k}) transform", f"{n:,} x {d}",
                     *interleaved(repeats, ours.transform, theirs.transform, X)))
    return rows


def neighbours_rows(shapes, repeats):
    import pellucid
    from sklearn.neighbors import KNeighborsClassifier
    rows = []
    for n, d in shapes:
        rng = np.random.default_rng(4)
        X = rng.normal(size=(n, d))
        y = (X[:, 0] > 0).astype(int)
        times = interleaved(repeats, pellucid.KNeighborsClassifier().fit, KNeighborsClassifier().fit, X, y)
        rows.append(("k-NN fit (k = 5)", f"{n:,} x {d}", *times))
        Q = rng.normal(size=(n // 10, d))
        ours, theirs = pellucid.KNeighborsClassifier().fit(X, y), KNeighborsClassifier().fit(X, y)
        times = interleaved(repeats, ours.predict, theirs.predict, Q)
        rows.append((f"k-NN predict (k = 5), {len(Q):,} queries", f"{n:,} x {d}", *times))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the smaller sizes only")
    args = parser.parse_args()
    from threadpoolctl import threadpool_limits
    perceptron_sizes = [20_000] if args.quick else [20_000, 200_000]
    wide = [(10, 5_000)] if args.quick else [(10, 5_000), (100, 5_000), (200, 2_000)]
    nb = [(100_000, 20, 2)] if args.quick else [(100_000, 20, 2), (1_000_000, 20, 2), (1_000_000, 20, 10)]
    pca = [(10_000, 50, 10)] if args.quick else [(10_000, 50, 10), (100_000, 200, 10)]
    knn = [(10_000, 10)] if args.quick else [(10_000, 10), (100_000, 10)]
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the noisy perceptron does not converge, as intended
        rows = (perceptron_rows(perceptron_sizes, args.repeats) + linear_rows(wide, args.repeats)
                + naive_bayes_rows(nb, args.repeats) + pca_rows(pca, args.repeats)
                + neighbours_rows(knn, args.repeats))
    print("| workload | size | pellucid (s) | scikit-learn (s) | ratio |")
    print("|---|---|---|---|---|")
    for name, size, ours, theirs in rows:
        print(f"| {name} | {size} | {ours:.3f} | {theirs:.3f} | {ours / theirs:.1f} |")


if __name__ == "__main__":
    main()
