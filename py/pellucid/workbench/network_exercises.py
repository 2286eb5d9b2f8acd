"""A trained network's exercise (kind "network_unit"): for one training row, either one hidden unit's
activation a = g(z), z = b + sum_i w_i a_i (the forward pass), or one unit of the last hidden layer's delta
by the chain rule, delta_j = g'(a_j) sum_k W_jk delta_k, with the output layer's delta_k = a_k - y_k (the
backward pass, as in the steps' frames, workbench/network_steps.py). The seed chooses which, the row, the
layer and the unit.

Every given number is the network's own for that row (its inputs as the network reads them, its weights,
the activations and output deltas of its forward pass), rounded to GIVEN_DECIMALS; the expected answer is
computed from the rounded numbers, so the rounding in the question costs nothing.
"""

import numpy as np

from ..learners.network.activations import ACTIVATION, DERIVATIVE
from . import steps
from .readouts import encoded

GIVEN_DECIMALS = 4
MAX_TERMS = 8  # a longer weighted sum is written out in part
SLOPE_WORDS = {"relu": "1 if a > 0, else 0", "tanh": "1 − a²", "logistic": "a (1 − a)", "identity": "1"}
FUNCTION_WORDS = {"relu": "max(0, z)", "tanh": "tanh(z)", "logistic": "1 / (1 + e^(−z))", "identity": "z"}


def network_unit(run, rng):
    """(question, expected answer, worked lines) for a seeded row, layer and unit of the run's network."""
    est = run.estimator
    X, y, rows = steps.training_data(run)
    i = int(rng.integers(len(rows)))
    x = encoded(est, X.take([i]))  # (1, d) the row as the network reads it
    activations = _forward(est, x)
    row = int(rows[i]) + 1
    if rng.integers(2) == 0:
        return _activation_question(est, row, activations, rng)
    return _delta_question(est, row, activations, _targets(est, y[i]), rng)


def _forward(est, x):
    """[a_0 = x, a_1, ..., a_L] for one row, each (units,), with the network's own weights."""
    a = [x[0]]
    for layer, (W, b) in enumerate(zip(est.coefs_, est.intercepts_)):
        g = est.out_activation_ if layer == len(est.coefs_) - 1 else est.activation
        a.append(ACTIVATION[g](np.atleast_2d(a[-1] @ W + b))[0])
    return a


def _targets(est, label):
    """y for the output units: the regression target, 1/0 for classes_[1] (two classes), else one-hot."""
    if not hasattr(est, "classes_"):
        return np.array([float(label)])
    hit = (np.asarray(est.classes_) == label).astype(float)
    return hit[1:] if len(est.classes_) == 2 else hit


def _input_names(est, layer):
    if layer == 1:
        return list(est.feature_names_out_)
    return [f"a{j + 1} of hidden layer {layer - 1}" for j in range(est.coefs_[layer - 1].shape[0])]


def _activation_question(est, row, activations, rng):
    hidden = len(est.coefs_) - 1
    layer = int(rng.integers(1, hidden + 1))  # a hidden layer, 1-based
    unit = int(rng.integers(est.coefs_[layer - 1].shape[1]))
    a_in = np.round(activations[layer - 1], GIVEN_DECIMALS)
    w = np.round(est.coefs_[layer - 1][:, unit], GIVEN_DECIMALS)
    b = round(float(est.intercepts_[layer - 1][unit]), GIVEN_DECIMALS)
    z = b + float(w @ a_in)
    g = est.activation
    expected = float(ACTIVATION[g](np.array([[z]]))[0, 0])
    names = _input_names(est, layer)
    q = {"question": f"For row {row}, what is the output a of unit {unit + 1} of hidden layer {layer} "
                     f"({g}: a = {FUNCTION_WORDS[g]})?",
         "given": {"inputs a_i": dict(zip(names, a_in.tolist())), "weights w_i": dict(zip(names, w.tolist())),
                   "bias b": b, "activation": g}}
    worked = [f"z = b + Σ w_i a_i = {_sum_text(w, a_in, after=b)} = {z:.4f}",
              f"a = {g}(z) = {expected:.4f}"]
    return q, expected, worked


def _delta_question(est, row, activations, targets, rng):
    layer = len(est.coefs_) - 1  # the last hidden layer, 1-based: its deltas come from the output's
    g = est.activation
    slopes = DERIVATIVE[g](activations[layer])
    live = np.flatnonzero(slopes != 0)  # a ReLU unit at 0 passes no delta back: ask about one that does
    unit = int(rng.choice(live)) if len(live) else int(rng.integers(len(slopes)))
    a_j = round(float(activations[layer][unit]), GIVEN_DECIMALS)
    outgoing = np.round(est.coefs_[layer][unit, :], GIVEN_DECIMALS)  # (outputs,)
    output_delta = np.round(activations[-1] - targets, GIVEN_DECIMALS)  # delta_L = a_L - y
    slope = float(DERIVATIVE[g](np.array([a_j]))[0])  # g'(z) read from the unit's output, as backprop does
    back = float(outgoing @ output_delta)
    expected = slope * back
    outputs = _output_names(est)
    q = {"question": f"For row {row}, what is the delta of unit {unit + 1} of hidden layer {layer} "
                     f"({g}, so g' = {SLOPE_WORDS[g]}), by the chain rule from the output layer's deltas?",
         "given": {"a_j (the unit's output)": a_j, "weights W_jk to the outputs": dict(zip(outputs, outgoing.tolist())),
                   "output deltas δ_k = a_k − y_k": dict(zip(outputs, output_delta.tolist())), "activation": g}}
    worked = [f"Σ_k W_jk δ_k = {_sum_text(outgoing, output_delta)} = {back:.4f}",
              f"g'(a_j) = {SLOPE_WORDS[g]} = {slope:.4f} at a_j = {a_j:g}",
              f"δ_j = g'(a_j) · Σ_k W_jk δ_k = {slope:.4f} × {back:.4f} = {expected:.4f}"]
    return q, float(expected), worked


def _output_names(est):
    if not hasattr(est, "classes_"):
        return ["output"]
    classes = [str(c) for c in est.classes_]
    return [f"P({classes[1]})"] if len(classes) == 2 else [f"P({c})" for c in classes]


def _sum_text(w, a, after=None):
    """sum_i w_i a_i written out term by term, "0.5×1.2 − 2×(−3.1) + ...", after the number `after` when given
    ("b + w_1 a_1 ..."); the first MAX_TERMS terms when there are more."""
    terms = "".join(f" {'−' if p < 0 else '+'} {abs(p):g}×{_number(q)}" for p, q in list(zip(w, a))[:MAX_TERMS])
    more = f" + … ({len(w) - MAX_TERMS} more terms)" if len(w) > MAX_TERMS else ""
    if after is not None:
        return _number(after) + terms + more
    return (terms[3:] if terms.startswith(" + ") else "−" + terms[3:]) + more


def _number(q):
    """A given number as written in a sum: negative ones in brackets, with a true minus sign."""
    return f"({q:g})".replace("-", "−") if q < 0 else f"{q:g}"
