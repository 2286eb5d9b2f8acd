"""A regression whose model predicts far outside its target's range on parts of the plane: the target
follows the difference of two nearly equal features, so where the grid pairs a high one with a low one
(no row is there) the fitted line runs on, far beyond the target's 0-50."""

import numpy as np


def slice_csv(n=200, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 10, n)
    b = a + rng.normal(0, 0.3, n)
    y = np.clip(25 + 40 * (a - b) + rng.normal(0, 1, n), 0, 50)
    return "a,b,y\n" + "\n".join(f"{p:.3f},{q:.3f},{t:.3f}" for p, q, t in zip(a, b, y)) + "\n"
