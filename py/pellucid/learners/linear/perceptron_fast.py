"""The perceptron's pass without a trace: the same updates as the row-by-row pass of perceptron_pass.py, in the
same order, so the same weights, mistakes and loss.

The weights only change at a mistake, so the work goes where the mistakes are:
- where mistakes are rare, a block of the next rows is classified at once with the current weights, the
  first mistake in it is updated, and the pass continues from the row after it (the block grows while there
  are no mistakes and shrinks to about the last gap after one);
- where they are frequent (more than about one row in 8), a numpy call per mistake costs more than looking
  at each row, and the rows are visited one at a time on Python floats.
One-vs-rest is K binary perceptrons that share nothing but the order of the rows, so each class makes its
own pass (fewer mistakes each than the whole), and a row counts as one mistake if any class was wrong on it.
Each update is computed as the readable pass computes it (delta = scale * f, then w + delta and, for the
average, visit number * delta); only the scores' sums may round differently, which can only matter for a
score within rounding of 0.
"""

from itertools import repeat
from operator import add, mul, sub

import numpy as np

SCALAR_STRETCH = 512  # rows visited one at a time before looking again at how often mistakes come
# Rows per mistake below which rows are visited one at a time (measured on 5 features: the two cost about
# the same at one mistake in 14 rows; single rows took 0.6 of the time at one in 4, 0.5 at one in 2).
DENSE_GAP = 8
MAX_BLOCK = 8192


class _Pace:
    """How many rows apart the mistakes have come lately, smoothed over the last few observations, which
    decides between blocks and single rows."""

    def __init__(self):
        self.gap = 2.0 * DENSE_GAP

    def saw(self, rows, mistakes):
        self.gap = 0.75 * self.gap + 0.25 * rows / max(mistakes, 1)

    def dense(self):
        return self.gap < DENSE_GAP


def epoch(run, F, targets, steps):
    """One pass over the rows F (already in visiting order), with their targets (binary: +1/-1; otherwise
    the class number) and update scales; updates `run` (w, weighted_updates, visits) and returns
    (mistakes, loss): the number of rows with an update and the summed perceptron loss of the visits."""
    if run.mode == "binary":
        wrong, loss = _binary(run, run.w, run.weighted_updates, F, targets > 0, steps * targets)
    elif run.mode == "ovr":
        wrong, loss = _one_vs_rest(run, F, targets, steps)
    else:
        wrong, loss = _joint(run, F, targets, steps)
    run.visits += len(F)
    return len(wrong), loss


def _one_vs_rest(run, F, targets, steps):
    """Each class's own binary pass: +step for its rows, -step for the others (steps (n,) or (n, K))."""
    wrong, loss = np.zeros(len(F), dtype=bool), 0.0  # a flag per row, not a set of Python ints (0.7 MB at 10^4)
    for c in range(len(run.w)):
        own = targets == c
        step = steps if steps.ndim == 1 else steps[:, c]
        positions, class_loss = _binary(run, run.w[c], run.weighted_updates[c], F, own, np.where(own, step, -step))
        wrong[positions] = True
        loss += class_loss
    return np.flatnonzero(wrong), loss


def _binary(run, w, weighted, F, positive, scale):
    """A binary pass on the view w (updated in place): row i is wrong when (w . f >= 0) != positive[i] and
    then w += scale[i] * f. Returns the positions of the mistakes and the summed loss max(0, -y* w . f)."""
    n, start, block, found, loss, pace = len(F), 0, 16, [], 0.0, _Pace()
    while start < n:
        if not pace.dense():
            stop = min(start + block, n)
            scores = F[start:stop] @ w  # (b,)
            wrong = (scores >= 0) != positive[start:stop]
            j = int(wrong.argmax())
            if not wrong[j]:
                pace.saw(stop - start, 0)
                start, block = stop, min(2 * block, MAX_BLOCK)
                continue
            i = start + j
            loss += abs(float(scores[j]))
            _add(run, w, weighted, scale[i] * F[i], i)
            found.append(i)
            pace.saw(j + 1, 1)
            start, block = i + 1, max(8, 2 * (j + 1))
        else:
            stop = min(start + SCALAR_STRETCH, n)
            positions, stretch_loss, gap = _binary_rows(run, w, weighted, F, positive, scale, start, stop)
            found.extend(positions)
            loss += stretch_loss
            pace.saw(stop - start, len(positions))
            start, block = stop, max(8, 2 * gap)
    return np.array(found, dtype=int), loss


