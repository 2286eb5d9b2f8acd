"""The grid's data: numpy's generator with a fixed seed, one kind of table per kind of learner.

Every kind has a signal in its first columns and noise, so a learner has something to find and the two
libraries' scores can be compared: "classes" (three classes cut from a noisy score at its tertiles),
"values" (the same score as a number), "counts" (Poisson counts, for multinomial naive Bayes), "categories"
(integer codes 0-4, for categorical naive Bayes) and "clusters" (three Gaussian blobs, k-means' default k,
so both libraries find the same minimum rather than one of several). Made with numpy alone rather than
scikit-learn's generators, so a million rows take a fraction of a second.
"""

import functools

import numpy as np

KINDS = ("classes", "values", "counts", "categories", "clusters")
CATEGORIES = 5  # codes per column of the "categories" kind
CLUSTERS = 3  # blobs in the "clusters" kind
QUERY_ROWS = 1_000  # rows a neighbours search answers (see grid.py)


def _features(kind, rng, rows, features):
    if kind == "categories":
        return rng.integers(0, CATEGORIES, (rows, features))
    if kind == "counts":
        return rng.poisson(2.0, (rows, features)).astype(float)
    if kind == "clusters":
        centres = rng.normal(0.0, 4.0, (CLUSTERS, features))
        return centres[rng.integers(0, CLUSTERS, rows)] + rng.normal(size=(rows, features))
    return rng.normal(size=(rows, features))


def _target(kind, rng, X):
    """A noisy score of the first three columns (and one interaction), as classes or as values."""
    first = X[:, :3].astype(float) - X[:, :3].mean(axis=0)
    weights = np.array([1.0, -0.7, 0.4])[:first.shape[1]]
    score = first @ weights + 0.3 * first[:, 0] * first[:, -1] + 0.5 * rng.normal(size=len(X))
    if kind == "values":
        return score
    return np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))


@functools.lru_cache(maxsize=3)  # learners share tables; three keep a million-row cell's between learners
def table(kind, rows, features, seed=0):
    """(X, y) of `rows` x `features` of `kind`, the same for a given seed. Treat them as read-only."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; one of {KINDS}")
    rng = np.random.default_rng(seed)
    X = _features(kind, rng, rows, features)
    return X, _target("values" if kind == "values" else "classes", rng, X)


def queries(kind, features):
    """Rows to predict for a learner whose prediction grows with the training rows: new rows of the kind."""
    return table(kind, QUERY_ROWS, features, seed=1)
