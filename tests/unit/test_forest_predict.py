"""A forest's prediction routes every tree with what it learned of X once (the missing values, the float
matrix): its answer must be the mean of its trees' own answers, each tree reading X by itself, with and
without gaps, for forests, bagging, classifiers and regressors. The Router moves rows down in blocks:
its ends must be those of the readable routing, one level per pass, whatever the block size."""

import numpy as np
import pytest

from pellucid import BaggingClassifier, BaggingRegressor, RandomForestClassifier, RandomForestRegressor
from pellucid.learners.ensemble import routes
from pellucid.learners.tree import routing


def data(n=400, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    label = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.4, "yes", "no")
    return X, label, X[:, 0] * 2 + np.sin(X[:, 1]) + 0.1 * rng.normal(size=n)


def with_gaps(X, share, seed=1):
    X = X.copy()
    X[np.random.default_rng(seed).random(X.shape) < share] = np.nan
    return X


def tree_by_tree(forest, X):
    """The mean of the trees' answers, each tree predicting X by itself (its own read and gap search)."""
    if hasattr(forest, "classes_"):
        return np.mean([tree.predict_proba(X) for tree in forest.estimators_], axis=0)
    return np.mean([tree.predict(X) for tree in forest.estimators_], axis=0)


@pytest.mark.parametrize("make", [lambda: RandomForestClassifier(n_estimators=7, random_state=2),
                                  lambda: BaggingClassifier(n_estimators=5, random_state=3),
                                  lambda: RandomForestRegressor(n_estimators=7, max_features=0.6, random_state=2),
                                  lambda: BaggingRegressor(n_estimators=5, random_state=3)])
@pytest.mark.parametrize("train_share, query_share", [(0.0, 0.0), (0.1, 0.0), (0.1, 0.2), (0.0, 0.2)])
def test_the_forest_answers_as_its_trees_each_answering_alone(make, train_share, query_share):
    X, label, target = data()
    forest = make()
    y = label if hasattr(forest, "predict_proba") else target
    forest.fit(with_gaps(X, train_share), y)
    queries = with_gaps(data(n=300, seed=5)[0], query_share, seed=6)
    answer = forest.predict_proba(queries) if hasattr(forest, "classes_") else forest.predict(queries)
    np.testing.assert_allclose(answer, tree_by_tree(forest, queries), rtol=1e-12, atol=1e-15)
    staged = list(forest.staged_predict_proba(queries) if hasattr(forest, "classes_")
                  else forest.staged_predict(queries))
    np.testing.assert_allclose(staged[-1], answer, rtol=1e-12, atol=1e-15)


def test_an_ensemble_of_categorical_columns_answers_as_its_trees():
    rng = np.random.default_rng(4)
    X = np.empty((200, 3), dtype=object)
    X[:, 0] = rng.choice(["red", "green", "blue"], 200)
    X[:, 1] = rng.normal(size=200)
    X[:, 2] = rng.choice(["a", "b"], 200)
    y = np.where((X[:, 0] == "red") ^ (X[:, 1].astype(float) > 0), "yes", "no")
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    queries = X[:60].copy()
    queries[:5, 0] = "violet"  # a value no tree saw: its rows stop at the test of that column
    np.testing.assert_allclose(forest.predict_proba(queries), tree_by_tree(forest, queries), rtol=1e-12)


@pytest.mark.parametrize("block", [1, 7, 64, 100_000])
def test_rows_routed_in_blocks_end_where_the_levels_route_them(monkeypatch, block):
    X, _, target = data(n=600)
    forest = RandomForestRegressor(n_estimators=3, random_state=0).fit(X, target)
    monkeypatch.setattr(routing, "BLOCK_ROWS", block)
    queries = np.random.default_rng(9).normal(size=(5000, X.shape[1]))  # beyond BOX_MIN_ROWS: boxes too
    kinds = np.zeros(X.shape[1], dtype=bool)
    for tree in forest.estimators_:
        tree.tree_._router = None
        np.testing.assert_array_equal(tree.tree_.apply(queries, kinds), tree.tree_._apply_levels(queries, kinds))


def boundary_grid(columns, held, size=70):
    """size x size rows over columns 0 and 1, every other column held at its value in `held`."""
    a, b = np.meshgrid(np.linspace(-3, 3, size), np.linspace(-2, 2, size))
    grid = np.empty((size * size, columns), dtype=object)
    grid[:, 0], grid[:, 1] = a.ravel(), b.ravel()
    for j, value in held.items():
        grid[:, j] = value
    return grid


@pytest.mark.parametrize("make", [lambda: RandomForestClassifier(n_estimators=5, random_state=0),
                                  lambda: BaggingRegressor(n_estimators=4, random_state=1)])
def test_a_boundary_grid_ends_where_each_tree_routes_it_alone(make):
    X, label, target = data(n=500, d=4)
    forest = make()
    forest.fit(X, label if hasattr(forest, "predict_proba") else target)
    grid = boundary_grid(4, {2: 0.25, 3: -1.0}).astype(float)
    assert routes.held_columns(grid, np.zeros(4, dtype=bool)) == {2: 0.25, 3: -1.0}  # the held route is taken
    answer = forest.predict_proba(grid) if hasattr(forest, "classes_") else forest.predict(grid)
    np.testing.assert_allclose(answer, tree_by_tree(forest, grid), rtol=1e-12, atol=1e-15)


def test_a_grid_with_a_held_categorical_column_ends_where_each_tree_routes_it_alone():
    rng = np.random.default_rng(4)
    X = np.empty((300, 3), dtype=object)
    X[:, 0], X[:, 1] = rng.normal(size=300), rng.normal(size=300)
    X[:, 2] = rng.choice(["red", "green", "blue"], 300)
    y = np.where((X[:, 2] == "red") ^ (X[:, 0].astype(float) > 0), "yes", "no")
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    for colour in ("red", "blue", "violet"):  # violet: unseen, its rows stop at the trees' tests of it
        grid = boundary_grid(3, {2: colour})
        np.testing.assert_allclose(forest.predict_proba(grid), tree_by_tree(forest, grid), rtol=1e-12)
