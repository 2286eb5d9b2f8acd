"""Decision trees on the notes' worked examples: the restaurant data of notes 000 (and notes 004's
IMPORTANCE numbers), Quinlan's play-tennis data, and the growth rules of DECISION-TREE-LEARNING."""

import json

import numpy as np
import pytest

from pellucid.tabular.datasets import load_play_tennis, load_restaurant
from pellucid.learners.tree import DecisionTreeClassifier, export_text
from pellucid.learners.tree.criteria import B, entropy, gini, importance

# Notes 000's restaurant table, as printed (x4 has Rain = Yes).
SEED_ROWS = [
    "Yes No No Yes Some $$$ No Yes French 0-10 Yes",
    "Yes No No Yes Full $ No No Thai 30-60 No",
    "No Yes No No Some $ No No Burger 0-10 Yes",
    "Yes No Yes Yes Full $ Yes No Thai 10-30 Yes",
    "Yes No Yes No Full $$$ No Yes French >60 No",
    "No Yes No Yes Some $$ Yes Yes Italian 0-10 Yes",
    "No Yes No No None $ Yes No Burger 0-10 No",
    "No No No Yes Some $$ Yes Yes Thai 0-10 Yes",
    "No Yes Yes No Full $ Yes No Burger >60 No",
    "Yes Yes Yes Yes Full $$$ No Yes Italian 10-30 No",
    "No No No No None $ No No Thai 0-10 No",
    "Yes Yes Yes Yes Full $ No No Burger 30-60 Yes",
]


@pytest.fixture(scope="module")
def restaurant():
    return load_restaurant()


@pytest.fixture(scope="module")
def restaurant_tree(restaurant):
    model = DecisionTreeClassifier(trace=True)
    return model.fit(restaurant.X, restaurant.y, feature_names=restaurant.feature_names)


def test_restaurant_dataset_is_the_seed_table(restaurant):
    assert restaurant.feature_names == ["Alt", "Bar", "Fri", "Hun", "Pat", "Price", "Rain", "Res", "Type", "Est"]
    assert restaurant.target_name == "WillWait"
    assert restaurant.X.shape == (12, 10) and restaurant.X.dtype == object
    table = [" ".join(list(x) + [t]) for x, t in zip(restaurant.X, restaurant.y)]
    assert table == SEED_ROWS
    assert restaurant.csv_text.splitlines()[0] == "Alt,Bar,Fri,Hun,Pat,Price,Rain,Res,Type,Est,WillWait"


def test_play_tennis_dataset():
    data = load_play_tennis()
    assert data.feature_names == ["Outlook", "Temperature", "Humidity", "Wind"]
    assert data.target_name == "PlayTennis"
    assert data.X.shape == (14, 4)
    assert sorted(np.unique(data.y, return_counts=True)[1].tolist()) == [5, 9]


def test_entropy_formulas_of_the_notes():
    assert B(0.5) == pytest.approx(1.0)  # the fair coin of notes 000
    assert B(0.0) == 0.0 and B(1.0) == 0.0  # the coin that always comes up heads
    assert B(1 / 3) == pytest.approx(0.918, abs=5e-4)  # notes 004: "0.91"
    assert entropy([3, 1]) == pytest.approx(B(0.25))
    assert gini([5, 5]) == pytest.approx(0.5)
    # Notes 004: Gain(Patrons) = 1 - 6/12 * B(1/3) = 0.54 and Gain(Type) = 0.
    assert importance([6, 6], [[0, 2], [4, 0], [2, 4]]) == pytest.approx(1 - 0.5 * B(1 / 3))
    assert importance([6, 6], [[1, 1], [1, 1], [2, 2], [2, 2]]) == pytest.approx(0.0)


def test_restaurant_root_is_patrons_with_gain_0541(restaurant_tree):
    root = restaurant_tree.to_dict()["tree"]
    assert root["feature"] == "Pat"
    assert round(root["gain"], 3) == 0.541
    assert root["impurity"] == pytest.approx(1.0)
    assert root["samples"] == 12 and root["counts"] == {"No": 6, "Yes": 6}
    # IMPORTANCE of every attribute at the root: notes 004's Patrons 0.54 and Type 0.
    candidates = root["candidates"]
    assert set(candidates) == set(restaurant_tree.feature_names_in_)
    assert candidates["Pat"] == pytest.approx(1 - 0.5 * B(1 / 3))
    assert abs(candidates["Type"]) < 1e-12
    assert max(candidates, key=candidates.get) == "Pat"


