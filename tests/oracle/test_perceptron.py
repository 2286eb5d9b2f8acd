"""Perceptron: notes 000's worked one-pass trace and multiclass update, plus behaviour on real data."""

import json
import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_breast_cancer, load_iris, make_classification
from sklearn.linear_model import Perceptron as SkPerceptron

from pellucid.core.base import from_dict
from pellucid.core.errors import ConvergenceWarning, DataError, NotFittedError
from pellucid.learners.linear.perceptron import Perceptron
from pellucid.learners.linear.perceptron_pass import (activation, classify, multiclass_classify, multiclass_update,
                                                      update)

# Notes 000, "Example": the training set (f1, f2, y*) and the "Single Perceptron Update Pass" table,
# starting from [w0, w1, w2] = [-1, 0, 0] with w0 the weight of the bias feature 1.
SEED_X = [[1, 1], [3, 2], [2, 4], [3, 4], [2, 3]]
SEED_Y = [-1, +1, +1, +1, -1]
SEED_TABLE = [  # step, weights before, score, correct?, update
    (1, [-1, 0, 0], -1, True, [0, 0, 0]),
    (2, [-1, 0, 0], -1, False, [1, 3, 2]),
    (3, [0, 3, 2], 14, True, [0, 0, 0]),
    (4, [0, 3, 2], 17, True, [0, 0, 0]),
    (5, [0, 3, 2], 12, False, [-1, -2, -3]),
]
SEED_FINAL = [-1, 1, -1]  # step 6


def fit_quietly(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


def test_seed_single_pass_trace_exactly():
    model = Perceptron(initial_weights=[-1, 0, 0], max_iter=1, shuffle=False, trace=True)
    with pytest.warns(ConvergenceWarning, match="2 mistakes"):
        model.fit(SEED_X, SEED_Y)
    assert len(model.trace_) == 5
    for row, (step, weights, score, correct, delta), f, y in zip(model.trace_, SEED_TABLE, SEED_X, SEED_Y):
        assert row["epoch"] == 1 and row["step"] == step and row["index"] == step - 1
        assert row["x"] == [1, *f] and row["y"] == y and row["target"] == y
        assert row["weights"] == weights
        assert row["score"] == score
        assert row["correct"] is correct
        assert row["predicted"] == (y if correct else -y)
        assert row["update"] == delta
        assert row["weights_after"] == list(np.add(weights, delta))
    np.testing.assert_array_equal(model.weights_, SEED_FINAL)
    np.testing.assert_array_equal(model.intercept_, [-1])
    np.testing.assert_array_equal(model.coef_, [[1, -1]])
    assert model.converged_ is False and model.mistakes_ == [2]
    json.dumps(model.trace_)


def test_seed_pass_without_trace_and_with_any_two_labels():
    # "neg" < "pos" when sorted, so "pos" (the second class) plays +1, as -1 < +1 did above.
    labels = ["pos" if v > 0 else "neg" for v in SEED_Y]
    model = fit_quietly(Perceptron(initial_weights=[-1, 0, 0], max_iter=1), SEED_X, labels)
    np.testing.assert_array_equal(model.weights_, SEED_FINAL)
    assert list(model.classes_) == ["neg", "pos"]


def test_seed_data_is_separable_and_the_perceptron_converges_on_it():
    model = Perceptron(max_iter=100_000).fit(SEED_X, SEED_Y)
    assert model.converged_ and model.mistakes_[-1] == 0 and model.warnings_ == []
    np.testing.assert_array_equal(model.predict(SEED_X), SEED_Y)
    margins = np.array(SEED_Y) * model.decision_function(SEED_X)
    assert np.all(margins >= 0)


def test_seed_binary_update_example():
    # w = [2 2 2], f(x) = [4 0 1], y* = -1: activation 10, classified +, so w <- w - f(x).
    w, f = np.array([2.0, 2.0, 2.0]), np.array([4.0, 0.0, 1.0])
    assert activation(w, f) == 10
    assert classify(w, f) == 1
    np.testing.assert_array_equal(update(w, f, -1), [-2, 2, 1])
    assert activation(update(w, f, -1), f) == 10 - f @ f  # the activation falls by f . f


def test_points_on_the_boundary_are_classified_positive():
    # Notes 000: "we'll classify points on the line as positive".
    assert classify(np.zeros(3), np.array([1.0, 5.0, -2.0])) == 1
    model = fit_quietly(Perceptron(max_iter=1, trace=True), [[1.0], [2.0]], ["a", "b"])
    first = model.trace_[0]  # w = 0, score 0 -> predicted "b" (+1), wrong for "a": update -f
    assert first["score"] == 0 and first["predicted"] == "b" and first["update"] == [-1.0, -1.0]


def test_seed_multiclass_example():
    W = np.array([[-2, 2, 1], [0, 3, 4], [1, 4, -2]], dtype=float)
    f = np.array([-2, 3, 1], dtype=float)
    np.testing.assert_array_equal(W @ f, [11, 13, 8])
    assert multiclass_classify(W, f) == 1
    new = multiclass_update(W, f, y_star=2, y_pred=1)
    np.testing.assert_array_equal(new[1], [2, 0, 3])
    np.testing.assert_array_equal(new[2], [-1, 7, -1])
    np.testing.assert_array_equal(new[0], W[0])
    np.testing.assert_array_equal(W[1], [0, 3, 4])  # the caller's matrix is not modified


def test_multiclass_estimator_applies_the_same_update():
    # One mistake, traced: the true class's row gains f, the predicted class's row loses it.
    X, y = [[3.0, 1.0], [0.0, 0.0], [1.0, 1.0]], [2, 0, 1]
    W0 = [[0, 2, 1], [1, 3, 4], [1, 4, -2]]
    model = fit_quietly(Perceptron(initial_weights=np.ravel(W0).tolist(), max_iter=1, trace=True,
                                   multiclass="joint"), X, y)
    first = model.trace_[0]
    assert first["score"] == [7.0, 14.0, 11.0] and first["predicted"] == 1 and first["correct"] is False
    assert first["weights_after"] == [[0, 2, 1], [0, 0, 3], [2, 7, -1]]
    assert first["update"] == [[0, 0, 0], [-1, -3, -1], [1, 3, 1]]
    assert model.weights_.shape == (3, 3) and model.coef_.shape == (3, 2)


@pytest.mark.parametrize("multiclass, at_least", [("joint", 0.93), ("ovr", 0.9)])
def test_multiclass_iris_behaves_sensibly(multiclass, at_least):
    X, y = load_iris(return_X_y=True)
    params = dict(standardize=True, shuffle=True, random_state=1, multiclass=multiclass)
    plain = fit_quietly(Perceptron(**params), X, y)
    averaged = fit_quietly(Perceptron(**params, averaged=True), X, y)
    assert plain.weights_.shape == (3, 5) and plain.coef_.shape == (3, 4) and plain.intercept_.shape == (3,)
    assert plain.score(X, y) > 0.8
    assert averaged.score(X, y) > at_least
    np.testing.assert_array_equal(plain.predict(X), np.argmax(plain.decision_function(X), axis=1))
    # setosa is linearly separable from the rest: the binary problem converges
    setosa = Perceptron(max_iter=1000).fit(X, y == 0)
    assert setosa.converged_ and setosa.score(X, y == 0) == 1.0


@pytest.mark.parametrize("n_classes, multiclass", [(2, "ovr"), (3, "ovr"), (3, "joint")])
@pytest.mark.parametrize("averaged", [False, True])
def test_vectorised_pass_equals_the_step_by_step_pass(n_classes, multiclass, averaged):
    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(300, 4))
    y = rng.integers(0, n_classes, 300)
    params = dict(max_iter=7, shuffle=True, random_state=3, averaged=averaged, multiclass=multiclass)
    fast = fit_quietly(Perceptron(**params), X, y)
    traced = fit_quietly(Perceptron(**params, trace=True), X, y)
    np.testing.assert_allclose(fast.weights_, traced.weights_, atol=1e-12)
    assert fast.mistakes_ == traced.mistakes_ == [
        sum(not r["correct"] for r in traced.trace_ if r["epoch"] == e) for e in range(1, 8)]
    if averaged:  # the average of the weights after every visit, recomputed from the trace
        mean = np.mean([r["weights_after"] for r in traced.trace_], axis=0)
        np.testing.assert_allclose(traced.weights_, mean, atol=1e-9)
    else:
        np.testing.assert_array_equal(traced.weights_, traced.trace_[-1]["weights_after"])


