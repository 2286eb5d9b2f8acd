"""Which features matter: permutation importance against scikit-learn's permutation_importance with the
same seed (classifiers, regressors, losses, ranking scores, a realistic table with text categories and
missing values), and a tree's impurity importance against scikit-learn's feature_importances_."""

import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_diabetes, load_iris, load_wine
from sklearn.inspection import permutation_importance as sk_permutation_importance
from sklearn.tree import DecisionTreeClassifier as SkTree
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from pellucid import (DataError, DecisionTreeClassifier, DecisionTreeRegressor, GaussianNB, KMeans,
                      KNeighborsClassifier, LinearRegression, LogisticRegression, read_csv)
from pellucid.evaluation.importance import impurity_importance, permutation_importance
from realistic_tables import churn_csv

# Our scoring names and scikit-learn's (losses are negated there, so the importances are the same).
SK_NAMES = {None: None, "accuracy": "accuracy", "balanced_accuracy": "balanced_accuracy",
            "log_loss": "neg_log_loss", "roc_auc": "roc_auc", "average_precision": "average_precision",
            "r2": "r2", "mean_squared_error": "neg_mean_squared_error",
            "mean_absolute_error": "neg_mean_absolute_error"}


def _same_as_sklearn(model, X, y, scoring, n_repeats, seed):
    ours = permutation_importance(model, X, y, scoring=scoring, n_repeats=n_repeats, seed=seed)
    theirs = sk_permutation_importance(model, X, y, scoring=SK_NAMES[scoring], n_repeats=n_repeats,
                                       random_state=seed)
    np.testing.assert_allclose(ours["importances"], theirs.importances, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours["importances_mean"], theirs.importances_mean, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours["importances_std"], theirs.importances_std, rtol=1e-9, atol=1e-12)
    return ours


@pytest.mark.parametrize("seed", [0, 1, 42, 2 ** 31 + 5])
@pytest.mark.parametrize("n_repeats", [1, 4])
def test_classifier_on_held_out_rows_matches_sklearn(seed, n_repeats):
    X, y = load_iris(return_X_y=True)
    model = KNeighborsClassifier(n_neighbors=5).fit(X[::2], y[::2])
    _same_as_sklearn(model, X[1::2], y[1::2], None, n_repeats, seed)


@pytest.mark.parametrize("scoring", ["accuracy", "balanced_accuracy", "log_loss", "roc_auc",
                                     "average_precision"])
def test_binary_scorers_match_sklearn(scoring):
    X, y = load_wine(return_X_y=True)
    keep = y < 2
    X, y = X[keep], y[keep]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = LogisticRegression().fit(X[::2], y[::2])  # roc_auc reads its decision_function
    _same_as_sklearn(model, X[1::2], y[1::2], scoring, 3, 7)
    _same_as_sklearn(GaussianNB().fit(X[::2], y[::2]), X[1::2], y[1::2], scoring, 3, 7)


@pytest.mark.parametrize("scoring", [None, "r2", "mean_squared_error", "mean_absolute_error"])
def test_regressor_and_losses_match_sklearn(scoring):
    X, y = load_diabetes(return_X_y=True)
    model = LinearRegression().fit(X[:300], y[:300])
    result = _same_as_sklearn(model, X[300:], y[300:], scoring, 3, 1)
    assert result["greater_is_better"] == (scoring in (None, "r2"))
    if scoring == "mean_squared_error":  # importance is the rise in the loss
        assert result["baseline"] > 0 and max(result["importances_mean"]) > 0


def test_realistic_table_matches_sklearn_on_the_same_values():
    table = read_csv(churn_csv())
    features = ["plan", "monthly_fee", "discount", "tenure_months"]
    X, y = table.select(features).fill_missing(), table.column("churned")
    train, held = np.arange(14_000), np.arange(14_000, 20_000)
    model = DecisionTreeClassifier(max_depth=6).fit(X.take(train), y[train])
    ours = permutation_importance(model, X.take(held), y[held], n_repeats=3, seed=5)
    as_array = np.column_stack([X.take(held).column(f).astype(object) for f in features])
    theirs = sk_permutation_importance(model, as_array, y[held], n_repeats=3, random_state=5)
    np.testing.assert_allclose(ours["importances"], theirs.importances, atol=1e-12)
    assert ours["features"] == features
    mean, std = np.array(ours["importances_mean"]), np.array(ours["importances_std"])
    assert features[int(np.argmax(mean))] == "tenure_months"  # the churn rule leans on tenure most
    assert abs(mean[2]) < 3 * std[2] + 0.005  # the discount carries nothing about churn


