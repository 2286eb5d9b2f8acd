"""LogisticRegression: the notes' likelihood and gradient, and scikit-learn's LogisticRegression as the oracle."""

import json
import math

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import linear_model as sk
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import pellucid.learners.logistic.logistic as logistic
import pellucid.learners.logistic.logistic_fast as logistic_fast
from pellucid.core.base import from_dict
from pellucid.core.errors import ConvergenceWarning, DataError, NotFittedError
from pellucid.learners.logistic.logistic import LogisticRegression, binary_log_loss, softmax_log_loss

TIGHT = {"tol": 1e-10, "max_iter": 10_000}  # run scikit-learn to its optimum


def sklearn_c(n, l2):
    return 1.0 / (n * l2)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


# --- the notes' formulas --------------------------------------------------------------------------

def test_gradient_is_the_seed_001_formula_and_matches_finite_differences():
    rng = np.random.default_rng(0)
    Xb = np.column_stack([np.ones(40), rng.normal(size=(40, 3))])
    y = rng.integers(0, 2, 40)
    w = rng.normal(size=4)
    value_grad, hessian = binary_log_loss(Xb, y, l2=0.0)
    loss, grad = value_grad(w)
    sigma = 1 / (1 + np.exp(-Xb @ w))
    # LL(theta) = sum y log sigma + (1 - y) log(1 - sigma); dLL/dtheta_j = sum (y - sigma) x_j
    ll = np.sum(y * np.log(sigma) + (1 - y) * np.log(1 - sigma))
    assert loss == pytest.approx(-ll / 40, rel=1e-12)
    np.testing.assert_allclose(grad, -((y - sigma) @ Xb) / 40, atol=1e-12)
    eps = 1e-6
    numeric = [(value_grad(w + eps * e)[0] - value_grad(w - eps * e)[0]) / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(grad, numeric, atol=1e-8)
    numeric_h = np.array([(value_grad(w + eps * e)[1] - value_grad(w - eps * e)[1]) / (2 * eps)
                          for e in np.eye(4)])
    np.testing.assert_allclose(hessian(w), numeric_h, atol=1e-6)


def test_softmax_gradient_and_hessian_match_finite_differences():
    rng = np.random.default_rng(1)
    Xb = np.column_stack([np.ones(30), rng.normal(size=(30, 2))])
    y = rng.integers(0, 3, 30)
    w = rng.normal(size=9)
    value_grad, hessian = softmax_log_loss(Xb, y, 3, l2=0.3)
    loss, grad = value_grad(w)
    W = w.reshape(3, 3)
    Z = Xb @ W.T
    P = np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True)  # the notes 004 softmax
    expected = -np.mean(np.log(P[np.arange(30), y])) + 0.15 * np.sum(W[:, 1:] ** 2)
    assert loss == pytest.approx(expected, rel=1e-12)
    eps = 1e-6
    numeric = np.array([(value_grad(w + eps * e)[1] - value_grad(w - eps * e)[1]) / (2 * eps)
                        for e in np.eye(9)])
    np.testing.assert_allclose(grad, [(value_grad(w + eps * e)[0] - value_grad(w - eps * e)[0]) / (2 * eps)
                                      for e in np.eye(9)], atol=1e-8)
    np.testing.assert_allclose(hessian(w), numeric, atol=1e-6)


def test_trace_starts_at_zero_weights_with_loss_log_k():
    # At theta = 0 every class has probability 1/K, so the mean negative log-likelihood is log K.
    X, y = load_iris(return_X_y=True)
    multi = LogisticRegression(l2=0.01, trace=True).fit(X, y)
    assert multi.trace_[0]["iter"] == 0 and multi.trace_[0]["loss"] == pytest.approx(math.log(3))
    assert multi.trace_[0]["weights"] == [[0.0] * 5] * 3
    binary = LogisticRegression(solver="gd", l2=0.01, max_iter=500, trace=True)
    with pytest.warns(ConvergenceWarning):
        binary.fit(X[y > 0], y[y > 0])
    assert binary.trace_[0] == {"iter": 0, "loss": pytest.approx(math.log(2)), "weights": [0.0] * 5}
    assert len(binary.trace_) <= 201 and binary.trace_[-1]["iter"] == binary.n_iter_ == 500
    losses = [row["loss"] for row in binary.trace_]
    assert losses == sorted(losses, reverse=True)  # gradient ascent on LL: the loss only falls
    assert binary.trace_[-1]["weights"] == pytest.approx([*binary.intercept_, *binary.coef_[0]])
    json.dumps(multi.trace_)


