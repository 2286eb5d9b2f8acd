"""Synthetic 2-D data sets for seeing what a learner does: blobs, moons, circles, xor, spirals, a line.

Every generator takes `n` rows (1..5000), `noise` in [0, 1] and `seed`, draws from
`np.random.default_rng(seed)` only (the same arguments always give the same table) and returns a
pellucid Table. Classification sets have numeric columns x1, x2 and a categorical target "class" with
the values "A", "B", "C"... (rows dealt to the classes as evenly as possible, the first classes taking
one more); the regression set "line" has columns x and y.

`noise` is the standard deviation of the Gaussian jitter added to each coordinate, in units of the
pattern's own size (1 = as large as the pattern: the classes overlap heavily); see each generator.
`GENERATORS` describes them (and their parameters) for the page's data menu.
"""

import numpy as np

from ..core.errors import DataError
from ..core.settings import SEED_MAX
from .table import Table

MAX_ROWS = 5000
CLASS_NAMES = "ABC"


def _check(n, noise, seed):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_ROWS:
        raise DataError(f"n must be a whole number of rows from 1 to {MAX_ROWS}; got {n!r}.")
    if isinstance(noise, bool) or not isinstance(noise, (int, float, np.number)) or not 0 <= noise <= 1:
        raise DataError(f"noise must be a number from 0 to 1; got {noise!r}.")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or not 0 <= seed <= SEED_MAX):
        raise DataError(f"seed must be a whole number from 0 to {SEED_MAX}; got {seed!r}.")
    return int(n), float(noise), np.random.default_rng(seed)


def _class_sizes(n, k):
    sizes = np.full(k, n // k)
    sizes[: n % k] += 1
    return sizes


def _classes(points, codes):
    """The Table of 2-D points (n, 2) with class codes (n,) named A, B, C..."""
    names = np.array(list(CLASS_NAMES), dtype=object)[codes]  # (n,)
    return Table({"x1": points[:, 0], "x2": points[:, 1], "class": names}, kinds={"class": "categorical"})


def _jitter(rng, points, scale):
    return points + rng.normal(0.0, scale, size=points.shape) if scale > 0 else points  # (n, 2)


def blobs(n=300, noise=0.3, seed=0):
    """Three round Gaussian clusters centred at (-2, 0), (2, 0), (0, 3); each coordinate's standard
    deviation is 0.2 + 2 * noise (noise 0: tight, well-separated blobs; 1: overlapping)."""
    n, noise, rng = _check(n, noise, seed)
    codes = np.repeat(np.arange(3), _class_sizes(n, 3))  # (n,)
    centres = np.array([[-2.0, 0.0], [2.0, 0.0], [0.0, 3.0]])  # (3, 2)
    return _classes(_jitter(rng, centres[codes], 0.2 + 2.0 * noise), codes)


def moons(n=300, noise=0.1, seed=0):
    """Two interleaving half circles of radius 1 (as scikit-learn's make_moons): class A on the upper
    arc centred at (0, 0), class B on the lower arc centred at (1, 0.5); jitter sd = noise."""
    n, noise, rng = _check(n, noise, seed)
    n_a, n_b = _class_sizes(n, 2)
    t_a, t_b = rng.uniform(0, np.pi, n_a), rng.uniform(0, np.pi, n_b)
    upper = np.column_stack([np.cos(t_a), np.sin(t_a)])  # (n_a, 2)
    lower = np.column_stack([1 - np.cos(t_b), 0.5 - np.sin(t_b)])  # (n_b, 2)
    codes = np.repeat([0, 1], [n_a, n_b])
    return _classes(_jitter(rng, np.vstack([upper, lower]), noise), codes)


def circles(n=300, noise=0.05, seed=0):
    """Two concentric circles: class A on radius 1, class B on radius 0.5; jitter sd = noise."""
    n, noise, rng = _check(n, noise, seed)
    n_a, n_b = _class_sizes(n, 2)
    angle = rng.uniform(0, 2 * np.pi, n)  # (n,)
    radius = np.repeat([1.0, 0.5], [n_a, n_b])  # (n,)
    points = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])  # (n, 2)
    return _classes(_jitter(rng, points, noise), np.repeat([0, 1], [n_a, n_b]))


