"""Kernels, the PSD test, the notes' kernelised gradient descent on beta, and the kernel perceptron."""

import json
import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_iris
from sklearn.metrics import pairwise

from pellucid import from_dict
from pellucid.core.errors import ConvergenceWarning, DataError, NotFittedError
from pellucid.learners.kernels.kernel_functions import (is_psd, linear_kernel, polynomial_feature_map,
                                                        polynomial_kernel,
                                               rbf_kernel)
from pellucid.learners.kernels.kernel_perceptron import KernelPerceptron
from pellucid.learners.kernels.kernel_regression import KernelRegression

RNG = np.random.default_rng(0)
A, B = RNG.normal(size=(30, 3)), RNG.normal(size=(20, 3))


# --- kernels and feature maps -----------------------------------------------------------------------

def test_kernels_match_sklearn():
    assert np.allclose(linear_kernel(A, B), pairwise.linear_kernel(A, B))
    assert np.allclose(polynomial_kernel(A, B, degree=3, c=2.0),
                       pairwise.polynomial_kernel(A, B, degree=3, gamma=1.0, coef0=2.0))
    assert np.allclose(rbf_kernel(A, B, gamma=0.7), pairwise.rbf_kernel(A, B, gamma=0.7))
    assert np.allclose(rbf_kernel(A), pairwise.rbf_kernel(A, gamma=1 / 3))  # gamma None = 1 / n_features


@pytest.mark.parametrize("degree, c", [(2, 1.0), (2, 0.0), (3, 2.5), (1, 1.0)])
def test_feature_map_inner_products_are_the_polynomial_kernel(degree, c):
    # Notes 002: K(x, z) = (x^T z + c)^2 <=> <phi(x), phi(z)>.
    phi_a, phi_b = polynomial_feature_map(A, degree, c), polynomial_feature_map(B, degree, c)
    assert np.allclose(phi_a @ phi_b.T, polynomial_kernel(A, B, degree, c))


def test_gram_matrices_are_psd_and_an_indefinite_matrix_is_not():
    for K in (linear_kernel(A), polynomial_kernel(A, degree=3), rbf_kernel(A, gamma=2.0)):
        assert is_psd(K)
    assert not is_psd(np.array([[1.0, 2.0], [2.0, 1.0]]))  # eigenvalues 3 and -1
    assert not is_psd(np.array([[1.0, 0.5], [0.0, 1.0]]))  # not symmetric
    assert not is_psd(-linear_kernel(A))


def test_is_psd_refuses_a_non_square_matrix():
    with pytest.raises(DataError, match=r"must be square.*\(3, 2\)"):
        is_psd(np.ones((3, 2)))


# --- kernel regression by the beta update -----------------------------------------------------------

def test_beta_update_follows_the_notes_by_hand():
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([1.0, 3.0, 2.0])
    K = polynomial_kernel(X, degree=2, c=1.0)
    alpha = 0.01
    beta = np.zeros(3)
    for _ in range(2):
        beta = beta + alpha * (y - K @ beta)  # beta := beta + alpha (y - K beta), not averaged
    model = KernelRegression(kernel="poly", degree=2, learning_rate=alpha, max_iter=2, tol=0.0).fit(X, y)
    assert np.allclose(model.beta_, beta, rtol=1e-14)
    assert np.allclose(model.predict([[1.5]]), polynomial_kernel([[1.5]], X) @ beta)
    assert model.loss_curve_[0] == pytest.approx(0.5 * (y @ y))


def test_linear_kernel_converges_to_least_squares():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 3))
    y = X @ np.array([1.5, -2.0, 0.5]) + 0.1 * rng.normal(size=60)
    model = KernelRegression(kernel="linear", max_iter=5000, tol=1e-14).fit(X, y)
    w, *_ = np.linalg.lstsq(X, y, rcond=None)
    assert np.allclose(model.predict(X), X @ w, atol=1e-6)
    assert model.n_iter_ < 5000
    assert np.all(np.diff(model.loss_curve_) <= 1e-12)