def test_shuffle_is_reproducible_with_a_seed():
    X, y = load_breast_cancer(return_X_y=True)
    a = fit_quietly(Perceptron(shuffle=True, random_state=5, max_iter=5, standardize=True), X, y)
    b = fit_quietly(Perceptron(shuffle=True, random_state=5, max_iter=5, standardize=True), X, y)
    c = fit_quietly(Perceptron(shuffle=True, random_state=6, max_iter=5, standardize=True), X, y)
    np.testing.assert_array_equal(a.weights_, b.weights_)
    assert not np.array_equal(a.weights_, c.weights_)
    assert a.score(X, y) > 0.9


def test_round_trip_predicts_identically():
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    model = fit_quietly(Perceptron(averaged=True, standardize=True), X, labels)
    copy = from_dict(json.loads(json.dumps(model.to_dict())))
    np.testing.assert_array_equal(copy.predict(X), model.predict(X))


def test_one_vs_rest_updates_every_class_whose_own_perceptron_is_wrong():
    # W f = [7, 14, 11] for f = [1, 3, 1] of class 2: all three say "mine" (score >= 0), so classes 0 and 1
    # are wrong (y* = -1) and lose f; class 2 is right and stays.
    X, y = [[3.0, 1.0], [0.0, 0.0], [1.0, 1.0]], [2, 0, 1]
    W0 = [[0, 2, 1], [1, 3, 4], [1, 4, -2]]
    model = fit_quietly(Perceptron(initial_weights=np.ravel(W0).tolist(), max_iter=1, trace=True), X, y)
    first = model.trace_[0]
    assert first["score"] == [7.0, 14.0, 11.0] and first["predicted"] == 1 and first["correct"] is False
    assert first["targets"] == [-1, -1, 1]
    assert first["update"] == [[-1, -3, -1], [-1, -3, -1], [0, 0, 0]]
    assert first["weights_after"] == [[-1, -1, 0], [0, 0, 3], [1, 4, -2]]


