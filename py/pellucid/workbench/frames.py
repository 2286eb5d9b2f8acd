"""What every step builder shares: numbers written as the notes write them, the rows drawn under a
timeline (sampled beyond MAX_POINTS), and the feature names as the model read them."""

import numpy as np

from ..core.settings import INLINE_MAX  # shared with the page (settings.json): longer vectors go per feature
from .formula_text import fixed
from .readouts import encoded as _encoded_rows

MAX_POINTS = 2000  # rows drawn under a perceptron or k-means timeline (sampled with a fixed seed beyond)
MAX_FRAMES = 2000  # perceptron visits / merges sent


def vec(values, d=3):
    return "[" + ", ".join(num(v, d) for v in values) + "]"


def short(values):
    """True when a vector is short enough to write out inside a formula."""
    return len(values) <= INLINE_MAX


def num(v, d=3):
    v = float(v)
    return str(int(v)) if v == int(v) and abs(v) < 1e12 else fixed(v, f".{d}f")


def sample(n, limit=MAX_POINTS):
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).choice(n, size=limit, replace=False))


def encoded_names(est):
    enc = getattr(est, "encoder_", None)
    if enc is not None and getattr(enc, "output_names", None):
        return list(enc.output_names)
    return list(getattr(est, "feature_names_out_", getattr(est, "feature_names_in_", [])))


def encoded(est, X):
    return np.asarray(_encoded_rows(est, X), dtype=float)


def standardized(run):
    """{feature: [mean, scale, constant]} of the features the run standardised before the model read them
    (the page writes z = (x − mean) / scale once per feature, beside its numbers, or that a constant
    column reads as 0)."""
    out = {}
    for step in getattr(run, "preprocessing", None) or []:
        if step.get("step") == "standardize":
            constant = step.get("constant") or [False] * len(step["columns"])
            out.update({name: [float(m), float(s), bool(c)]
                        for name, m, s, c in zip(step["columns"], step["mean"], step["scale"], constant)})
    return out
