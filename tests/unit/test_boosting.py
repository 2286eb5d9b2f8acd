"""Gradient boosting and AdaBoost, pellucid against pellucid and worked by hand: one round of gradient
boosting is F_0 plus a notes' tree of the residuals; a log-loss leaf takes one Newton step; the trace's
numbers are the model's; AdaBoost's weights, errors and votes follow SAMME's formulas; the model file
round-trips; bad settings are refused naming the control."""

import json

import numpy as np
import pytest

import pellucid
from pellucid import (AdaBoostClassifier, DataError, DecisionTreeClassifier, DecisionTreeRegressor,
                      GradientBoostingClassifier, GradientBoostingRegressor)


def data(n=150, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    label = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.4, "yes", "no")
    three = np.digitize(X[:, 0] + 0.5 * X[:, 2] + 0.3 * rng.normal(size=n), [-0.4, 0.4])
    return X, label, three, X[:, 0] * 2 + np.sin(X[:, 1]) + 0.1 * rng.normal(size=n)


def test_one_round_is_the_mean_plus_the_notes_tree_of_the_residuals():
    X, _, _, target = data()
    model = GradientBoostingRegressor(n_estimators=1, learning_rate=1.0, max_depth=3).fit(X, target)
    tree = DecisionTreeRegressor(max_depth=3).fit(X, target - target.mean())
    assert model.init_ == pytest.approx([target.mean()])
    np.testing.assert_allclose(model.predict(X), target.mean() + tree.predict(X), atol=1e-12)
    assert model.estimators_.shape == (1, 1)
    assert model.estimators_[0, 0].export_text() == tree.export_text()


def test_learning_rate_shrinks_each_trees_values():
    X, _, _, target = data()
    model = GradientBoostingRegressor(n_estimators=2, learning_rate=0.3, max_depth=2).fit(X, target)
    first = DecisionTreeRegressor(max_depth=2).fit(X, target - target.mean())
    F1 = target.mean() + 0.3 * first.predict(X)
    second = DecisionTreeRegressor(max_depth=2).fit(X, target - F1)
    np.testing.assert_allclose(model.predict(X), F1 + 0.3 * second.predict(X), atol=1e-12)
    assert model.train_score_ == pytest.approx([np.mean((target - F1) ** 2),
                                                np.mean((target - model.predict(X)) ** 2)])


def test_a_binary_leaf_takes_one_newton_step_from_the_prior_log_odds():
    X, label, _, _ = data()
    model = GradientBoostingClassifier(n_estimators=1, learning_rate=1.0, max_depth=1).fit(X, label)
    y = (label == "yes").astype(float)
    q = y.mean()
    assert model.init_ == pytest.approx([np.log(q / (1 - q))])
    tree = model.estimators_[0, 0]
    leaves = tree.apply(X)
    for leaf in np.unique(leaves):
        rows = leaves == leaf
        step = (y[rows] - q).sum() / (rows.sum() * q * (1 - q))  # sum r / sum p (1 - p), p = q for every row
        assert tree.predict_at(np.array([leaf]))[0] == pytest.approx(step)
    F = np.log(q / (1 - q)) + tree.predict(X)
    np.testing.assert_allclose(model.decision_function(X), F, atol=1e-12)
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], 1 / (1 + np.exp(-F)), atol=1e-12)
    assert model.train_score_[0] == pytest.approx(2 * np.mean(np.logaddexp(0, F) - y * F))


def test_three_classes_grow_a_tree_per_class_with_the_k_minus_1_over_k_step():
    X, _, three, _ = data()
    model = GradientBoostingClassifier(n_estimators=1, learning_rate=1.0, max_depth=2).fit(X, three)
    assert model.estimators_.shape == (1, 3)
    shares = np.bincount(three) / len(three)
    np.testing.assert_allclose(model.init_, np.log(shares) - np.log(shares).mean(), atol=1e-12)
    for k in range(3):
        tree = model.estimators_[0, k]
        leaves = tree.apply(X)
        for leaf in np.unique(leaves):
            rows = leaves == leaf
            r = (three[rows] == k) - shares[k]
            step = 2 / 3 * r.sum() / (rows.sum() * shares[k] * (1 - shares[k]))
            assert tree.predict_at(np.array([leaf]))[0] == pytest.approx(step)
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(model.predict(X), np.argmax(proba, axis=1))


