"""Random forests and bagging against scikit-learn's: the same predictions where nothing random decides
(no bootstrap, every feature offered, continuous data with no tie between split candidates), and the same
cross-validated score within 1.5 points where the samples and feature draws are random."""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import datasets, ensemble, tree
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score

from pellucid import BaggingClassifier, BaggingRegressor, RandomForestClassifier, RandomForestRegressor


def continuous(seed=0, n=300, d=5):
    """Rows of continuous features (every value distinct, so no two thresholds of one column tie)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    label = (X[:, 0] + X[:, 1] * X[:, 2] + 0.4 * rng.normal(size=n) > 0).astype(int)
    return X, label, X[:, 0] - 2 * X[:, 3] ** 2 + 0.3 * rng.normal(size=n)


def same_trees(model):
    """Whether scikit-learn grew one tree n times: its trees differ only in the random order it visits the
    features, so identical trees mean no tie between split candidates decided any of them."""
    first = model.estimators_[0].tree_
    return all(np.array_equal(t.tree_.feature, first.feature) and np.allclose(t.tree_.threshold, first.threshold)
               for t in model.estimators_[1:])


@pytest.mark.parametrize("depth", [2, 3, 5])
def test_without_randomness_the_forest_classifier_predicts_as_scikit_learns(depth):
    X, y, _ = continuous()
    settings = dict(n_estimators=5, bootstrap=False, max_features=None, max_depth=depth, min_samples_leaf=10,
                    criterion="gini")
    theirs = ensemble.RandomForestClassifier(**settings, random_state=0).fit(X, y)
    assert same_trees(theirs)  # the premise: no tie decided a split
    ours = RandomForestClassifier(**settings).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, atol=1e-9)


@pytest.mark.parametrize("depth", [2, 3, 5])
def test_without_randomness_the_forest_regressor_predicts_as_scikit_learns(depth):
    X, _, target = continuous(seed=1)
    settings = dict(n_estimators=5, bootstrap=False, max_features=1.0, max_depth=depth, min_samples_leaf=10)
    theirs = ensemble.RandomForestRegressor(**settings, random_state=0).fit(X, target)
    assert same_trees(theirs)
    ours = RandomForestRegressor(**settings).fit(X, target)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, atol=1e-9)


def test_without_bootstrap_bagging_predicts_as_scikit_learns():
    X, y, target = continuous(seed=2)
    theirs = ensemble.BaggingClassifier(tree.DecisionTreeClassifier(max_depth=3, min_samples_leaf=10), n_estimators=4,
                                        bootstrap=False, random_state=0).fit(X, y)
    assert same_trees(theirs)
    ours = BaggingClassifier(n_estimators=4, bootstrap=False, max_depth=3, min_samples_leaf=10).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    theirs = ensemble.BaggingRegressor(tree.DecisionTreeRegressor(max_depth=3, min_samples_leaf=10), n_estimators=4,
                                       bootstrap=False, random_state=0).fit(X, target)
    assert same_trees(theirs)
    ours = BaggingRegressor(n_estimators=4, bootstrap=False, max_depth=3, min_samples_leaf=10).fit(X, target)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9)


TABLES = {
    "iris": (datasets.load_iris, "classification"),
    "wine": (datasets.load_wine, "classification"),
    "breast cancer": (datasets.load_breast_cancer, "classification"),
    "diabetes": (datasets.load_diabetes, "regression"),
}
TREES = 100


def cv_mean(model, X, y, task):
    folds = (StratifiedKFold if task == "classification" else KFold)(5, shuffle=True, random_state=0)
    return float(np.mean(cross_val_score(model, X, y, cv=folds)))


@pytest.mark.parametrize("table", list(TABLES))
def test_cross_validated_score_is_scikit_learns_within_one_and_a_half_points(table):
    load, task = TABLES[table]
    X, y = load(return_X_y=True)
    pair = ((RandomForestClassifier, ensemble.RandomForestClassifier) if task == "classification"
            else (RandomForestRegressor, ensemble.RandomForestRegressor))
    ours, theirs = (cls(n_estimators=TREES, random_state=0) for cls in pair)
    mine, reference = cv_mean(ours, X, y, task), cv_mean(theirs, X, y, task)
    assert abs(mine - reference) <= 0.015, (table, mine, reference)


@pytest.mark.parametrize("table", ["breast cancer", "diabetes"])
def test_bagging_cross_validated_score_is_scikit_learns_within_one_and_a_half_points(table):
    load, task = TABLES[table]
    X, y = load(return_X_y=True)
    pair = ((BaggingClassifier, ensemble.BaggingClassifier) if task == "classification"
            else (BaggingRegressor, ensemble.BaggingRegressor))
    ours, theirs = (cls(n_estimators=50, random_state=0) for cls in pair)
    mine, reference = cv_mean(ours, X, y, task), cv_mean(theirs, X, y, task)
    assert abs(mine - reference) <= 0.015, (table, mine, reference)


def test_out_of_bag_score_is_near_scikit_learns():
    X, y = datasets.load_breast_cancer(return_X_y=True)
    ours = RandomForestClassifier(200, oob_score=True, random_state=0).fit(X, y)
    theirs = ensemble.RandomForestClassifier(200, oob_score=True, random_state=0).fit(X, y)
    assert abs(ours.oob_score_ - theirs.oob_score_) <= 0.02
    assert ours.oob_decision_function_.shape == theirs.oob_decision_function_.shape


def test_clone_pipeline_and_grid_search_take_the_forest():
    from sklearn.base import clone
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = datasets.load_iris(return_X_y=True)
    forest = RandomForestClassifier(n_estimators=10, max_depth=3)
    assert clone(forest).get_params() == forest.get_params()
    pipe = make_pipeline(StandardScaler(), forest).fit(X, y)
    assert pipe.score(X, y) > 0.9
    search = GridSearchCV(RandomForestClassifier(n_estimators=10), {"max_depth": [1, 3]}, cv=3).fit(X, y)
    assert search.best_params_ == {"max_depth": 3}
