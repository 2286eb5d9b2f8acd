"""Trees on real tables: binary tests on categories ("A in S"), leaf-size and leaf-count limits, and
everything downstream of a binary node (JSON round trip, export, trace, frames, explain)."""

import itertools

import json

import numpy as np
import pytest

import pellucid
from pellucid.core.errors import DataError
from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor
from pellucid.learners.tree.criteria import entropy, gini
from pellucid.tabular.datasets import load_restaurant


def _city_table(seed, n=400, n_cities=7, n_classes=2):
    """A categorical 'city' column whose classes depend on the city, and a numeric noise column."""
    rng = np.random.default_rng(seed)
    cities = np.array([f"c{i:02d}" for i in range(n_cities)])
    city = rng.integers(0, n_cities, size=n)
    bias = rng.random((n_cities, n_classes))
    y = np.array([rng.choice(n_classes, p=bias[c] / bias[c].sum()) for c in city])
    X = np.empty((n, 2), dtype=object)
    X[:, 0] = cities[city]
    X[:, 1] = np.round(rng.normal(size=n), 2)
    return X, y, cities


def _split_gain(y, left, impurity):
    def counts(rows):
        return np.bincount(y[rows], minlength=y.max() + 1)

    n = len(y)
    return impurity(counts(np.ones(n, bool))) - (left.sum() / n * impurity(counts(left))
                                                 + (~left).sum() / n * impurity(counts(~left)))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_two_class_binary_split_is_the_best_of_all_subsets(seed, criterion):
    X, y, cities = _city_table(seed)
    model = DecisionTreeClassifier(criterion=criterion, categorical_split="binary", max_depth=1)
    root = model.fit(X[:, :1], y, feature_names=["city"]).to_dict()["tree"]
    impurity = entropy if criterion == "entropy" else gini
    best = max(_split_gain(y, np.isin(X[:, 0], S), impurity)
               for r in range(1, len(cities)) for S in itertools.combinations(cities, r))
    assert root["gain"] == pytest.approx(best, rel=1e-9)  # Breiman: the ordered cuts hold the best subset
    assert root["gain"] == pytest.approx(_split_gain(y, np.isin(X[:, 0], root["values"]), impurity), rel=1e-9)


def test_regression_binary_split_is_the_best_of_all_subsets():
    X, _, cities = _city_table(5)
    rng = np.random.default_rng(0)
    level = dict(zip(cities, rng.normal(scale=100, size=len(cities))))
    y = np.array([level[c] for c in X[:, 0]]) + rng.normal(size=len(X))
    root = DecisionTreeRegressor(categorical_split="binary", max_depth=1).fit(
        X[:, :1], y, feature_names=["city"]).to_dict()["tree"]

    def reduction(left):
        return np.var(y) - (left.mean() * np.var(y[left]) + (~left).mean() * np.var(y[~left]))
    best = max(reduction(np.isin(X[:, 0], S)) for r in range(1, len(cities))
               for S in itertools.combinations(cities, r))
    assert root["gain"] == pytest.approx(best, rel=1e-9)


def test_many_classes_split_one_value_against_the_rest():
    X, y, cities = _city_table(2, n_classes=4)
    root = DecisionTreeClassifier(categorical_split="binary", max_depth=1).fit(
        X[:, :1], y, feature_names=["city"]).to_dict()["tree"]
    gains = {c: _split_gain(y, X[:, 0] == c, entropy) for c in cities}
    assert len(root["values"]) == 1
    assert root["gain"] == pytest.approx(max(gains.values()), rel=1e-9)
    assert gains[root["values"][0]] == pytest.approx(max(gains.values()), rel=1e-9)


def test_auto_splits_few_values_multiway_and_many_one_against_the_rest():
    restaurant = load_restaurant()
    model = DecisionTreeClassifier().fit(restaurant.X, restaurant.y, feature_names=restaurant.feature_names)
    assert set(model.categorical_splits_) == {"multiway"}  # the notes' tables stay ID3-exact
    for n_cities, kind in ((10, "multiway"), (11, "one_vs_rest")):
        X, y, _ = _city_table(1, n_cities=n_cities)
        model = DecisionTreeClassifier().fit(X, y, feature_names=["city", "noise"])
        assert model.categorical_splits_ == [kind, None]
    with pytest.raises(DataError, match="categorical_split"):
        DecisionTreeClassifier(categorical_split="subset").fit(X, y)


def _leaf_sizes(node):
    if "feature" not in node:
        return [node["samples"]]
    kids = node["branches"].values() if "branches" in node else [node["left"], node["right"]]
    return [s for kid in kids for s in _leaf_sizes(kid)]


@pytest.mark.parametrize("split", ["multiway", "binary"])
def test_min_samples_leaf_holds_in_every_non_empty_leaf(split):
    X, y, _ = _city_table(3, n=600, n_cities=14)
    full = DecisionTreeClassifier(categorical_split=split).fit(X, y, feature_names=["city", "noise"])
    assert min(s for s in _leaf_sizes(full.to_dict()["tree"]) if s) < 20  # the premise: it bites
    model = DecisionTreeClassifier(categorical_split=split, min_samples_leaf=20)
    model.fit(X, y, feature_names=["city", "noise"])
    sizes = _leaf_sizes(model.to_dict()["tree"])
    assert model.get_n_leaves() > 2 and min(s for s in sizes if s) >= 20