def _binary_rows(run, w, weighted, F, positive, scale, start, stop):
    """Rows start..stop-1 one at a time on Python floats; returns the mistakes' positions, their loss and
    the rows since the last mistake."""
    wl, rows = w.tolist(), F[start:stop].tolist()
    pos, sc = positive[start:stop].tolist(), scale[start:stop].tolist()
    found, loss, last = [], 0.0, start - 1
    for j, (f, positive_j, c) in enumerate(zip(rows, pos, sc)):
        s = sum(map(mul, wl, f))
        if (s >= 0) != positive_j:
            delta = list(map(mul, repeat(c), f))
            wl = list(map(add, wl, delta))
            if run.averaged:
                _add_weighted(weighted, delta, run.visits + start + j)
            found.append(start + j)
            loss += abs(s)
            last = start + j
    w[:] = wl
    return found, loss, stop - 1 - last


def _joint(run, F, targets, steps):
    """Notes 000's multiclass pass: a mistake (argmax not the true class) adds step * f to the true class's
    row and subtracts it from the predicted class's."""
    n, start, block, found, loss = len(F), 0, 16, [], 0.0
    W, weighted, pace = run.w, run.weighted_updates, _Pace()
    while start < n:
        if not pace.dense():
            stop = min(start + block, n)
            scores = F[start:stop] @ W.T  # (b, K)
            guess = scores.argmax(axis=1)
            wrong = guess != targets[start:stop]
            j = int(wrong.argmax())
            if not wrong[j]:
                pace.saw(stop - start, 0)
                start, block = stop, min(2 * block, MAX_BLOCK)
                continue
            i, p = start + j, int(guess[j])
            loss += float(scores[j, p] - scores[j, targets[i]])
            _move(run, W, weighted, steps[i] * F[i], int(targets[i]), p, i)
            found.append(i)
            pace.saw(j + 1, 1)
            start, block = i + 1, max(8, 2 * (j + 1))
        else:
            stop = min(start + SCALAR_STRETCH, n)
            positions, stretch_loss, gap = _joint_rows(run, F, targets, steps, start, stop)
            found.extend(positions)
            loss += stretch_loss
            pace.saw(stop - start, len(positions))
            start, block = stop, max(8, 2 * gap)
    return found, loss


def _joint_rows(run, F, targets, steps, start, stop):
    """Rows start..stop-1 of the joint pass one at a time on Python floats."""
    Wl, rows = run.w.tolist(), F[start:stop].tolist()
    ts, sc = targets[start:stop].tolist(), steps[start:stop].tolist()
    found, loss, last = [], 0.0, start - 1
    for j, f in enumerate(rows):
        scores = [sum(map(mul, wc, f)) for wc in Wl]
        p, t = scores.index(max(scores)), ts[j]  # the first class on a tie, as np.argmax
        if p != t:
            delta = list(map(mul, repeat(sc[j]), f))
            Wl[t] = list(map(add, Wl[t], delta))
            Wl[p] = list(map(sub, Wl[p], delta))
            if run.averaged:
                v = run.visits + start + j
                _add_weighted(run.weighted_updates[t], delta, v)
                _add_weighted(run.weighted_updates[p], [-b for b in delta], v)
            found.append(start + j)
            loss += scores[p] - scores[t]
            last = start + j
    run.w[:] = Wl
    return found, loss, stop - 1 - last


def _add(run, w, weighted, delta, i):
    """w += delta in place; the average's running sum gains (visit number) * delta."""
    w += delta
    if run.averaged:
        weighted += (run.visits + i) * delta


def _move(run, W, weighted, delta, true, predicted, i):
    W[true] += delta
    W[predicted] -= delta
    if run.averaged:
        weighted[true] += (run.visits + i) * delta
        weighted[predicted] -= (run.visits + i) * delta


def _add_weighted(weighted, delta, visit):
    """The average's running sum gains visit * delta, as the readable pass adds it."""
    weighted += visit * np.array(delta)