def test_staged_answers_end_at_the_models_answer():
    X, label, three, target = data()
    for model, y in ((GradientBoostingClassifier(n_estimators=7), label),
                     (GradientBoostingClassifier(n_estimators=5), three),
                     (AdaBoostClassifier(n_estimators=8), label), (AdaBoostClassifier(n_estimators=8), three)):
        model.fit(X, y)
        stages = list(model.staged_predict_proba(X))
        assert len(stages) == len(model.estimators_)
        np.testing.assert_allclose(stages[-1], model.predict_proba(X))
        np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))
        np.testing.assert_allclose(list(model.staged_decision_function(X))[-1], model.decision_function(X))
        assert model.staged_score(X, y)[-1] == pytest.approx(model.score(X, y))
    regressor = GradientBoostingRegressor(n_estimators=6).fit(X, target)
    np.testing.assert_allclose(list(regressor.staged_predict(X))[-1], regressor.predict(X))
    assert len(regressor.staged_score(X, target)) == 6


@pytest.mark.parametrize("kind", ["regression", "binary", "three"])
def test_the_trace_records_each_rounds_residuals_values_and_F(kind):
    X, label, three, target = data()
    if kind == "regression":
        model, y = GradientBoostingRegressor(n_estimators=4, learning_rate=0.5, trace=True), target
    else:
        model = GradientBoostingClassifier(n_estimators=4, learning_rate=0.5, trace=True)
        y = label if kind == "binary" else three
    model.fit(X, y)
    json.dumps(model.trace_, allow_nan=False)  # plain lists: what the page is sent
    start = model.trace_[0]
    rounds = [{k: np.asarray(v) if isinstance(v, list) and k != "node_values" else v for k, v in step.items()}
              for step in model.trace_[1:]]
    assert start["step"] == "start" and np.array_equal(start["init"], model.init_)
    staged = list(model._staged_raw(X))
    for m, step in enumerate(rounds):
        np.testing.assert_allclose(step["after"], staged[m])
        before = rounds[m - 1]["after"] if m else np.tile(model.init_, (len(X), 1))
        if kind == "regression":
            np.testing.assert_allclose(step["residuals"][:, 0], y - before[:, 0])
        else:
            codes = np.searchsorted(model.classes_, y)
            p = model._loss().proba(before)
            onehot = codes[:, None] == np.arange(p.shape[1])
            np.testing.assert_allclose(step["residuals"], (onehot - p)[:, -step["residuals"].shape[1]:])
        for k, values in enumerate(step["node_values"]):
            tree = model.estimators_[m, k]
            np.testing.assert_array_equal(step["leaves"][:, k], tree.apply(X))
            np.testing.assert_allclose(step["after"][:, k] - before[:, k],
                                       0.5 * np.asarray(values)[step["leaves"][:, k]])
        assert step["train_score"] == pytest.approx(model.train_score_[m])


def test_subsample_grows_each_round_on_its_share_and_reports_the_out_of_bag_improvement():
    X, label, _, target = data()
    model = GradientBoostingRegressor(n_estimators=5, subsample=0.5, trace=True, random_state=3).fit(X, target)
    assert model.oob_improvement_.shape == (5,)
    for step in model.trace_[1:]:
        assert sum(step["in_bag"]) == 75
        tree = model.estimators_[step["round"], 0]
        assert tree.tree_.samples[0] == 75  # the tree saw only the round's rows
    assert not hasattr(GradientBoostingRegressor(n_estimators=2).fit(X, target), "oob_improvement_")
    again = GradientBoostingRegressor(n_estimators=5, subsample=0.5, random_state=3).fit(X, target)
    np.testing.assert_array_equal(again.predict(X), model.predict(X))
    classifier = GradientBoostingClassifier(n_estimators=5, subsample=0.7).fit(X, label)
    assert classifier.oob_improvement_.shape == (5,) and np.isfinite(classifier.oob_improvement_).all()


