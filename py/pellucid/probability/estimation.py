"""Parameter estimation: maximum likelihood, MAP with conjugate priors, Laplace smoothing.

Follows the notes' "Parameter Estimation" and "Smoothing" (notes 000), the Bernoulli MLE/MAP estimates of
naive Bayes (notes 001), the Poisson MLE (notes 003, section 2.2) and "Principles for Estimating Probabilities"
with Beta and Dirichlet priors (notes 004). Every function returns plain JSON-able values (Python floats,
ints, strings, lists, dicts), so the page can show the numbers next to the formulas. The likelihood
as a function of the parameter, for plotting, is in likelihood_curves.py; reading the observations
is in samples.py.
"""

import math
import numbers

import numpy as np

from ..core.errors import DataError
from .samples import (_found, _py, _xlogy, bernoulli_indicators, check_distribution, finite_or_none,
                      numeric_values, sample_values)


# --- maximum likelihood -------------------------------------------------------------------------

def mle(distribution, data, positive=None):
    """Maximum-likelihood estimate of a distribution's parameters from i.i.d. data.

    - "bernoulli": theta = alpha_1 / (alpha_1 + alpha_0), the fraction of successes (notes 000, "Parameter
      Estimation"; notes 004, "Maximum Likelihood Estimate for Theta"). Data are 0/1, booleans, or labels
      with `positive` naming the success value.
    - "categorical": P(x) = count(x) / N for each value x, values sorted (notes 000, "Smoothing", P_MLE).
    - "poisson": lambda = sum(z_i) / n, the mean (notes 003, section 2.2). Data are non-negative integers.
    - "gaussian": mu = mean, sigma2 = (1/n) sum (x_i - mu)^2 (the MLE divides by n, not n - 1).

    Returns {"distribution", "n", "params", "log_likelihood", ...} with counts where they apply. The log
    likelihood is None where it is unbounded (a Gaussian fitted to identical values).
    """
    check_distribution(distribution)
    return {"bernoulli": _mle_bernoulli, "categorical": _mle_categorical,
            "poisson": _mle_poisson, "gaussian": _mle_gaussian}[distribution](data, positive)


def bernoulli_log_likelihood(n1, n0, theta):
    return _xlogy(n1, theta) + _xlogy(n0, 1.0 - theta)


def _mle_bernoulli(data, positive):
    x = bernoulli_indicators(data, positive)
    n1, n = float(x.sum()), len(x)
    theta = n1 / n
    out = {"distribution": "bernoulli", "n": n, "params": {"theta": theta},
           "counts": {"n1": int(n1), "n0": int(n - n1)},
           "log_likelihood": finite_or_none(bernoulli_log_likelihood(n1, n - n1, theta))}
    if positive is not None:
        out["positive"] = _py(positive)
    return out


def _mle_categorical(data, positive=None):
    values = sample_values(data)
    if values.dtype.kind == "O":
        values = np.array([str(v) for v in values])
    levels, counts = np.unique(values, return_counts=True)  # sorted values, (K,)
    probs = counts / counts.sum()  # (K,)
    keys = [_py(v) for v in levels]
    return {"distribution": "categorical", "n": int(counts.sum()), "values": keys,
            "params": {"probabilities": {k: float(p) for k, p in zip(keys, probs)}},
            "counts": {k: int(c) for k, c in zip(keys, counts)},
            "log_likelihood": float(np.sum(counts * np.log(probs)))}


def _mle_poisson(data, positive=None):
    z = numeric_values(sample_values(data), "Poisson")
    bad = (z < 0) | (z != np.round(z))
    if bad.any():
        raise DataError(f"Poisson data must be counts (non-negative integers); found {_found(z[bad])} "
                        f"(rows {', '.join(str(r) for r in np.flatnonzero(bad)[:3] + 1)}).")
    lam = float(z.mean())  # lambda_ML = sum(z_i) / n
    return {"distribution": "poisson", "n": len(z), "params": {"lambda": lam}, "sum": float(z.sum()),
            "log_likelihood": finite_or_none(poisson_log_likelihood(z, lam))}


def poisson_log_likelihood(z, lam):
    """l_S(lambda) = sum_i (-lambda + z_i log lambda - log(z_i!)) (notes 003, section 2.2); lam may be an array."""
    z = np.asarray(z, dtype=float)
    levels, counts = np.unique(z, return_counts=True)
    log_factorials = sum(c * math.lgamma(v + 1.0) for v, c in zip(levels.tolist(), counts.tolist()))
    return -len(z) * np.asarray(lam, dtype=float) + _xlogy(z.sum(), np.asarray(lam, dtype=float)) - log_factorials


def _mle_gaussian(data, positive=None):
    x = numeric_values(sample_values(data), "Gaussian")
    mu = float(x.mean())
    sigma2 = float(np.mean((x - mu) ** 2))  # 1/n: the maximum-likelihood variance
    out = {"distribution": "gaussian", "n": len(x),
           "params": {"mu": mu, "sigma2": sigma2, "sigma": math.sqrt(sigma2)},
           "log_likelihood": None}
    if sigma2 > 0:
        out["log_likelihood"] = float(gaussian_log_likelihood(x, mu, sigma2))
    else:
        out["note"] = "All values are equal, so sigma2 = 0 and the likelihood is unbounded."
    return out


