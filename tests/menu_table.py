"""A menu-shaped table for the tree tests: a price from three numbers and a six-value kind, and a dish
name of hundreds of values that carries little signal (the profile leaves it out as "too many
categories")."""

import numpy as np


def menu_csv(n=2000, n_dishes=500, classes=None, seed=0):
    """CSV text: price = 2a + step(b) + c^2 + kind effect + a small dish effect + noise, or (classes 2
    or 3) the price cut at its quantiles into labels."""
    rng = np.random.default_rng(seed)
    a, b, c = rng.normal(size=(3, n))
    kind = rng.integers(0, 6, n)
    dish = rng.integers(0, n_dishes, n)
    price = (2 * a + np.where(b > 0, 1.5, -1.0) + c ** 2 + np.array([-1.0, -0.5, 0, 0.3, 0.8, 1.2])[kind]
             + rng.normal(scale=0.1, size=n_dishes)[dish] + rng.normal(scale=0.5, size=n))
    target = [f"{p:.4f}" for p in price]
    if classes:
        cuts = np.quantile(price, np.arange(1, classes) / classes)
        target = [["low", "mid", "high"][i] if classes == 3 else ["no", "yes"][i] for i in np.digitize(price, cuts)]
    lines = ["a,b,c,kind,dish,price"] + [f"{a[i]:.4f},{b[i]:.4f},{c[i]:.4f},k{kind[i]},dish {dish[i]:03d},{target[i]}"
                                         for i in range(n)]
    return "\n".join(lines) + "\n"