@pytest.mark.parametrize("class_weight", [None, "balanced", {0: 5.0, 2: 0.5}])
def test_one_vs_rest_equals_scikit_learns(class_weight):
    """Three classes, the same rows in the same order from the same (non-zero) start, so that no score
    is exactly 0 (scikit-learn counts 0 as a mistake, the notes as positive): every class's perceptron
    ends where scikit-learn's one-vs-rest one does, class weights included (s_c for class c's own rows
    in its perceptron, 1 for the rest)."""
    X, y = load_iris(return_X_y=True)
    X, y = (X - X.mean(axis=0)) / X.std(axis=0), np.r_[y[::3], y[1::3], y[2::3]]  # unequal class counts
    X, y = X[:130], y[:130]
    start = np.random.default_rng(0).normal(size=(3, 5))
    ours = fit_quietly(Perceptron(initial_weights=start.ravel().tolist(), max_iter=6, class_weight=class_weight),
                       X, y)
    theirs = SkPerceptron(max_iter=6, tol=None, shuffle=False, class_weight=class_weight).fit(
        X, y, coef_init=start[:, 1:].copy(), intercept_init=start[:, 0].copy())
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("tol, n_iter_no_change", [(1e-3, 5), (0.05, 2)])
def test_stopping_rule_stops_where_scikit_learns_does(seed, tol, n_iter_no_change):
    """tol and n_iter_no_change: both stop after n_iter_no_change passes whose mean loss per row is above
    the best so far minus tol, at the same pass and with the same weights. The first row is of the negative
    class, so that the first score (0, from zero weights) is a mistake under both rules for 0."""
    X, y = make_classification(n_samples=2000, n_features=5, random_state=seed)
    first = int(np.argmax(y == 0))
    order = np.r_[first, np.delete(np.arange(len(y)), first)]
    X, y = X[order], y[order]
    ours = Perceptron(tol=tol, n_iter_no_change=n_iter_no_change, max_iter=1000).fit(X, y)
    theirs = SkPerceptron(tol=tol, n_iter_no_change=n_iter_no_change, shuffle=False, max_iter=1000).fit(X, y)
    assert ours.n_iter_ == theirs.n_iter_ < 1000 and ours.converged_ and ours.warnings_ == []
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-9)


def test_stopping_rule_reads_the_traced_losses():
    """The mean loss per row that the rule compares is the notes' perceptron loss max(0, -y* w . f) of each
    visit, before its update: recomputed from the trace, the pass where it stops is the one the rule names."""
    X, y = make_classification(n_samples=300, n_features=4, flip_y=0.2, random_state=1)
    model = fit_quietly(Perceptron(tol=0.01, n_iter_no_change=3, max_iter=50, trace=True), X, y)
    losses = [np.mean([max(0.0, -r["target"] * r["score"]) for r in model.trace_ if r["epoch"] == e])
              for e in range(1, model.n_iter_ + 1)]
    best, stale = np.inf, []
    for loss in losses:
        stale.append(stale[-1] + 1 if stale and loss > best - 0.01 else int(loss > best - 0.01))
        best = min(best, loss)
    assert stale[-1] == 3 and max(stale[:-1]) < 3 and model.n_iter_ < 50


@pytest.mark.parametrize("params, word", [
    ({"max_iter": 0}, "max_iter"), ({"shuffle": 1}, "shuffle"), ({"random_state": -1}, "random_state"),
    ({"initial_weights": "zeros"}, "initial_weights"), ({"averaged": None}, "averaged"),
    ({"multiclass": "softmax"}, "multiclass"), ({"tol": -1.0}, "tol"), ({"n_iter_no_change": 0}, "n_iter_no_change"),
])
def test_bad_parameters(params, word):
    with pytest.raises(DataError, match=word):
        Perceptron(**params).fit(SEED_X, SEED_Y)


def test_bad_data_and_wrong_initial_weights():
    with pytest.raises(DataError, match=r"initial_weights has 2 numbers.*needs 3"):
        Perceptron(initial_weights=[0, 0]).fit(SEED_X, SEED_Y)
    with pytest.raises(DataError, match=r"initial_weights has 3 numbers.*3 classes x 3 = 9"):
        Perceptron(initial_weights=[0, 0, 0]).fit(SEED_X, [0, 1, 2, 0, 1])
    with pytest.raises(DataError, match="1 class"):
        Perceptron().fit(SEED_X, [1] * 5)
    with pytest.raises(DataError, match="inconsistent numbers of samples"):
        Perceptron().fit(SEED_X, SEED_Y[:4])
    X_nan = np.array(SEED_X, dtype=float)
    X_nan[2, 0] = np.nan
    with pytest.raises(DataError, match="x0.*missing"):
        Perceptron().fit(X_nan, SEED_Y)
    with pytest.raises(NotFittedError):
        Perceptron().predict(SEED_X)