def gaussian_log_likelihood(x, mu, sigma2):
    """sum_i log N(x_i; mu, sigma2); mu may be an array (one value per grid point)."""
    x = np.asarray(x, dtype=float)
    mu = np.asarray(mu, dtype=float)[..., None]  # (..., 1) against (n,)
    return np.sum(-0.5 * np.log(2 * np.pi * sigma2) - (x - mu) ** 2 / (2 * sigma2), axis=-1)


# --- MAP with conjugate priors ------------------------------------------------------------------

def _positive_number(name, value):
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not value > 0 or not math.isfinite(value):
        raise DataError(f"Prior parameter {name} must be a positive number; got {value!r}.")
    return float(value)


def beta_prior(prior):
    """(a, b) from (a, b), [a, b], {"a": .., "b": ..} or {"alpha": .., "beta": ..}."""
    if isinstance(prior, dict):
        a, b = prior.get("a", prior.get("alpha")), prior.get("b", prior.get("beta"))
    else:
        try:
            a, b = prior
        except (TypeError, ValueError):
            raise DataError(f"A Beta prior is a pair (a, b) of positive numbers; got {prior!r}.") from None
    return _positive_number("a", a), _positive_number("b", b)


def map_estimate(distribution, data, prior, positive=None):
    """Maximum a posteriori estimate with a conjugate prior (notes 004, "Principles for Estimating
    Probabilities", "Beta prior distribution", "Eg. 2 Dice roll problem").

    - "bernoulli" with prior Beta(a, b): the posterior is Beta(alpha_1 + a, alpha_0 + b) and its mode is
      theta_MAP = (alpha_1 + a - 1) / (n + a + b - 2), i.e. a - 1 "hallucinated" ones and b - 1 zeros.
      (The seed writes the posterior as Beta(alpha_H + beta_H, alpha_H + beta_H); the second argument is
      alpha_T + beta_T, as its MAP formula shows.) Beta(k + 1, k + 1) gives Laplace smoothing with strength k.
      When a posterior parameter is below 1 the density rises without bound towards that end of [0, 1]
      and the mode is on the boundary (0 or 1, with a note); when both are 1 (a + b - 2 + n == 0: a flat
      posterior) or both are below 1 (two modes) the MAP estimate is not defined and a DataError says so.
    - "categorical" with prior Dirichlet(alphas): theta_i = (alpha_i + beta_i - 1) / sum_j (alpha_j + beta_j - 1).
      `prior` is one number (the same for every value), a list in the order of the sorted values, or a
      dict value -> alpha (which may name values absent from the data). Every posterior parameter must be
      at least 1 and one above 1, otherwise the mode is unbounded or not unique and a DataError says so.

    The data may be empty: the MAP estimate is then the prior's mode.
    """
    check_distribution(distribution, ("bernoulli", "categorical"))
    if distribution == "bernoulli":
        return _map_bernoulli(data, prior, positive)
    return _map_categorical(data, prior)


def beta_mode(A, B):
    """The mode of Beta(A, B), with the note that explains a boundary mode (None when interior)."""
    if A == 1 and B == 1:
        raise DataError("The posterior is Beta(1, 1), flat on [0, 1] (a + b - 2 + n = 0), so every theta "
                        "is a mode and the MAP estimate is not defined; use a prior with a + b > 2 or add data.")
    if A < 1 and B < 1:
        raise DataError(f"The posterior Beta({A:g}, {B:g}) has both parameters below 1: its density rises "
                        "without bound at theta = 0 and at theta = 1, so there is no single MAP estimate.")
    if A < 1:
        return 0.0, f"The posterior Beta({A:g}, {B:g}) has a < 1, so its density is largest at theta = 0."
    if B < 1:
        return 1.0, f"The posterior Beta({A:g}, {B:g}) has b < 1, so its density is largest at theta = 1."
    return (A - 1) / (A + B - 2), None


def _map_bernoulli(data, prior, positive):
    a, b = beta_prior(prior)
    x = bernoulli_indicators(data, positive, allow_empty=True)
    n1, n = float(x.sum()), len(x)
    A, B = n1 + a, (n - n1) + b  # posterior Beta(alpha_1 + a, alpha_0 + b)
    theta, note = beta_mode(A, B)
    out = {"distribution": "bernoulli", "n": n, "params": {"theta": theta},
           "counts": {"n1": int(n1), "n0": int(n - n1)},
           "prior": {"name": "beta", "a": a, "b": b},
           "posterior": {"name": "beta", "a": A, "b": B},
           "hallucinated": {"ones": a - 1, "zeros": b - 1},
           "mle": {"theta": n1 / n} if n else None,
           "log_posterior": finite_or_none(beta_log_density(theta, A, B))}
    if positive is not None:
        out["positive"] = _py(positive)
    if note:
        out["note"] = note
    return out


