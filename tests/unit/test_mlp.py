"""The networks by themselves: a worked forward and backward pass, the trace's chain rule, the fast path
against the readable one, early stopping, a diverging learning rate, warm_start and partial_fit's rules,
the parameters' checks and the model file."""

import json
import warnings

import numpy as np
import pytest

import pellucid
from pellucid import DataError, MLPClassifier, MLPRegressor
from pellucid.core.errors import ConvergenceWarning
from pellucid.learners.network import forward_backward


def quietly(model, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y, **kw)


def data(n=80, seed=0, classes=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.digitize(X[:, 0] + X[:, 1] * X[:, 2], [-0.5, 0.5][:classes - 1])
    return X, y


def test_one_logistic_unit_by_hand():
    """One input, one hidden logistic unit, one logistic output: the chain rule written out in numbers."""
    X, Y = np.array([[2.0]]), np.array([[1.0]])
    W1, b1, W2, b2 = np.array([[0.5]]), np.array([-1.0]), np.array([[2.0]]), np.array([0.5])
    p = forward_backward.backward(X, Y, [W1, W2], [b1, b2], "logistic", "logistic", "log_loss", alpha=0.0)
    a1 = 1 / (1 + np.exp(-(2.0 * 0.5 - 1.0)))  # z1 = 0: a1 = 1/2
    a2 = 1 / (1 + np.exp(-(2.0 * a1 + 0.5)))  # z2 = 1.5
    assert p.z[0][0, 0] == pytest.approx(0.0) and p.a[1][0, 0] == pytest.approx(0.5)
    assert p.z[1][0, 0] == pytest.approx(1.5) and p.a[2][0, 0] == pytest.approx(a2)
    assert p.loss == pytest.approx(-np.log(a2))
    delta2 = a2 - 1.0  # dLoss/dz2
    delta1 = delta2 * 2.0 * a1 * (1 - a1)  # carried back through W2, times sigma'(z1)
    assert p.deltas[1][0, 0] == pytest.approx(delta2) and p.deltas[0][0, 0] == pytest.approx(delta1)
    assert p.coef_grads[1][0, 0] == pytest.approx(delta2 * a1)
    assert p.coef_grads[0][0, 0] == pytest.approx(delta1 * 2.0)
    assert p.intercept_grads[0][0] == pytest.approx(delta1)


def test_penalty_adds_alpha_over_n_times_the_weights():
    X, y = data(10)
    Y = np.eye(3)[y]
    coefs = [np.full((3, 2), 0.3), np.full((2, 3), -0.2)]
    intercepts = [np.zeros(2), np.zeros(3)]
    plain = forward_backward.backward(X, Y, coefs, intercepts, "tanh", "softmax", "log_loss", 0.0)
    penalised = forward_backward.backward(X, Y, coefs, intercepts, "tanh", "softmax", "log_loss", 2.0)
    assert penalised.loss - plain.loss == pytest.approx(2.0 / (2 * 10) * (6 * 0.09 + 6 * 0.04))
    np.testing.assert_allclose(penalised.coef_grads[0] - plain.coef_grads[0], 2.0 / 10 * coefs[0])
    np.testing.assert_allclose(penalised.intercept_grads[1], plain.intercept_grads[1])


@pytest.mark.parametrize("cls, classes", [(MLPClassifier, 2), (MLPClassifier, 3), (MLPRegressor, None)])
@pytest.mark.parametrize("activation", ["relu", "tanh", "logistic", "identity"])
@pytest.mark.parametrize("solver", ["sgd", "adam"])
def test_fast_path_takes_the_readable_paths_steps(cls, classes, activation, solver):
    X, y = data(70, seed=2, classes=classes or 3)
    if classes is None:
        y = X[:, 0] - 2 * X[:, 1] ** 2
    weights = np.random.default_rng(5).uniform(0.2, 2, len(X))
    params = dict(hidden_layer_sizes=(6, 4), activation=activation, solver=solver, batch_size=16, max_iter=15,
                  alpha=0.01, learning_rate_init=0.01, random_state=3, tol=0.0)
    fast = quietly(cls(**params), X, y, sample_weight=weights)
    readable = quietly(cls(trace=True, **params), X, y, sample_weight=weights)
    for a, b in zip(fast.coefs_ + fast.intercepts_, readable.coefs_ + readable.intercepts_):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(fast.loss_curve_, readable.loss_curve_, rtol=1e-10)
    assert not hasattr(fast, "trace_") and readable.trace_
    readable.set_params(trace=False, warm_start=True)
    assert not hasattr(quietly(readable, X, y), "trace_")  # no trace of an earlier fit is left behind


def test_trace_records_the_chain_rule_for_the_first_row():
    X, y = data(40)
    model = quietly(MLPClassifier(hidden_layer_sizes=(4, 3), activation="tanh", solver="sgd", momentum=0.0,
                                  batch_size=10, shuffle=False, max_iter=2, learning_rate_init=0.1,
                                  alpha=0.01, trace=True), X, y)
    steps = model.trace_
    assert [s["epoch"] for s in steps] == [1, 2] and [s["step"] for s in steps] == [1, 5]  # the row is in batch 1
    first = steps[0]
    assert first["row"] == 0 and first["batch_rows"] == 10 and first["x"] == pytest.approx(X[0].tolist())
    a_out, target = np.array(first["a"][-1]), np.array(first["target"])
    np.testing.assert_allclose(first["deltas"][-1], a_out - target)
    assert [np.shape(g) for g in first["coef_grads"]] == [W.shape for W in model.coefs_]
    # plain gradient descent: each update is -eta times the batch's gradient
    for grad, update in zip(first["coef_grads"] + first["intercept_grads"],
                            first["coef_updates"] + first["intercept_updates"]):
        np.testing.assert_allclose(update, -0.1 * np.array(grad), rtol=1e-12)


def test_trace_deltas_follow_the_weights_before_the_step():
    X, y = data(30)
    start = MLPClassifier(hidden_layer_sizes=(5,), activation="logistic", max_iter=1, warm_start=True,
                          solver="sgd", batch_size=30, shuffle=False, momentum=0.0, trace=True)
    quietly(start, X, y)
    W2 = start.coefs_[1].copy()
    quietly(start, X, y)
    step = start.trace_[0]
    a1 = np.array(step["a"][0])
    expected = (np.array(step["deltas"][1]) @ W2.T) * a1 * (1 - a1)
    np.testing.assert_allclose(step["deltas"][0], expected, rtol=1e-12)


def test_a_diverging_learning_rate_keeps_the_last_finite_network():
    X, y = data(60)
    X = X * 50
    model = MLPRegressor(hidden_layer_sizes=(8,), solver="sgd", learning_rate_init=10.0, momentum=0.9,
                         max_iter=50, random_state=0)
    with pytest.warns(ConvergenceWarning, match="learning_rate_init=10.0"):
        model.fit(X, y * 100.0)
    assert not model.converged_
    message = model.warnings_[0]
    epoch = int(message.split("epoch ")[1].split(":")[0])
    assert epoch == len(model.loss_curve_) + 1 == model.n_iter_ + 1
    assert all(np.isfinite(W).all() for W in model.coefs_ + model.intercepts_)
    assert np.isfinite(model.predict(X)).all()


def test_early_stopping_keeps_the_best_network_on_the_held_out_rows():
    X, y = data(200, classes=2)
    model = quietly(MLPClassifier(hidden_layer_sizes=(8,), early_stopping=True, validation_fraction=0.2,
                                  learning_rate_init=0.05, n_iter_no_change=5, max_iter=200), X, y)
    assert model.best_loss_ is None and len(model.validation_scores_) == model.n_iter_
    assert model.best_validation_score_ == max(model.validation_scores_)
    assert model.t_ == model.n_iter_ * 160  # the held-out 40 rows are not trained on
    assert model.n_iter_ < 200


def test_early_stopping_needs_two_held_out_rows():
    X, y = data(10)
    model = MLPClassifier(early_stopping=True, validation_fraction=0.1)
    with pytest.raises(DataError, match="validation_fraction") as caught:
        model.fit(X, y)
    assert caught.value.field == "params.validation_fraction"
    assert "coefs_" not in vars(model)


def test_partial_fit_rules():
    X, y = data(60)
    model = MLPClassifier(hidden_layer_sizes=(4,))
    with pytest.raises(DataError, match="classes must be passed"):
        model.partial_fit(X, y)
    model.partial_fit(X[:20], y[:20], classes=[0, 1, 2])
    model.partial_fit(X[20:], y[20:])
    assert model.n_iter_ == 1 and model.t_ == 60 and len(model.loss_curve_) == 2
    with pytest.raises(DataError, match="not among the classes"):
        model.partial_fit(X, np.where(y == 2, 7, y))
    refused = MLPClassifier(early_stopping=True)
    with pytest.raises(DataError, match="early_stopping"):
        refused.partial_fit(X, y, classes=[0, 1, 2])
    assert not refused.fitted_attributes()


def test_warm_start_continues_and_refuses_other_classes():
    X, y = data(60)
    model = quietly(MLPClassifier(hidden_layer_sizes=(4,), max_iter=5, warm_start=True), X, y)
    quietly(model, X, y)
    assert len(model.loss_curve_) == 10 and model.n_iter_ == 5 and model.t_ == 600
    with pytest.raises(DataError, match="warm_start"):
        model.fit(X, np.where(y == 2, 1, y))


@pytest.mark.parametrize("sizes", [(), (4, 4, 4, 4), (0,), (2.5,), "32", (True,)])
def test_hidden_layer_sizes_are_one_to_three_whole_numbers(sizes):
    X, y = data(20)
    with pytest.raises(DataError) as caught:
        MLPClassifier(hidden_layer_sizes=sizes).fit(X, y)
    assert caught.value.field == "params.hidden_layer_sizes"


def test_a_single_number_or_a_list_of_whole_floats_is_a_layer_size():
    X, y = data(30)
    one = quietly(MLPClassifier(hidden_layer_sizes=5, max_iter=3), X, y)
    listed = quietly(MLPClassifier(hidden_layer_sizes=[5.0], max_iter=3), X, y)
    assert [W.shape for W in one.coefs_] == [W.shape for W in listed.coefs_] == [(3, 5), (5, 3)]


def test_model_file_round_trip_predicts_the_same():
    X, y = data(50)
    for model in (quietly(MLPClassifier(hidden_layer_sizes=(5, 3), max_iter=20), X, y),
                  quietly(MLPRegressor(hidden_layer_sizes=(4,), max_iter=20), X, X[:, 0]),
                  quietly(MLPClassifier(hidden_layer_sizes=(3,), max_iter=20, early_stopping=True), X, y > 0)):
        again = pellucid.from_dict(json.loads(json.dumps(model.to_dict())))
        np.testing.assert_array_equal(again.predict(X), model.predict(X))
        for a, b in zip(again.coefs_, model.coefs_):
            np.testing.assert_array_equal(a, b)
        assert again.loss_curve_ == pytest.approx(model.loss_curve_)


def test_a_model_file_whose_layers_do_not_chain_is_refused():
    X, y = data(50)
    d = quietly(MLPClassifier(hidden_layer_sizes=(5, 3), max_iter=5), X, y).to_dict()
    d["state"]["coefs_"] = d["state"]["coefs_"][:1] + d["state"]["coefs_"][2:]
    with pytest.raises(DataError, match="coefs_") as caught:
        pellucid.from_dict(d)
    assert caught.value.field == "model_file"


def test_probabilities_sum_to_one_and_predict_is_their_argmax():
    X, y = data(90)
    model = quietly(MLPClassifier(hidden_layer_sizes=(16,), max_iter=300, learning_rate_init=0.01), X, y)
    P = model.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_array_equal(model.predict(X), model.classes_[np.argmax(P, axis=1)])
    np.testing.assert_allclose(np.exp(model.predict_log_proba(X)), P)
    assert model.score(X, y) > 0.8


def _output_by_the_readable_functions(model, X):
    """The output layer as the readable ACTIVATION functions compute it, each a new array."""
    from pellucid.learners.network.activations import ACTIVATION
    a = X
    for layer, (W, b) in enumerate(zip(model.coefs_, model.intercepts_)):
        last = layer == len(model.coefs_) - 1
        a = ACTIVATION[model.out_activation_ if last else model.activation](a @ W + b)
    return a


@pytest.mark.parametrize("activation", ["relu", "tanh", "logistic", "identity"])
@pytest.mark.parametrize("task", ["binary", "three classes", "regression"])
def test_prediction_in_place_gives_the_readable_functions_numbers(activation, task):
    X, y = data(n=120, seed=4, classes=2 if task == "binary" else 3)
    cls = MLPRegressor if task == "regression" else MLPClassifier
    target = X[:, 0] - 2 * X[:, 1] if task == "regression" else y
    model = quietly(cls(hidden_layer_sizes=(7, 5), activation=activation, max_iter=30, random_state=1), X, target)
    # rows far out too, where a logistic unit saturates and a softmax's scores are far apart
    Q = np.vstack([X, 40 * np.random.default_rng(5).normal(size=(20, 3)), np.zeros((1, 3))])
    before = Q.copy()
    expected = _output_by_the_readable_functions(model, Q)
    np.testing.assert_array_equal(model._output(Q), expected)
    np.testing.assert_array_equal(Q, before)  # the caller's rows are only read
    if task == "regression":
        np.testing.assert_array_equal(model.predict(Q), expected[:, 0])
    else:
        P = model.predict_proba(Q)
        np.testing.assert_array_equal(P[:, -1], expected[:, -1])
        np.testing.assert_array_equal(model.predict(Q), model.classes_[np.argmax(P, axis=1)])


def test_in_place_activation_refuses_an_unknown_name():
    from pellucid.learners.network.activations import activate_in_place
    with pytest.raises(ValueError):
        activate_in_place(np.zeros((2, 2)), "softplus")