def test_adaboost_reweights_the_mistakes_by_e_to_the_alpha():
    X, label, three, _ = data()
    for y, K in ((label, 2), (three, 3)):
        model = AdaBoostClassifier(n_estimators=3, learning_rate=0.5, trace=True).fit(X, y)
        rounds = [s for s in model.trace_ if s["step"] == "round"]
        np.testing.assert_allclose(rounds[0]["weights"], 1 / len(y))
        first = DecisionTreeClassifier(criterion="gini", max_depth=1).fit(X, y)
        wrong = first.predict(X) != y
        np.testing.assert_array_equal(rounds[0]["wrong"], wrong)
        err = wrong.mean()
        alpha = 0.5 * (np.log((1 - err) / err) + np.log(K - 1))
        assert rounds[0]["error"] == pytest.approx(err) and model.estimator_errors_[0] == pytest.approx(err)
        assert rounds[0]["alpha"] == pytest.approx(alpha) and model.estimator_weights_[0] == pytest.approx(alpha)
        w = np.where(wrong, np.exp(alpha), 1.0)
        np.testing.assert_allclose(rounds[1]["weights"], w / w.sum())
        assert rounds[1]["error"] == pytest.approx(np.average(rounds[1]["wrong"], weights=w))


def test_adaboost_votes_alpha_for_its_class_and_minus_alpha_over_k_minus_1_elsewhere():
    X, _, three, _ = data()
    model = AdaBoostClassifier(n_estimators=4).fit(X, three)
    votes = sum(np.where(tree.predict(X)[:, None] == model.classes_, a, -a / 2)
                for tree, a in zip(model.estimators_, model.estimator_weights_))
    decision = votes / model.estimator_weights_.sum()
    np.testing.assert_allclose(model.decision_function(X), decision, atol=1e-12)
    e = np.exp(decision / 2)
    np.testing.assert_allclose(model.predict_proba(X), e / e.sum(axis=1, keepdims=True), atol=1e-12)


def test_adaboost_stops_at_a_perfect_tree_and_refuses_one_no_better_than_guessing():
    X = np.arange(10.0).reshape(-1, 1)
    y = (X[:, 0] > 4).astype(int)
    model = AdaBoostClassifier(n_estimators=5, trace=True).fit(X, y)
    assert len(model.estimators_) == 1 and model.estimator_weights_.tolist() == [1.0, 0, 0, 0, 0]
    assert model.estimator_errors_.tolist() == [0.0, 1, 1, 1, 1]
    assert model.trace_[-1] == {"step": "stop", "round": 0, "reason": "perfect"}
    np.testing.assert_array_equal(model.predict(X), y)
    same = np.zeros((6, 1))
    with pytest.raises(DataError, match="no better than guessing") as caught:
        AdaBoostClassifier().fit(same, [0, 1, 0, 1, 0, 1])
    assert caught.value.field == "params.max_depth"


@pytest.mark.parametrize("make", [lambda: GradientBoostingRegressor(n_estimators=3, subsample=0.8),
                                  lambda: GradientBoostingClassifier(n_estimators=3),
                                  lambda: AdaBoostClassifier(n_estimators=5)])
