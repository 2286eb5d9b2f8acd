"""What the linear models share: the bias column of the design matrix, the iterative solvers
(gradient descent, Newton's method, L-BFGS) and the thinning of their traces for the page.

Every solver minimises a smooth objective `f(w)` over a flat weight vector `w` and returns a `Solution`:
the weights, the loss after each iteration, whether the tolerance was met and, when asked, the weights
at every iteration so a model can build its `trace_`.
"""

from dataclasses import dataclass, field

import numpy as np

from ...core.errors import DataError

MAX_TRACE_ROWS = 200
_ARMIJO = 1e-4            # sufficient-decrease constant of the backtracking line search
_MAX_HALVINGS = 40
_DIVERGENCE_FACTOR = 100  # "grows by orders of magnitude": loss above 100x its starting value


# --- trace thinning ---------------------------------------------------------------------------------

def thin_indices(n_rows, max_rows=MAX_TRACE_ROWS):
    """At most `max_rows` evenly spaced indices into range(n_rows), always the first and the last."""
    if n_rows <= max_rows:
        return list(range(n_rows))
    return sorted(set(np.linspace(0, n_rows - 1, max_rows).round().astype(int).tolist()))


def as_list(a):
    """A numpy array as nested Python floats (JSON-able)."""
    return np.asarray(a, dtype=float).tolist()


def iteration_trace(solution, weights_view):
    """Thinned per-iteration rows {"iter", "loss", "weights"} from a solution's recorded history.

    `weights_view(w)` turns a flat weight vector into the notes' layout (bias first)."""
    rows = []
    for i in thin_indices(len(solution.history)):
        loss, w = solution.history[i]
        rows.append({"iter": i, "loss": float(loss), "weights": weights_view(w)})
    return rows


# --- solvers ----------------------------------------------------------------------------------------

@dataclass
class Solution:
    w: np.ndarray
    n_iter: int
    converged: bool
    loss_curve: list = field(default_factory=list)   # loss after each iteration
    history: list = field(default_factory=list)      # (loss, w) at iterations 0..n_iter when recorded


def _raise_if_diverging(loss, start_loss, learning_rate, it):
    if not np.isfinite(loss) or loss > _DIVERGENCE_FACTOR * max(start_loss, 1e-12):
        raise DataError(
            f"Gradient descent diverged at iteration {it}: the loss grew from {start_loss:.4g} to "
            f"{loss:.4g}, so the learning rate {learning_rate!r} is too large. Try a smaller learning_rate "
            "(say a tenth of it) or standardize=True, which puts every feature on the same scale.",
            field="params.learning_rate")


def gradient_descent(value_grad, w0, *, learning_rate, tol, max_iter, stop_on="loss_change", record=False):
    """Full-batch gradient descent w <- w - alpha * grad f(w) (notes 000 Algorithm 1, notes 004).

    Stops when the loss changes by at most `tol` (stop_on="loss_change") or the largest gradient
    component is at most `tol` (stop_on="gradient"), or after `max_iter` steps. A loss that becomes
    non-finite or grows a hundredfold raises DataError (the learning rate is too large)."""
    w = np.array(w0, dtype=float)
    f, g = value_grad(w)
    start = f
    history = [(f, w.copy())] if record else []
    curve, converged, it = [], False, 0
    for it in range(1, max_iter + 1):
        if stop_on == "gradient" and np.max(np.abs(g)) <= tol:
            converged, it = True, it - 1
            break
        w = w - learning_rate * g
        f_new, g = value_grad(w)
        _raise_if_diverging(f_new, start, learning_rate, it)
        curve.append(f_new)
        if record:
            history.append((f_new, w.copy()))
        if stop_on == "loss_change" and abs(f - f_new) <= tol:
            converged = True
            f = f_new
            break
        f = f_new
    return Solution(w, it, converged, curve, history)


def backtrack(value_grad, w, f, g, direction):
    """Armijo backtracking from the full step: the first t in 1, 1/2, 1/4, ... that decreases f enough."""
    slope = float(g @ direction)
    t = 1.0
    for _ in range(_MAX_HALVINGS):
        w_new = w + t * direction
        f_new, g_new = value_grad(w_new)
        if np.isfinite(f_new) and f_new <= f + _ARMIJO * t * slope:
            return w_new, f_new, g_new
        t *= 0.5
    return None  # no decrease possible at working precision


def newton(value_grad, hessian, w0, *, tol, max_iter, record=False):
    """Newton's method with a backtracking line search: solve H d = -g, step along d.

    On logistic regression this is iteratively reweighted least squares. Stops when the largest
    gradient component is at most `tol`, when no step decreases the loss, or after `max_iter` steps."""
    w = np.array(w0, dtype=float)
    f, g = value_grad(w)
    history = [(f, w.copy())] if record else []
    curve, it = [], 0
    while it < max_iter and np.max(np.abs(g)) > tol:
        direction = newton_direction(hessian(w), g)
        step = backtrack(value_grad, w, f, g, direction)
        if step is None:
            break
        w, f, g = step
        it += 1
        curve.append(f)
        if record:
            history.append((f, w.copy()))
    return Solution(w, it, bool(np.max(np.abs(g)) <= tol), curve, history)


def newton_direction(H, g):
    """-H^{-1} g, with a tiny ridge so a singular H (softmax shift, separable data) still gives a step.

    The ridge keeps the step inside the range of H: directions that do not change the loss stay put."""
    ridge = 1e-10 * max(float(np.mean(np.diag(H))), 1e-12)
    try:
        d = -np.linalg.solve(H + ridge * np.eye(len(g)), g)
    except np.linalg.LinAlgError:
        d = -np.linalg.lstsq(H, g, rcond=None)[0]
    if not np.all(np.isfinite(d)) or g @ d >= 0:
        d = -g  # not a descent direction: fall back to steepest descent
    return d


def lbfgs(value_grad, w0, *, tol, max_iter, memory=10, record=False):
    """Limited-memory BFGS (two-loop recursion) with a backtracking line search, for problems whose
    Hessian is too big to form. Same stopping rule as `newton`."""
    w = np.array(w0, dtype=float)
    f, g = value_grad(w)
    history = [(f, w.copy())] if record else []
    curve, pairs, it = [], [], 0
    while it < max_iter and np.max(np.abs(g)) > tol:
        direction = -_two_loop(g, pairs)
        if g @ direction >= 0:
            direction, pairs = -g, []
        if not pairs:
            direction = direction / max(1.0, np.linalg.norm(direction))  # cautious first step
        step = backtrack(value_grad, w, f, g, direction)
        if step is None:
            break
        w_new, f, g_new = step
        s, y = w_new - w, g_new - g  # (p,), (p,)
        if s @ y > 1e-12 * (y @ y):
            pairs = (pairs + [(s, y)])[-memory:]
        w, g = w_new, g_new
        it += 1
        curve.append(f)
        if record:
            history.append((f, w.copy()))
    return Solution(w, it, bool(np.max(np.abs(g)) <= tol), curve, history)


def _two_loop(g, pairs):
    """H_k g for the L-BFGS inverse-Hessian approximation built from the stored (s, y) pairs."""
    q = g.copy()
    alphas = []
    for s, y in reversed(pairs):
        a = (s @ q) / (y @ s)
        q -= a * y
        alphas.append(a)
    if pairs:
        s, y = pairs[-1]
        q *= (s @ y) / (y @ y)
    for (s, y), a in zip(pairs, reversed(alphas)):
        b = (y @ q) / (y @ s)
        q += (a - b) * s
    return q