def test_rain_split_is_the_seeds_example(restaurant):
    # Notes 000: splitting on Rain puts x1, x2, x3, x5, x10, x11, x12 under "no", the rest under "yes".
    rain = restaurant.feature_names.index("Rain")
    model = DecisionTreeClassifier(max_depth=1).fit(restaurant.X[:, [rain]], restaurant.y, feature_names=["Rain"])
    root = model.to_dict()["tree"]
    assert root["feature"] == "Rain"
    no_rows = np.flatnonzero(model.apply(restaurant.X[:, [rain]]) == model.apply([["No"]])[0]) + 1
    assert no_rows.tolist() == [1, 2, 3, 5, 10, 11, 12]
    p_no = np.mean(restaurant.y[no_rows - 1] == "Yes")
    p_yes = np.mean(np.delete(restaurant.y, no_rows - 1) == "Yes")
    assert root["gain"] == pytest.approx(1 - 7 / 12 * B(p_no) - 5 / 12 * B(p_yes))


def _leaf(node):
    assert "feature" not in node, node
    return node["prediction"]


def test_restaurant_tree_structure(restaurant_tree):
    # Notes 000: Patrons first; None -> no, Some -> yes; Full -> Hungry, then Type and Friday;
    # "After that all nodes contain data points of the same label."
    root = restaurant_tree.to_dict()["tree"]
    pat = root["branches"]
    assert list(pat) == ["Full", "None", "Some"]
    assert _leaf(pat["None"]) == "No" and _leaf(pat["Some"]) == "Yes"
    hun = pat["Full"]
    assert hun["feature"] == "Hun"
    assert _leaf(hun["branches"]["No"]) == "No"
    kind = hun["branches"]["Yes"]
    assert kind["feature"] == "Type"
    types = kind["branches"]
    assert _leaf(types["Italian"]) == "No" and _leaf(types["Burger"]) == "Yes"
    fri = types["Thai"]
    assert fri["feature"] == "Fri"
    assert _leaf(fri["branches"]["No"]) == "No" and _leaf(fri["branches"]["Yes"]) == "Yes"
    # No French restaurant is Full with a hungry customer: PLURALITY-VALUE of the parent's examples
    # (2 Yes, 2 No), a tie the notes break arbitrarily and pellucid gives to the smallest label.
    french = types["French"]
    assert french["samples"] == 0 and french["counts"] == {"No": 0, "Yes": 0}
    assert french["reason"] == "empty branch: plurality of parent"
    assert kind["counts"] == {"No": 2, "Yes": 2} and _leaf(french) == "No"
    assert restaurant_tree.get_depth() == 4 and restaurant_tree.get_n_leaves() == 8
    assert restaurant_tree.score(load_restaurant().X, load_restaurant().y) == 1.0


def test_attribute_ties_go_to_the_earlier_column(restaurant_tree):
    # Under Patrons = Full, Hungry, Price, Type and Est all gain B(1/3) - 2/3 bits; Hun comes first.
    full = restaurant_tree.to_dict()["tree"]["branches"]["Full"]
    gains = full["candidates"]
    expected = B(1 / 3) - 4 / 6
    for name in ("Hun", "Price", "Type", "Est"):
        assert gains[name] == pytest.approx(expected, abs=1e-12)
    assert full["feature"] == "Hun"
    # A categorical attribute is not considered again below the node that tested it.
    assert "Pat" not in gains


def test_play_tennis_outlook_at_root():
    data = load_play_tennis()
    model = DecisionTreeClassifier().fit(data.X, data.y, feature_names=data.feature_names)
    root = model.to_dict()["tree"]
    assert root["feature"] == "Outlook" and root["gain"] == pytest.approx(0.246, abs=1e-3)
    # The published gains (Mitchell, Machine Learning, ch. 3), given there to three decimals.
    published = {"Outlook": 0.246, "Temperature": 0.029, "Humidity": 0.151, "Wind": 0.048}
    assert root["candidates"] == pytest.approx(published, abs=1e-3)
    branches = root["branches"]
    assert _leaf(branches["Overcast"]) == "Yes"
    assert branches["Sunny"]["feature"] == "Humidity" and branches["Rain"]["feature"] == "Wind"
    assert _leaf(branches["Sunny"]["branches"]["High"]) == "No"
    assert _leaf(branches["Rain"]["branches"]["Strong"]) == "No"


