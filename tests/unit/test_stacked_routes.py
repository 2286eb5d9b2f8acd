"""A boosted model routes all its trees together (ensemble/stacked_routes.py): every (tree, row) pair must end
in the node the tree's own `apply` gives the row, whatever the trees' depths, the block size or the number
of features, and the model's prediction must equal, to the last bit, the round-by-round sums its staged
answers make (which route tree by tree). Categorical tests and missing values take the trees' own routes."""

import json
import pickle

import numpy as np
import pytest

import pellucid
from pellucid import (AdaBoostClassifier, DecisionTreeRegressor, GradientBoostingClassifier, GradientBoostingRegressor,
                      RandomForestRegressor)
from pellucid.learners.ensemble import leaf_masks, stacked_routes
from pellucid.learners.ensemble.stacked_routes import StackedTrees, stacks


def table(n=300, d=6, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[:, -1] = np.round(X[:, -1])  # a column of few values: ties at the thresholds
    target = X[:, 0] - X[:, 1] ** 2 + 0.3 * rng.normal(size=n)
    label = np.digitize(target, [-1.0, 0.0])  # three classes
    return X, target, label


def own_ends(trees, X):
    """(T, n) each tree's own apply, shifted to ids in the stacked array."""
    starts = np.cumsum([0] + [tree.tree_.node_count for tree in trees[:-1]])
    return np.array([start + tree.tree_.apply(X, np.zeros(X.shape[1], bool)) for start, tree in zip(starts, trees)])


@pytest.mark.parametrize("depth", [1, 3, 6, None])
def test_every_pair_ends_where_the_tree_alone_sends_the_row(depth):
    X, target, _ = table()
    trees = [DecisionTreeRegressor(max_depth=depth, random_state=seed, max_features=0.5, trace=False)
             .fit(X[seed::2], target[seed::2]) for seed in range(2)]
    trees.append(DecisionTreeRegressor(trace=False).fit(X[:5], np.ones(5)))  # one leaf: the root
    stacked = StackedTrees([tree.tree_ for tree in trees])
    query = np.random.default_rng(5).normal(size=(500, X.shape[1])) * 2
    query[:40] = X[:40]  # values at the thresholds
    query[0, 0] = np.inf
    ends = stacked.apply(query, slice(0, len(query)))
    assert ends.shape == (3, 500)
    np.testing.assert_array_equal(ends, own_ends(trees, query))


def test_trees_testing_features_past_the_64th_are_routed_alike():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 90))
    target = X[:, 70] + X[:, 85]
    trees = [DecisionTreeRegressor(max_depth=4, trace=False).fit(X, target)]
    assert (trees[0].tree_.feature >= 64).any()
    np.testing.assert_array_equal(StackedTrees([trees[0].tree_]).apply(X, slice(0, 200)), own_ends(trees, X))


def make_boosted(kind, **settings):
    X, target, label = table()
    if kind == "regressor":
        return GradientBoostingRegressor(n_estimators=15, **settings).fit(X, target), X
    if kind == "binary":
        return GradientBoostingClassifier(n_estimators=15, **settings).fit(X, label > 0), X
    return GradientBoostingClassifier(n_estimators=15, **settings).fit(X, label), X


def staged_last(model, X):
    """The raw answer the round-by-round sums make (every tree routed by itself)."""
    *_, last = model._staged_raw(X, staged=True)
    return last


@pytest.mark.parametrize("kind", ["regressor", "binary", "three classes"])
@pytest.mark.parametrize("block_pairs", [1, 7, 1 << 17])
def test_the_boosted_answer_is_the_staged_sums_bit_for_bit(kind, block_pairs, monkeypatch):
    monkeypatch.setattr(stacked_routes, "BLOCK_PAIRS", block_pairs)  # one row, a few rows, all rows a block
    monkeypatch.setattr(leaf_masks, "BLOCK_BYTES", block_pairs)  # the same for the masks of leaves
    model, X = make_boosted(kind, max_depth=4, subsample=0.8)
    query = np.vstack([X, np.random.default_rng(3).normal(size=(77, X.shape[1]))])
    assert stacks([tree.tree_ for tree in model.estimators_.ravel()], query, np.zeros(X.shape[1], bool))
    np.testing.assert_array_equal(model._raw(query), staged_last(model, query))


def test_a_model_read_from_its_file_routes_its_trees_together_alike():
    model, X = make_boosted("three classes")
    again = pellucid.from_dict(json.loads(json.dumps(model.to_dict())))
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    np.testing.assert_array_equal(again._raw(X), staged_last(again, X))


def test_a_pickled_model_leaves_its_stacked_routes_out_and_makes_them_again():
    model, X = make_boosted("binary")
    answer = model.predict_proba(X)  # the cache is filled
    again = pickle.loads(pickle.dumps(model))
    assert again._stack_cache._stacked is None
    np.testing.assert_array_equal(again.predict_proba(X), answer)


def test_missing_values_and_categorical_tests_take_each_trees_own_route():
    model, X = make_boosted("regressor")
    gappy = X.copy()
    gappy[::7, 0] = np.nan
    trees = [tree.tree_ for tree in model.estimators_.ravel()]
    assert not stacks(trees, gappy, np.zeros(X.shape[1], bool))
    assert not stacks(trees, X, np.ones(X.shape[1], bool))  # every column categorical: tests of categories
    assert stacks(trees, X, np.r_[np.zeros(X.shape[1] - 1, bool), True]) == (
        not any((tree.feature == X.shape[1] - 1).any() for tree in trees))
    np.testing.assert_array_equal(model.predict(gappy), staged_last(model, gappy)[:, 0])


def test_refitting_replaces_the_routes_of_the_old_trees():
    model, X = make_boosted("regressor")
    first = model.predict(X)
    model.set_params(max_depth=1).fit(X, -X[:, 2])
    np.testing.assert_array_equal(model.predict(X), staged_last(model, X)[:, 0])
    assert not np.array_equal(model.predict(X), first)


def test_a_forest_of_deep_trees_stacks_as_well():
    X, target, _ = table()
    forest = RandomForestRegressor(n_estimators=4, random_state=0).fit(X, target)
    stacked = StackedTrees([tree.tree_ for tree in forest.estimators_])
    np.testing.assert_array_equal(stacked.apply(X, slice(0, len(X))), own_ends(forest.estimators_, X))


@pytest.mark.parametrize("three_classes", [False, True])
def test_adaboost_votes_from_routes_taken_together_as_from_each_tree(three_classes):
    X, _, label = table()
    y = label if three_classes else label > 0
    model = AdaBoostClassifier(n_estimators=20, max_depth=2).fit(X, y)
    query = np.vstack([X, np.random.default_rng(8).normal(size=(50, X.shape[1]))])
    K = len(model.classes_)
    votes = [np.where(tree.predict(query)[:, None] == model.classes_[None, :], alpha, -alpha / (K - 1))
             for tree, alpha in zip(model.estimators_, model.estimator_weights_)]
    expected = sum(votes) / model.estimator_weights_.sum()
    expected = expected[:, 1] - expected[:, 0] if K == 2 else expected
    np.testing.assert_array_equal(model.decision_function(query), expected)
    assert isinstance(model._stack_cache._stacked, leaf_masks.LeafMasks)
