"""One contract, checked over every estimator pellucid registers (after scikit-learn's test_common).

Defaults construct; __init__ stores parameters only; get_params round-trips; unknown parameters are
refused with the valid list; every parameter has a rule and a wrong value fails fit with DataError;
use before fit raises NotFittedError; fit returns self and sets only attributes ending in "_";
to_dict is strict JSON and from_dict rebuilds a model that predicts the same; trace=True records a
JSON-able trace.
"""

import json

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_diabetes, load_iris

import pellucid
from pellucid import DataError, NotFittedError

ESTIMATORS = pellucid.all_estimators()


def _iris():
    X, y = load_iris(return_X_y=True)
    rows = np.r_[0:20, 50:70, 100:120]
    return X[rows], y[rows]


def _binary_features():
    X, y = _iris()
    return (X > X.mean(axis=0)).astype(float), y


def _counts():
    X, y = _iris()
    return np.round(X * 2), y


def _categorical():
    X, y = _iris()
    levels = np.array(["low", "mid", "high"], dtype=object)
    codes = np.digitize(X, np.quantile(X, [1 / 3, 2 / 3], axis=0).mean(axis=1))
    return levels[np.clip(codes, 0, 2)], y


def _regression():
    X, y = load_diabetes(return_X_y=True)
    return X[:80], y[:80]


SPECIAL_DATA = {"BernoulliNB": _binary_features, "MultinomialNB": _counts, "CategoricalNB": _categorical}
TASK_DATA = {"classification": _iris, "regression": _regression, "clustering": _iris, "projection": _iris}


def data_for(name, cls):
    X, y = SPECIAL_DATA.get(name, TASK_DATA[cls.task])()
    return X, (y if cls.task in ("classification", "regression") else None)


def outputs(model, X):
    """What a fitted model produces for X: predictions, or the transform for a transformer."""
    if hasattr(model, "predict"):
        return np.asarray(model.predict(X))
    return np.asarray(model.transform(X))


@pytest.fixture(params=sorted(ESTIMATORS), ids=sorted(ESTIMATORS))
def case(request):
    name = request.param
    cls = ESTIMATORS[name]
    return name, cls, *data_for(name, cls)


def test_registry_holds_every_family():
    expected = {"DecisionTreeClassifier", "DecisionTreeRegressor", "LinearRegression", "LogisticRegression",
                "Perceptron", "BernoulliNB", "MultinomialNB", "CategoricalNB", "GaussianNB",
                "KNeighborsClassifier", "KNeighborsRegressor", "KernelRegression", "KernelPerceptron",
                "KMeans", "AgglomerativeClustering", "PCA"}
    assert expected <= set(ESTIMATORS)


def test_init_stores_parameters_only(case):
    name, cls, X, y = case
    model = cls()
    assert sorted(vars(model)) == sorted(model.get_params())


def test_get_params_round_trip(case):
    name, cls, X, y = case
    params = cls().get_params()
    assert cls(**params).get_params() == params


def test_unknown_parameter_lists_valid_ones(case):
    name, cls, X, y = case
    with pytest.raises(DataError) as error:
        cls().set_params(no_such_parameter=1)
    for valid in cls().get_params():
        assert valid in str(error.value)


def test_every_parameter_has_a_rule_and_is_checked(case):
    name, cls, X, y = case
    assert set(cls._param_rules) == set(cls().get_params()), "each hyperparameter needs a rule for the UI"
    for param in cls().get_params():
        model = cls().set_params(**{param: object()})
        with pytest.raises(DataError, match=param):
            model.fit(X, y)


def test_not_fitted_error(case):
    name, cls, X, y = case
    with pytest.raises(NotFittedError):
        outputs(cls(), X)
    with pytest.raises(NotFittedError):
        cls().to_dict()


def test_fit_returns_self_and_sets_underscored_attributes(case):
    name, cls, X, y = case
    model = cls()
    before = set(vars(model))
    assert model.fit(X, y) is model
    added = set(vars(model)) - before
    assert added, "fit must set fitted attributes"
    public = [a for a in added if not a.startswith("_")]
    assert all(a.endswith("_") for a in public), public
    assert model.get_params() == cls().get_params(), "fit must not change hyperparameters"


def test_to_dict_is_json_and_from_dict_predicts_the_same(case):
    name, cls, X, y = case
    model = cls().fit(X, y)
    described = json.loads(json.dumps(model.to_dict(), allow_nan=False))
    rebuilt = pellucid.from_dict(described)
    assert type(rebuilt) is cls
    np.testing.assert_array_equal(outputs(rebuilt, X), outputs(model, X))


def test_trace_is_recorded_as_json(case):
    name, cls, X, y = case
    model = cls(trace=True).fit(X, y)
    assert isinstance(model.trace_, list) and model.trace_, "trace=True must record the algorithm's steps"
    json.dumps(model.trace_, allow_nan=False)


def test_fit_does_not_mutate_inputs(case):
    name, cls, X, y = case
    X_before = X.copy()
    y_before = None if y is None else y.copy()
    cls().fit(X, y)
    np.testing.assert_array_equal(X, X_before)
    if y is not None:
        np.testing.assert_array_equal(y, y_before)


def test_from_dict_refuses_what_is_not_a_model():
    with pytest.raises(DataError, match="not a pellucid model"):
        pellucid.from_dict({"hello": "world"})
    with pytest.raises(DataError, match="Unknown model"):
        pellucid.from_dict({"format": "pellucid-model", "model": "Nonsense"})