@pytest.mark.parametrize("kind", ["binary", "three"])
def test_the_model_file_round_trips(make, kind):
    X, label, three, target = data()
    model = make()
    y = target if isinstance(model, GradientBoostingRegressor) else label if kind == "binary" else three
    model.fit(X, y)
    back = pellucid.from_dict(json.loads(json.dumps(model.to_dict())))
    answer = "predict" if isinstance(model, GradientBoostingRegressor) else "predict_proba"
    np.testing.assert_array_equal(getattr(back, answer)(X), getattr(model, answer)(X))
    np.testing.assert_allclose(back.feature_importances_, model.feature_importances_)
    for name in ("train_score_", "oob_improvement_", "init_", "estimator_weights_", "estimator_errors_"):
        if hasattr(model, name):
            np.testing.assert_array_equal(getattr(back, name), getattr(model, name))


def test_a_categorical_column_is_split_as_the_notes_tree_splits_it():
    rng = np.random.default_rng(4)
    colour = rng.choice(["red", "green", "blue"], size=120)
    x = rng.normal(size=120)
    X = np.column_stack([colour, x]).astype(object)
    X[:, 1] = x
    target = np.where(colour == "red", 2.0, 0.0) + x
    model = GradientBoostingRegressor(n_estimators=20, max_depth=2).fit(X, target, feature_names=["colour", "x"])
    assert model.feature_kinds_[0] == "categorical"
    assert model.score(X, target) > 0.9
    back = pellucid.from_dict(json.loads(json.dumps(model.to_dict())))
    np.testing.assert_array_equal(back.predict(X), model.predict(X))
    label = np.where(target > 1, "high", "low")
    assert AdaBoostClassifier(n_estimators=10).fit(X, label, feature_names=["colour", "x"]).score(X, label) > 0.8


@pytest.mark.parametrize("make, field", [
    (lambda: GradientBoostingRegressor(learning_rate=0.0), "params.learning_rate"),
    (lambda: GradientBoostingRegressor(subsample=0.0), "params.subsample"),
    (lambda: GradientBoostingRegressor(subsample=1.5), "params.subsample"),
    (lambda: GradientBoostingClassifier(n_estimators=0), "params.n_estimators"),
    (lambda: GradientBoostingClassifier(loss="exponential"), "params.loss"),
    (lambda: AdaBoostClassifier(learning_rate=-1.0), "params.learning_rate"),
    (lambda: AdaBoostClassifier(max_depth=0), "params.max_depth"),
])
def test_bad_settings_name_their_control(make, field):
    X, label, _, target = data()
    model = make()
    y = target if isinstance(model, GradientBoostingRegressor) else label
    with pytest.raises(DataError) as caught:
        model.fit(X, y)
    assert caught.value.field == field


def test_too_many_deep_trees_are_refused_before_any_is_grown():
    X, _, _, target = data()
    with pytest.raises(DataError, match="trees") as caught:
        GradientBoostingRegressor(n_estimators=10 ** 9, max_depth=None).fit(X, target)
    assert caught.value.field == "params.n_estimators"


def test_importances_are_the_mean_of_the_trees_unnormalised_decreases():
    X, _, _, target = data()
    model = GradientBoostingRegressor(n_estimators=5).fit(X, target)
    importances = model.feature_importances_
    assert importances.sum() == pytest.approx(1.0)
    assert np.argmax(importances) == 0  # the target is mostly 2 x_0
    ada = AdaBoostClassifier(n_estimators=5).fit(X, target > 0)
    expected = sum(a * t.feature_importances_ for t, a in zip(ada.estimators_, ada.estimator_weights_))
    np.testing.assert_allclose(ada.feature_importances_, expected / ada.estimator_weights_.sum())


@pytest.mark.parametrize("cls", [AdaBoostClassifier, GradientBoostingClassifier, GradientBoostingRegressor])
def test_billions_of_rounds_are_refused_before_anything_is_kept_for_them(cls):
    X, label, _, target = data()
    y = target if cls is GradientBoostingRegressor else label
    with pytest.raises(DataError, match="2147483648 trees of up to .* GB, more than the 1 GB allowed") as caught:
        cls(n_estimators=2 ** 31).fit(X, y)
    assert caught.value.field == "params.n_estimators"
