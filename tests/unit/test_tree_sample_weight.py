"""sample_weight in the trees' fit: integer weights grow the tree of the rows repeated, on both growers;
bad weights are refused by name; weighted trees survive their model file."""

import json

import numpy as np
import pytest

import pellucid
from pellucid import DataError
from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor, _base


def _table(seed=0, n=90):
    """Numeric columns of few levels (ties), a categorical column, a class label and a quantity."""
    rng = np.random.default_rng(seed)
    numbers = rng.integers(0, 7, size=(n, 2)).astype(float)
    colour = rng.choice(["red", "green", "blue", "grey"], size=n)
    X = np.column_stack([numbers.astype(object), colour])  # (n, 3)
    label = np.where(numbers[:, 0] + (colour == "red") * 2 + rng.integers(0, 3, n) > 5, "yes", "no").astype(object)
    label[rng.random(n) < 0.15] = "maybe"
    amount = numbers[:, 0] * 2 - numbers[:, 1] + (colour == "blue") * 3 + rng.normal(size=n)
    return X, label, amount, rng.integers(1, 4, size=n)


def _assert_same(a, b, X):
    assert np.array_equal(a.tree_.feature, b.tree_.feature)
    assert np.array_equal(a.tree_.threshold, b.tree_.threshold, equal_nan=True)
    assert a.tree_.left_values.keys() == b.tree_.left_values.keys()
    assert np.array_equal(a.apply(X), b.apply(X))
    np.testing.assert_allclose(a.feature_importances_, b.feature_importances_, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("trace", [False, True], ids=["fast", "readable"])
@pytest.mark.parametrize("criterion", ["entropy", "gini", "gain_ratio"])
@pytest.mark.parametrize("split", ["multiway", "binary", "one_vs_rest"])
# Class weights given as numbers: "balanced" counts the classes' rows, which repeating them changes.
@pytest.mark.parametrize("extra", [{}, {"class_weight": {"yes": 2.0, "no": 1.0, "maybe": 3.5}}, {"prune": "chi2"},
                                   {"max_leaf_nodes": 6}])
def test_integer_weights_grow_the_tree_of_repeated_rows(trace, criterion, split, extra):
    X, label, _, times = _table()
    params = dict(criterion=criterion, categorical_split=split, trace=trace, **extra)
    weighted = DecisionTreeClassifier(**params).fit(X, label, sample_weight=times)
    repeated = DecisionTreeClassifier(**params).fit(np.repeat(X, times, axis=0), np.repeat(label, times))
    _assert_same(weighted, repeated, X)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), rtol=1e-12)
    assert np.array_equal(weighted.predict(X), repeated.predict(X))


@pytest.mark.parametrize("trace", [False, True], ids=["fast", "readable"])
@pytest.mark.parametrize("split", ["multiway", "binary"])
@pytest.mark.parametrize("extra", [{}, {"max_depth": 3}, {"max_leaf_nodes": 5}])
def test_integer_weights_grow_the_regression_tree_of_repeated_rows(trace, split, extra):
    X, _, amount, times = _table(1)
    params = dict(categorical_split=split, trace=trace, **extra)
    weighted = DecisionTreeRegressor(**params).fit(X, amount, sample_weight=times)
    repeated = DecisionTreeRegressor(**params).fit(np.repeat(X, times, axis=0), np.repeat(amount, times))
    _assert_same(weighted, repeated, X)
    np.testing.assert_allclose(weighted.predict(X), repeated.predict(X), rtol=1e-9)


def test_weights_of_one_grow_the_unweighted_tree():
    X, label, amount, _ = _table(2)
    ones = np.ones(len(label))
    _assert_same(DecisionTreeClassifier().fit(X, label, sample_weight=ones), DecisionTreeClassifier().fit(X, label), X)
    _assert_same(DecisionTreeRegressor().fit(X, amount, sample_weight=ones), DecisionTreeRegressor().fit(X, amount), X)


@pytest.mark.parametrize("trace", [False, True], ids=["fast", "readable"])
def test_rows_of_weight_zero_are_left_out(trace):
    """As in scikit-learn, a row of weight 0 is as if it were not there: it moves no threshold (the
    cut between 0 and 1 below lies halfway between 0 and 2 once the row at 1 is gone) and no leaf's vote."""
    X = np.array([[0.0], [0.0], [1.0], [2.0], [2.0]])
    y = np.array(["a", "a", "b", "b", "b"])
    tree = DecisionTreeClassifier(trace=trace).fit(X, y, sample_weight=[1, 1, 0, 1, 1])
    assert tree.tree_.threshold[0] == 1.0 and tree.tree_.samples[0] == 4
    regressor = DecisionTreeRegressor(max_depth=1, trace=trace).fit(X, [1.0, 3.0, 100.0, 7.0, 7.0],
                                                                    sample_weight=[1, 1, 0, 1, 1])
    assert regressor.predict([[0.0]])[0] == pytest.approx(2.0)
    X, label, amount, times = _table(6)
    times[::4] = 0
    kept = times > 0
    for model, target in ((DecisionTreeClassifier, label), (DecisionTreeRegressor, amount)):
        weighted = model(trace=trace).fit(X, target, sample_weight=times)
        without = model(trace=trace).fit(X[kept], target[kept], sample_weight=times[kept])
        assert np.array_equal(weighted.tree_.feature, without.tree_.feature)
        assert np.array_equal(weighted.tree_.threshold, without.tree_.threshold, equal_nan=True)
        predict = "predict_proba" if model is DecisionTreeClassifier else "predict"
        np.testing.assert_allclose(getattr(weighted, predict)(X), getattr(without, predict)(X), rtol=1e-12)