def test_poly_kernel_equals_explicit_feature_map_regression():
    rng = np.random.default_rng(2)
    X, X_new = rng.uniform(-1, 1, size=(40, 2)), rng.uniform(-1, 1, size=(10, 2))
    y = X[:, 0] * X[:, 1] + X[:, 0] ** 2
    model = KernelRegression(kernel="poly", degree=2, coef0=1.0, learning_rate=0.01, max_iter=300, tol=0.0).fit(X, y)
    # The same gradient descent on theta in the feature space: theta += alpha sum_i (y_i - theta.phi_i) phi_i.
    Phi = polynomial_feature_map(X, 2, 1.0)
    theta = np.zeros(Phi.shape[1])
    for _ in range(300):
        theta = theta + 0.01 * Phi.T @ (y - Phi @ theta)
    assert np.allclose(model.predict(X_new), polynomial_feature_map(X_new, 2, 1.0) @ theta, atol=1e-10)
    assert np.allclose(Phi.T @ model.beta_, theta, atol=1e-10)  # theta = sum_i beta_i phi(x_i)


def test_rbf_kernel_regression_fits_a_sine():
    x = np.linspace(0, 2 * np.pi, 40)[:, None]
    x_between = (x[:-1] + x[1:]) / 2
    model = KernelRegression(kernel="rbf", gamma=2.0, max_iter=3000).fit(x, np.sin(x[:, 0]))
    assert model.score(x, np.sin(x[:, 0])) > 0.999
    assert np.abs(model.predict(x_between) - np.sin(x_between[:, 0])).max() < 0.05


def test_ridge_penalty_reaches_the_kernel_ridge_solution():
    x = np.linspace(0, 3, 25)[:, None]
    y = np.cos(x[:, 0])
    model = KernelRegression(kernel="rbf", gamma=1.0, l2=0.5, max_iter=20000, tol=1e-15).fit(x, y)
    K = rbf_kernel(x, gamma=1.0)
    assert np.allclose(model.beta_, np.linalg.solve(K + 0.5 * np.eye(25), y), atol=1e-6)


def test_stopping_at_max_iter_warns_and_settling_does_not():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 2))
    y = np.sin(X[:, 0]) + X[:, 1]
    with pytest.warns(ConvergenceWarning, match="max_iter=5 steps"):
        cut_short = KernelRegression(kernel="rbf", max_iter=5).fit(X, y)
    assert not cut_short.converged_ and cut_short.n_iter_ == 5 and cut_short.warnings_
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        settled = KernelRegression(kernel="linear", max_iter=5000, tol=1e-6).fit(X, y)
    losses = settled.loss_curve_
    assert settled.converged_ and settled.n_iter_ < 5000 and settled.warnings_ == []
    assert abs(losses[-2] - losses[-1]) <= 1e-6 * losses[-2]  # the relative change that stopped it
    assert abs(losses[-3] - losses[-2]) > 1e-6 * losses[-3]  # and not one step earlier


def test_divergence_asks_for_a_smaller_learning_rate():
    X = np.linspace(0, 1, 20)[:, None]
    lam = np.linalg.eigvalsh(rbf_kernel(X, gamma=1.0)).max()
    with pytest.raises(DataError, match="diverged.*smaller learning_rate"):
        KernelRegression(kernel="rbf", gamma=1.0, learning_rate=5.0 / lam).fit(X, X[:, 0])


def test_regression_trace_is_thinned_and_round_trip():
    X = np.linspace(0, 1, 15)[:, None]
    model = KernelRegression(kernel="rbf", max_iter=1000, tol=0.0, trace=True).fit(X, X[:, 0] ** 2)
    json.dumps(model.trace_, allow_nan=False)
    iterations = [t for t in model.trace_ if t["step"] == "iteration"]
    assert len(iterations) <= 200 and iterations[0]["iteration"] == 0 and iterations[-1]["iteration"] == 1000
    assert np.allclose(iterations[-1]["beta"], model.beta_)
    assert model.trace_[0]["learning_rate"] == pytest.approx(1 / model.lambda_max_)
    rebuilt = from_dict(json.loads(json.dumps(model.to_dict())))
    assert np.array_equal(rebuilt.predict(X), model.predict(X))


