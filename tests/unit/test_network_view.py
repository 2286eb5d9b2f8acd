"""The Network view's data: the layers as the model has them, each unit's map equal to an independent
forward pass over the lattice (the other features held at their training means), the loss per epoch from
the fitted model, the view offered in the reply, and another plane asked through the bridge."""

import numpy as np
import pytest

from pellucid.bridge import Session
from pellucid.workbench.network_replay import MAX_SNAPSHOTS
from pellucid.workbench.network_view import GRID


def session_with(table="iris"):
    session = Session()
    reply = session.handle("load_example", {"name": table})
    assert reply["ok"], reply
    return session, reply["result"]["table_id"]


def train(session, table_id, target, model, **params):
    reply = session.handle("train", {"table_id": table_id, "target": target, "features": None, "model": model,
                                     "params": {"max_iter": 30, **params}})
    assert reply["ok"], reply
    return reply["result"]


def relu(z):
    return np.maximum(z, 0)


def test_the_iris_network_is_drawn_layer_by_layer():
    session, table_id = session_with()
    result = train(session, table_id, "species", "MLPClassifier", hidden_layer_sizes=[5, 3])
    assert "network" in result["views"]
    net = result["network"]
    assert [len(layer["units"]) for layer in net["layers"]] == [4, 5, 3, 3]
    assert net["layers"][-1]["units"] == ["setosa", "versicolor", "virginica"]
    model = session.run(result["model_id"]).estimator
    for W, b, mine, theirs in zip(net["coefs"], net["intercepts"], model.coefs_, model.intercepts_):
        np.testing.assert_allclose(W, mine)
        np.testing.assert_allclose(b, theirs)
    assert net["loss_curve"] == pytest.approx(model.loss_curve_) and len(net["loss_curve"]) == model.n_iter_
    assert net["validation_scores"] is None


def test_each_units_map_is_its_forward_pass_over_the_lattice():
    session, table_id = session_with()
    result = train(session, table_id, "species", "MLPClassifier", hidden_layer_sizes=[4], activation="relu")
    net, run = result["network"], session.run(result["model_id"])
    plane = net["plane"]
    assert (plane["x"], plane["y"]) == tuple(result["default_axes"]["boundary"][k] for k in ("x", "y"))
    # The lattice written out: x across, y down the rows, the other features at their training means,
    # standardized as the model's preprocessing did (the model reads the columns in its own order).
    train_rows = run.train_rows()
    gx, gy = np.meshgrid(plane["x_values"], plane["y_values"])
    columns = {}
    for name in run.features:
        if name == plane["x"]:
            columns[name] = gx.ravel()
        elif name == plane["y"]:
            columns[name] = gy.ravel()
        else:
            columns[name] = np.full(GRID * GRID, np.mean(np.asarray(run.table.column(name), float)[train_rows]))
    raw = np.column_stack([columns[name] for name in run.features])
    data = np.column_stack([np.asarray(run.table.column(name), float)[train_rows] for name in run.features])
    X = (raw - data.mean(axis=0)) / data.std(axis=0)  # the page standardizes a network's inputs
    model = run.estimator
    hidden = relu(X @ model.coefs_[0] + model.intercepts_[0])  # (GRID^2, 4)
    scores = hidden @ model.coefs_[1] + model.intercepts_[1]
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    for j in range(4):
        np.testing.assert_allclose(net["maps"][0][j]["values"], hidden[:, j], atol=1e-9)
        assert net["maps"][0][j]["high"] == pytest.approx(hidden[:, j].max())
    for k in range(3):
        np.testing.assert_allclose(net["maps"][1][k]["values"], p[:, k], atol=1e-9)


def test_early_stopping_sends_the_held_out_score_per_epoch():
    session, table_id = session_with()
    result = train(session, table_id, "species", "MLPClassifier", hidden_layer_sizes=[3], early_stopping=True,
                   max_iter=40)
    net = result["network"]
    assert len(net["validation_scores"]) == len(net["loss_curve"]) and net["score_name"] == "accuracy"
    assert all(0 <= v <= 1 for v in net["validation_scores"])


def test_a_regressor_has_one_output_and_another_plane_on_demand():
    session, table_id = session_with()
    result = train(session, table_id, "petal width (cm)", "MLPRegressor", hidden_layer_sizes=[3])
    net = result["network"]
    assert net["layers"][-1]["units"] == ["prediction"] and net["score_name"] == "R²"
    features = result["plot_features"]["boundary"]
    x, y = features[-1], features[0]
    other = session.handle("network", {"model_id": result["model_id"], "x": x, "y": y})
    assert other["ok"], other
    assert (other["result"]["plane"]["x"], other["result"]["plane"]["y"]) == (x, y)
    assert other["result"]["coefs"] == net["coefs"]


def test_other_models_have_no_network_view():
    session, table_id = session_with()
    result = train(session, table_id, "species", "LogisticRegression")
    assert "network" not in result["views"] and "network" not in result
    refused = session.handle("network", {"model_id": result["model_id"], "x": "a", "y": "b"})
    assert not refused["ok"] and "not a network" in refused["error"]["message"]


def test_the_replay_keeps_at_most_60_epochs_and_their_weights_are_the_fits():
    session, table_id = session_with()
    params = {"hidden_layer_sizes": [4], "max_iter": 150, "n_iter_no_change": 1000}
    result = train(session, table_id, "species", "MLPClassifier", **params)
    replay = result["network"]["replay"]
    epochs, n_iter = replay["epochs"], result["network"]["n_iter"]
    assert replay["why_not"] is None and len(epochs) == MAX_SNAPSHOTS and epochs[0] == 1 and epochs[-1] == n_iter
    assert epochs == sorted(set(epochs))
    run = session.run(result["model_id"])
    last = session.handle("network", {"model_id": result["model_id"], "x": "petal length (cm)",
                                      "y": "petal width (cm)", "epoch": n_iter})["result"]
    for W, fitted in zip(last["coefs"], run.estimator.coefs_):
        np.testing.assert_allclose(W, fitted)
    assert last["epoch"] == n_iter and last["boundary"]["width"] == 60
    # Epoch 1's weights are those of the same fit stopped after one epoch.
    one = train(session, table_id, "species", "MLPClassifier", **{**params, "max_iter": 1})
    first = session.handle("network", {"model_id": result["model_id"], "epoch": 1})["result"]
    for W, once in zip(first["coefs"], one["network"]["coefs"]):
        np.testing.assert_allclose(W, once)
    assert first["boundary"] is None  # no plane asked: no maps, no boundary
    refused = session.handle("network", {"model_id": result["model_id"], "epoch": 2 if 2 not in epochs else 0})
    assert not refused["ok"] and refused["error"]["field"] == "epoch"


def test_a_large_network_is_not_replayed_and_says_why():
    session, table_id = session_with()
    result = train(session, table_id, "species", "MLPClassifier", hidden_layer_sizes=[1200], max_iter=2)
    replay = result["network"]["replay"]
    assert replay["epochs"] == [] and "weights and biases" in replay["why_not"]
    assert "on_epoch" not in vars(session.run(result["model_id"]).estimator)