def test_max_leaf_nodes_caps_the_leaves_and_keeps_the_biggest_decreases():
    X, y, _ = _city_table(4, n=600, n_cities=14)
    full = DecisionTreeClassifier(categorical_split="binary").fit(X, y, feature_names=["city", "noise"])
    model = DecisionTreeClassifier(categorical_split="binary", max_leaf_nodes=6)
    model.fit(X, y, feature_names=["city", "noise"])
    assert full.get_n_leaves() > 6 and model.get_n_leaves() == 6
    assert model.to_dict()["tree"]["gain"] == pytest.approx(full.to_dict()["tree"]["gain"])
    reasons = [n["reason"] for n in _walk(model.to_dict()["tree"]) if "feature" not in n]
    assert "max_leaf_nodes" in reasons


def _walk(node):
    yield node
    if "feature" in node:
        kids = node["branches"].values() if "branches" in node else [node["left"], node["right"]]
        for kid in kids:
            yield from _walk(kid)


def test_a_binary_tree_survives_json_export_and_unseen_values():
    X, y, cities = _city_table(6, n_cities=15)
    model = DecisionTreeClassifier(max_depth=4).fit(X, y, feature_names=["city", "noise"])
    d = model.to_dict()
    assert "values" in d["tree"] and "branches" not in d["tree"]
    again = pellucid.from_dict(json.loads(json.dumps(d, allow_nan=False)))
    assert np.array_equal(again.predict(X), model.predict(X))
    assert again.to_dict() == d
    text = model.export_text()
    assert f"city in {{{', '.join(d['tree']['values'])}}}" in text and "city not in {" in text
    unseen = X[:3].copy()
    unseen[:, 0] = "elsewhere"  # stops at the root: predicts the root's plurality
    root_class = model.classes_[np.argmax(np.bincount(y))]
    assert model.predict(unseen).tolist() == [root_class] * 3


def test_traced_and_fast_fits_agree_and_the_trace_names_the_left_set():
    X, y, _ = _city_table(7, n_cities=13)
    fast = DecisionTreeClassifier(min_samples_leaf=3).fit(X, y, feature_names=["city", "noise"])
    traced = DecisionTreeClassifier(min_samples_leaf=3, trace=True).fit(X, y, feature_names=["city", "noise"])
    assert fast.export_text() == traced.export_text()  # the same tests and leaves
    assert np.array_equal(fast.tree_.stats, traced.tree_.stats)
    root = traced.trace_[0]
    assert root["chosen"] == "city" and root["values"] == fast.to_dict()["tree"]["values"]
    listed = ",".join(root["values"])
    assert {s["node"] for s in traced.trace_ if s["depth"] == 1} == {f"root/city∈{{{listed}}}",
                                                                      f"root/city∉{{{listed}}}"}


def test_the_steps_view_and_explain_follow_a_binary_test():
    from pellucid import bridge
    from pellucid.workbench import explain, steps
    session = bridge.Session()
    table = session.handle("load_example", {"name": "restaurant"})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": "WillWait", "features": None,
                                     "model": "DecisionTreeClassifier",
                                     "params": {"categorical_split": "binary"}})
    assert reply["ok"], reply
    run = session.runs[reply["result"]["model_id"]]
    timeline = steps.timeline(run)
    root = timeline["tree"]
    assert root["feature"] == "Pat" and root["values"] and "left" in root and "right" in root
    first = timeline["frames"][0]
    assert first["breakdown"]["Pat"]["branches"][0]["value"] == f"in {{{', '.join(root['values'])}}}"
    # The two branches' counts add up to the node's, and the children's frames hold those rows.
    left, right = (sum(b["counts"]) for b in first["breakdown"]["Pat"]["branches"])
    assert (left, right) == (root["left"]["samples"], root["right"]["samples"])
    for row in range(1, 13):
        ex = explain.explain_row(run, row)
        assert ex["nodes"][1].startswith(("root/Pat∈{", "root/Pat∉{"))
        assert ex["prediction"] == run.estimator.predict(run.table.select(run.features).take(np.array([row - 1])))[0]


@pytest.mark.parametrize("model", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_one_value_tests_of_a_many_valued_column_survive_the_model_file(model):
    """auto gives a 40-value column one value against the rest; the model file keeps the kind and the
    one-value left sets, nested and (past 1,000 nodes) packed, and predicts the same."""
    X, y, _ = _city_table(5, n=3000, n_cities=40, n_classes=3)
    fitted = model().fit(X, y.astype(float) if model is DecisionTreeRegressor else y, feature_names=["city", "noise"])
    assert fitted.categorical_splits_ == ["one_vs_rest", None]
    city_tests = [node for node in fitted.tree_.left_values if fitted.tree_.feature[node] == 0]
    assert city_tests and all(len(fitted.tree_.left_values[node]) == 1 for node in city_tests)
    d = json.loads(json.dumps(fitted.to_dict(), allow_nan=False))
    assert ("nodes" in d) == (fitted.tree_.node_count > 1000)
    again = pellucid.from_dict(d)
    assert again.categorical_splits_ == ["one_vs_rest", None]
    assert np.array_equal(again.predict(X), fitted.predict(X))
    small = model(max_depth=3).fit(X, y.astype(float) if model is DecisionTreeRegressor else y,
                                    feature_names=["city", "noise"])
    assert "tree" in small.to_dict()
    assert np.array_equal(pellucid.from_dict(json.loads(json.dumps(small.to_dict()))).predict(X), small.predict(X))
