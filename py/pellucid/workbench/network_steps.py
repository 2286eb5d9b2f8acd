"""A network's steps for one row: the forward pass layer by layer, the backward pass (each delta by the chain
rule), each weight's gradient and the update the solver made, read from the traced fit's `trace_`
(learners/network/trace.py) and written in the notes' notation (notes 001: z = theta^T x, p = sigma(z), the
chain rule dLL/dtheta_j = dLL/dp . dp/dz . dz/dtheta_j, the step eta).

A fit has one traced step per epoch (the batch that holds the row); the frames follow the first
SHOWN_STEPS of them and the last, so a long fit still reads in a few dozen frames. Per step and layer l:

    forward   z_l = a_(l-1) W_l + b_l, a_l = g(z_l)       each unit's weighted sum and activation
    backward  delta_L = a_L - y; delta_l = (delta_(l+1) W_(l+1)^T) * g'(z_l)
    update    dLoss/dW_l (the batch's average, penalty included) and the step the solver added

Every number is the trace's; the unit columns are the layers' labels of the Network view.
"""

import warnings

import numpy as np

from ..core.errors import DataError
from .frames import num, vec
from .network_view import layers

SHOWN_STEPS = 3  # the first steps followed in full, then the last one
INLINE_TERMS = 6  # a weighted sum of up to this many inputs is written out term by term
SLOPE = {"relu": "1 if a > 0 else 0", "tanh": "1 − a²", "logistic": "a (1 − a)", "identity": "1"}
SLOPE_TEX = {"relu": r"[a > 0]", "tanh": r"1 - a^2", "logistic": r"a(1 - a)", "identity": "1"}


def network(est, X, y, rows, run, row):
    """The "network" family's timeline for the 1-based table `row` (a training row; default the first)."""
    est, table_row = _traced_for(est, X, y, rows, row)
    steps = [s for s in est.trace_ if "omitted" not in s]
    if not steps:
        raise DataError("The traced fit recorded no step of this row.", field="row")
    shown = steps[:SHOWN_STEPS] + ([steps[-1]] if len(steps) > SHOWN_STEPS else [])
    names = layers(est)
    frames = []
    for step in shown:
        frames += _step_frames(step, names, est.activation, est.out_activation_)
    return {"family": "network", "frames": frames, "layers": names, "activation": est.activation,
            "out_activation": est.out_activation_, "solver": est.solver, "row": table_row,
            "n_steps": len(steps), "steps_shown": [s["step"] for s in shown],
            "classes": [str(c) for c in est.classes_] if hasattr(est, "classes_") else None}


