"""Random forests and bagging, pellucid against pellucid: without bootstrap and with every feature offered
each tree is the notes' tree of the same rows; the vote is the mean of the trees; the out-of-bag answer
uses only the trees that left a row out; the model file round-trips; a forest too large is refused."""

import json
import warnings

import numpy as np
import pytest

import pellucid
from pellucid.learners.ensemble.growers import make_tree
from pellucid import (BaggingClassifier, BaggingRegressor, DataError, DecisionTreeClassifier, DecisionTreeRegressor,
                      RandomForestClassifier, RandomForestRegressor)


def data(n=120, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.4, "yes", "no")
    return X, y, X[:, 0] * 2 + np.sin(X[:, 1]) + 0.1 * rng.normal(size=n)


def test_without_bootstrap_every_tree_is_the_notes_tree_of_the_same_rows():
    X, y, target = data()
    forest = RandomForestClassifier(n_estimators=3, bootstrap=False, max_features=None, max_depth=4).fit(X, y)
    tree = DecisionTreeClassifier(criterion="gini", max_depth=4).fit(X, y)
    for member in forest.estimators_:
        assert member.export_text() == tree.export_text()
    np.testing.assert_allclose(forest.predict_proba(X), tree.predict_proba(X))
    regressor = RandomForestRegressor(n_estimators=2, bootstrap=False, max_depth=3).fit(X, target)
    np.testing.assert_allclose(regressor.predict(X), DecisionTreeRegressor(max_depth=3).fit(X, target).predict(X))


def test_a_tree_grows_on_its_bootstrap_counts_as_weights():
    X, y, _ = data()
    forest = BaggingClassifier(n_estimators=4, random_state=3).fit(X, y)
    rng = np.random.default_rng(3)
    for member in forest.estimators_:
        seed = int(rng.integers(2 ** 31 - 1))
        counts = np.bincount(rng.integers(0, len(y), len(y)), minlength=len(y))
        assert member.random_state == seed
        twin = DecisionTreeClassifier(criterion="gini", random_state=seed).fit(X, y, sample_weight=counts)
        assert member.export_text() == twin.export_text()


def test_the_classifier_averages_its_trees_probabilities():
    X, y, _ = data()
    forest = RandomForestClassifier(n_estimators=7, random_state=1).fit(X, y)
    mean = np.mean([tree.predict_proba(X) for tree in forest.estimators_], axis=0)
    np.testing.assert_allclose(forest.predict_proba(X), mean)
    np.testing.assert_array_equal(forest.predict(X), forest.classes_[np.argmax(mean, axis=1)])
    staged = list(forest.staged_predict_proba(X))
    assert len(staged) == 7
    np.testing.assert_allclose(staged[0], forest.estimators_[0].predict_proba(X))
    np.testing.assert_allclose(staged[-1], mean)
    scores = forest.staged_score(X, y)
    assert scores.shape == (7,) and scores[-1] == pytest.approx(forest.score(X, y))


def test_the_regressor_predicts_the_mean_of_its_trees():
    X, _, target = data()
    forest = RandomForestRegressor(n_estimators=5, max_features="sqrt", random_state=2).fit(X, target)
    np.testing.assert_allclose(forest.predict(X), np.mean([t.predict(X) for t in forest.estimators_], axis=0))
    assert forest.staged_score(X, target)[-1] == pytest.approx(forest.score(X, target))


def test_out_of_bag_answers_use_only_the_trees_that_left_the_row_out():
    X, y, target = data(n=60)
    forest = RandomForestClassifier(n_estimators=25, oob_score=True, random_state=4).fit(X, y)
    rng = np.random.default_rng(4)
    total, count = np.zeros((len(y), 2)), np.zeros(len(y))
    for tree in forest.estimators_:
        rng.integers(2 ** 31 - 1)
        out = np.bincount(rng.integers(0, len(y), len(y)), minlength=len(y)) == 0
        total[out] += tree.predict_proba(X[out])
        count += out
    assert count.min() > 0
    np.testing.assert_allclose(forest.oob_decision_function_, total / count[:, None])
    expected = np.mean(forest.classes_[np.argmax(total, axis=1)] == y)
    assert forest.oob_score_ == pytest.approx(expected)
    regressor = RandomForestRegressor(n_estimators=25, oob_score=True, random_state=4).fit(X, target)
    assert regressor.oob_prediction_.shape == (60,) and -1 < regressor.oob_score_ <= 1


def test_rows_no_tree_left_out_have_no_out_of_bag_answer_and_are_named():
    X, y, _ = data(n=40)
    with pytest.warns(UserWarning, match="no out-of-bag answer"):
        forest = RandomForestClassifier(n_estimators=2, oob_score=True, random_state=0).fit(X, y)
    missing = np.isnan(forest.oob_decision_function_[:, 0])
    assert missing.any() and np.isfinite(forest.oob_score_)


def test_out_of_bag_without_bootstrap_is_refused_naming_the_setting():
    X, y, _ = data()
    with pytest.raises(DataError, match="oob_score needs bootstrap") as caught:
        RandomForestClassifier(bootstrap=False, oob_score=True).fit(X, y)
    assert caught.value.field == "params.oob_score"


