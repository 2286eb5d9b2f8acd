"""What a traced fit records for a later view: for one row, every step's forward pass, its deltas by the
chain rule, the batch's gradient of every weight and the update the solver made.

`trace_` holds one dict per step (batch) that contains the traced row: the first training row (after
early stopping holds some rows out, the first row it trains on), or the row `trace_row` names (an index
into the rows given to fit, set on the estimator by whoever asks for that row's steps), in order:

    {"epoch": e (from 1), "step": the step's number among all steps of the fit (from 1),
     "row": the row's index in the rows trained on, "batch_rows": rows in the batch,
     "learning_rate": the solver's step size eta at this step,
     "x": the row's inputs a_0,
     "z": [z_1, .., z_L] the row's weighted sums per layer, "a": [a_1, .., a_L] its activations,
     "target": the row's y (the 0/1 indicators of a classifier, the value of a regressor),
     "deltas": [delta_1, .., delta_L] the row's dLoss/dz per layer (delta_L = a_L - y),
     "coef_grads": [dLoss/dW_1, ..] and "intercept_grads": [dLoss/db_1, ..] over the whole batch (the
       average the solver steps by, penalty included),
     "coef_updates"/"intercept_updates": what the step added to each weight and bias,
     "coefs"/"intercepts": the weights and biases the step's forward pass used (before its update)}

Every array is a nested list. Recording stops after `limit` steps (so a trace stays small on a large
network); a last dict {"omitted": k} then counts the steps that held the row and were not recorded.
"""

import numpy as np

from .flat import views

MAX_TRACE_STEPS = 200
MAX_TRACE_NUMBERS = 400_000  # numbers kept over all steps; fewer steps on a larger network


def as_list(array):
    return np.asarray(array, dtype=float).tolist()


class Recorder:
    """Collects the steps during a readable fit (the net's `last` Pass holds the batch's numbers)."""

    def __init__(self, row, n_params, spans):
        self.row, self.spans = row, spans
        self.limit = max(1, min(MAX_TRACE_STEPS, MAX_TRACE_NUMBERS // max(1, 3 * n_params)))
        self.steps, self.omitted, self.count = [], 0, 0

    def step(self, epoch, batch_rows, net, updates, learning_rate):
        self.count += 1
        where = np.flatnonzero(np.asarray(batch_rows) == self.row)
        if len(where) == 0:
            return
        if len(self.steps) >= self.limit:
            self.omitted += 1
            return
        i, p = int(where[0]), net.last
        L = len(p.z)
        update_parts = [u.copy() for u in views(updates[0], self.spans)]
        # The solver has stepped: the weights the pass used are today's less the step's update.
        before = [p - u for p, u in zip(views(net.params[0], self.spans), update_parts)]
        self.steps.append({
            "epoch": epoch, "step": self.count, "row": self.row, "batch_rows": len(batch_rows),
            "learning_rate": float(learning_rate), "x": as_list(p.a[0][i]),
            "z": [as_list(z[i]) for z in p.z], "a": [as_list(a[i]) for a in p.a[1:]],
            "target": as_list(net.last_target[i]),
            "deltas": [as_list(d[i]) for d in p.deltas],
            "coef_grads": [as_list(g) for g in p.coef_grads],
            "intercept_grads": [as_list(g) for g in p.intercept_grads],
            "coef_updates": [as_list(u) for u in update_parts[:L]],
            "intercept_updates": [as_list(u) for u in update_parts[L:]],
            "coefs": [as_list(w) for w in before[:L]], "intercepts": [as_list(b) for b in before[L:]]})


