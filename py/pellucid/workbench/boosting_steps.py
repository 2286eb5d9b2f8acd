"""The steps of boosting for one training row, as frames, every number read from the refitted model's trace.

Gradient boosting ("boosting"): F_0, then each round m the row's residual (the loss's negative gradient:
y - F_{m-1} for squared error, y - p for log-loss), the leaf of the round's tree it falls in and that
leaf's value h_m(x), and the update F_m = F_{m-1} + eta h_m(x); several classes have one tree, residual
and F per class. AdaBoost ("adaboost"): each round the row's weight w_i before it, whether the round's
tree gets the row wrong, the weighted error err_m and the tree's vote alpha_m.
"""

import math

import numpy as np

from ..core.errors import DataError
from ..core.jsonable import python_scalar
from ..learners.ensemble import traced_rows
from .frames import num

MOST_ROUNDS = 60  # rounds shown; the rest are summed up by the last frame's F (or said to be left out)


def training_index(rows, row):
    """The position of 1-based table row `row` among the training rows `rows` whose rounds the trace kept,
    or a DataError."""
    row = int(rows[0]) + 1 if row is None else int(row)
    where = np.flatnonzero(np.asarray(rows) == row - 1)
    if not len(where):
        raise DataError(f"Row {row} is not one of the training rows, and boosting's steps follow a training "
                        f"row's residuals: choose a training row (for example {int(rows[0]) + 1}).", field="row")
    if where[0] >= traced_rows.TRACE_ROWS:
        raise DataError(f"Boosting's steps keep the first {traced_rows.TRACE_ROWS:,} training rows of a round, and "
                        f"row {row} is not among them: choose one of them (for example {int(rows[0]) + 1}).",
                        field="row")
    return row, int(where[0])


def gradient(est, X, y, rows, run, row):
    """{family: "boosting", frames, ...} for a gradient boosting model refitted with trace=True."""
    row, i = training_index(rows, row)
    classes = [python_scalar(c) for c in est.classes_] if hasattr(est, "classes_") else None
    trace = est.trace_
    start = np.asarray(trace[0]["init"], dtype=float)
    frames = [_start_frame(start, classes, est.loss, row)]
    F = np.tile(start, 1)
    rounds = [r for r in trace if r["step"] == "round"]
    for r in rounds[:MOST_ROUNDS]:
        frames.append(_round_frame(r, i, F, classes, est.loss, row))
        F = np.asarray(r["after"][i], dtype=float)
    out = {"family": "boosting", "frames": frames, "row": row, "classes": classes, "loss": est.loss,
           "n_rounds": len(rounds), "learning_rate": est.learning_rate}
    if len(rounds) > MOST_ROUNDS:
        out["omitted"] = len(rounds) - MOST_ROUNDS
    return out


def _start_frame(start, classes, loss, row):
    if classes is None:
        tex, text = rf"F_0 = \bar y = {num(start[0], 4)}", f"F_0 = mean of y = {num(start[0], 4)}"
    elif len(classes) == 2:
        tex = rf"F_0 = \log \frac{{p}}{{1 - p}} = {num(start[0], 4)}"
        text = f"F_0 = log(p / (1 - p)) = {num(start[0], 4)}, p the share of {classes[1]}"
    else:
        tex = r"F_{0,k} = \log p_k - \overline{\log p} = " + ",\\ ".join(num(v, 4) for v in start)
        text = "F_0,k = log p_k (centred) = " + ", ".join(f"{c} {num(v, 4)}" for c, v in zip(classes, start))
    return {"kind": "start", "row": row, "init": start.tolist(), "loss": loss,
            "math": [{"tex": tex, "text": text}]}


