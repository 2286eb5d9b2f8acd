"""Row weights (sample_weight): refused when they cannot mean anything, and the readable and fast paths
of every learner that takes them give the same fit with them (as tests/unit/test_fast_paths.py without)."""

import numpy as np
import pytest

from pellucid import DataError, KMeans, LinearRegression, LogisticRegression, from_dict
from pellucid.core.sample_weight import check_sample_weight
from pellucid.learners.kmeans import kmeans, kmeans_fast

SEEDS = range(6)


def _tied_matrix(rng, n, d, levels):
    """(n, d) values from a few levels, some rows duplicated: ties everywhere."""
    X = rng.integers(0, levels, size=(n, d)).astype(float) / 2.0
    X[rng.integers(0, n, size=n // 5)] = X[rng.integers(0, n, size=n // 5)]
    return X


def _weights(rng, n):
    """Whole and fractional weights, a fifth of them 0."""
    w = rng.integers(0, 4, size=n) + rng.choice([0.0, 0.5], size=n)
    w[rng.random(n) < 0.2] = 0.0
    w[0] = 1.0  # never all zero
    return w


@pytest.mark.parametrize("bad, words", [
    (-np.ones(5), "must not be negative"),
    (np.ones(4), "one number per row"),
    (np.ones((5, 1)), "one number per row"),
    ([1, 1, np.nan, 1, 1], "finite; row 2"),
    (np.zeros(5), "zero for every row"),
    (["a", "b", "c", "d", "e"], "not numbers"),
])
def test_weights_that_cannot_weigh_the_rows_are_refused_naming_sample_weight(bad, words):
    X, y = np.arange(10.0).reshape(5, 2), np.array([0, 1, 0, 1, 1])
    for model in (LinearRegression(), LogisticRegression(), KMeans(k=2)):
        with pytest.raises(DataError, match="sample_weight") as caught:
            model.fit(X, y, sample_weight=bad)
        assert words in str(caught.value)


def test_one_number_weighs_every_row_alike():
    assert np.array_equal(check_sample_weight(2, 3), [2.0, 2.0, 2.0])
    assert check_sample_weight(None, 3) is None


@pytest.mark.parametrize("seed", SEEDS)
def test_weighted_kmeans_readable_steps_equal_fast_lloyd(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(30, 300)), int(rng.integers(2, 7))
    M = _tied_matrix(rng, n, 3, levels=6) + rng.normal(scale=1e-3, size=(n, 3)) * (seed % 2)
    w = _weights(rng, n)
    MT = np.ascontiguousarray((M - M.mean(axis=0)).T)  # (d, n) centred, as KMeans.fit holds them
    x_sq = np.einsum("ij,ij->j", MT, MT)
    start = MT[:, rng.choice(n, size=k, replace=False)].T.copy()  # some on rows of weight 0: emptied clusters
    readable = kmeans.lloyd(MT, start.copy(), 300, 0.0, x_sq, trace=True, weights=w)
    fast = kmeans_fast.lloyd_run(MT, start.copy(), 300, 0.0, x_sq, kmeans.relocate_empty, w)
    assert np.array_equal(readable["labels"], fast["labels"])
    assert readable["n_iter"] == fast["n_iter"]
    np.testing.assert_allclose(readable["centres"], fast["centres"], rtol=1e-10, atol=1e-12)
    assert readable["inertia"] == pytest.approx(fast["inertia"], rel=1e-10, abs=1e-12)
    for j in np.unique(fast["labels"]):  # each centre is the weighted mean of its rows
        rows = (fast["labels"] == j) & (w > 0)
        if rows.any():
            np.testing.assert_allclose(fast["centres"][j], np.average(MT[:, rows], axis=1, weights=w[rows]),
                                       rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_weighted_kmeans_traced_fit_equals_fast_fit(seed):
    rng = np.random.default_rng(seed)
    X = _tied_matrix(rng, 120, 2, levels=8)
    w = _weights(rng, 120)
    kw = dict(k=3, n_init=2, seed=seed, tol=0.0, n_local_trials=1 + seed % 3)
    fast = KMeans(**kw).fit(X, sample_weight=w)
    traced = KMeans(trace=True, **kw).fit(X, sample_weight=w)
    assert np.array_equal(fast.labels_, traced.labels_)
    np.testing.assert_allclose(fast.cluster_centers_, traced.cluster_centers_, rtol=1e-10, atol=1e-12)
    assert fast.inertia_ == pytest.approx(traced.inertia_, rel=1e-10)
    assert fast.inertia_ == pytest.approx(-fast.score(X, sample_weight=w), rel=1e-10)


@pytest.mark.parametrize("trials", [1, 3])
def test_weighted_seeding_draws_by_weight_times_squared_distance(trials):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 2))
    w = rng.integers(0, 3, size=40).astype(float)
    w[0] = 1.0
    for seed in range(20):
        model = KMeans(k=4, trace=True, seed=seed, n_local_trials=trials).fit(X, sample_weight=w)
        seeds = [r for r in model.trace_ if r["step"] == "seed"]
        assert all(w[r["chosen"]] > 0 for r in seeds)  # a row of weight 0 is never a centre
        chosen = [seeds[0]["chosen"]]
        for record in seeds[1:]:
            d2 = ((X[:, None, :] - X[chosen][None]) ** 2).sum(axis=2).min(axis=1)  # (n,) D(x)^2
            expected = w * d2 / (w @ d2)
            np.testing.assert_allclose(expected[record["probabilities"]["rows"]], record["probabilities"]["p"],
                                       rtol=1e-8, atol=1e-12)
            if trials > 1:  # the greedy potential is weighted too
                with_each = [w @ np.minimum(d2, ((X - X[c]) ** 2).sum(axis=1)) for c in record["candidates"]]
                np.testing.assert_allclose(record["potentials"], with_each, rtol=1e-8)
            chosen.append(record["chosen"])


@pytest.mark.parametrize("seed", SEEDS)
def test_weighted_logistic_traced_fit_equals_fast_fit(seed):
    rng = np.random.default_rng(seed)
    n, K = int(rng.integers(30, 200)), 2 + seed % 3
    X = _tied_matrix(rng, n, 3, levels=5)
    y = (X[:, 0] + X[:, 1] + rng.integers(0, 2, size=n)).astype(int) % K
    w = _weights(rng, n)
    kw = dict(l2=0.05, class_weight="balanced" if seed % 2 else None)
    fast = LogisticRegression(**kw).fit(X, y, sample_weight=w)
    readable = LogisticRegression(trace=True, **kw).fit(X, y, sample_weight=w)
    assert readable.n_iter_ == fast.n_iter_
    np.testing.assert_allclose(readable.coef_, fast.coef_, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(readable.intercept_, fast.intercept_, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("l2", [0.0, 0.1])
def test_weighted_gradient_descent_reaches_the_weighted_normal_equation(l2):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 3))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(size=50)
    w = _weights(rng, 50)
    exact = LinearRegression(l2=l2).fit(X, y, sample_weight=w)
    descent = LinearRegression(solver="gd", l2=l2, learning_rate=0.2, max_iter=100_000, tol=1e-16).fit(
        X, y, sample_weight=w)
    np.testing.assert_allclose(descent.coef_, exact.coef_, rtol=1e-6, atol=1e-7)
    # the weighted least-squares fit: zero weighted residual sum and zero weighted residual-feature products
    residual = y - exact.predict(X)
    assert abs(w @ residual) < 1e-9 * w.sum()
    if l2 == 0:
        np.testing.assert_allclose(X.T @ (w * residual), 0.0, atol=1e-9)


def test_weighted_models_go_through_their_model_files():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int)
    w = _weights(rng, 60)
    for model in (LinearRegression(standardize=True).fit(X, X[:, 0] * 2, sample_weight=w),
                  LogisticRegression(l2=0.1, class_weight="balanced").fit(X, y, sample_weight=w),
                  KMeans(k=3).fit(X, sample_weight=w)):
        again = from_dict(model.to_dict())
        assert np.array_equal(again.predict(X), model.predict(X))


