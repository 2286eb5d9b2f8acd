"""A table that tests the first view's defaults: an ID, a timestamp, coordinates x, y and z, a rare class,
free text and a constant yes/no column last. No column is clearly the target: y is a coordinate beside x
and z, and the last column holds one value."""

import numpy as np

COLUMNS = ["reading_id", "timestamp", "x", "y", "z", "site", "fault", "note", "checked"]


def first_view_csv(n=200, seed=0):
    rng = np.random.default_rng(seed)
    words = ["sensor", "warm", "humming", "after", "rain", "dust", "on", "the", "lens", "noisy", "quiet"]
    lines = [",".join(COLUMNS)]
    for i in range(n):
        x, y, z = rng.normal(0, 1, 3)
        fault = "yes" if x + 0.3 * rng.normal() > 1.6 else "no"  # about one row in twenty
        note = " ".join(rng.choice(words, size=5))
        stamp = f"2024-03-{1 + i // 48:02d} {i % 24:02d}:{(7 * i) % 60:02d}:00"
        lines.append(f"R{1000 + i},{stamp},{x:.3f},{y:.3f},{z:.3f},{'north' if i % 3 else 'south'},{fault},"
                     f"{note} {i},yes")
    return "\n".join(lines) + "\n"