def test_gini_criterion(restaurant):
    model = DecisionTreeClassifier(criterion="gini").fit(restaurant.X, restaurant.y,
                                                         feature_names=restaurant.feature_names)
    root = model.to_dict()["tree"]
    assert root["impurity"] == pytest.approx(0.5)
    # Gini decrease of Patrons: 0.5 - 6/12 * (1 - (2/6)^2 - (4/6)^2).
    assert root["feature"] == "Pat"
    assert root["gain"] == pytest.approx(0.5 - 0.5 * (1 - 1 / 9 - 4 / 9))
    assert root["candidates"]["Type"] == pytest.approx(0.0, abs=1e-12)
    assert model.score(restaurant.X, restaurant.y) == 1.0


def test_numeric_threshold_is_a_midpoint_and_can_be_reused():
    X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]])
    y = np.array([0, 0, 1, 1, 0, 0])
    model = DecisionTreeClassifier().fit(X, y)
    tree = model.tree_
    inner = np.flatnonzero(tree.feature >= 0)
    assert len(inner) == 2 and (tree.feature[inner] == 0).all()  # x0 tested twice on one path
    assert sorted(tree.threshold[inner].tolist()) in ([2.5, 4.5],)
    assert model.predict([[2.5], [2.51], [4.5], [4.6]]).tolist() == [0, 1, 1, 0]  # left is <=


def test_stopping_rules_are_honoured():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] + 0.7 * rng.normal(size=300) > 0).astype(int)
    for depth in (1, 2, 3):
        assert DecisionTreeClassifier(max_depth=depth).fit(X, y).get_depth() == depth
    model = DecisionTreeClassifier(min_samples_split=40).fit(X, y)
    tree = model.tree_
    assert (tree.samples[tree.feature >= 0] >= 40).all()
    small = (tree.feature < 0) & (tree.samples < 40) & (tree.samples > 0)
    assert small.any()
    model = DecisionTreeClassifier(min_gain=0.05).fit(X, y)
    gains = model.tree_.gain[model.tree_.feature >= 0]
    assert (gains > 0.05).all()
    reasons = {leaf["reason"] for leaf in _leaves(model.to_dict()["tree"])}
    assert "no gain" in reasons


def _leaves(node):
    if "feature" not in node:
        return [node]
    kids = list(node["branches"].values()) if "branches" in node else [node["left"], node["right"]]
    return [leaf for kid in kids for leaf in _leaves(kid)]


def test_min_gain_above_the_best_gain_leaves_a_single_leaf(restaurant):
    model = DecisionTreeClassifier(min_gain=0.6).fit(restaurant.X, restaurant.y,
                                                     feature_names=restaurant.feature_names)
    root = model.to_dict()["tree"]
    assert root["reason"] == "no gain" and root["candidates"]["Pat"] == pytest.approx(0.5409, abs=1e-4)
    assert root["prediction"] == "No"  # a 6-6 tie goes to the smallest label


def test_unseen_value_predicts_at_the_node(restaurant_tree):
    row = np.array([["Yes", "No", "No", "Yes", "Busy", "$", "No", "No", "Thai", "0-10"]], dtype=object)
    assert restaurant_tree.predict(row).tolist() == ["No"]  # the root's plurality (6-6 -> "No")
    np.testing.assert_allclose(restaurant_tree.predict_proba(row), [[0.5, 0.5]])
    row[0, 4], row[0, 3], row[0, 8] = "Full", "Yes", "Korean"
    assert restaurant_tree.predict(row).tolist() == ["No"]  # the Type node: 2-2 -> "No"


def test_trace_steps_in_growth_order(restaurant_tree):
    steps = restaurant_tree.trace_
    json.dumps(steps, allow_nan=False)
    assert [s["node"] for s in steps[:4]] == ["root", "root/Pat=Full", "root/Pat=Full/Hun=No",
                                              "root/Pat=Full/Hun=Yes"]
    root = steps[0]
    assert root["step"] == "split" and root["chosen"] == "Pat" and root["threshold"] is None
    assert root["candidates"] == restaurant_tree.to_dict()["tree"]["candidates"]
    assert root["counts"] == {"No": 6, "Yes": 6} and root["depth"] == 0 and root["samples"] == 12
    by_node = {s["node"]: s for s in steps}
    assert by_node["root/Pat=Full/Hun=Yes/Type=French"]["reason"] == "empty branch: plurality of parent"
    assert by_node["root/Pat=Some"] == {**by_node["root/Pat=Some"], "step": "leaf", "reason": "pure",
                                        "chosen": None, "candidates": {}}
    assert len(steps) == restaurant_tree.tree_.node_count