def beta_log_density(theta, a, b):
    """log Beta(theta; a, b), normalised; theta may be an array."""
    theta = np.asarray(theta, dtype=float)
    log_B = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    return _xlogy(a - 1, theta) + _xlogy(b - 1, 1.0 - theta) - log_B


def _dirichlet_alphas(prior, observed):
    """The sorted values (observed plus any the prior names) and one alpha per value."""
    if isinstance(prior, dict):
        try:
            values = sorted(set(observed) | set(prior))
        except TypeError:
            raise DataError("The Dirichlet prior's keys and the data values must be of one kind "
                            "(all text or all numbers).") from None
        missing = [v for v in values if v not in prior]
        if missing:
            raise DataError(f"The Dirichlet prior gives no alpha for the value(s) {missing}; "
                            f"it must name every value: {values}.")
        return values, [_positive_number(f"alpha[{v!r}]", prior[v]) for v in values]
    if isinstance(prior, numbers.Real) and not isinstance(prior, bool):
        return list(observed), [_positive_number("alpha", prior)] * len(observed)
    try:
        alphas = list(prior)
    except TypeError:
        raise DataError(f"A Dirichlet prior is a number, a list of numbers or a dict value -> alpha; "
                        f"got {prior!r}.") from None
    if len(alphas) != len(observed):
        raise DataError(f"The Dirichlet prior has {len(alphas)} alphas but the data have {len(observed)} "
                        f"distinct values {list(observed)}; give one alpha per value (or a dict).")
    return list(observed), [_positive_number(f"alpha[{v!r}]", a) for v, a in zip(observed, alphas)]


def _map_categorical(data, prior):
    values = sample_values(data, allow_empty=True)
    if values.dtype.kind == "O":
        values = np.array([str(v) for v in values])
    levels, counts = np.unique(values, return_counts=True)
    observed = dict(zip([_py(v) for v in levels], counts.tolist()))
    keys, alphas = _dirichlet_alphas(prior, list(observed))
    posterior = np.array([observed.get(k, 0) + al for k, al in zip(keys, alphas)])  # (K,)
    below = [k for k, p in zip(keys, posterior) if p < 1]
    if below:
        raise DataError(f"The posterior Dirichlet parameter is below 1 for {below}: its density is unbounded "
                        "where those probabilities reach 0, so the MAP estimate is not defined; use alphas >= 1.")
    excess = posterior - 1  # the counts plus hallucinated counts beta_i - 1
    if excess.sum() <= 0:
        raise DataError("Every posterior Dirichlet parameter is 1 (no data and alphas of 1): the posterior "
                        "is flat and the MAP estimate is not defined.")
    theta = excess / excess.sum()  # (K,)
    n = int(counts.sum())
    return {"distribution": "categorical", "n": n, "values": keys,
            "params": {"probabilities": {k: float(t) for k, t in zip(keys, theta)}},
            "counts": {k: int(observed.get(k, 0)) for k in keys},
            "prior": {"name": "dirichlet", "alphas": {k: float(a) for k, a in zip(keys, alphas)}},
            "posterior": {"name": "dirichlet", "alphas": {k: float(p) for k, p in zip(keys, posterior)}}}


# --- Laplace smoothing --------------------------------------------------------------------------

def laplace(counts, k=1):
    """Laplace smoothing with strength k: P_LAP,k(x) = (count(x) + k) / (N + k|X|) (notes 000, "Smoothing").

    `counts` is a dict value -> count (returns a dict), a list of counts (returns a list), or a 2-D table
    with one row per class y (returns a list of rows, each P_LAP,k(x | y) = (count(x, y) + k) /
    (count(y) + k|X|)). k = 0 is the MLE; as k grows the estimate tends to the uniform 1/|X|.
    """
    if not isinstance(k, numbers.Real) or isinstance(k, bool) or not (k >= 0) or not math.isfinite(k):
        raise DataError(f"The Laplace strength k must be a number >= 0; got {k!r}.")
    keys = list(counts) if isinstance(counts, dict) else None
    table = np.asarray([counts[key] for key in keys] if keys is not None else counts, dtype=float)
    if table.ndim not in (1, 2) or table.size == 0:
        raise DataError(f"counts must be a non-empty list (or dict) of counts or a 2-D table; got shape {table.shape}.")
    if not np.all(np.isfinite(table)) or np.any(table < 0):
        raise DataError("counts must be non-negative numbers; found a negative, NaN or infinite count.")
    smoothed = table + k  # count(x) + k
    totals = smoothed.sum(axis=-1, keepdims=True)  # N + k|X|, per row for a table
    if np.any(totals == 0):
        raise DataError("Every count is 0 and k = 0, so N + k|X| = 0 and nothing can be estimated; use k > 0.")
    probs = smoothed / totals
    if keys is not None:
        return {key: float(p) for key, p in zip(keys, probs)}
    return probs.tolist()