def test_importances_are_the_normalised_mean_of_the_trees():
    X, y, _ = data()
    forest = RandomForestClassifier(n_estimators=6, random_state=5).fit(X, y)
    mean = np.mean([t.feature_importances_ for t in forest.estimators_], axis=0)
    np.testing.assert_allclose(forest.feature_importances_, mean / mean.sum())
    assert forest.feature_importances_.sum() == pytest.approx(1.0)
    assert np.argmax(forest.feature_importances_) in (0, 1)  # the columns the target is made of


def test_bagging_offers_every_feature_and_defaults_to_ten_trees():
    X, y, target = data()
    bagging = BaggingClassifier().fit(X, y)
    assert len(bagging.estimators_) == 10 and all(t.max_features is None for t in bagging.estimators_)
    assert "max_features" not in bagging.get_params()
    assert len(BaggingRegressor(n_estimators=3).fit(X, target).estimators_) == 3


def test_categorical_columns_are_read_once_for_every_tree():
    X = np.array([["sun", "hot"], ["rain", "mild"], ["sun", "mild"], ["cloud", "hot"], ["rain", "hot"],
                  ["cloud", "mild"]] * 5, dtype=object)
    y = np.array(["no", "yes", "no", "yes", "yes", "yes"] * 5)
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y, feature_names=["sky", "heat"])
    assert forest.feature_kinds_ == ["categorical", "categorical"]
    np.testing.assert_array_equal(forest.predict(X), y)


@pytest.mark.parametrize("cls", [RandomForestClassifier, RandomForestRegressor, BaggingClassifier, BaggingRegressor])
def test_the_model_file_round_trips(cls):
    X, y, target = data()
    labels = y if cls in (RandomForestClassifier, BaggingClassifier) else target
    model = cls(n_estimators=4, oob_score=True, random_state=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model.fit(X, labels)
    again = pellucid.from_dict(json.loads(json.dumps(model.to_dict())))
    np.testing.assert_allclose(again.predict_proba(X) if hasattr(model, "predict_proba") else again.predict(X),
                               model.predict_proba(X) if hasattr(model, "predict_proba") else model.predict(X))
    assert again.oob_score_ == model.oob_score_
    np.testing.assert_allclose(again.feature_importances_, model.feature_importances_)


def test_a_file_with_a_tree_missing_or_of_other_columns_is_refused():
    X, y, _ = data()
    d = RandomForestClassifier(n_estimators=3).fit(X, y).to_dict()
    fewer = {**d, "trees": d["trees"][:2]}
    with pytest.raises(DataError) as caught:
        pellucid.from_dict(fewer)
    assert caught.value.field == "model_file"
    other = json.loads(json.dumps(d))
    other["trees"][1]["feature_names"] = ["a", "b", "c", "d"]
    with pytest.raises(DataError, match=r"trees\[1\] must have the feature_names_in of the first tree"):
        pellucid.from_dict(other)


def test_a_forest_too_large_for_memory_is_refused_before_training_with_its_size():
    X = np.zeros((1_000_000, 1))
    X[::2] = 1.0
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(DataError, match=r"100000 trees of up to 1,999,999 nodes each could take .* GB") as caught:
        RandomForestClassifier(n_estimators=100_000).fit(X, y)
    assert caught.value.field == "params.n_estimators"


def test_a_forest_whose_first_tree_says_it_would_not_fit_stops_there(monkeypatch):
    from pellucid.learners.ensemble import forest, size
    X, y, _ = data()
    grown = []
    monkeypatch.setattr(forest, "make_tree", lambda model, seed: grown.append(seed) or make_tree(model, seed))
    one = size.tree_bytes(RandomForestClassifier(n_estimators=1).fit(X, y).estimators_[0])
    monkeypatch.setattr(size, "MAX_FOREST_BYTES", 50 * one)  # room for about 50 such trees
    grown.clear()
    with pytest.raises(DataError, match=r"The first tree took .* MB, so 60 such trees would take .* GB, more than") \
            as caught:
        RandomForestClassifier(n_estimators=60).fit(X, y)
    assert caught.value.field == "params.n_estimators" and len(grown) == 1
    assert len(RandomForestClassifier(n_estimators=40).fit(X, y).estimators_) == 40


def test_only_the_first_tree_keeps_every_candidates_gain():
    X, y, _ = data()
    trees = RandomForestClassifier(n_estimators=3).fit(X, y).estimators_
    assert np.isfinite(trees[0].tree_.candidates[0]).any()
    for tree in trees[1:]:
        assert np.isnan(tree.tree_.candidates).all() and tree.tree_.candidates.strides == (0, 0)  # no memory


def test_the_trace_records_each_trees_draw():
    X, y, _ = data(n=50)
    forest = RandomForestClassifier(n_estimators=3, random_state=2, trace=True).fit(X, y)
    assert [step["tree"] for step in forest.trace_] == [0, 1, 2]
    for step, tree in zip(forest.trace_, forest.estimators_):
        assert step["seed"] == tree.random_state and step["rows_drawn"] + step["out_of_bag"] == 50
        assert step["nodes"] == tree.tree_.node_count
    assert "trace_" not in json.dumps(forest.to_dict())
