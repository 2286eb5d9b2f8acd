"""The table the workflow benchmarks upload: numeric columns on very different scales, text columns, 3 classes."""

import numpy as np


def make_csv(path, rows, numeric=20, categorical=0, seed=0):
    """A CSV like people bring: numeric columns on very different scales, a few text columns, 3 classes."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, rows)
    centres = rng.normal(0, 1.5, (3, numeric))
    X = (centres[y] + rng.normal(0, 1, (rows, numeric))) * np.logspace(-2, 4, numeric)
    header = [f"x{j + 1}" for j in range(numeric)] + [f"c{j + 1}" for j in range(categorical)] + ["label"]
    words = np.array(["red", "green", "blue", "amber", "violet"])
    cats = [words[(y + rng.integers(0, 3, rows)) % len(words)] for _ in range(categorical)]
    names = np.array(["alpha", "beta", "gamma"])[y]
    cells = [np.char.mod("%.6g", X[:, j]) for j in range(numeric)] + cats + [names]
    lines = [",".join(header)] + [",".join(row) for row in zip(*[c.tolist() for c in cells])]
    path.write_text("\n".join(lines) + "\n")
    return path
