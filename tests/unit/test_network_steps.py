"""The network's steps for one row equal an independent numpy computation: from the Glorot start drawn by
numpy's generator, the forward pass (z = a W + b, a = g(z)), the deltas by the chain rule, the batch's
gradients and plain gradient descent's update, step after step; the row box picks the row followed."""

import warnings

import numpy as np
import pytest

from pellucid import DataError, MLPClassifier, MLPRegressor
from pellucid.bridge import Session
from pellucid.tabular.features import numeric
from pellucid.workbench.network_steps import SHOWN_STEPS, network


def start_weights(sizes, seed, factor=6.0):
    """Glorot's uniform start, written out: W and b of each layer from U(-r, r), r = sqrt(6/(in + out))."""
    rng = np.random.default_rng(seed)
    coefs, intercepts = [], []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        r = np.sqrt(factor / (fan_in + fan_out))
        coefs.append(rng.uniform(-r, r, (fan_in, fan_out)))
        intercepts.append(rng.uniform(-r, r, fan_out))
    return coefs, intercepts


def softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def passes(X, Y, coefs, intercepts, alpha):
    """(zs, activations, deltas, coef grads, intercept grads) of tanh hidden units and a softmax output."""
    a, zs, acts = X, [], [X]
    for i, (W, b) in enumerate(zip(coefs, intercepts)):
        z = a @ W + b
        a = softmax(z) if i == len(coefs) - 1 else np.tanh(z)
        zs.append(z)
        acts.append(a)
    deltas = [None] * len(coefs)
    deltas[-1] = acts[-1] - Y
    for i in range(len(coefs) - 2, -1, -1):
        deltas[i] = (deltas[i + 1] @ coefs[i + 1].T) * (1 - acts[i + 1] ** 2)
    n = len(X)
    grads = [(acts[i].T @ deltas[i] + alpha * coefs[i]) / n for i in range(len(coefs))]
    bias_grads = [deltas[i].sum(axis=0) / n for i in range(len(coefs))]
    return zs, acts, deltas, grads, bias_grads


def frames_of(timeline, step):
    return {(f["kind"], f["layer"]): f for f in timeline["frames"] if f["step"] == step}


@pytest.mark.parametrize("row", [1, 7])
def test_the_frames_are_the_forward_and_backward_pass_written_out(row):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(12, 3))  # (n, d)
    y = np.array(["a", "b", "c"] * 4)
    Y = (y[:, None] == np.array(["a", "b", "c"])).astype(float)  # (n, 3) indicators
    eta, alpha, seed = 0.1, 0.01, 3
    model = MLPClassifier(hidden_layer_sizes=(4, 2), activation="tanh", solver="sgd", momentum=0.0,
                          learning_rate_init=eta, alpha=alpha, batch_size=12, shuffle=False, max_iter=5,
                          random_state=seed, trace=True, n_iter_no_change=100)
    with pytest.warns(Warning):
        model.fit(X, y)
    timeline = network(model, X, y, np.arange(12), None, row)
    assert timeline["row"] == row and timeline["n_steps"] == 5
    assert timeline["steps_shown"] == [1, 2, 3, 5][:SHOWN_STEPS] + [5]
    coefs, intercepts = start_weights([3, 4, 2, 3], seed)
    r = row - 1
    for step in range(1, 6):
        zs, acts, deltas, grads, bias_grads = passes(X, Y, coefs, intercepts, alpha)
        if step in timeline["steps_shown"]:
            f = frames_of(timeline, step)
            for i in range(3):
                forward, backward, update = f["forward", i + 1], f["backward", i + 1], f["update", i + 1]
                np.testing.assert_allclose(forward["W"], coefs[i], atol=1e-12)
                np.testing.assert_allclose(forward["a_in"], acts[i][r], atol=1e-12)
                np.testing.assert_allclose(forward["z"], zs[i][r], atol=1e-12)
                np.testing.assert_allclose(forward["a"], acts[i + 1][r], atol=1e-12)
                np.testing.assert_allclose(backward["delta"], deltas[i][r], atol=1e-12)
                np.testing.assert_allclose(update["coef_grad"], grads[i], atol=1e-12)
                np.testing.assert_allclose(update["intercept_grad"], bias_grads[i], atol=1e-12)
                np.testing.assert_allclose(update["coef_update"], -eta * grads[i], atol=1e-12)
            np.testing.assert_allclose(f["backward", 3]["target"], Y[r])
            assert f"{forward['z'][0]:.3f}" in f["forward", 3]["math"][1]["text"]  # the sum written out
        coefs = [W - eta * g for W, g in zip(coefs, grads)]  # plain gradient descent, full batch
        intercepts = [b - eta * g for b, g in zip(intercepts, bias_grads)]


def test_the_row_box_follows_a_training_row_and_refuses_a_held_out_one():
    session = Session()
    table_id = session.handle("load_example", {"name": "iris"})["result"]["table_id"]
    reply = session.handle("train", {"table_id": table_id, "target": "petal width (cm)", "features": None,
                                     "model": "MLPRegressor", "params": {"hidden_layer_sizes": [3], "max_iter": 4},
                                     "evaluation": {"method": "split", "train": 60, "validation": 20, "test": 20,
                                                    "seed": 1}})
    assert reply["ok"], reply
    result = reply["result"]
    train_row, held_row = result["splits"]["train"][2], result["splits"]["test"][0]
    timeline = session.handle("timeline", {"model_id": result["model_id"], "row": train_row})["result"]
    assert timeline["family"] == "network" and timeline["row"] == train_row
    run = session.run(result["model_id"])
    row_as_read = numeric(run.estimator, run.model_input(np.array([train_row - 1])))[0]
    np.testing.assert_allclose(timeline["frames"][0]["a_in"], row_as_read)
    refused = session.handle("timeline", {"model_id": result["model_id"], "row": held_row})
    assert not refused["ok"] and refused["error"]["field"] == "row"


def test_early_stopping_refuses_exactly_the_rows_it_holds_out():
    X = np.random.default_rng(0).normal(size=(20, 2))
    refused = []
    for row in range(20):
        model = MLPRegressor(hidden_layer_sizes=(2,), early_stopping=True, validation_fraction=0.5, max_iter=2,
                             trace=True)
        model.trace_row = row
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(X, X[:, 0])
        except DataError as exc:
            assert exc.field == "row" and "holds out" in str(exc)
            refused.append(row)
        else:
            np.testing.assert_allclose(model.trace_[0]["x"], X[row])
    assert len(refused) == 10  # ceil(0.5 * 20) rows held out to score each epoch
