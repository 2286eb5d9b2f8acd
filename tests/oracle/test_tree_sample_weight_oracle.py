"""Trees fitted with sample_weight against scikit-learn's with the same weights (a tenth of them 0: rows
both leave out), on continuous data where no two features tie for a split (checked): the same tree,
leaf values and importances."""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.tree import DecisionTreeClassifier as SkTree
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _data(task, seed, n=600, d=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32).astype(float)  # values scikit-learn keeps exactly
    signal = 1.5 * X[:, 0] - X[:, 1] + X[:, 2] * X[:, 3] + rng.normal(scale=0.7, size=n)
    y = np.digitize(signal, [-1.0, 1.0]) if task == "classification" else signal
    weights = rng.uniform(0.2, 3.0, size=n) * (rng.random(n) > 0.1)  # a tenth weigh nothing
    return X, y, weights


def _assert_no_tied_choice(tree):
    for node in np.flatnonzero(tree.feature >= 0):
        gains = np.sort(np.nan_to_num(tree.candidates[node], nan=-np.inf))[::-1]
        assert gains[0] - gains[1] > 1e-9, f"node {node}: two features tie"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("criterion", "params"), [("entropy", {"max_depth": 4}),
                                                   ("gini", {"max_depth": 4, "min_samples_leaf": 5}),
                                                   ("gini", {"max_depth": 3, "class_weight": "balanced"})])
def test_weighted_classifier_matches_sklearn(seed, criterion, params):
    X, y, weights = _data("classification", seed)
    ours = DecisionTreeClassifier(criterion=criterion, **params).fit(X, y, sample_weight=weights)
    _assert_no_tied_choice(ours.tree_)
    theirs = SkTree(criterion=criterion, random_state=0, **params).fit(X, y, sample_weight=weights)
    assert ours.tree_.node_count == theirs.tree_.node_count
    np.testing.assert_array_equal(ours.tree_.samples[0], theirs.tree_.n_node_samples[0])  # rows of weight > 0
    new = _data("classification", seed + 10)[0]
    np.testing.assert_allclose(ours.predict_proba(new), theirs.predict_proba(new), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, rtol=1e-6, atol=1e-9)
    ours_leaf, theirs_leaf = ours.apply(X), theirs.apply(X)  # every row, those of weight 0 too
    assert len(set(zip(ours_leaf.tolist(), theirs_leaf.tolist()))) == len(set(ours_leaf.tolist()))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weighted_regressor_matches_sklearn(seed):
    X, y, weights = _data("regression", seed)
    ours = DecisionTreeRegressor(max_depth=4, min_samples_leaf=5).fit(X, y, sample_weight=weights)
    _assert_no_tied_choice(ours.tree_)
    theirs = SkRegressor(max_depth=4, min_samples_leaf=5, random_state=0).fit(X, y, sample_weight=weights)
    assert ours.tree_.node_count == theirs.tree_.node_count
    new = _data("regression", seed + 10)[0]
    np.testing.assert_allclose(ours.predict(new), theirs.predict(new), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "sample_weight"])
@pytest.mark.parametrize(("model", "params"), [
    (DecisionTreeClassifier, {"criterion": "entropy", "min_weight_fraction_leaf": 0.05, "max_depth": 4}),
    (DecisionTreeClassifier, {"criterion": "gini", "min_weight_fraction_leaf": 0.1, "class_weight": "balanced"}),
    (DecisionTreeRegressor, {"min_weight_fraction_leaf": 0.04}),
])
def test_min_weight_fraction_leaf_matches_sklearn(seed, weighted, model, params):
    """Every leaf keeps that share of the total weight (class weights included), as scikit-learn's."""
    classifier = model is DecisionTreeClassifier
    X, y, weights = _data("classification" if classifier else "regression", seed)
    weights = weights if weighted else None
    ours = model(**params).fit(X, y, sample_weight=weights)
    _assert_no_tied_choice(ours.tree_)
    twin = (SkTree if classifier else SkRegressor)(random_state=0, **params).fit(X, y, sample_weight=weights)
    assert ours.tree_.node_count == twin.tree_.node_count
    leaves = ours.tree_.feature < 0
    total = ours.tree_.weighted_samples[0]
    assert (ours.tree_.weighted_samples[leaves] >= params["min_weight_fraction_leaf"] * total * (1 - 1e-12)).all()
    predict = "predict_proba" if classifier else "predict"
    new = _data("classification", seed + 10)[0]
    np.testing.assert_allclose(getattr(ours, predict)(new), getattr(twin, predict)(new), rtol=1e-9, atol=1e-9)
