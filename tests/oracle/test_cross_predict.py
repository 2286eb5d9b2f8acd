"""Out-of-fold predictions: each row predicted by the model fitted without it, as scikit-learn's
cross_val_predict does on the same folds (labels, probabilities, values, text labels, a class missing
from a fold's training rows, a realistic table), and on the same folds as cross_validate."""

import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_diabetes, load_iris
from sklearn.model_selection import cross_val_predict as sk_cross_val_predict

from pellucid import (DataError, DecisionTreeClassifier, GaussianNB, KNeighborsRegressor, LinearRegression,
                      LogisticRegression, Perceptron, cross_validate, read_csv)
from pellucid.evaluation.cross_predict import cross_val_predict, folds_for
from pellucid.evaluation.metrics import accuracy_score
from realistic_tables import churn_csv


def _their_folds(model, X, y, k, seed=0):
    return list(folds_for(model, k, seed=seed).split(X, y))


@pytest.mark.parametrize("method", ["predict", "predict_proba"])
@pytest.mark.parametrize("k", [2, 5, 10])
def test_classifier_matches_sklearn_on_the_same_folds(method, k):
    X, y = load_iris(return_X_y=True)
    model = GaussianNB()
    ours = cross_val_predict(model, X, y, k=k, seed=3, method=method)
    theirs = sk_cross_val_predict(model, X, y, cv=_their_folds(model, X, y, k, seed=3), method=method)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


@pytest.mark.parametrize("model", [LinearRegression(), KNeighborsRegressor(n_neighbors=7)])
def test_regressor_matches_sklearn(model):
    X, y = load_diabetes(return_X_y=True)
    ours = cross_val_predict(model, X, y, k=10)
    theirs = sk_cross_val_predict(model, X, y, cv=_their_folds(model, X, y, 10))
    np.testing.assert_allclose(ours, theirs, rtol=1e-10)


def test_text_labels_and_the_fold_of_each_row():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    model = DecisionTreeClassifier(max_depth=2)
    ours, fold = cross_val_predict(model, X, names, k=4, return_folds=True)
    np.testing.assert_array_equal(ours, sk_cross_val_predict(model, X, names, cv=_their_folds(model, X, names, 4)))
    for i, (train, test) in enumerate(_their_folds(model, X, names, 4)):
        assert np.all(fold[test] == i)
        fitted = DecisionTreeClassifier(max_depth=2).fit(X[train], names[train])
        np.testing.assert_array_equal(ours[test], fitted.predict(X[test]))  # the model that did not see them


def test_a_class_missing_from_a_folds_training_rows_gets_probability_zero():
    X, y = load_iris(return_X_y=True)
    y = y.copy()
    y[:3] = 7  # a rare class, all in the first test fold
    rows = np.arange(150)
    folds = [(rows[3:], rows[:3]), (np.r_[rows[:3], rows[75:]], rows[3:75]), (rows[:75], rows[75:])]
    ours = cross_val_predict(GaussianNB(), X, y, cv=folds, method="predict_proba")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn warns that a fold's training rows lack a class
        theirs = sk_cross_val_predict(GaussianNB(), X, y, cv=folds, method="predict_proba")
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    assert np.all(ours[:3, 3] == 0)  # the fold that predicts them never saw class 7


def test_same_folds_as_cross_validate_and_per_fold_accuracy_agrees():
    X, y = load_iris(return_X_y=True)
    model = GaussianNB()
    cv = cross_validate(model, X, y, k=5, seed=11, return_indices=True)
    predicted = cross_val_predict(model, X, y, k=5, seed=11)
    for rows, score in zip(cv["test_rows"], cv["test_scores"]):
        assert accuracy_score(y[rows], predicted[rows]) == pytest.approx(score)


def test_realistic_table_with_text_categories_and_a_left_unfitted_model():
    table = read_csv(churn_csv(n=20_000, seed=2))
    X = table.select(["plan", "monthly_fee", "discount", "tenure_months"]).fill_missing()
    y = table.column("churned")
    model = DecisionTreeClassifier(max_depth=5)
    proba = cross_val_predict(model, X, y, k=5, method="predict_proba")
    labels = cross_val_predict(model, X, y, k=5)
    assert proba.shape == (20_000, 2) and np.allclose(proba.sum(axis=1), 1)
    np.testing.assert_array_equal(labels, np.array(["no", "yes"])[np.argmax(proba, axis=1)])
    as_array = np.column_stack([X.column(c).astype(object) for c in X.columns])
    theirs = sk_cross_val_predict(model, as_array, y, cv=_their_folds(model, X, y, 5), method="predict_proba")
    np.testing.assert_allclose(proba, theirs, rtol=1e-12)
    assert not hasattr(model, "tree_")  # the caller's model is not fitted


@pytest.mark.parametrize("kwargs, message", [
    ({"method": "decision_function"}, "method must be"),
    ({"k": 1}, "k must be an integer >= 2"),
    ({"k": 500}, "Cannot make k=500 folds"),
    ({"cv": [(np.arange(75, 150), np.arange(75))]}, "every row exactly once"),
    ({"y": np.zeros(10)}, "one value per row"),
])
def test_bad_arguments_are_data_errors(kwargs, message):
    X, y = load_iris(return_X_y=True)
    args = {"model": GaussianNB(), "X": X, "y": y, **kwargs}
    with pytest.raises(DataError, match=message):
        cross_val_predict(**args)


def test_probabilities_from_a_model_without_them_are_refused():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(DataError, match="gives no probabilities"):
        cross_val_predict(Perceptron(), X, y, method="predict_proba")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert cross_val_predict(LogisticRegression(), X, y, method="predict_proba").shape == (150, 3)