def _round_frame(r, i, before, classes, loss, row):
    """Round m for row i: per tree k, the residual, the leaf, its value and F before and after."""
    eta = r["learning_rate"]
    trees = []
    for k in range(len(r["node_values"])):
        leaf = int(r["leaves"][i][k])
        value = float(r["node_values"][k][leaf])
        trees.append({"class": None if classes is None else classes[k if len(classes) > 2 else 1],
                      "residual": float(r["residuals"][i][k]), "leaf": leaf, "value": value,
                      "before": float(before[k]), "after": float(r["after"][i][k])})
    first = trees[0]
    of = "" if classes is None or len(classes) == 2 else f" for {first['class']}"  # several classes: the first's
    gradient_tex = r"r = y - F_{m-1}" if classes is None else r"r = y - p"
    gradient_text = "r = y - F_(m-1)" if classes is None else "r = y - p"
    math = [{"tex": rf"{gradient_tex} = {num(first['residual'], 4)}",
             "text": f"{gradient_text} = {num(first['residual'], 4)}"},
            {"tex": rf"F_{{{r['round'] + 1}}} = F_{{{r['round']}}} + \eta\, h_{{{r['round'] + 1}}}(\mathbf{{x}}) = "
                    rf"{num(first['before'], 4)} + {num(eta, 4)} \cdot {num(first['value'], 4)} = "
                    rf"{num(first['after'], 4)}" + (rf"\text{{{of}}}" if of else ""),
             "text": f"F_{r['round'] + 1} = F_{r['round']} + η h_{r['round'] + 1}(x) = {num(first['before'], 4)} + "
                     f"{num(eta, 4)} · {num(first['value'], 4)} = {num(first['after'], 4)}{of}"}]
    if classes is not None and len(classes) > 2:
        math = math[1:]  # the per-class table holds the residuals
    return {"kind": "round", "round": r["round"] + 1, "row": row, "trees": trees, "learning_rate": eta,
            "train_score": r["train_score"], "in_bag": bool(r["in_bag"][i]), "math": math}


def adaboost(est, X, y, rows, run, row):
    """{family: "adaboost", frames, ...} for an AdaBoost model refitted with trace=True."""
    row, i = training_index(rows, row)
    classes = [python_scalar(c) for c in est.classes_]
    frames = []
    rounds = [r for r in est.trace_ if r["step"] == "round"]
    for r in rounds[:MOST_ROUNDS]:
        frames.append(_adaboost_frame(r, i, len(classes), est.learning_rate, row, rows))
    stop = next((r for r in est.trace_ if r["step"] == "stop"), None)
    out = {"family": "adaboost", "frames": frames, "row": row, "classes": classes, "n_rounds": len(rounds),
           "stop": None if stop is None else stop["reason"]}
    if len(rounds) > MOST_ROUNDS:
        out["omitted"] = len(rounds) - MOST_ROUNDS
    return out


def _adaboost_frame(r, i, K, eta, row, rows):
    weights = np.asarray(r["weights"], dtype=float)
    err, alpha = float(r["error"]), float(r["alpha"])
    wrong = bool(r["wrong"][i])
    heaviest = np.argsort(-weights, kind="stable")[:5]
    log_k = math.log(K - 1)
    math_rows = [{"tex": rf"\mathrm{{err}}_{{{r['round'] + 1}}} = \frac{{\sum_i w_i [h(x_i) \ne y_i]}}{{\sum_i w_i}} = "
                         rf"{num(err, 4)}",
                  "text": f"err_{r['round'] + 1} = Σ w_i [h(x_i) ≠ y_i] / Σ w_i = {num(err, 4)}"}]
    if err > 0:
        math_rows.append({"tex": rf"\alpha_{{{r['round'] + 1}}} = \eta \left(\log \frac{{1 - \mathrm{{err}}}}"
                                 rf"{{\mathrm{{err}}}} + \log(K - 1)\right) = {num(eta, 4)} \left(\log "
                                 rf"\frac{{{num(1 - err, 4)}}}{{{num(err, 4)}}} + {num(log_k, 4)}\right) = "
                                 rf"{num(alpha, 4)}",
                          "text": f"α_{r['round'] + 1} = η (log((1 - err) / err) + log(K - 1)) = {num(eta, 4)} · "
                                  f"(log({num(1 - err, 4)} / {num(err, 4)}) + {num(log_k, 4)}) = {num(alpha, 4)}"})
    row_tex = r"\text{row " + str(row) + r": } w_i = " + num(weights[i], 5) + (
        r"\text{, wrong: } w_i \leftarrow w_i e^{\alpha}" if wrong else r"\text{, right: } w_i \text{ unchanged}")
    math_rows.append({"tex": row_tex + r"\text{ (then all divided by their sum)}",
                      "text": f"row {row}: w_i = {num(weights[i], 5)}, " +
                              ("wrong: w_i ← w_i e^α" if wrong else "right: w_i unchanged") +
                              " (then all divided by their sum)"})
    return {"kind": "round", "round": r["round"] + 1, "row": row, "weight": float(weights[i]), "wrong": wrong,
            "error": err, "alpha": alpha, "n_wrong": int(np.sum(r["wrong"])),
            "heaviest": [{"row": int(rows[j]) + 1, "weight": float(weights[j]), "wrong": bool(r["wrong"][j])}
                         for j in heaviest], "math": math_rows}

