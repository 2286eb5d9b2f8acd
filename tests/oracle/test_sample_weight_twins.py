"""sample_weight means what scikit-learn means: whole-number weights give the model the rows repeated
that many times (pellucid against pellucid), and a weighted fit equals scikit-learn's twin fitted with
the same weights (Ridge / LinearRegression, LogisticRegression with class_weight multiplied in, KMeans)."""

import inspect
import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.cluster import KMeans as SKKMeans
from sklearn.cluster import kmeans_plusplus
from sklearn.datasets import load_iris, load_wine
from sklearn.linear_model import LinearRegression as SKLinearRegression
from sklearn.linear_model import LogisticRegression as SKLogisticRegression
from sklearn.linear_model import Ridge
from sklearn.preprocessing import StandardScaler
from sklearn.utils.class_weight import compute_class_weight

from pellucid import KMeans, LinearRegression, LogisticRegression
from pellucid.learners.kmeans import kmeans, kmeans_fast

WINE = StandardScaler().fit_transform(load_wine().data)[:, :5]
WINE_Y = load_wine().target
# scikit-learn counts balanced classes by their weight from 1.7 (compute_class_weight's sample_weight)
WEIGHTED_BALANCE = "sample_weight" in inspect.signature(compute_class_weight).parameters


def whole_weights(n, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.integers(1, 5, size=n).astype(float)
    return w


def repeated(w, *arrays):
    return [np.repeat(a, w.astype(int), axis=0) for a in arrays]


def regression_data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(70, 4)) * [1.0, 10.0, 0.1, 3.0] + [0.0, 5.0, -2.0, 1.0]
    return X, X @ [1.5, -0.2, 4.0, 0.3] + rng.normal(size=70)


@pytest.mark.parametrize("solver", ["normal", "gd"])
@pytest.mark.parametrize("l2", [0.0, 0.05])
@pytest.mark.parametrize("standardize", [False, True])
def test_linear_regression_whole_weights_are_the_rows_repeated(solver, l2, standardize):
    X, y = regression_data()
    w = whole_weights(len(y))
    kw = dict(solver=solver, l2=l2, standardize=standardize, learning_rate=0.3, max_iter=200_000, tol=1e-16)
    if solver == "gd" and not standardize:
        X = StandardScaler().fit_transform(X)  # gradient descent at one step size for every column
    weighted = LinearRegression(**kw).fit(X, y, sample_weight=w)
    Xr, yr = repeated(w, X, y)
    plain = LinearRegression(**kw).fit(Xr, yr)
    np.testing.assert_allclose(weighted.coef_, plain.coef_, rtol=1e-6, atol=1e-8)
    assert weighted.intercept_ == pytest.approx(plain.intercept_, rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("l2", [0.0, 0.01, 0.3])
def test_linear_regression_weighted_equals_ridge_with_the_same_weights(l2):
    X, y = regression_data(1)
    w = np.random.default_rng(1).uniform(0.0, 3.0, size=len(y))  # fractional weights, some near 0
    ours = LinearRegression(l2=l2).fit(X, y, sample_weight=w)
    twin = (Ridge(alpha=w.sum() * l2) if l2 else SKLinearRegression()).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.coef_, twin.coef_, rtol=1e-8, atol=1e-10)
    assert ours.intercept_ == pytest.approx(twin.intercept_, rel=1e-8, abs=1e-10)


def test_linear_regression_weight_zero_is_the_row_left_out():
    X, y = regression_data(2)
    w = whole_weights(len(y), 2) - 1  # weights 0..3
    ours = LinearRegression(l2=0.1).fit(X, y, sample_weight=w)
    kept = w > 0
    left_out = LinearRegression(l2=0.1).fit(X[kept], y[kept], sample_weight=w[kept])
    np.testing.assert_allclose(ours.coef_, left_out.coef_, rtol=1e-9)


CLASS_WEIGHTS = [None, "balanced", {0: 3.0, 2: 0.5}]


