"""Check your work: seeded exercises made from the current data and model, answered and checked in Python.

An exercise is fixed by (model, seed): the same run and seed give the same question, so a teacher can hand
one out by its seed. Kinds: "gain" (a decision tree: the information gain of an attribute at the root),
"perceptron_update" (one weight after a perceptron step), "nb_posterior" (P(class | x) under naive Bayes
with Laplace k = 1), "kmeans_centre" (a coordinate of the next k-means centre), "linear_prediction"
(linear regression's prediction w . f(x) for a row), "logistic_probability" (P(class | x) through the
sigmoid, or the softmax for several classes) and "network_unit" (a hidden unit's activation or delta,
workbench/network_exercises.py). An answer is right when it is within TOLERANCE (absolute)
of the value computed from the data; for the linear models that value is computed from the weights and
features as given, rounded to GIVEN_DECIMALS, so the rounding in the question costs nothing.
"""

import numpy as np

from ..core.errors import DataError
from ..core.settings import SEED_MAX
from ..learners import registry
from . import steps
from .explain import explain_row
from .network_exercises import network_unit
from .readouts import encoded

TOLERANCE = 0.005
GIVEN_DECIMALS = 4


def _seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, (int, float)) or seed != int(seed) or not 0 <= seed <= SEED_MAX:
        raise DataError(f"The exercise seed must be a whole number from 0 to {SEED_MAX}; got {seed!r}.")
    return int(seed)


def _make(run, seed):
    """(public exercise dict, expected answer, worked computation)."""
    kind = run.learner.exercise
    if kind is None:
        offered = [learner.label for learner in registry.learners() if learner.exercise]
        raise DataError(f"There is no exercise for {run.label} yet; try one of: {', '.join(offered)}.")
    rng = np.random.default_rng(_seed(seed))
    question, answer, worked = _MAKERS[kind](run, rng)
    return {"kind": kind, "seed": int(seed), "model": run.model, "tolerance": TOLERANCE, **question}, answer, worked


def exercise(run, seed=0):
    """The question (without its answer)."""
    return _make(run, seed)[0]


def check_exercise(run, seed, answer):
    """{correct, expected, worked, tolerance}: the answer checked against the value computed from the data."""
    question, expected, worked = _make(run, seed)
    try:
        given = float(answer)
    except (TypeError, ValueError):
        raise DataError(f"The answer must be a number; got {answer!r}.") from None
    if not np.isfinite(given):
        raise DataError(f"The answer must be a finite number; got {answer!r}.")
    return {"correct": bool(abs(given - expected) <= TOLERANCE), "answer": given, "expected": expected,
            "worked": worked, "tolerance": TOLERANCE, "kind": question["kind"], "seed": question["seed"]}


def _gain(run, rng):
    tl = steps.timeline(run)
    root = tl["frames"][0]
    options = sorted(root.get("breakdown", {}))
    if not options:
        raise DataError("The tree's root has no categorical attribute to ask about.")
    attribute = options[int(rng.integers(len(options)))]
    parts = root["breakdown"][attribute]
    questions = {"gini": f"Compute the decrease in Gini impurity from splitting on {attribute} at the root.",
                 "gain_ratio": f"Compute the gain ratio of {attribute} at the root: its information gain over "
                               "its split information."}
    q = {"question": questions.get(tl["criterion"], f"Compute the information gain of {attribute} at the root "
                                                    "(in bits)."),
         "given": {"node counts": root["counts"],
                   "branches": {b["value"]: dict(zip(tl["classes"], b["counts"])) for b in parts["branches"]}}}
    weights = getattr(run.estimator, "class_weights_", None)
    if weights is not None:  # class_weight="balanced": each example of a class counts its weight
        q["given"]["class weights"] = dict(zip(tl["classes"], weights.tolist()))
    return q, float(root["candidates"][attribute]), [line["text"] for line in parts["lines"]]


