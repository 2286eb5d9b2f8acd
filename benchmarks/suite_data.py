"""The suite's data, the same numbers in every runtime: scikit-learn's generators with fixed seeds, cached."""

import numpy as np

N = 20_000
N_QUERIES = 2_000
GRID = 200

_cache = {}


def _cached(key, make):
    if key not in _cache:
        _cache[key] = make()
    return _cache[key]


def classification(n=N):
    """make_classification(n, 10 features, 5 informative, 2 redundant, 3 classes, random_state=0)."""
    from sklearn.datasets import make_classification
    return _cached(("clf", n), lambda: make_classification(
        n_samples=n, n_features=10, n_informative=5, n_redundant=2, n_classes=3, random_state=0))


def workflow_table(n, categorical):
    """What the page hands logistic regression for benchmarks/workflows.py's CSV (its training rows): 20
    numeric columns on scales 0.01-10,000 standardised, then `categorical` columns of 5 words one-hot
    encoded (0/1, not scaled), 3 nearly separable classes."""
    def make():
        rng = np.random.default_rng(0)
        y = rng.integers(0, 3, n)
        X = (rng.normal(0, 1.5, (3, 20))[y] + rng.normal(0, 1, (n, 20))) * np.logspace(-2, 4, 20)
        X = (X - X.mean(axis=0)) / X.std(axis=0)
        words = [np.eye(5)[(y + rng.integers(0, 3, n)) % 5] for _ in range(categorical)]
        return np.hstack([X] + words), y
    return _cached(("workflow", n, categorical), make)


def regression(n=N):
    """make_regression(n, 10 features, random_state=0)."""
    from sklearn.datasets import make_regression
    return _cached(("reg", n), lambda: make_regression(n_samples=n, n_features=10, random_state=0))


def queries():
    """2,000 k-NN queries: the first 2,000 training rows moved by N(0, 0.1^2) noise (seed 1)."""
    X, _ = classification()
    noise = lambda: np.random.default_rng(1).normal(0.0, 0.1, size=(N_QUERIES, X.shape[1]))  # noqa: E731
    return _cached("queries", lambda: X[:N_QUERIES] + noise())  # (m, 10)


def grid_2d():
    """The first two features of the 20,000-row data and a 200 x 200 grid over their range (+5%)."""
    def make():
        X, y = classification()
        X2 = np.ascontiguousarray(X[:, :2])  # (n, 2)
        lo, hi = X2.min(axis=0), X2.max(axis=0)
        pad = 0.05 * (hi - lo)
        xs = np.linspace(lo[0] - pad[0], hi[0] + pad[0], GRID)
        ys = np.linspace(lo[1] - pad[1], hi[1] + pad[1], GRID)
        gx, gy = np.meshgrid(xs, ys)
        return X2, y, np.column_stack([gx.ravel(), gy.ravel()])  # (n, 2), (n,), (40000, 2)
    return _cached("grid", make)
