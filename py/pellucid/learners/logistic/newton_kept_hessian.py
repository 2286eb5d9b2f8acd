"""Newton's method that keeps its Hessian while the gradient is falling fast (a chord, or Shamanskii, step).

Near the optimum Newton's method converges quadratically and the Hessian hardly changes from one step to
the next; a step with the previous Hessian and the new exact gradient then still shrinks the gradient
several times over. So a Hessian is kept for one more step when the step it made shrank the largest
gradient component at least 4 times (KEEP_WHEN_SHRUNK), and never for a third: far from the optimum every
step has a new one, as in plain Newton, and close to it every other step saves the dearest pass over the
rows (a Hessian costs 2-5 loss-and-gradient passes), at the price of a step more now and then.

Only the direction changes: the line search and the stopping test use the exact loss and gradient, so
the fit stops where every gradient component is at most tol, as optim.newton does. What that leaves free
is the same as ever: on a flat optimum (weakly penalised, nearly separable classes) tol on the gradient
allows coefficients some distance apart (about tol / l2), and two paths to it stop at different points
of that distance, with objectives within |g|^2 / (2 l2) of the optimum.

Logistic regression uses it from a sample's fit (sample_start.py), where the first full step is
already close. From there, on the suite's data (3 classes): 35,000 x 20 (the workflow table) 3 steps
either way, 3 Hessians to 2 (with 5 one-hot columns 2 steps, 2 Hessians either way); 20,000 x 10, 3
steps to 4, 3 Hessians to 2; 100,000 x 10, 3 steps either way, 3 Hessians to 2.
"""

import numpy as np

from ..shared.optim import Solution, backtrack, newton_direction

KEEP_WHEN_SHRUNK = 0.25  # keep a Hessian after a step that left the gradient at most this fraction


def newton_keeping_hessian(value_grad, hessian, w0, *, tol, max_iter):
    """optim.newton's fit (no trace), the Hessian kept across steps that shrink the gradient fast."""
    w = np.array(w0, dtype=float)
    f, g = value_grad(w)
    curve, it, H, last_size, kept = [], 0, None, None, True
    while it < max_iter and np.max(np.abs(g)) > tol:
        size = np.max(np.abs(g))
        fresh = kept or size > KEEP_WHEN_SHRUNK * last_size  # a Hessian serves two steps at most
        if fresh:
            H = hessian(w)
        last_size, kept = size, not fresh
        step = backtrack(value_grad, w, f, g, newton_direction(H, g))
        if step is None:  # no decrease possible at working precision
            break
        w, f, g = step
        it += 1
        curve.append(f)
    return Solution(w, it, bool(np.max(np.abs(g)) <= tol), curve)