def test_trace_of_a_numeric_split():
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    model = DecisionTreeClassifier(trace=True).fit(X, ["a", "a", "b", "b"])
    assert [s["node"] for s in model.trace_] == ["root", "root/x0<=2.5", "root/x0>2.5"]
    assert model.trace_[0]["threshold"] == 2.5 and model.trace_[0]["candidates"] == {"x0": 1.0}


def test_export_text(restaurant_tree):
    text = export_text(restaurant_tree)
    assert text == restaurant_tree.export_text()
    assert text.startswith("|--- Pat = Full\n|   |--- Hun = No\n|   |   |--- class: No\n|   |--- Hun = Yes\n")
    assert "|   |   |--- Type = Thai\n|   |   |   |--- Fri = No\n|   |   |   |   |--- class: No\n" in text
    assert text.endswith("|--- Pat = Some\n|   |--- class: Yes\n")


# --- routing many rows (the compiled Router) --------------------------------------------------------

def _one_test_at_a_time(tree, X):
    """The node each row reaches by following the tests one row and one level at a time."""
    ends = []
    for x in X:
        node = 0
        while tree.feature[node] >= 0:
            node = tree.child_start[node] + int(x[tree.feature[node]] > tree.threshold[node])
        ends.append(node)
    return np.array(ends)


def _noise(n, d, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), rng.integers(0, 3, n)


def _queries(model, X, seed=1):
    """A grid over the data, the training rows, rows exactly on thresholds, and extreme values."""
    rng = np.random.default_rng(seed)
    d = X.shape[1]
    tree = model.tree_
    inner = tree.feature >= 0
    on_thresholds = rng.normal(size=(1000, d))
    picked = rng.choice(np.flatnonzero(inner), 1000)
    on_thresholds[np.arange(1000), tree.feature[picked]] = tree.threshold[picked]
    extremes = rng.choice([-1e300, 1e300, 0.0], size=(50, d))
    grid = rng.uniform(-4, 4, size=(6000, d))
    return np.vstack([grid, X, on_thresholds, extremes])


def test_routing_a_deep_two_feature_tree_follows_every_test():
    X, y = _noise(3000, 2)
    model = DecisionTreeClassifier().fit(X, y)  # a deep tree with thousands of thresholds
    Q = _queries(model, X)
    nodes = model.apply(Q)
    assert len(model.tree_._router.table) > 1000  # the top levels were looked up as boxes
    np.testing.assert_array_equal(nodes, _one_test_at_a_time(model.tree_, Q))
    np.testing.assert_array_equal(model.apply(Q[:10]), nodes[:10])  # few rows: no table needed, same nodes


def test_routing_many_features_follows_every_test():
    X, y = _noise(2000, 10, seed=2)
    model = DecisionTreeClassifier(criterion="entropy").fit(X, y)
    Q = _queries(model, X)
    np.testing.assert_array_equal(model.apply(Q), _one_test_at_a_time(model.tree_, Q))


def test_routing_more_features_than_numpy_has_axes_follows_every_test():
    X, y = _noise(1000, 200, seed=4)  # a tree on 200 features splits on features beyond numpy's 64 axes
    model = DecisionTreeClassifier().fit(X, y)
    assert model.tree_.feature.max() >= 64
    Q = _queries(model, X)
    np.testing.assert_array_equal(model.apply(Q), _one_test_at_a_time(model.tree_, Q))


def test_routing_after_pruning_uses_the_pruned_tree():
    X, y = _noise(3000, 2, seed=3)
    model = DecisionTreeClassifier(prune="reduced_error").fit(X, y)
    grown = DecisionTreeClassifier().fit(X, y)
    assert model.tree_.node_count < grown.tree_.node_count
    Q = _queries(model, X)
    np.testing.assert_array_equal(model.apply(Q), _one_test_at_a_time(model.tree_, Q))
    tree = model.tree_
    leaf = int(np.flatnonzero(tree.feature[1:] >= 0)[0]) + 1  # an inner node other than the root
    tree.prune_to_leaf(leaf)  # the routing built for the tree before is dropped with the change
    np.testing.assert_array_equal(tree.apply(Q, [False, False]), _one_test_at_a_time(tree, Q))