def xor(n=300, noise=0.1, seed=0):
    """Points uniform on the square [-1, 1]^2, class A in the quadrants where x1 * x2 > 0 and B in the
    other two (before jitter): no straight line separates them. Jitter sd = noise."""
    n, noise, rng = _check(n, noise, seed)
    codes = np.repeat([0, 1], _class_sizes(n, 2))  # (n,)
    size = rng.uniform(0, 1, size=(n, 2))  # (n, 2) distance from each axis
    sign_1 = rng.choice([-1.0, 1.0], size=n)  # (n,)
    sign_2 = np.where(codes == 0, sign_1, -sign_1)  # A: same signs, B: opposite
    return _classes(_jitter(rng, size * np.column_stack([sign_1, sign_2]), noise), codes)


def spiral(n=300, noise=0.05, seed=0, arms=2):
    """`arms` (2 or 3) interleaved spiral arms, one class each, winding 1.5 turns out to radius 1;
    jitter sd = noise."""
    n, noise, rng = _check(n, noise, seed)
    if arms not in (2, 3) or isinstance(arms, bool):
        raise DataError(f"arms must be 2 or 3; got {arms!r}.")
    codes = np.repeat(np.arange(arms), _class_sizes(n, arms))  # (n,)
    r = rng.uniform(0.05, 1.0, n)  # (n,) distance from the centre along the arm
    angle = 3 * np.pi * r + 2 * np.pi * codes / arms  # (n,) 1.5 turns, arms evenly rotated
    points = np.column_stack([r * np.cos(angle), r * np.sin(angle)])  # (n, 2)
    return _classes(_jitter(rng, points, noise), codes)


def line(n=100, noise=0.2, seed=0, slope=1.5, intercept=0.5):
    """A regression line: x uniform on [-3, 3], y = slope * x + intercept + e, e ~ N(0, (3 * noise)^2)."""
    n, noise, rng = _check(n, noise, seed)
    x = rng.uniform(-3, 3, n)  # (n,)
    y = slope * x + intercept + (rng.normal(0.0, 3.0 * noise, n) if noise > 0 else 0.0)  # (n,)
    return Table({"x": x, "y": y})


def _params(noise, extra=()):
    return [{"name": "n", "label": "Rows", "default": 300, "low": 1, "high": MAX_ROWS, "step": 1},
            {"name": "noise", "label": "Noise", "default": noise, "low": 0.0, "high": 1.0, "step": 0.01},
            {"name": "seed", "label": "Seed", "default": 0, "low": 0, "high": SEED_MAX, "step": 1},
            *extra]


# name -> (function, label, description, target, generator_params)
GENERATORS = {
    "blobs": (blobs, "Blobs (3 classes)", "Three round Gaussian clusters; more noise makes them overlap.",
              "class", _params(0.3)),
    "moons": (moons, "Two moons", "Two interleaving half circles: a curved boundary separates them.",
              "class", _params(0.1)),
    "circles": (circles, "Circles", "A small circle inside a large one: no straight line separates them.",
                "class", _params(0.05)),
    "xor": (xor, "XOR", "Four quadrants, opposite ones in the same class: the classic problem a single "
                        "linear boundary cannot solve.", "class", _params(0.1)),
    "spiral": (spiral, "Spiral", "Interleaved spiral arms, one class each: hard for linear models.",
               "class", _params(0.05, [{"name": "arms", "label": "Arms", "default": 2, "low": 2, "high": 3,
                                        "step": 1}])),
    "line": (line, "Line (regression)", "Points scattered around the line y = 1.5 x + 0.5: a numeric "
                                        "target for regression.", "y", _params(0.2)),
}


def generate(name, **params):
    """The table of generator `name` with the given parameters (n, noise, seed, and arms for spiral)."""
    if name not in GENERATORS:
        raise DataError(f"Unknown generator {name!r}; choose one of: {', '.join(GENERATORS)}.")
    function, *_, described = GENERATORS[name]
    known = {p["name"] for p in described}
    unknown = sorted(set(params) - known)
    if unknown:
        raise DataError(f"The {name} generator has no parameter {', '.join(map(repr, unknown))}; "
                        f"it takes {', '.join(sorted(known))}.")
    return function(**{k: v for k, v in params.items() if v is not None})