def _perceptron_update(run, rng):
    frames = steps.timeline(run)["frames"]
    mistakes = [f for f in frames if not f["correct"]] or frames
    f = mistakes[int(rng.integers(len(mistakes)))]
    binary = "target" in f
    d = len(f["x"])
    j = int(rng.integers(d))
    label = "w0 (bias)" if j == 0 else f"w{j}"
    if binary:
        expected = float(f["weights_after"][j])
        ask = f"What is {label} after this step?"
        given = {"weights before": f["weights"], "f(x)": f["x"], "y*": f["target"]}
        if "class_weight" in f:  # class_weight="balanced" scales the update
            given["class weight"] = f["class_weight"]
        if "sample_weight" in f:
            given["sample weight"] = f["sample_weight"]
    else:
        classes = list(run.estimator.classes_)
        if "targets" in f:  # one-vs-rest: a class whose own perceptron moved (else the true class)
            moved = [c for c, u in enumerate(f["update"]) if any(u)] or [classes.index(f["y"])]
            row = moved[int(rng.integers(len(moved)))]
        else:
            row = classes.index(f["y"]) if rng.random() < 0.5 or f["correct"] else classes.index(f["predicted"])
        expected = float(f["weights_after"][row][j])
        ask = f"What is {label} of class {classes[row]}'s weight vector after this step?"
        given = {"weights before (one row per class)": {str(c): w for c, w in zip(classes, f["weights"])},
                 "f(x)": f["x"], "true class": f["y"]}
        if "targets" in f:
            given["training"] = "one-vs-rest: each class's own perceptron, y* = +1 for its class"
        if "sample_weight" in f:
            given["sample weight"] = f["sample_weight"]
        if "class_weight" in f:  # class_weight="balanced" scales the update
            given["class weight"] = f["class_weight"]
    q = {"question": f"Perceptron step {f['step']} (epoch {f['epoch']}). {ask}", "given": given}
    return q, expected, [m["text"] for m in f["math"]]


def _nb_posterior(run, rng):
    est = type(run.estimator)(**{**run.estimator.get_params(), "alpha": 1.0, "trace": False})
    X, y, rows = steps.training_data(run)
    est.fit(X, y)
    row = int(rows[int(rng.integers(len(rows)))]) + 1
    ex = explain_row(run, row, estimator=est)
    c = int(rng.integers(len(ex["classes"])))
    cls = ex["classes"][c]
    worked = [f"{t['term']}: " + ", ".join(f"{k} {_log(v)}" for k, v in zip(ex["classes"], t["log_prob"]))
              for t in ex["terms"]]
    worked.append("sum: " + ", ".join(f"{k} {_log(v)}" for k, v in zip(ex["classes"], ex["total"])))
    worked.append(f"P({cls} | x) = exp(sum_{cls}) / Σ_y exp(sum_y) = {ex['proba'][c]:.4f}")
    q = {"question": f"With Laplace smoothing k = 1, what is P({run.target} = {cls} | x) for row {row}?",
         "given": {"row": row, "x": ex["values"]}}
    return q, float(ex["proba"][c]), worked


def _log(v):
    return v if isinstance(v, str) else f"{v:.4f}"


def _kmeans_centre(run, rng):
    tl = steps.timeline(run)
    est, X, _, _ = steps.refit_traced(run)
    M = encoded(est, X)  # (n, d)
    labels_all = [r["labels"] for r in est.trace_ if r["step"] == "iteration"]
    iterations = [f for f in tl["frames"] if f["kind"] == "iteration"][:len(labels_all)]
    t = int(rng.integers(max(1, len(iterations) - 1)))
    labels = np.asarray(labels_all[t])
    nonempty = [j for j in range(len(iterations[t]["centres"])) if np.any(labels == j)]
    j = nonempty[int(rng.integers(len(nonempty)))]
    members = M[labels == j, 0]  # (m,)
    expected = float(members.mean())
    name = tl["feature_names"][0]
    q = {"question": f"After the assignment of iteration {iterations[t]['iter']}, cluster {j} holds {len(members)} "
                     f"rows. What is the {name} coordinate of its next centre?",
         "given": {"cluster": j, "rows": (np.flatnonzero(labels == j)[:50] + 1).tolist(), "coordinate": name}}
    worked = [f"μ_{j}({name}) = (1/{len(members)}) Σ {name} = {members.sum():.4f} / {len(members)} = {expected:.4f}"]
    return q, expected, worked


