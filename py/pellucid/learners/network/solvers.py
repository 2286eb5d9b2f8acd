"""The stochastic solvers: gradient descent (with momentum or Nesterov's momentum) and Adam, as
scikit-learn's `_stochastic_optimizers.py` writes them, each updating a list of parameter arrays in place.

Notes 004's full-batch gradient descent, w <- w - eta grad, is `SGD` with momentum 0 given every row as
one batch. Both solvers keep their state (velocities, moment estimates) between batches and epochs, so
`partial_fit` continues where the last call stopped. `step` returns the updates it added, which a trace
copies; the update arrays are reused from step to step.
"""

import numpy as np

ADAPTIVE_FLOOR = 1e-6  # adaptive SGD stops once its learning rate is this small (scikit-learn's)


class SGD:
    """Stochastic gradient descent: v <- momentum v - eta grad, then w <- w + v; with Nesterov's momentum
    the step taken is momentum v - eta grad (looking one step ahead). The learning rate eta follows the
    schedule: "constant"; "invscaling", eta = eta_0 / (t + 1)^power_t after each epoch (t: rows seen);
    "adaptive", eta divided by 5 each time the loss stops improving (`stalled`)."""

    def __init__(self, params, learning_rate_init=0.1, schedule="constant", momentum=0.9, nesterov=True,
                 power_t=0.5):
        self.learning_rate_init, self.learning_rate = learning_rate_init, float(learning_rate_init)
        self.schedule, self.momentum, self.nesterov, self.power_t = schedule, momentum, nesterov, power_t
        self.velocities = [np.zeros_like(p) for p in params]
        self.updates = [np.zeros_like(p) for p in params]

    def step(self, params, grads):
        """Move each parameter array by its update; returns the updates."""
        for w, g, v, u in zip(params, grads, self.velocities, self.updates):
            np.multiply(v, self.momentum, out=v)
            v -= self.learning_rate * g  # v = momentum v - eta grad
            if self.nesterov:
                np.multiply(v, self.momentum, out=u)
                u -= self.learning_rate * g  # momentum v_new - eta grad
            else:
                u[...] = v
            w += u
        return self.updates

    def epoch_ends(self, rows_seen):
        """After each epoch: the inverse-scaling schedule lowers the learning rate."""
        if self.schedule == "invscaling":
            self.learning_rate = float(self.learning_rate_init) / (rows_seen + 1) ** self.power_t

    def stalled(self):
        """The loss stopped improving: True to stop, except that the adaptive schedule first divides the
        learning rate by 5 (and stops only once it is at most 1e-6)."""
        if self.schedule != "adaptive" or self.learning_rate <= ADAPTIVE_FLOOR:
            return True
        self.learning_rate /= 5.0
        return False


class Adam:
    """Adam (Kingma and Ba): running means of the gradient m and of its square v,
        m <- beta_1 m + (1 - beta_1) grad,   v <- beta_2 v + (1 - beta_2) grad^2,
        w <- w - eta_t m / (sqrt(v) + epsilon),  eta_t = eta sqrt(1 - beta_2^t) / (1 - beta_1^t)
    after t steps (the bias correction of both means folded into eta_t, as scikit-learn does)."""

    def __init__(self, params, learning_rate_init=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-8):
        self.learning_rate_init, self.learning_rate = learning_rate_init, float(learning_rate_init)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.t = 0
        self.ms = [np.zeros_like(p) for p in params]
        self.vs = [np.zeros_like(p) for p in params]
        self.updates = [np.zeros_like(p) for p in params]

    def step(self, params, grads):
        """Move each parameter array by its update; returns the updates."""
        self.t += 1
        b1, b2 = self.beta_1, self.beta_2
        self.learning_rate = self.learning_rate_init * np.sqrt(1 - b2 ** self.t) / (1 - b1 ** self.t)
        for w, g, m, v, u in zip(params, grads, self.ms, self.vs, self.updates):
            m *= b1
            m += (1 - b1) * g  # m = beta_1 m + (1 - beta_1) grad
            v *= b2
            v += (1 - b2) * (g * g)  # v = beta_2 v + (1 - beta_2) grad^2
            np.sqrt(v, out=u)
            u += self.epsilon
            np.divide(np.multiply(m, -self.learning_rate), u, out=u)  # -eta_t m / (sqrt(v) + epsilon)
            w += u
        return self.updates

    def epoch_ends(self, rows_seen):
        """Adam's step size needs no schedule."""

    def stalled(self):
        """The loss stopped improving: stop."""
        return True
