"""A table whose k-NN (k = 2) probabilities are often exactly 0.5: two small integer features, so the two
nearest training rows of a test row often disagree. It tests the one rule for a tie at the threshold 0.5."""

import numpy as np


def tied_csv(n=120, seed=1):
    rng = np.random.default_rng(seed)
    lines = ["a,b,label"]
    for _ in range(n):
        a, b = rng.integers(0, 6, 2)
        lines.append(f"{a},{b},{'yes' if a + b + rng.integers(-2, 3) > 5 else 'no'}")
    return "\n".join(lines) + "\n"