@pytest.mark.parametrize("task", ["classes", "values", "classes, gini, class weights"])
def test_weighted_split_costs_scored_a_few_features_at_a_time_grow_the_same_tree(task, monkeypatch):
    """The weighted split costs are scored in blocks of features (criteria_fast.feature_blocks) to bound
    their temporaries: one feature at a time must grow the very tree that all features at once grow."""
    from pellucid import DecisionTreeClassifier, DecisionTreeRegressor
    from pellucid.learners.tree import criteria_fast

    rng = np.random.default_rng(7)
    X = _tied_matrix(rng, 300, 6, 9)
    w = _weights(rng, 300)
    if task == "values":
        make, y = DecisionTreeRegressor, X[:, 0] - X[:, 1] * X[:, 2] + rng.normal(size=300)
    else:
        extra = dict(criterion="gini", class_weight="balanced") if "gini" in task else {}
        make = lambda: DecisionTreeClassifier(trace=False, **extra)  # noqa: E731
        y = (X[:, 0] + X[:, 3] > 3).astype(int) + (X[:, 1] > 3)
    trees = []
    for cells in (1, 1 << 30):
        monkeypatch.setattr(criteria_fast, "BLOCK_CELLS", cells)
        trees.append(make().fit(X, y, sample_weight=w).tree_)
    assert trees[0].node_count > 20
    for name in ("feature", "threshold", "child_start", "gain", "stats"):
        np.testing.assert_array_equal(getattr(trees[0], name), getattr(trees[1], name))
