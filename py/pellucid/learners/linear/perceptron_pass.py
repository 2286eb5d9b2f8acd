"""The perceptron's row-by-row pass as notes 000 write it: the steps for one example, the run that applies
them to the training rows one at a time and records each visit (the trace the steps view shows), and
scikit-learn's stopping rule. perceptron_fast.py makes the same updates without the trace."""

from typing import NamedTuple

import numpy as np

from ..shared.optim import as_list

MAX_TRACE_VISITS = 10_000  # rows kept in trace_; later visits are counted, not recorded


# --- the notes' steps, one example at a time ---------------------------------------------------------

def activation(w, f):
    """h_w(x) = w . f(x)."""
    return float(w @ f)


def classify(w, f):
    """+1 if w . f(x) >= 0 else -1 (notes 000: points on the decision boundary are classified positive)."""
    return 1 if activation(w, f) >= 0 else -1


def update(w, f, y_star):
    """w <- w + y* f(x), the binary perceptron's correction after a mistake."""
    return w + y_star * f


def multiclass_classify(W, f):
    """argmax_y w_y . f(x): the class whose weight vector scores highest (the first one on a tie)."""
    return int(np.argmax(W @ f))


def multiclass_update(W, f, y_star, y_pred):
    """Add f(x) to the true class's weights and subtract it from the wrongly predicted class's."""
    W = W.copy()
    W[y_star] += f
    W[y_pred] -= f
    return W


# --- the row-by-row pass ----------------------------------------------------------------------------

class Rows(NamedTuple):
    """The training rows' update scales (n,), the rows that take part (those of scale > 0), and the
    scales by name that the trace records (class_weight, sample_weight)."""
    steps: np.ndarray
    kept: np.ndarray
    recorded: dict


class Run:
    """The weights during training, the running sum for averaging, and the trace rows."""

    def __init__(self, w, mode, averaged, trace):
        """mode: "binary" (one weight vector), "ovr" (one binary perceptron per class) or "joint" (notes
        000's multiclass perceptron)."""
        self.w, self.mode, self.averaged, self.trace = w, mode, averaged, trace
        self.binary = mode == "binary"
        self.recorded = {}  # per-row scales of the update, by name, recorded in the trace rows
        self.visits = 0
        self.weighted_updates = np.zeros_like(w)  # sum over updates of (visit number - 1) * update
        self.rows, self.omitted = [], 0

    def averaged_weights(self):
        """(1/T) sum_t w_t over all T visits = w_T - (1/T) sum_s (s - 1) * update_s."""
        return self.w - self.weighted_updates / max(self.visits, 1)

    def _apply(self, f, target, predicted, step):
        """The notes' update scaled by the example's class weight `step`, in place; self.visits is the
        number of earlier visits, and the average's running sum gains self.visits * the update.
        One-vs-rest: `predicted` is the (K,) mask of the classes whose own perceptron was wrong, each moved
        towards its y* (+1 for the example's class, -1 for the others)."""
        if self.mode == "ovr":
            signs = np.where(np.arange(len(self.w)) == target, step, -step)[predicted]  # (m,) wrong classes
            delta = signs[:, None] * f  # (m, d + 1)
            self.w[predicted] += delta
            if self.averaged:
                self.weighted_updates[predicted] += self.visits * delta
        elif self.binary:
            delta = (step * target) * f
            self.w += delta
            if self.averaged:
                self.weighted_updates += self.visits * delta
        else:
            delta = step * f
            self.w[target] += delta
            self.w[predicted] -= delta
            if self.averaged:
                self.weighted_updates[target] += self.visits * delta
                self.weighted_updates[predicted] -= self.visits * delta

    def epoch(self, F, targets, steps, order, epoch, classes):
        """One pass over the examples in `order` (steps: each example's update scale), row by row as in
        the notes, recording the trace; returns (mistakes, loss): the number of updates and the summed
        perceptron loss of the visits."""
        visits = [self._visit(F[i], targets[i], steps[i], epoch, int(i), classes) for i in order]
        return sum(wrong for wrong, _ in visits), sum(loss for _, loss in visits)

    def _visit(self, f, target, step, epoch, index, classes):
        """One example, step by step as in the notes' table, recording a trace row; returns (1 if it was
        a mistake else 0, its perceptron loss)."""
        before = self.w.copy()
        if self.binary:
            score, sign = activation(before, f), classify(before, f)
            correct, predicted = sign == target, classes[(sign + 1) // 2]
            label = classes[(target + 1) // 2]
            loss = max(0.0, -target * score)
        elif self.mode == "ovr":
            scores = before @ f  # (K,)
            truth = np.arange(len(scores)) == target  # (K,) y* = +1 for the example's class
            wrong = (scores >= 0) != truth  # (K,) the classes whose own perceptron is wrong
            score, correct = scores.tolist(), not wrong.any()
            predicted, label, guess = classes[int(np.argmax(scores))], classes[target], wrong
            loss = float(np.maximum(0.0, np.where(truth, -scores, scores)).sum())  # each class's max(0, -y* s)
        else:
            score, guess = (before @ f).tolist(), multiclass_classify(before, f)
            correct, predicted, label = guess == target, classes[guess], classes[target]
            loss = max(score) - score[target]  # how far the true class's score is below the best
        if not correct:
            self._apply(f, target, None if self.binary else guess, step)
        self.visits += 1
        if len(self.rows) >= MAX_TRACE_VISITS:
            self.omitted += 1
        else:
            row = {"epoch": epoch, "step": self.visits, "index": index, "x": as_list(f), "y": label.item(),
                   "weights": as_list(before), "score": score, "predicted": predicted.item(),
                   "correct": bool(correct), "update": as_list(self.w - before),
                   "weights_after": as_list(self.w)}
            if self.binary:
                row["target"] = int(target)
            elif self.mode == "ovr":
                row["targets"] = [1 if c == target else -1 for c in range(len(score))]
            for name, values in self.recorded.items():
                row[name] = float(values[index])
            self.rows.append(row)
        return (0 if correct else 1), loss


class StoppingRule:
    """scikit-learn's stopping rule (SGDClassifier, tol): stop after `n_iter_no_change` passes in a row
    whose mean loss per row is above the best so far minus `tol`. tol=None never stops."""

    def __init__(self, tol, n_iter_no_change):
        self.tol, self.patience = tol, n_iter_no_change
        self.best, self.stale = np.inf, 0

    def says_stop(self, loss):
        if self.tol is None:
            return False
        self.stale = self.stale + 1 if loss > self.best - self.tol else 0
        self.best = min(self.best, loss)
        return self.stale >= self.patience
