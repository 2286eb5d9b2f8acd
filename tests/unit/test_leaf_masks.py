"""Masks of leaves (ensemble/leaf_masks.py) must send every row to the leaf each tree's own `apply` sends
it: trees of 1 to 64 leaves, unbalanced ones, thresholds that the rows hit exactly, values beyond every
threshold, many trees and features past the 64th; and a boosted model routed by them must answer as its
rounds added one at a time do."""

import numpy as np
import pytest

from pellucid import DecisionTreeRegressor, GradientBoostingClassifier, RandomForestRegressor
from pellucid.learners.ensemble import leaf_masks
from pellucid.learners.ensemble.leaf_masks import LeafMasks, fits
from pellucid.learners.ensemble.stacked_routes import StackCache, StackedTrees, ends


def own_ends(trees, X):
    return np.array([tree.apply(X, np.zeros(X.shape[1], bool)) for tree in trees])


def grown(seed, n=400, d=8, **settings):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 1)  # few values: ties, and rows on the thresholds
    target = X[:, 0] * X[:, 1] + np.sin(3 * X[:, 2]) + 0.1 * rng.normal(size=n)
    return DecisionTreeRegressor(trace=False, random_state=seed, **settings).fit(X, target).tree_, X


@pytest.mark.parametrize("settings", [dict(max_depth=1), dict(max_depth=3), dict(max_depth=6),
                                      dict(max_leaf_nodes=64), dict(max_leaf_nodes=5, max_features=0.5),
                                      dict(max_depth=2, min_samples_leaf=150)])
def test_each_row_reaches_the_leaf_the_tree_sends_it_to(settings):
    trees, tables = zip(*(grown(seed, **settings) for seed in range(5)))
    assert fits(trees)
    query = np.vstack([tables[0], np.random.default_rng(9).normal(size=(300, 8)) * 3, np.full((1, 8), np.inf)])
    masks = LeafMasks(list(trees))
    np.testing.assert_array_equal(ends(masks, query), own_ends(trees, query))


def test_a_tree_of_one_leaf_and_a_word_of_64_leaves():
    one, X = grown(0, max_depth=1, min_samples_split=10_000)  # never splits: its root is its leaf
    assert one.node_count == 1
    full, _ = grown(1, n=2000, max_leaf_nodes=64)
    assert int((full.feature == -1).sum()) == 64
    masks = LeafMasks([one, full])
    assert masks.word == np.uint64
    np.testing.assert_array_equal(ends(masks, X), own_ends([one, full], X))


def test_more_leaves_than_a_word_holds_do_not_fit():
    deep, _ = grown(2, n=2000, max_leaf_nodes=65)
    assert not fits([deep])


@pytest.mark.parametrize("block_bytes", [1, 100, 1 << 18])
def test_blocks_of_rows_of_any_size_agree(block_bytes, monkeypatch):
    monkeypatch.setattr(leaf_masks, "BLOCK_BYTES", block_bytes)
    trees, tables = zip(*(grown(seed, max_depth=4) for seed in range(3)))
    np.testing.assert_array_equal(ends(LeafMasks(list(trees)), tables[0]), own_ends(trees, tables[0]))


def test_features_past_the_64th():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 100))
    tree = DecisionTreeRegressor(max_depth=5, trace=False).fit(X, X[:, 90] - X[:, 70]).tree_
    assert (tree.feature >= 64).any()
    np.testing.assert_array_equal(ends(LeafMasks([tree]), X), own_ends([tree], X))


def test_masks_and_stacked_nodes_route_alike():
    trees, _ = zip(*(grown(seed, max_depth=5) for seed in range(4)))
    query = np.random.default_rng(4).normal(size=(500, 8))
    np.testing.assert_array_equal(ends(LeafMasks(list(trees)), query), ends(StackedTrees(list(trees)), query))


def test_the_cache_routes_shallow_trees_by_masks_and_deep_ones_by_nodes():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(500, 4))
    shallow = GradientBoostingClassifier(n_estimators=5).fit(X, X[:, 0] > 0)
    deep = RandomForestRegressor(n_estimators=3, random_state=0).fit(X, X[:, 1])
    assert isinstance(StackCache().of(shallow.estimators_.ravel()), LeafMasks)
    assert isinstance(StackCache().of(deep.estimators_), StackedTrees)
    *_, last = shallow._staged_raw(X, staged=True)
    np.testing.assert_array_equal(shallow._raw(X), last)


def test_trees_testing_many_features_keep_the_stacked_nodes_and_answer_alike():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(300, 150))
    model = GradientBoostingClassifier(n_estimators=40).fit(X, X[:, :60].sum(axis=1) > 0)
    assert isinstance(StackCache().of(model.estimators_.ravel()), StackedTrees)  # ~100 features tested at depth 3
    *_, last = model._staged_raw(X, staged=True)
    np.testing.assert_array_equal(model._raw(X), last)
