"""Decision trees: the nested JSON description and its round trip, and the errors bad input raises."""

import json

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_diabetes, load_iris

import pellucid
from pellucid import DataError, NotFittedError
from pellucid.tabular.datasets import load_restaurant
from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _round_trip(model):
    return pellucid.from_dict(json.loads(json.dumps(model.to_dict(), allow_nan=False)))


def _mixed():
    X, y = load_iris(return_X_y=True)
    size = np.where(X[:, 0] > 5.8, "big", "small").astype(object)
    return np.column_stack([size, X[:, 1:]]), np.array(["setosa", "versicolor", "virginica"])[y]


def test_description_of_a_mixed_tree():
    X, y = _mixed()
    model = DecisionTreeClassifier(max_depth=3).fit(X, y, feature_names=["size", "sw", "pl", "pw"])
    d = model.to_dict()
    assert d["format"] == "pellucid-model" and d["model"] == "DecisionTreeClassifier"
    assert d["params"]["max_depth"] == 3
    assert d["classes"] == ["setosa", "versicolor", "virginica"]
    assert d["feature_names"] == ["size", "sw", "pl", "pw"]
    assert d["feature_kinds"] == ["categorical", "numeric", "numeric", "numeric"]
    assert d["categories"] == [["big", "small"], None, None, None]
    root = d["tree"]
    assert set(root) >= {"samples", "counts", "prediction", "impurity", "feature", "gain", "candidates"}
    assert root["samples"] == 150 and root["counts"] == {"setosa": 50, "versicolor": 50, "virginica": 50}
    assert root["impurity"] == pytest.approx(np.log2(3))
    assert {"threshold", "left", "right"} <= set(root) and root["threshold"] == 2.45
    assert set(root["candidates"]) == {"size", "sw", "pl", "pw"}
    assert d["n_nodes"] == model.tree_.node_count and d["depth"] == 3


@pytest.mark.parametrize("prune", [None, "chi2", "reduced_error"])
def test_round_trip_predicts_identically(prune):
    X, y = _mixed()
    model = DecisionTreeClassifier(prune=prune).fit(X, y)
    rebuilt = _round_trip(model)
    assert isinstance(rebuilt, DecisionTreeClassifier) and rebuilt.get_params() == model.get_params()
    probe = np.concatenate([X, np.array([["huge", 3.0, 4.0, 1.0]], dtype=object)])  # one unseen value
    np.testing.assert_array_equal(rebuilt.predict(probe), model.predict(probe))
    np.testing.assert_array_equal(rebuilt.predict_proba(probe), model.predict_proba(probe))
    assert rebuilt.to_dict() == model.to_dict()
    assert rebuilt.export_text() == model.export_text()


def test_round_trip_of_the_restaurant_tree_and_a_regressor():
    data = load_restaurant()
    model = DecisionTreeClassifier().fit(data.X, data.y, feature_names=data.feature_names)
    rebuilt = _round_trip(model)
    np.testing.assert_array_equal(rebuilt.predict(data.X), model.predict(data.X))
    assert rebuilt.to_dict()["tree"]["branches"]["Full"]["branches"]["Yes"]["branches"]["French"]["samples"] == 0
    X, y = load_diabetes(return_X_y=True)
    regressor = DecisionTreeRegressor(max_depth=6).fit(X, y)
    again = _round_trip(regressor)
    np.testing.assert_array_equal(again.predict(X), regressor.predict(X))
    assert again.to_dict() == regressor.to_dict()


def test_from_dict_refuses_a_damaged_tree():
    X, y = _mixed()
    d = json.loads(json.dumps(DecisionTreeClassifier(max_depth=2).fit(X, y).to_dict()))
    del d["tree"]["left"]
    with pytest.raises(DataError, match="damaged.*tree.left"):
        pellucid.from_dict(d)


def test_bad_input_raises_data_error():
    X, y = load_iris(return_X_y=True)
    bad = X.copy()
    bad[5, 2] = np.inf  # a missing number (NaN) the tree takes; an infinite one it refuses
    with pytest.raises(DataError, match="x2.*infinite"):
        DecisionTreeClassifier().fit(bad, y)
    with pytest.raises(DataError, match="at least 2 classes"):
        DecisionTreeClassifier().fit(X, np.zeros(len(y)))
    with pytest.raises(DataError, match="inconsistent numbers of samples"):
        DecisionTreeClassifier().fit(X, y[:-1])
    text = np.array([["a"], [None], ["b"]], dtype=object)  # None is missing; "" would be a value
    with pytest.raises(DataError, match="x0.*missing"):
        DecisionTreeClassifier().fit(text, [0, 1, 0])
    with pytest.raises(DataError, match="X_val and y_val"):
        DecisionTreeClassifier(prune="reduced_error").fit(X, y, X_val=X)
    model = DecisionTreeClassifier().fit(X, y)
    with pytest.raises(DataError, match="4 features|fitted on 4"):
        model.predict(X[:, :3])
    with pytest.raises(DataError, match="missing"):
        DecisionTreeRegressor().fit(X, np.where(np.arange(150) == 3, np.nan, 1.0))


@pytest.mark.parametrize("params, name", [
    ({"criterion": "log_loss"}, "criterion"), ({"max_depth": 0}, "max_depth"),
    ({"min_samples_split": 1}, "min_samples_split"), ({"min_gain": -0.1}, "min_gain"),
    ({"prune": "cost_complexity"}, "prune"), ({"alpha": 1.5}, "alpha"),
    ({"validation_fraction": 1.0}, "validation_fraction"), ({"random_state": -1}, "random_state"),
])
def test_bad_parameters_are_named(params, name):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(DataError, match=name):
        DecisionTreeClassifier(**params).fit(X, y)


def test_not_fitted():
    with pytest.raises(NotFittedError):
        DecisionTreeClassifier().predict([[1.0]])
    with pytest.raises(NotFittedError):
        DecisionTreeRegressor().export_text()


def test_none_is_a_value_not_a_missing_cell():
    # The restaurant data's Patrons attribute has a value spelled "None".
    X = np.array([["None"], ["Some"], ["None"], ["Full"]], dtype=object)
    model = DecisionTreeClassifier().fit(X, ["No", "Yes", "No", "Yes"], feature_names=["Pat"])
    assert model.categories_ == [["Full", "None", "Some"]]
    assert model.predict(np.array([["None"]], dtype=object)).tolist() == ["No"]
    with pytest.raises(DataError, match="Pat.*missing"):
        model.predict(np.array([[None]], dtype=object))
