"""C4.5's gain ratio as a tree criterion: worked by hand on small tables, the attribute it prefers to the
plain information gain, both growers alike, and kept in the model file."""

import json

import numpy as np
import pytest

import pellucid
from pellucid.learners.tree import DecisionTreeClassifier
from pellucid.learners.tree.criteria import gain_ratio, split_information
from pellucid.tabular.datasets import load_restaurant

# Eight examples: "code" names four pure pairs, "side" puts three yes on one side and one yes with four
# no on the other.
Y = np.array(["yes"] * 4 + ["no"] * 4)
X = np.array([["c1", "x"], ["c1", "x"], ["c2", "x"], ["c2", "y"],
              ["c3", "y"], ["c3", "y"], ["c4", "y"], ["c4", "y"]], dtype=object)

# By hand (log2 3 = 1.5849625, log2 5 = 2.3219281):
#   code: Gain = 1 - 0 = 1;  SplitInfo = 4 * (2/8) log2 4 = 2;  GainRatio = 0.5
#   side: Gain = 1 - 5/8 B(1/5), B(1/5) = 0.2 * 2.3219281 + 0.8 * 0.3219281 = 0.7219281, so Gain = 0.5487949;
#         SplitInfo = 3/8 log2(8/3) + 5/8 log2(8/5) = 3/8 * 1.4150375 + 5/8 * 0.6780719 = 0.9544340;
#         GainRatio = 0.5487949 / 0.9544340 = 0.5749948
SIDE_GAIN, SIDE_SPLIT_INFO, SIDE_RATIO = 0.5487949, 0.9544340, 0.5749948


def test_split_information_and_gain_ratio_by_hand():
    assert split_information([2, 2, 2, 2]) == pytest.approx(2.0)
    assert split_information([3, 5]) == pytest.approx(SIDE_SPLIT_INFO, abs=1e-7)
    assert gain_ratio(SIDE_GAIN, [3, 5]) == pytest.approx(SIDE_RATIO, abs=1e-6)
    assert gain_ratio(0.0, [8, 0]) == 0.0  # a test that sends everything one way gains nothing


@pytest.mark.parametrize("trace", [False, True], ids=["fast", "readable"])
def test_gain_ratio_prefers_the_test_of_fewer_branches_where_gain_does_not(trace):
    gain = DecisionTreeClassifier(trace=trace).fit(X, Y, feature_names=["code", "side"]).to_dict()["tree"]
    assert gain["feature"] == "code" and gain["gain"] == pytest.approx(1.0)
    assert gain["candidates"] == pytest.approx({"code": 1.0, "side": SIDE_GAIN}, abs=1e-6)
    model = DecisionTreeClassifier(criterion="gain_ratio", trace=trace).fit(X, Y, feature_names=["code", "side"])
    root = model.to_dict()["tree"]
    assert root["feature"] == "side" and root["gain"] == pytest.approx(SIDE_RATIO, abs=1e-6)
    assert root["candidates"] == pytest.approx({"code": 0.5, "side": SIDE_RATIO}, abs=1e-6)
    assert (model.predict(X) == Y).all()


def test_restaurant_patrons_gain_ratio_by_hand():
    """Patrons at the root of the notes' restaurant table: branches None 2 (0 yes), Some 4 (4 yes), Full 6
    (2 yes). Gain = 1 - 6/12 B(1/3) = 1 - 0.5 * 0.9182958 = 0.5408521; SplitInfo = 2/12 log2 6 + 4/12
    log2 3 + 6/12 log2 2 = 0.4308271 + 0.5283208 + 0.5 = 1.4591479; GainRatio = 0.3706630."""
    restaurant = load_restaurant()
    model = DecisionTreeClassifier(criterion="gain_ratio", max_depth=1)
    root = model.fit(restaurant.X, restaurant.y, feature_names=restaurant.feature_names).to_dict()["tree"]
    assert root["candidates"]["Pat"] == pytest.approx(0.3706630, abs=1e-6)
    assert root["candidates"]["Type"] == pytest.approx(0.0, abs=1e-12)


def test_the_default_stays_the_notes_information_gain():
    restaurant = load_restaurant()
    model = DecisionTreeClassifier(max_depth=1).fit(restaurant.X, restaurant.y,
                                                    feature_names=restaurant.feature_names)
    assert model.criterion == "entropy"
    assert model.to_dict()["tree"]["candidates"]["Pat"] == pytest.approx(0.5408521, abs=1e-6)


def test_a_numeric_attribute_keeps_its_best_gain_threshold_and_is_ranked_by_ratio():
    """C4.5 picks the threshold by gain, then ranks the attribute by that test's gain ratio. x = 1..9 with
    classes a a b a b b b b b (3 a, 6 b; H = B(1/3) = 0.9182958):
      x <= 4.5: 3 a 1 b | 5 b: Gain = 0.9182958 - 4/9 B(1/4) = 0.9182958 - 4/9 * 0.8112781 = 0.5577277,
                SplitInfo = B(4/9) = 4/9 log2(9/4) + 5/9 log2(9/5) = 0.9910761, GainRatio = 0.5627497;
      x <= 2.5: 2 a | 1 a 6 b: Gain = 0.9182958 - 7/9 B(1/7) = 0.4581056, SplitInfo = B(2/9) = 0.7642045,
                GainRatio = 0.5994544, a larger ratio but a smaller gain: the test stays x <= 4.5."""
    x = np.arange(1.0, 10.0)[:, None]
    y = np.array(list("aabab") + ["b"] * 4)
    for trace in (False, True):
        root = DecisionTreeClassifier(criterion="gain_ratio", max_depth=1, trace=trace).fit(x, y).to_dict()["tree"]
        assert root["threshold"] == pytest.approx(4.5)
        assert root["gain"] == pytest.approx(0.5627497, abs=1e-6)


def test_the_model_file_carries_the_criterion():
    model = DecisionTreeClassifier(criterion="gain_ratio").fit(X, Y, feature_names=["code", "side"])
    d = json.loads(json.dumps(model.to_dict()))
    assert d["params"]["criterion"] == "gain_ratio"
    again = pellucid.from_dict(d)
    assert again.criterion == "gain_ratio" and (again.predict(X) == model.predict(X)).all()
    assert again.to_dict()["tree"] == d["tree"]