# --- kernel perceptron ------------------------------------------------------------------------------

XOR_X = [[0, 0], [0, 1], [1, 0], [1, 1]]
XOR_Y = ["same", "differ", "differ", "same"]


def test_kernel_perceptron_separates_xor_with_a_degree_2_kernel():
    model = KernelPerceptron(kernel="poly", degree=2, coef0=1.0).fit(XOR_X, XOR_Y)
    assert model.converged_
    assert list(model.predict(XOR_X)) == XOR_Y


def test_linear_kernel_cannot_separate_xor():
    with pytest.warns(ConvergenceWarning, match="not separated"):
        model = KernelPerceptron(kernel="linear", max_iter=20).fit(XOR_X, XOR_Y)
    assert not model.converged_


def test_linear_dual_perceptron_equals_the_primal_perceptron():
    # Notes 000's training set, run by the notes' primal algorithm (bias feature 1, w starts at 0).
    X = np.array([[1, 1], [3, 2], [2, 4], [3, 4], [2, 3]], dtype=float)
    y = np.array([-1, 1, 1, 1, -1])
    F = np.hstack([np.ones((5, 1)), X])
    w = np.zeros(3)
    for _ in range(1000):
        mistakes = 0
        for f, target in zip(F, y):
            predicted = 1 if w @ f >= 0 else -1  # points on the boundary are positive
            if predicted != target:
                w += target * f
                mistakes += 1
        if mistakes == 0:
            break
    model = KernelPerceptron(kernel="linear", max_iter=1000).fit(X, y)
    assert model.converged_ and mistakes == 0
    grid = np.random.default_rng(3).uniform(0, 5, size=(50, 2))
    assert np.allclose(model.decision_function(grid), np.hstack([np.ones((50, 1)), grid]) @ w)
    assert np.array_equal(model.predict(X), y)


def test_multiclass_kernel_perceptron():
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = KernelPerceptron(kernel="rbf", gamma=1.0, max_iter=30, trace=True).fit(X, y)
    assert model.alpha_.shape == (3, 150)
    assert np.all(model.alpha_.sum(axis=0) == 0)  # every mistake adds 1 to one class and takes 1 from another
    assert model.score(X, y) > 0.95
    json.dumps(model.trace_, allow_nan=False)
    epochs = [t for t in model.trace_ if t["step"] == "epoch"]
    assert sum(len(e["updates"]) for e in epochs) <= 200
    assert epochs[0]["mistakes"] >= epochs[-1]["mistakes"]
    rebuilt = from_dict(json.loads(json.dumps(model.to_dict())))
    assert np.array_equal(rebuilt.predict(X), model.predict(X))


def test_perceptron_trace_lists_the_first_mistakes():
    model = KernelPerceptron(trace=True).fit(XOR_X, XOR_Y)
    first = model.trace_[1]
    # Everything starts at activation 0, classified as classes_[1] = "same": the first "differ" is wrong.
    assert first["updates"][0] == {"index": 1, "label": "differ", "predicted": "same", "score": 0.0}
    assert model.trace_[-1]["mistakes"] == 0


def test_kernel_estimator_errors():
    with pytest.raises(DataError, match="'kernel'"):
        KernelRegression(kernel="sigmoid").fit([[0.0], [1.0]], [0.0, 1.0])
    with pytest.raises(NotFittedError):
        KernelPerceptron().predict([[0.0]])
    with pytest.raises(DataError, match="at least 2 classes"):
        KernelPerceptron().fit([[0.0], [1.0]], ["a", "a"])
