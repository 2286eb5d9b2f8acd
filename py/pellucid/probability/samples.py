"""Reading observations for parameter estimation: a 1-D sample without missing values, as numbers or as
0/1 successes, with a DataError naming what was found otherwise (and the small helpers the estimates
share for JSON and for 0 log 0).
"""

import math
import numbers

import numpy as np

from ..core.errors import DataError
from ..core.values import is_missing, one_column

DISTRIBUTIONS = ("bernoulli", "categorical", "poisson", "gaussian")


def _py(value):
    """A numpy scalar as the plain Python value (for JSON)."""
    return value.item() if isinstance(value, np.generic) else value


def check_distribution(distribution, allowed=DISTRIBUTIONS):
    if distribution not in allowed:
        raise DataError(f"distribution must be one of {', '.join(map(repr, allowed))}; got {distribution!r}.")


def sample_values(data, allow_empty=False):
    """data as a 1-D array with no missing values (a one-column table or (n, 1) array is accepted)."""
    values = one_column(data)
    if values.ndim != 1:
        raise DataError(f"data must be a 1-D list of observations; got an array of shape {values.shape}.")
    if values.size == 0 and not allow_empty:
        raise DataError("data is empty: at least one observation is needed to estimate a parameter.")
    if values.dtype.kind == "f":
        missing = np.isnan(values)
    elif values.dtype.kind == "O":
        missing = np.array([is_missing(v) for v in values], dtype=bool)
    else:
        missing = np.zeros(len(values), dtype=bool)
    if missing.any():
        rows = ", ".join(str(r) for r in np.flatnonzero(missing)[:3] + 1)
        raise DataError(f"data has {int(missing.sum())} missing values (NaN or empty; rows {rows}); "
                        "drop them first.")
    return values


def _found(values, limit=5):
    shown = ", ".join(repr(_py(v)) for v in np.unique(values)[:limit])
    return shown + (", ..." if len(np.unique(values)) > limit else "")


def numeric_values(values, what):
    if values.dtype.kind not in "biuf":
        raise DataError(f"{what} data must be numbers; found text values such as {_found(values, 3)}.")
    values = values.astype(float)
    if not np.all(np.isfinite(values)):
        raise DataError(f"{what} data must be finite numbers; found infinity.")
    return values


def bernoulli_indicators(data, positive=None, allow_empty=False):
    """The observations as 0/1 (1 = success): 0/1 numbers or booleans as they are, or labels with
    `positive` naming the success value."""
    values = sample_values(data, allow_empty)
    if positive is not None:
        if values.dtype.kind in "OUS":  # labels read as text, so 1 and "1" name the same value
            return (np.array([str(v) for v in values]) == str(positive)).astype(float)
        if not isinstance(positive, numbers.Real):
            raise DataError(f"positive={positive!r} is text but the data are numbers.")
        return (values.astype(float) == float(positive)).astype(float)
    if values.dtype.kind == "b":
        return values.astype(float)
    ok = values.dtype.kind in "iuf" and np.all((values == 0) | (values == 1))
    if not ok:
        raise DataError(f"Bernoulli data must be 0/1 or booleans; found {_found(values)}. "
                        "Pass positive=<the success value> to count one label as a success.")
    return values.astype(float)


def _xlogy(x, y):
    """x * log(y) with 0 * log(0) = 0 (the convention that makes a certain outcome have likelihood 1)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.asarray(x) == 0, 0.0, x * np.log(y))


def finite_or_none(value):
    value = float(value)
    return value if math.isfinite(value) else None