def test_the_callers_data_and_model_are_left_as_they_were():
    X, y = load_iris(return_X_y=True)
    model = GaussianNB().fit(X, y)
    before_X, before_theta = X.copy(), model.theta_.copy()
    permutation_importance(model, X, y, n_repeats=2)
    np.testing.assert_array_equal(X, before_X)
    np.testing.assert_array_equal(model.theta_, before_theta)


def test_a_feature_the_model_ignores_has_zero_importance():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 3))
    y = 3 * X[:, 0] - X[:, 1]  # the third column plays no part
    model = LinearRegression().fit(X, y)
    model.coef_[2] = 0.0
    result = permutation_importance(model, X, y, n_repeats=5, seed=0)
    assert result["importances_mean"][2] == 0.0 and result["importances_std"][2] == 0.0
    assert result["importances_mean"][0] > result["importances_mean"][1] > 0


@pytest.mark.parametrize("kwargs, message", [
    ({"n_repeats": 0}, "n_repeats"),
    ({"seed": -1}, "seed"),
    ({"scoring": "f2"}, "Unknown scoring"),
    ({"y": np.zeros(10)}, "inconsistent numbers"),
])
def test_bad_arguments_are_data_errors(kwargs, message):
    X, y = load_iris(return_X_y=True)
    args = {"model": GaussianNB().fit(X, y), "X": X, "y": y, **kwargs}
    with pytest.raises(DataError, match=message):
        permutation_importance(**args)


def test_models_without_a_target_or_probabilities_are_refused():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(DataError, match="no target to score"):
        permutation_importance(KMeans(n_clusters=3).fit(X), X, y)
    with pytest.raises(DataError, match="classifier's probabilities"):
        permutation_importance(LinearRegression().fit(X, y), X, y, scoring="log_loss")


# --- a tree's impurity importance ----------------------------------------------------------------

def _numeric_data(seed, n=3000):
    """Continuous features on scales 0.01 to 10,000 with large nodes, so no two splits tie and both
    libraries grow the same tree."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5)) * np.array([0.01, 1, 100, 10_000, 1])
    return X, rng


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_impurity_importance_matches_sklearn_for_a_classifier(criterion):
    X, rng = _numeric_data(0)
    y = (100 * X[:, 0] + X[:, 1] + rng.normal(0, 0.5, len(X)) > 0).astype(int) + (X[:, 2] > 50)
    ours = impurity_importance(DecisionTreeClassifier(criterion=criterion, max_depth=4).fit(X, y))
    theirs = SkTree(criterion=criterion, max_depth=4, random_state=0).fit(X, y).feature_importances_
    np.testing.assert_allclose(ours["importances"], theirs, atol=1e-12)
    assert sum(ours["importances"]) == pytest.approx(1.0)


def test_impurity_importance_matches_sklearn_for_a_regressor():
    X, rng = _numeric_data(1)
    y = 300 * X[:, 0] + 2 * np.sin(X[:, 1]) + rng.normal(0, 0.3, len(X))
    ours = impurity_importance(DecisionTreeRegressor(max_depth=4).fit(X, y, feature_names=list("abcde")))
    theirs = SkRegressor(max_depth=4, random_state=0).fit(X, y).feature_importances_
    np.testing.assert_allclose(ours["importances"], theirs, atol=1e-12)
    assert ours["features"] == list("abcde")


def test_impurity_importance_needs_a_fitted_tree():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(DataError, match="not a fitted decision tree"):
        impurity_importance(GaussianNB().fit(X, y))
    with pytest.raises(DataError, match="not a fitted decision tree"):
        impurity_importance(DecisionTreeClassifier())
    stump = impurity_importance(DecisionTreeClassifier(min_samples_split=1000).fit(X, y))
    assert stump["importances"] == [0.0] * 4  # a tree that never splits