@pytest.mark.parametrize("solver", ["newton", "gd"])
@pytest.mark.parametrize("class_weight", CLASS_WEIGHTS, ids=["none", "balanced", "dict"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_logistic_whole_weights_are_the_rows_repeated(solver, class_weight, n_classes):
    keep = WINE_Y < n_classes
    X, y = WINE[keep], WINE_Y[keep]
    if n_classes == 2 and isinstance(class_weight, dict):
        class_weight = {0: 3.0}
    w = whole_weights(len(y), 3)
    kw = dict(l2=0.02, solver=solver, class_weight=class_weight, tol=1e-10, learning_rate=1.0,
              max_iter=100_000 if solver == "gd" else None)
    weighted = LogisticRegression(**kw).fit(X, y, sample_weight=w)
    Xr, yr = repeated(w, X, y)
    plain = LogisticRegression(**kw).fit(Xr, yr)
    np.testing.assert_allclose(weighted.class_weights_ if class_weight else 0, plain.class_weights_ if class_weight
                               else 0, rtol=1e-12)
    np.testing.assert_allclose(weighted.predict_proba(X), plain.predict_proba(X), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("class_weight", CLASS_WEIGHTS, ids=["none", "balanced", "dict"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_logistic_weighted_equals_scikit_learn_with_the_same_weights(class_weight, n_classes):
    if class_weight == "balanced" and not WEIGHTED_BALANCE:
        pytest.skip("this scikit-learn counts balanced classes by rows, not by their weight")
    keep = WINE_Y < n_classes
    X, y = WINE[keep], WINE_Y[keep]
    if n_classes == 2 and isinstance(class_weight, dict):
        class_weight = {0: 3.0}
    w = np.random.default_rng(4).uniform(0.0, 2.0, size=len(y))
    l2 = 0.02
    ours = LogisticRegression(l2=l2, class_weight=class_weight, tol=1e-10).fit(X, y, sample_weight=w)
    twin = SKLogisticRegression(C=1 / (w.sum() * l2), class_weight=class_weight, tol=1e-12, max_iter=10_000)
    twin.fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(X), twin.predict_proba(X), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(ours.predict_log_proba(X), twin.predict_log_proba(X), rtol=1e-5, atol=1e-6)


def blobs(seed=0):
    rng = np.random.default_rng(seed)
    return np.vstack([rng.normal(c, 0.6, size=(25, 2)) for c in [(0, 0), (6, 6), (0, 7), (7, 0)]])


@pytest.mark.parametrize("init", ["k-means++", "random"])
@pytest.mark.parametrize("trace", [False, True])
def test_kmeans_whole_weights_are_the_rows_repeated(init, trace):
    X = blobs()
    w = whole_weights(len(X), 5)
    weighted = KMeans(k=4, init=init, n_init=5, tol=0.0, trace=trace).fit(X, sample_weight=w)
    plain = KMeans(k=4, init=init, n_init=5, tol=0.0).fit(*repeated(w, X))
    order = lambda C: C[np.lexsort(C.T)]  # noqa: E731 (the same clusters, numbered as each run found them)
    np.testing.assert_allclose(order(weighted.cluster_centers_), order(plain.cluster_centers_), rtol=1e-10)
    assert weighted.inertia_ == pytest.approx(plain.inertia_, rel=1e-10)


@pytest.mark.parametrize("data", ["iris", "wine"])
@pytest.mark.parametrize("path", ["readable", "fast"])
def test_weighted_lloyd_equals_scikit_learn_from_the_same_centres(data, path):
    X = load_iris().data + np.random.default_rng(0).uniform(-0.005, 0.005, size=(150, 4)) if data == "iris" else WINE
    w = np.random.default_rng(6).uniform(0.1, 3.0, size=len(X))
    k = 3
    start = X[np.random.default_rng(7).choice(len(X), size=k, replace=False)]
    twin = SKKMeans(k, init=start, n_init=1, tol=0.0, max_iter=300, algorithm="lloyd").fit(X, sample_weight=w)
    MT = np.ascontiguousarray(X.T)
    x_sq = np.einsum("ij,ij->j", MT, MT)
    run = (kmeans.lloyd(MT, start.copy(), 300, 0.0, x_sq, weights=w) if path == "readable"
           else kmeans_fast.lloyd_run(MT, start.copy(), 300, 0.0, x_sq, kmeans.relocate_empty, w))
    assert np.array_equal(run["labels"], twin.labels_)
    np.testing.assert_allclose(run["centres"], twin.cluster_centers_, rtol=1e-9, atol=1e-12)
    assert run["inertia"] == pytest.approx(twin.inertia_, rel=1e-9)


def test_weighted_kmeans_fit_is_as_good_as_scikit_learns():
    X = WINE
    w = np.random.default_rng(8).uniform(0.0, 3.0, size=len(X))
    ours = KMeans(k=3, n_init=10).fit(X, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        twin = SKKMeans(3, n_init=10, random_state=0).fit(X, sample_weight=w)
    assert ours.inertia_ <= twin.inertia_ * (1 + 1e-6)
    assert ours.inertia_ == pytest.approx(-ours.score(X, sample_weight=w), rel=1e-10)
    assert twin.score(X, sample_weight=w) == pytest.approx(-twin.inertia_, rel=1e-6)


def test_weighted_seeding_favours_heavy_rows_as_scikit_learns_does():
    """k-means++ with weights, first centre: both draw row i with probability w_i / sum w, so over many
    seeds the share of draws on the heavy rows is about the same (and 0 on the rows of weight 0)."""
    X = blobs(1)
    w = np.ones(len(X))
    w[:10] = 20.0  # ten heavy rows: 200 of 290 in weight
    w[10:20] = 0.0
    ours = [kmeans.kmeans_plus_plus(X, 1, np.random.default_rng(s), weights=w)[0] for s in range(400)]
    theirs = [kmeans_plusplus(X, 1, sample_weight=w, random_state=s)[1][0] for s in range(400)]
    share = lambda picks: np.mean(np.asarray(picks) < 10)  # noqa: E731
    assert abs(share(ours) - 200 / 290) < 0.08 and abs(share(theirs) - 200 / 290) < 0.08
    assert not any(10 <= p < 20 for p in ours + theirs)