# --- scikit-learn oracle -----------------------------------------------------------------------------

@pytest.mark.parametrize("l2", [1e-2, 1e-3])
def test_binary_l2_equals_sklearn_on_breast_cancer(cancer, l2):
    X, y = cancer
    ours = LogisticRegression(l2=l2).fit(X, y)
    theirs = sk.LogisticRegression(C=sklearn_c(len(y), l2), **TIGHT).fit(X, y)
    assert ours.converged_ and ours.coef_.shape == (1, 30) and ours.intercept_.shape == (1,)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-3)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-3)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-4)


def test_standardize_true_equals_sklearn_on_standardised_data():
    X, y = load_breast_cancer(return_X_y=True)
    ours = LogisticRegression(l2=1e-2, standardize=True).fit(X, y)
    theirs = sk.LogisticRegression(C=sklearn_c(len(y), 1e-2), **TIGHT).fit(StandardScaler().fit_transform(X), y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-3)


@pytest.mark.parametrize("l2", [1e-2, 1e-3])
def test_multinomial_l2_equals_sklearn_on_iris(l2):
    X, y = load_iris(return_X_y=True)
    ours = LogisticRegression(l2=l2).fit(X, y)
    theirs = sk.LogisticRegression(C=sklearn_c(len(y), l2), **TIGHT).fit(X, y)
    assert ours.coef_.shape == (3, 4) and ours.intercept_.shape == (3,)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-3)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-3)


def test_unregularised_binary_equals_sklearn_on_a_non_separable_problem():
    X, y = load_iris(return_X_y=True)
    X, y = X[y > 0], y[y > 0]  # versicolor vs virginica overlap: the likelihood has a maximum
    ours = LogisticRegression().fit(X, y)
    theirs = sk.LogisticRegression(C=np.inf, **TIGHT).fit(X, y)
    assert ours.converged_ and ours.warnings_ == []
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-3)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-3)


def test_unregularised_multinomial_probabilities_equal_sklearn():
    # The softmax MLE is defined only up to a common shift of the class vectors: compare probabilities.
    X, y = load_iris(return_X_y=True)
    ours = LogisticRegression().fit(X, y)
    theirs = sk.LogisticRegression(C=np.inf, **TIGHT).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-3)
    np.testing.assert_allclose(ours.coef_.sum(axis=0), 0.0, atol=1e-9)


def test_gradient_ascent_reaches_the_newton_optimum(cancer):
    X, y = cancer
    newton = LogisticRegression(l2=1e-2).fit(X, y)
    ascent = LogisticRegression(l2=1e-2, solver="gd", learning_rate=1.0, max_iter=5000).fit(X, y)
    assert ascent.converged_ and ascent.solver_ == "gd" and ascent.n_iter_ > newton.n_iter_
    np.testing.assert_allclose(ascent.coef_, newton.coef_, atol=1e-3)


@pytest.mark.parametrize("budget", [60, 1000, 10 ** 9])  # rows per products table: 1, 15, all
def test_weighted_gram_in_chunks_is_the_sum_over_rows(monkeypatch, budget):
    monkeypatch.setattr(logistic_fast, "MAX_PRODUCTS", budget)
    rng = np.random.default_rng(2)
    Xb = np.column_stack([np.ones(40), rng.normal(size=(40, 9))])  # D = 10: 55 products per row
    C = rng.normal(size=(3, 40))
    grams = logistic_fast.WeightedGram(np.ascontiguousarray(Xb.T))(C)
    expected = np.einsum("mi,ia,ib->mab", C, Xb, Xb) / 40  # sum_i c_i x_i x_i^T / n
    np.testing.assert_allclose(grams, expected, rtol=1e-12, atol=1e-14)


def test_hessian_products_in_chunks_give_the_same_fit(monkeypatch):
    X, y = load_wine(return_X_y=True)
    whole = LogisticRegression(l2=1e-2, standardize=True).fit(X, y)
    monkeypatch.setattr(logistic_fast, "MAX_PRODUCTS", 5000)  # 178 rows x 105 products: 4 chunks
    chunked = LogisticRegression(l2=1e-2, standardize=True).fit(X, y)
    assert chunked.n_iter_ == whole.n_iter_
    np.testing.assert_allclose(chunked.coef_, whole.coef_, rtol=1e-10, atol=1e-12)


