"""class_weight as a dict {label: weight} against scikit-learn's same dict: the tree's splits and
probabilities (gini and entropy), logistic regression's weights and the perceptron's weights; labels left
out of the dict weigh 1, and labels may be numbers or texts. Also the dict's round trip through a model
file and the scikit-learn twin."""

import json

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
import sklearn
from sklearn import linear_model as sk_linear
from sklearn import tree as sk_tree

import pellucid
from pellucid.learners import registry
from test_class_weights import (LEARNERS, _fit_quietly, assert_same_tree, assert_weighted_best_splits_are_unique,
                                breast_cancer_90_10, imbalanced_table, iris_80_15_5)

NAMES = np.array(["ant", "bee", "cat"])  # text labels for the classes 0, 1, 2 (sorted alike)


def _labelled(y, text):
    return NAMES[y] if text else y


def _weights(dict_of_codes, text):
    """The same dict keyed by the labels the target uses."""
    return {(NAMES[k] if text else k): w for k, w in dict_of_codes.items()}


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("weights", [{1: 4.0}, {0: 0.5, 2: 6.0}, {0: 1.5, 1: 0.25, 2: 3.0}])
@pytest.mark.parametrize("text", [False, True])
def test_dict_weighted_tree_equals_scikit_learns(criterion, weights, text):
    X, codes = imbalanced_table((0.7, 0.2, 0.1), seed=0, n=300)
    y = _labelled(codes, text)
    class_weight = _weights(weights, text)
    ours = pellucid.DecisionTreeClassifier(criterion=criterion, max_depth=3, class_weight=class_weight).fit(X, y)
    expected = [weights.get(k, 1.0) for k in range(3)]  # a class the dict leaves out weighs 1
    assert ours.class_weights_.tolist() == expected
    assert_weighted_best_splits_are_unique(ours, X, codes, criterion)
    theirs = sk_tree.DecisionTreeClassifier(criterion=criterion, max_depth=3, class_weight=class_weight,
                                            random_state=0).fit(X, y)
    assert_same_tree(ours, theirs, X, codes)
    assert np.array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    plain = pellucid.DecisionTreeClassifier(criterion=criterion, max_depth=3).fit(X, y)
    assert not np.allclose(plain.predict_proba(X), ours.predict_proba(X))  # the weights matter here


@pytest.mark.parametrize("data, weights", [(breast_cancer_90_10, {0: 6.0}), (breast_cancer_90_10, {0: 3.0, 1: 0.5}),
                                           (iris_80_15_5, {2: 8.0}), (iris_80_15_5, {0: 0.5, 1: 2.0, 2: 5.0})])
@pytest.mark.parametrize("text", [False, True])
def test_dict_weighted_logistic_regression_equals_scikit_learns(data, weights, text):
    X, codes = data()
    y, class_weight, l2 = _labelled(codes, text), _weights(weights, text), 1e-2
    ours = pellucid.LogisticRegression(l2=l2, class_weight=class_weight, tol=1e-10).fit(X, y)
    # The twin's mapping C = 1 / (n * l2): the weights scale each row's loss in both objectives.
    theirs = sk_linear.LogisticRegression(C=1.0 / (len(y) * l2), class_weight=class_weight, solver="newton-cholesky",
                                          tol=1e-12, max_iter=1000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-6)
    unweighted = pellucid.LogisticRegression(l2=l2).fit(X, y)
    assert np.abs(unweighted.coef_ - ours.coef_).max() > 1e-3


@pytest.mark.parametrize("epochs", [1, 7])
@pytest.mark.parametrize("weights", [{1: 3.0}, {0: 0.5, 1: 2.5}, {0: 4.0}])
@pytest.mark.parametrize("text", [False, True])
def test_dict_weighted_perceptron_equals_scikit_learns(epochs, weights, text):
    """Two classes, the same rows in the same order: each update is scaled by the weight of the row's
    class in both (see test_perceptron_weights_equal_scikit_learns for why row 0 is of class 0)."""
    X, codes = imbalanced_table((0.9, 0.1), seed=0, d=3)
    y, class_weight = _labelled(codes, text), _weights(weights, text)
    ours = _fit_quietly(pellucid.Perceptron(max_iter=epochs, class_weight=class_weight), X, y)
    theirs = _fit_quietly(sk_linear.Perceptron(max_iter=epochs, tol=None, shuffle=False,
                                               class_weight=class_weight), X, y)
    assert ours.n_iter_ == epochs  # the premise: every epoch made a mistake, so both ran them all
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("text", [False, True])
def test_round_trip_keeps_the_dict_of_weights(learner, text):
    X, codes = imbalanced_table((0.8, 0.15, 0.05), seed=2)
    y, class_weight = _labelled(codes, text), _weights({1: 2.0, 2: 7.5}, text)
    model = _fit_quietly(learner(class_weight=class_weight), X, y)
    back = pellucid.from_dict(json.loads(json.dumps(model.to_dict())))  # as a file holds it
    assert back.get_params()["class_weight"] == class_weight
    assert [type(k) for k in back.class_weight] == [str if text else int] * 2  # 1 stays 1, not "1"
    np.testing.assert_allclose(back.class_weights_, model.class_weights_)
    assert np.array_equal(back.predict(X), model.predict(X))
    refit = _fit_quietly(back, X, y)  # the parameter read back still fits the same classes
    np.testing.assert_allclose(refit.class_weights_, model.class_weights_)


@pytest.mark.parametrize("learner", LEARNERS)
def test_twin_gets_the_same_dict(learner):
    twin = registry.of(learner()).sklearn
    params = learner(class_weight={0: 2.0, 1: 0.5}).get_params()
    ctx = {"n_train": 100, "n_features": 4, "gamma": None, "n_categories": [0] * 4}
    assert twin.build(sklearn, params, ctx).get_params()["class_weight"] == {0: 2.0, 1: 0.5}
