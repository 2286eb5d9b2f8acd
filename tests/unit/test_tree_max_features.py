"""max_features: each node of a tree offered a seeded random subset of the features, scikit-learn's
values, reproducible, and the default tree unchanged."""

import json

import numpy as np
import pytest

import pellucid
from pellucid import DataError
from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor
from pellucid.learners.tree.feature_draw import n_offered


def _data(seed=0, n=240, d=9):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + X[:, 3] - X[:, 7] + rng.normal(scale=0.5, size=n) > 0).astype(int)
    return X, y, X[:, 0] * 2 + X[:, 5] + rng.normal(size=n)


@pytest.mark.parametrize(("value", "n_features", "count"), [
    (None, 9, None), ("sqrt", 9, 3), ("sqrt", 10, 3), ("sqrt", 1, 1), ("log2", 9, 3), ("log2", 2, 1),
    ("log2", 1, 1), (4, 9, 4), (9, 9, 9), (0.5, 9, 4), (1.0, 9, 9), (0.01, 9, 1),
])
def test_the_number_offered_is_scikit_learn_s(value, n_features, count):
    assert n_offered(value, n_features) == count


@pytest.mark.parametrize("model", [DecisionTreeClassifier, DecisionTreeRegressor])
@pytest.mark.parametrize("max_features", ["sqrt", 0.4, 2])
def test_each_node_scores_only_the_features_it_is_offered(model, max_features):
    X, y, amount = _data()
    tree = model(max_features=max_features, random_state=3).fit(X, y if model is DecisionTreeClassifier else amount)
    k = n_offered(max_features, X.shape[1])
    scored = ~np.isnan(tree.tree_.candidates[tree.tree_.feature >= 0])  # (inner nodes, d)
    assert (scored.sum(axis=1) == k).all()
    assert len({tuple(row) for row in scored.tolist()}) > 1  # nodes are offered different subsets


@pytest.mark.parametrize("model", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_the_same_seed_grows_the_same_tree_and_others_other_trees(model):
    X, y, amount = _data(1)
    target = y if model is DecisionTreeClassifier else amount
    trees = [model(max_features="sqrt", random_state=seed).fit(X, target) for seed in (0, 0, 1, 2)]
    assert np.array_equal(trees[0].tree_.feature, trees[1].tree_.feature)
    assert np.array_equal(trees[0].tree_.threshold, trees[1].tree_.threshold, equal_nan=True)
    assert not all(np.array_equal(trees[0].tree_.feature, t.tree_.feature) for t in trees[2:])


@pytest.mark.parametrize("model", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_offering_every_feature_grows_the_default_tree(model):
    X, y, amount = _data(2)
    target = y if model is DecisionTreeClassifier else amount
    default = model().fit(X, target)
    for every in (X.shape[1], 1.0):
        tree = model(max_features=every, random_state=5).fit(X, target)
        assert np.array_equal(tree.tree_.feature, default.tree_.feature)
        assert np.array_equal(tree.tree_.threshold, default.tree_.threshold, equal_nan=True)


def test_the_traced_tree_is_the_fast_tree():
    X, y, _ = _data(3)
    X = np.column_stack([X.astype(object), np.where(X[:, 1] > 0, "up", "down")])  # a multiway column too
    fast = DecisionTreeClassifier(max_features="sqrt", random_state=7).fit(X, y)
    traced = DecisionTreeClassifier(max_features="sqrt", random_state=7, trace=True).fit(X, y)
    assert np.array_equal(fast.tree_.feature, traced.tree_.feature)
    assert np.array_equal(fast.predict(X), traced.predict(X))


@pytest.mark.parametrize("value", [0, -1, 0.0, 1.5, float("nan"), "auto", True, [2]])
def test_a_bad_max_features_is_refused_by_name(value):
    X, y, _ = _data()
    with pytest.raises(DataError, match="max_features") as error:
        DecisionTreeClassifier(max_features=value).fit(X, y)
    assert error.value.field == "params.max_features"


def test_more_features_than_x_has_is_refused_at_fit():
    X, y, _ = _data()
    with pytest.raises(DataError, match="max_features is 10, but X has only 9 features") as error:
        DecisionTreeRegressor(max_features=10).fit(X, y)
    assert error.value.field == "params.max_features"


def test_a_tree_of_offered_features_predicts_the_same_from_its_model_file():
    X, y, _ = _data(4)
    tree = DecisionTreeClassifier(max_features=0.3, random_state=2).fit(X, y)
    back = pellucid.from_dict(json.loads(json.dumps(tree.to_dict())))
    assert back.max_features == 0.3 and back.random_state == 2
    np.testing.assert_array_equal(back.predict_proba(X), tree.predict_proba(X))