def test_lbfgs_fallback_reaches_the_newton_optimum(monkeypatch):
    X, y = load_wine(return_X_y=True)
    newton = LogisticRegression(l2=1e-2, standardize=True).fit(X, y)
    monkeypatch.setattr(logistic, "NEWTON_MAX_PARAMS", 10)
    quasi = LogisticRegression(l2=1e-2, standardize=True).fit(X, y)
    assert newton.solver_ == "newton" and quasi.solver_ == "lbfgs" and quasi.converged_
    np.testing.assert_allclose(quasi.coef_, newton.coef_, atol=1e-4)


@pytest.mark.parametrize("load", [load_iris, load_wine, load_breast_cancer])
def test_ten_fold_accuracy_matches_sklearn(load):
    X, y = load(return_X_y=True)
    ours, theirs = [], []
    for train, test in StratifiedKFold(10, shuffle=True, random_state=0).split(X, y):
        l2 = 1.0 / len(train)  # scikit-learn's default C = 1
        model = LogisticRegression(l2=l2, standardize=True).fit(X[train], y[train])
        ours.append(model.score(X[test], y[test]))
        pipe = make_pipeline(StandardScaler(), sk.LogisticRegression()).fit(X[train], y[train])
        theirs.append(pipe.score(X[test], y[test]))
    assert np.mean(ours) == pytest.approx(np.mean(theirs), abs=0.02)
    assert np.mean(ours) > 0.9


# --- separable data, labels, serialisation ------------------------------------------------------------

def test_separable_data_warns_that_weights_grow_without_bound():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    with pytest.warns(ConvergenceWarning, match="separable"):
        model = LogisticRegression().fit(X, [0, 0, 1, 1])
    assert model.converged_ is False
    assert "grow without bound" in model.warnings_[0]
    np.testing.assert_array_equal(model.predict(X), [0, 0, 1, 1])
    regularised = LogisticRegression(l2=0.1).fit(X, [0, 0, 1, 1])  # a penalty makes the optimum finite
    assert regularised.converged_ and regularised.warnings_ == []


def test_labels_of_any_type_and_the_second_class_is_positive():
    X, y = load_iris(return_X_y=True)
    X, y = X[y > 0], np.where(y[y > 0] == 2, "virginica", "versicolor")
    model = LogisticRegression(l2=1e-3).fit(X, y)
    assert list(model.classes_) == ["versicolor", "virginica"]
    proba = model.predict_proba(X)
    np.testing.assert_array_equal(model.predict(X) == "virginica", proba[:, 1] > 0.5)
    assert np.all(model.decision_function(X) > 0) == np.all(proba[:, 1] > 0.5)
    assert model.score(X, y) > 0.95


def test_categorical_features_are_one_hot_encoded():
    X = np.array([["sunny", 1.0], ["rain", 2.0], ["sunny", 0.5], ["rain", 3.0], ["fog", 1.5], ["fog", 0.0]],
                 dtype=object)
    y = ["no", "yes", "no", "yes", "yes", "no"]
    model = LogisticRegression(l2=0.1).fit(X, y, feature_names=["outlook", "wind"])
    assert model.feature_names_out_ == ["outlook=fog", "outlook=rain", "outlook=sunny", "wind"]
    assert model.coef_.shape == (1, 4)


def test_round_trip_predicts_identically():
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    model = LogisticRegression(l2=1e-2, standardize=True).fit(X, labels)
    copy = from_dict(json.loads(json.dumps(model.to_dict())))
    np.testing.assert_array_equal(copy.predict(X), model.predict(X))
    np.testing.assert_array_equal(copy.predict_proba(X), model.predict_proba(X))


# --- errors -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("params, word", [
    ({"solver": "sag"}, "solver"), ({"l2": -0.1}, "l2"), ({"tol": 0.0}, "tol"),
    ({"max_iter": 0}, "max_iter"), ({"learning_rate": -1.0}, "learning_rate"),
])
def test_bad_parameters(params, word):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(DataError, match=word):
        LogisticRegression(**params).fit(X, y)


def test_bad_data():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(DataError, match="1 class"):
        LogisticRegression().fit(X[:50], y[:50])
    X_nan = X.copy()
    X_nan[7, 2] = np.nan
    with pytest.raises(DataError, match="x2.*missing"):
        LogisticRegression().fit(X_nan, y)
    with pytest.raises(DataError, match="inconsistent numbers of samples"):
        LogisticRegression().fit(X, y[:100])
    with pytest.raises(NotFittedError):
        LogisticRegression().predict_proba(X)
