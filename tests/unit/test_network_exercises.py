"""A network's exercise ("network_unit"): the answer is recomputed here by hand from the given numbers (a unit's
activation, or a delta by the chain rule), and the given numbers are checked to be the network's own: the
row's inputs as the network reads them, its weights, and the output deltas a_k - y_k of its probabilities
or prediction."""

import math

import numpy as np
import pytest

from pellucid import bridge
from pellucid.workbench import exercises

session = bridge.Session()
HAND_ACTIVATION = {"relu": lambda z: max(z, 0.0), "tanh": math.tanh, "identity": lambda z: z,
                   "logistic": lambda z: 1 / (1 + math.exp(-z))}
HAND_SLOPE = {"relu": lambda a: 1.0 if a > 0 else 0.0, "tanh": lambda a: 1 - a * a, "identity": lambda a: 1.0,
              "logistic": lambda a: a * (1 - a)}
ROUNDING = 1e-4 / 2  # the given numbers' 4 decimals


def trained(example, model, target, params):
    table = session.handle("load_example", {"name": example})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": target, "features": None,
                                    "model": model, "params": params})
    assert reply["ok"], reply
    return reply["result"]["model_id"], session.runs[reply["result"]["model_id"]]


def asked(question, before, after):
    return int(question.split(before)[1].split(after)[0])


def check_answer(model_id, run, seed, by_hand):
    right = session.handle("check_exercise", {"model_id": model_id, "seed": seed, "answer": round(by_hand, 3)})
    assert right["ok"] and right["result"]["correct"], right
    assert right["result"]["expected"] == pytest.approx(by_hand, abs=1e-12)
    assert not exercises.check_exercise(run, seed, by_hand + 0.01)["correct"]


def check_activation(ex, run, row):
    est = run.estimator
    layer, unit = asked(ex["question"], "hidden layer ", " ("), asked(ex["question"], "of unit ", " of")
    given = ex["given"]
    inputs, weights = list(given["inputs a_i"].values()), list(given["weights w_i"].values())
    assert weights == pytest.approx(est.coefs_[layer - 1][:, unit - 1], abs=ROUNDING)
    assert given["bias b"] == pytest.approx(est.intercepts_[layer - 1][unit - 1], abs=ROUNDING)
    # The inputs are the layer's inputs for this row: the network run on from them gives the model's output.
    assert forward_from(est, np.array(inputs), layer) == pytest.approx(output_of(est, run.model_input([row])),
                                                                       abs=1e-3)
    z = given["bias b"] + sum(w * x for w, x in zip(weights, inputs))
    return HAND_ACTIVATION[given["activation"]](z)


def forward_from(est, a, layer):
    """The network's output from layer `layer`'s inputs a, by hand (softmax, sigmoid or identity at the end)."""
    for i in range(layer - 1, len(est.coefs_)):
        z = a @ est.coefs_[i] + est.intercepts_[i]
        last = i == len(est.coefs_) - 1
        if not last:
            a = np.array([HAND_ACTIVATION[est.activation](v) for v in z])
        elif est.out_activation_ == "softmax":
            a = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        else:
            a = np.array([HAND_ACTIVATION[est.out_activation_](v) for v in z])
    return a


def output_of(est, x):
    if not hasattr(est, "classes_"):
        return est.predict(x)
    proba = est.predict_proba(x)[0]
    return proba[1:] if len(est.classes_) == 2 else proba


def check_delta(ex, run, row):
    est = run.estimator
    given = ex["given"]
    deltas = list(given["output deltas δ_k = a_k − y_k"].values())
    weights = list(given["weights W_jk to the outputs"].values())
    x = run.model_input([row])
    label = run.table.column(run.target)[row]
    if hasattr(est, "classes_"):
        y = (est.classes_ == label).astype(float)
        y = y[1:] if len(est.classes_) == 2 else y
    else:
        y = np.array([float(label)])
    assert deltas == pytest.approx(output_of(est, x) - y, abs=ROUNDING)
    unit = asked(ex["question"], "of unit ", " of")
    assert weights == pytest.approx(est.coefs_[-1][unit - 1, :], abs=ROUNDING)
    a_j = given["a_j (the unit's output)"]
    return HAND_SLOPE[given["activation"]](a_j) * sum(w * d for w, d in zip(weights, deltas))


@pytest.mark.parametrize("model,example,target,params", [
    ("MLPClassifier", "iris", "species", {"hidden_layer_sizes": [6], "activation": "relu"}),
    ("MLPClassifier", "breast_cancer", "diagnosis", {"hidden_layer_sizes": [5, 3], "activation": "tanh"}),
    ("MLPRegressor", "iris", "petal width (cm)", {"hidden_layer_sizes": [4], "activation": "logistic"}),
])
def test_the_answer_is_the_chain_rule_on_the_networks_own_numbers(model, example, target, params):
    model_id, run = trained(example, model, target, params)
    kinds = set()
    for seed in range(8):
        ex = exercises.exercise(run, seed)
        assert ex["kind"] == "network_unit" and ex == exercises.exercise(run, seed)  # the seed fixes it
        row = asked(ex["question"], "For row ", ",") - 1
        assert row in set(run.train_rows())
        is_delta = "delta" in ex["question"]
        kinds.add(is_delta)
        by_hand = (check_delta if is_delta else check_activation)(ex, run, row)
        if is_delta:
            assert by_hand != 0  # a unit that passes a delta back is asked about
        check_answer(model_id, run, seed, by_hand)
    assert kinds == {True, False}  # both questions come up
