"""The chi-squared test of a split: the deviation Delta and its p-value, in plain math (no scipy).

Notes 000, "Decision Trees" (pruning): a node whose children are all leaves is tested; if the split is
not statistically significant it is replaced by a leaf. Under the null hypothesis that the attribute is
irrelevant, child k should receive its share n_k / n of each class's count, and

    Delta = sum_k sum_c (observed_kc - expected_kc)^2 / expected_kc

follows a chi-squared distribution with (branches - 1) * (classes - 1) degrees of freedom. Its survival
function is the regularised upper incomplete gamma function Q(dof / 2, Delta / 2), computed here with
the series (x < a + 1) and the Lentz continued fraction (x >= a + 1) of Numerical Recipes, section 6.2.
"""

import math

import numpy as np

_EPS = 1e-16
_TINY = 1e-300
_MAX_ITER = 10_000


def _lower_series(a, x):
    """P(a, x) by its power series; converges fast for x < a + 1."""
    term = total = 1.0 / a
    denom = a
    for _ in range(_MAX_ITER):
        denom += 1.0
        term *= x / denom
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a, x):
    """Q(a, x) by its continued fraction (modified Lentz); converges fast for x >= a + 1."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gammaincc(a, x):
    """Regularised upper incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a), for a > 0, x >= 0."""
    if a <= 0:
        raise ValueError(f"gammaincc needs a > 0; got {a}.")
    if x <= 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def chi2_sf(x, dof):
    """P(X > x) for X ~ chi-squared with `dof` degrees of freedom (scipy.stats.chi2.sf without scipy).
    Accepts scalars or arrays (broadcast)."""
    if np.ndim(x) == 0 and np.ndim(dof) == 0:
        return gammaincc(float(dof) / 2.0, float(x) / 2.0)
    xs, ds = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(dof, dtype=float))
    return np.array([gammaincc(d / 2.0, v / 2.0) for v, d in zip(xs.ravel(), ds.ravel())]).reshape(xs.shape)


def deviation(children_counts):
    """Delta and its degrees of freedom for a split, from the (branches, classes) table of counts.

    Empty branches and classes absent from the node add nothing to Delta and are not counted in the
    degrees of freedom (they are not free cells of the contingency table)."""
    table = np.asarray(children_counts, dtype=float)  # (branches, classes)
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    n_k = table.sum(axis=1, keepdims=True)  # (branches, 1)
    class_totals = table.sum(axis=0, keepdims=True)  # (1, classes)
    expected = n_k * class_totals / table.sum()  # (branches, classes)
    delta = float(((table - expected) ** 2 / expected).sum())
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    return delta, dof
