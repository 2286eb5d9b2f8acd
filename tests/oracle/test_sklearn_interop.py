"""Every pellucid estimator works inside scikit-learn's own tools, where the tool makes sense for it.

clone, is_classifier / is_regressor, Pipeline (with nested set_params), cross_val_score, GridSearchCV
and BaggingClassifier / BaggingRegressor are scikit-learn's code calling pellucid's, so each test here
is an oracle: scikit-learn runs, and the numbers it reports must equal pellucid's own.
"""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.base import clone, is_classifier, is_clusterer, is_regressor
from sklearn.datasets import load_diabetes, load_iris
from sklearn.ensemble import BaggingClassifier, BaggingRegressor
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

import pellucid

ESTIMATORS = pellucid.all_estimators()
pytestmark = pytest.mark.filterwarnings("ignore::pellucid.ConvergenceWarning")


def task_of(cls):
    return getattr(cls.task, "value", cls.task)


def data_for(name, cls):
    """Rows the estimator can learn from: iris (counts or 0/1 where the model needs them), or diabetes."""
    if task_of(cls) == "regression":
        X, y = load_diabetes(return_X_y=True)
        return X[:90], y[:90]
    X, y = load_iris(return_X_y=True)
    rows = np.r_[0:30, 50:80, 100:130]
    X, y = X[rows], y[rows]
    if name == "BernoulliNB":
        X = (X > X.mean(axis=0)).astype(float)
    elif name in ("MultinomialNB", "CategoricalNB"):
        X = np.round(X)
    return X, (y if task_of(cls) == "classification" else None)


def a_changed_param(est):
    """(name, value): a parameter and a value other than its default, for set_params round trips."""
    if "trace" in est.get_params():
        return "trace", not est.trace
    name, value = next(iter(est.get_params().items()))
    return name, value


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_clone_copies_parameters_not_state(name):
    cls = ESTIMATORS[name]
    X, y = data_for(name, cls)
    est = cls().set_params(**dict([a_changed_param(cls())]))
    est.fit(X, y)
    copy = clone(est)
    assert type(copy) is cls
    assert copy.get_params(deep=False) == est.get_params(deep=False)
    assert not copy.fitted_attributes()


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_estimator_type_matches_task(name):
    est = ESTIMATORS[name]()
    task = task_of(type(est))
    assert is_classifier(est) == (task == "classification")
    assert is_regressor(est) == (task == "regression")
    assert is_clusterer(est) == (task == "clustering")
    assert est._estimator_type == {"classification": "classifier", "regression": "regressor",
                                   "clustering": "clusterer"}.get(task)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_pipeline_nested_set_params_and_same_output(name):
    cls = ESTIMATORS[name]
    X, y = data_for(name, cls)
    pipe = Pipeline([("scale", FunctionTransformer()), ("model", cls())])
    param, value = a_changed_param(cls())
    pipe.set_params(**{f"model__{param}": value})
    assert pipe.get_params()[f"model__{param}"] == value
    assert pipe.named_steps["model"].get_params()[param] == value
    pipe.fit(X, y)
    alone = cls(**{param: value}).fit(X, y)
    if hasattr(alone, "predict") and task_of(cls) != "clustering":
        np.testing.assert_array_equal(pipe.predict(X), alone.predict(X))
    if hasattr(alone, "transform"):
        np.testing.assert_allclose(pipe.transform(X), alone.transform(X))


def test_get_params_deep_reaches_a_nested_estimator():
    """A parameter holding an estimator shows its own parameters as "name__param" and can set them."""
    pipe = make_pipeline(StandardScaler(), pellucid.KNeighborsClassifier(n_neighbors=3))
    deep = pipe.get_params(deep=True)
    assert deep["kneighborsclassifier__n_neighbors"] == 3
    pipe.set_params(kneighborsclassifier__n_neighbors=5)
    assert pipe.steps[-1][1].n_neighbors == 5
    with pytest.raises(pellucid.DataError, match="no parameter 'kk'"):
        pellucid.KNeighborsClassifier().set_params(kk=1)