def _traced_for(est, X, y, rows, row):
    """(the traced estimator following `row`, its 1-based table row): the fit already traced follows the
    first row trained on; another row is traced by a fit with trace_row. Without a row: the first one (None
    with early stopping, whose held-out rows are drawn inside the fit)."""
    if row is None:
        return est, None if est.early_stopping else int(rows[0]) + 1
    where = np.flatnonzero(np.asarray(rows) == int(row) - 1)
    if not len(where):
        raise DataError(f"Row {row} is not a training row (it is held out to score the model), so the network "
                        "never took a step on it; choose a training row.", field="row")
    params = {**est.get_params(), "trace": True}
    traced = type(est)(**params)
    traced.trace_row = int(where[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced.fit(X, y)
    return traced, int(row)


def _step_frames(step, names, activation, out_activation):
    L = len(step["z"])
    head = {"epoch": step["epoch"], "step": step["step"], "batch_rows": step["batch_rows"],
            "learning_rate": step["learning_rate"]}
    frames = []
    for i in range(L):
        g = out_activation if i == L - 1 else activation
        frames.append({"kind": "forward", **head, "layer": i + 1, "layer_name": names[i + 1]["name"],
                       "units": names[i + 1]["units"], "inputs": names[i]["units"], "function": g,
                       "a_in": step["x"] if i == 0 else step["a"][i - 1], "W": step["coefs"][i],
                       "b": step["intercepts"][i], "z": step["z"][i], "a": step["a"][i],
                       "math": _forward_math(step, i, g)})
    for i in range(L - 1, -1, -1):
        frame = {"kind": "backward", **head, "layer": i + 1, "layer_name": names[i + 1]["name"],
                 "units": names[i + 1]["units"], "delta": step["deltas"][i], "a": step["a"][i]}
        if i == L - 1:
            frame.update(target=step["target"], math=_output_delta_math(step))
        else:
            carried = np.asarray(step["deltas"][i + 1]) @ np.asarray(step["coefs"][i + 1]).T  # (units,)
            frame.update(next_delta=step["deltas"][i + 1], carried=carried.tolist(), function=activation,
                         math=_hidden_delta_math(step, i, activation))
        frames.append(frame)
    for i in range(L):
        frames.append({"kind": "update", **head, "layer": i + 1, "layer_name": names[i + 1]["name"],
                       "units": names[i + 1]["units"], "inputs": names[i]["units"],
                       "a_in": a_in(step, i), "delta": step["deltas"][i],
                       "coef_grad": step["coef_grads"][i], "intercept_grad": step["intercept_grads"][i],
                       "coef_update": step["coef_updates"][i], "intercept_update": step["intercept_updates"][i],
                       "W_before": step["coefs"][i], "b_before": step["intercepts"][i],
                       "row_grad": np.outer(a_in(step, i), step["deltas"][i]).tolist(),  # this row's a delta^T
                       "W_after": (np.asarray(step["coefs"][i]) + step["coef_updates"][i]).tolist(),
                       "b_after": (np.asarray(step["intercepts"][i]) + step["intercept_updates"][i]).tolist(),
                       "math": _update_math(step, i)})
    return frames


def a_in(step, i):
    """What layer i + 1 reads: the row's inputs a_0, or the activations of the layer before."""
    return step["x"] if i == 0 else step["a"][i - 1]


def _forward_math(step, i, g):
    """Layer l = i + 1: z_l = a_(l-1) W_l + b_l with the first unit's sum written out, and a_l = g(z_l)."""
    a_in = step["x"] if i == 0 else step["a"][i - 1]
    W, b, z, a = step["coefs"][i], step["intercepts"][i], step["z"][i], step["a"][i]
    k = i + 1
    items = [{"tex": rf"z_{k} = a_{i} W_{k} + b_{k} = {_tex_vec(z)}",
              "text": f"z_{k} = a_{i} W_{k} + b_{k} = {vec(z)}"}]
    if len(a_in) <= INLINE_TERMS:
        terms = " + ".join(f"{num(x)}·{num(W[j][0])}" for j, x in enumerate(a_in))
        tex_terms = " + ".join(rf"{num(x)} \cdot {num(W[j][0])}" for j, x in enumerate(a_in))
        items.append({"tex": rf"z_{{{k},1}} = {tex_terms} + {num(b[0])} = {num(z[0])}",
                      "text": f"z_{k},1 = {terms} + {num(b[0])} = {num(z[0])}"})
    items.append({"tex": rf"a_{k} = {_tex_function(g)}(z_{k}) = {_tex_vec(a)}",
                  "text": f"a_{k} = {g}(z_{k}) = {vec(a)}"})
    return items


def _output_delta_math(step):
    L = len(step["z"])
    d, a, y = step["deltas"][-1], step["a"][-1], step["target"]
    return [{"tex": rf"\delta_{L} = \frac{{\partial \mathrm{{Loss}}}}{{\partial z_{L}}} = a_{L} - y = {_tex_vec(a)} - "
                    rf"{_tex_vec(y)} = {_tex_vec(d)}",
             "text": f"delta_{L} = dLoss/dz_{L} = a_{L} − y = {vec(a)} − {vec(y)} = {vec(d)}"},
            {"tex": r"\text{as the notes' logistic unit: } \frac{\partial LL}{\partial z} = y - \sigma(z)"
                    r"\text{, the loss's sign turned}",
             "text": "as the notes' logistic unit: dLL/dz = y − σ(z), with the loss's sign"}]


def _hidden_delta_math(step, i, g):
    k = i + 1
    d = step["deltas"][i]
    return [{"tex": rf"\delta_{k} = (\delta_{k + 1} W_{k + 1}^T) \odot g'(z_{k}),\quad g'(z) = {SLOPE_TEX[g]}"
                    rf" = {_tex_vec(d)}",
             "text": f"delta_{k} = (delta_{k + 1} W_{k + 1}^T) * g'(z_{k}), g'(z) = {SLOPE[g]}: {vec(d)}"},
            {"tex": rf"\frac{{\partial \mathrm{{Loss}}}}{{\partial z_{k}}} = \frac{{\partial \mathrm{{Loss}}}}"
                    rf"{{\partial z_{k + 1}}} \cdot \frac{{\partial z_{k + 1}}}{{\partial a_{k}}} \cdot "
                    rf"\frac{{\partial a_{k}}}{{\partial z_{k}}}",
             "text": f"dLoss/dz_{k} = dLoss/dz_{k + 1} · dz_{k + 1}/da_{k} · da_{k}/dz_{k} (the chain rule)"}]


def _update_math(step, i):
    k = i + 1
    g, u = step["coef_grads"][i], step["coef_updates"][i]
    eta = step["learning_rate"]
    return [{"tex": rf"\frac{{\partial \mathrm{{Loss}}}}{{\partial W_{k}}} = \frac{{1}}{{n}}\left(a_{i}^T \delta_{k}"
                    rf" + \alpha W_{k}\right),\quad n = {step['batch_rows']}",
             "text": f"dLoss/dW_{k} = (a_{i}^T delta_{k} + alpha W_{k}) / n over the batch's "
                     f"n = {step['batch_rows']} rows"},
            {"tex": rf"\frac{{\partial \mathrm{{Loss}}}}{{\partial W_{{{k},11}}}} = {num(g[0][0], 5)},\quad "
                    rf"\Delta W_{{{k},11}} = {num(u[0][0], 5)}\quad (\eta = {num(eta, 5)})",
             "text": f"dLoss/dW_{k},11 = {num(g[0][0], 5)}; the step added {num(u[0][0], 5)} (eta = {num(eta, 5)})"}]


def _tex_vec(values):
    return r"\left[" + ",\\ ".join(num(v) for v in values) + r"\right]"


def _tex_function(g):
    named = {"logistic": r"\sigma", "softmax": r"\mathrm{softmax}", "identity": r"\mathrm{id}"}
    return named.get(g, rf"\mathrm{{{g}}}")