def _linear_terms(run, rng):
    """A training row for the linear models' exercises: (row number, names, f(x) = [1, x] with x as the
    model reads it (encoded, standardised when it is), the weights (one row per score), all rounded)."""
    est = run.estimator
    X, _, rows = steps.training_data(run)
    i = int(rng.integers(len(rows)))
    f = np.round(np.concatenate([[1.0], encoded(est, X.take([i]))[0]]), GIVEN_DECIMALS)  # (d + 1,)
    W = np.round(np.column_stack([np.atleast_1d(est.intercept_), np.atleast_2d(est.coef_)]), GIVEN_DECIMALS)
    return int(rows[i]) + 1, ["1 (bias)"] + list(est.feature_names_out_), f, W  # W: (1 or K, d + 1)


def _dot_text(w, f):
    """w · f written out term by term: "0.5×1 − 2×3.1 + ..."."""
    terms = [f"{abs(a):g}×{b:g}" for a, b in zip(w, f)]
    signs = ["−" if a < 0 else "+" for a in w]
    return ("−" if w[0] < 0 else "") + terms[0] + "".join(f" {sg} {t}" for sg, t in zip(signs[1:], terms[1:]))


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z)) if z >= 0 else np.exp(z) / (1.0 + np.exp(z))  # no overflow either way


def _linear_prediction(run, rng):
    row, names, f, W = _linear_terms(run, rng)
    expected = float(W[0] @ f)
    q = {"question": f"With the fitted weights, what does linear regression predict for row {row}?",
         "given": {"f(x)": dict(zip(names, f.tolist())), "w": dict(zip(names, W[0].tolist()))}}
    return q, expected, [f"ŷ = w · f(x) = {_dot_text(W[0], f)} = {expected:.4f}"]


def _logistic_probability(run, rng):
    row, names, f, W = _linear_terms(run, rng)
    classes = [str(c) for c in run.estimator.classes_]
    z = W @ f  # (1 or K,) the scores
    if len(z) == 1:  # binary: P(second class | x) = sigmoid(z)
        p_second = float(_sigmoid(z[0]))
        probs = [1.0 - p_second, p_second]
        worked = [f"z = w · f(x) = {_dot_text(W[0], f)} = {z[0]:.4f}",
                  f"P({classes[1]} | x) = 1 / (1 + e^(−z)) = {p_second:.4f}; P({classes[0]} | x) = 1 − that = "
                  f"{1.0 - p_second:.4f}"]
        weights = dict(zip(names, W[0].tolist()))
    else:  # several classes: the softmax of one score per class
        e = np.exp(z - z.max())
        probs = (e / e.sum()).tolist()
        worked = [f"z_{c} = w_{c} · f(x) = {_dot_text(w, f)} = {v:.4f}" for c, w, v in zip(classes, W, z)]
        worked.append("P(c | x) = e^(z_c) / Σ_k e^(z_k): " + ", ".join(f"{c} {p:.4f}" for c, p in zip(classes, probs)))
        weights = {c: dict(zip(names, w.tolist())) for c, w in zip(classes, W)}
    c = int(np.argmax(probs))  # the class the model predicts: how sure is it?
    q = {"question": f"With the fitted weights, what is P({run.target} = {classes[c]} | x) for row {row}, the "
                     "probability of the class the model predicts?",
         "given": {"f(x)": dict(zip(names, f.tolist())), "weights": weights,
                   "scores": "sigmoid of w · f(x)" if len(z) == 1 else "softmax of one score per class"}}
    return q, float(probs[c]), worked


# The learner's descriptor names its exercise kind.
_MAKERS = {"gain": _gain, "perceptron_update": _perceptron_update, "nb_posterior": _nb_posterior,
           "kmeans_centre": _kmeans_centre, "linear_prediction": _linear_prediction,
           "logistic_probability": _logistic_probability, "network_unit": network_unit}