SUPERVISED = [n for n, c in ESTIMATORS.items() if task_of(c) in ("classification", "regression")]


@pytest.mark.parametrize("name", SUPERVISED)
def test_cross_val_score_equals_a_hand_written_loop(name):
    cls = ESTIMATORS[name]
    X, y = data_for(name, cls)
    folds = KFold(3, shuffle=True, random_state=0)
    scores = cross_val_score(cls(), X, y, cv=folds)
    by_hand = [cls().fit(X[train], y[train]).score(X[test], y[test]) for train, test in folds.split(X)]
    np.testing.assert_allclose(scores, by_hand)


# A hyperparameter of each supervised estimator that changes what it learns, and two values for it.
GRIDS = {"BernoulliNB": {"alpha": [0.5, 2.0]}, "CategoricalNB": {"alpha": [0.5, 2.0]},
         "DecisionTreeClassifier": {"max_depth": [1, 3]}, "DecisionTreeRegressor": {"max_depth": [1, 3]},
         "GaussianNB": {"var_smoothing": [1e-9, 0.5]}, "KNeighborsClassifier": {"n_neighbors": [1, 7]},
         "KNeighborsRegressor": {"n_neighbors": [1, 7]}, "KernelPerceptron": {"max_iter": [1, 20]},
         "KernelRegression": {"l2": [0.0, 1.0]}, "LinearRegression": {"l2": [0.0, 1.0]},
         "LogisticRegression": {"l2": [0.01, 1.0]}, "MultinomialNB": {"alpha": [0.5, 2.0]},
         "Perceptron": {"max_iter": [1, 20]}, "RandomForestClassifier": {"max_depth": [1, 3]},
         "RandomForestRegressor": {"max_depth": [1, 3]}, "BaggingClassifier": {"max_depth": [1, 3]},
         "BaggingRegressor": {"max_depth": [1, 3]}, "MLPClassifier": {"alpha": [1e-4, 1.0]},
         "MLPRegressor": {"alpha": [1e-4, 1.0]}, "GradientBoostingClassifier": {"max_depth": [1, 3]},
         "GradientBoostingRegressor": {"max_depth": [1, 3]}, "AdaBoostClassifier": {"n_estimators": [1, 10]}}


def test_every_supervised_estimator_has_a_grid():
    assert set(GRIDS) == set(SUPERVISED)


@pytest.mark.parametrize("name", SUPERVISED)
def test_grid_search_picks_the_best_value_it_reports(name):
    cls = ESTIMATORS[name]
    X, y = data_for(name, cls)
    search = GridSearchCV(cls(), GRIDS[name], cv=3).fit(X, y)
    means = search.cv_results_["mean_test_score"]
    assert search.best_score_ == pytest.approx(means.max())
    assert search.best_params_ == search.cv_results_["params"][int(np.argmax(means))]
    assert type(search.best_estimator_) is cls
    assert search.best_estimator_.fitted_attributes()


@pytest.mark.parametrize("name", SUPERVISED)
def test_bagging_averages_pellucid_models(name):
    cls = ESTIMATORS[name]
    X, y = data_for(name, cls)
    bagging = BaggingClassifier if task_of(cls) == "classification" else BaggingRegressor
    ensemble = bagging(cls(), n_estimators=3, random_state=0).fit(X, y)
    assert all(type(member) is cls for member in ensemble.estimators_)
    predictions = ensemble.predict(X)
    assert predictions.shape == (len(X),)
    if task_of(cls) == "classification":
        assert set(np.unique(predictions)) <= set(np.unique(y))
        assert ensemble.score(X, y) > 0.5
    else:
        members = np.mean([m.predict(X) for m in ensemble.estimators_], axis=0)
        np.testing.assert_allclose(predictions, members)