@pytest.mark.parametrize(("weights", "says"), [
    ([1.0, -1.0, 1.0, 1.0], "must not be negative; row 1"),
    ([1.0, 1.0, 1.0], "one weight per row: X has 4 rows"),
    ([[1.0, 1.0, 1.0, 1.0]], "one weight per row"),
    ([1.0, np.nan, 1.0, 1.0], "finite"),
    ([0.0, 0.0, 0.0, 0.0], "zero for every row"),
    (["a", "b", "c", "d"], "not numbers"),
])
@pytest.mark.parametrize("model", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_bad_weights_are_refused_by_name(weights, says, model):
    X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]
    with pytest.raises(DataError, match="sample_weight") as error:
        model().fit(X, y, sample_weight=weights)
    assert says in str(error.value)


def test_reduced_error_pruning_refuses_weights_by_name():
    X, label, _, times = _table()
    with pytest.raises(DataError, match="reduced_error.*sample_weight"):
        DecisionTreeClassifier(prune="reduced_error").fit(X, label, sample_weight=times)


def test_the_caller_s_weights_are_not_changed():
    X, label, _, times = _table()
    weights = times.astype(float)
    DecisionTreeClassifier().fit(X, label, sample_weight=weights)
    assert np.array_equal(weights, times)


@pytest.mark.parametrize("packed", [False, True], ids=["nested", "packed"])
@pytest.mark.parametrize("model", [DecisionTreeClassifier(class_weight="balanced"), DecisionTreeRegressor()])
def test_a_weighted_tree_predicts_the_same_from_its_model_file(packed, model, monkeypatch):
    X, label, amount, _ = _table(3)
    weights = np.random.default_rng(3).uniform(0, 3, size=len(label))
    monkeypatch.setattr(_base, "PACK_NODES_ABOVE", 0 if packed else 10 ** 9)
    tree = model.fit(X, label if isinstance(model, DecisionTreeClassifier) else amount, sample_weight=weights)
    d = json.loads(json.dumps(tree.to_dict()))
    assert d["sample_weighted"] is True and ("nodes" in d) == packed
    back = pellucid.from_dict(d)
    predict = "predict_proba" if isinstance(model, DecisionTreeClassifier) else "predict"
    np.testing.assert_array_equal(getattr(back, predict)(X), getattr(tree, predict)(X))
    np.testing.assert_allclose(back.feature_importances_, tree.feature_importances_, rtol=1e-12)


@pytest.mark.parametrize("damage", ["negative", "missing", "flag"])
@pytest.mark.parametrize("model", [DecisionTreeClassifier(), DecisionTreeRegressor()])
def test_a_damaged_weight_in_a_model_file_is_refused(damage, model):
    X, label, amount, times = _table(4)
    classifier = isinstance(model, DecisionTreeClassifier)
    d = json.loads(json.dumps(model.fit(X, label if classifier else amount, sample_weight=times).to_dict()))
    node = d["tree"]["left"]
    key = "weights" if classifier else "weight"
    if damage == "negative":
        if classifier:
            node[key]["no"] = -1.0
        else:
            node[key] = -1.0
    elif damage == "missing":
        del node[key]
    else:
        d["sample_weighted"] = "yes"
    with pytest.raises(DataError, match="sample_weighted|weight"):
        pellucid.from_dict(d)


def test_a_damaged_packed_weight_is_refused(monkeypatch):
    from pellucid.core import serialize
    X, label, _, times = _table(5)
    monkeypatch.setattr(_base, "PACK_NODES_ABOVE", 0)
    d = json.loads(json.dumps(DecisionTreeClassifier().fit(X, label, sample_weight=times).to_dict()))
    weighted = serialize.decode(d["nodes"]["weighted"], "nodes.weighted")
    weighted[0, 0] = -2.0
    d["nodes"]["weighted"] = serialize.encode(weighted)
    with pytest.raises(DataError, match="weighted"):
        pellucid.from_dict(d)
    del d["nodes"]["weighted"]
    with pytest.raises(DataError, match="weighted"):
        pellucid.from_dict(d)
