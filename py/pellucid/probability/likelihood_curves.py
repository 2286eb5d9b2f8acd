"""The log likelihood (and, with a Beta prior, the log posterior) as a function of the parameter, for
plotting next to the estimate (estimation.py): the curve whose peak is the MLE, notes 000's "Parameter
Estimation", and the posterior whose peak is the MAP, notes 004's "Principles for Estimating Probabilities".
"""

import math
import numbers

import numpy as np

from ..core.errors import DataError
from .estimation import (beta_log_density, beta_prior, bernoulli_log_likelihood, gaussian_log_likelihood,
                         map_estimate, mle, poisson_log_likelihood)
from .samples import check_distribution, finite_or_none, numeric_values, sample_values


def log_likelihood_curve(distribution, data, grid=None, n_points=200, prior=None, positive=None):
    """The log likelihood as a function of the parameter, for plotting next to the estimate.

    Bernoulli: over theta in (0, 1); with `prior` = Beta(a, b) also the log posterior
    log P(D | theta) + log P(theta) (normalised prior, unnormalised posterior) and the MAP point.
    Poisson: over lambda > 0. Gaussian: over mu, with sigma2 held at its MLE. Categorical has several
    parameters and no 1-D curve: use "bernoulli" with `positive` for one value against the rest.
    Returns {"distribution", "parameter", "grid", "log_likelihood", "mle", ...}; -infinity is None.
    """
    check_distribution(distribution, ("bernoulli", "poisson", "gaussian"))
    if prior is not None and distribution != "bernoulli":
        raise DataError("A prior (Beta(a, b)) is available for the bernoulli curve only.")
    if not isinstance(n_points, numbers.Integral) or n_points < 2:
        raise DataError(f"n_points must be an integer >= 2; got {n_points!r}.")
    fit = mle(distribution, data, positive)
    if distribution == "bernoulli":
        return _bernoulli_curve(fit, data, grid, n_points, prior, positive)
    x = numeric_values(sample_values(data), distribution.capitalize())
    if distribution == "poisson":
        lam = fit["params"]["lambda"]
        grid = _grid(grid, 1e-3 * max(lam, 1.0), lam + 4 * math.sqrt(lam) + 2, n_points, low=0.0, name="lambda")
        return _curve(fit, "lambda", grid, poisson_log_likelihood(x, grid), fit["params"]["lambda"])
    mu, sigma2 = fit["params"]["mu"], fit["params"]["sigma2"]
    if sigma2 == 0:
        raise DataError("All values are equal, so the Gaussian likelihood is unbounded at sigma2 = 0; no curve.")
    spread = 4 * math.sqrt(sigma2)
    grid = _grid(grid, mu - spread, mu + spread, n_points, name="mu")
    out = _curve(fit, "mu", grid, gaussian_log_likelihood(x, grid, sigma2), mu)
    out["fixed"] = {"sigma2": sigma2}
    return out


def _grid(grid, start, stop, n_points, low=None, high=None, name="theta"):
    if grid is None:
        return np.linspace(start, stop, n_points)
    grid = np.asarray(grid, dtype=float).ravel()
    if grid.size == 0 or not np.all(np.isfinite(grid)):
        raise DataError(f"grid must be a non-empty list of finite {name} values.")
    if (low is not None and np.any(grid < low)) or (high is not None and np.any(grid > high)):
        raise DataError(f"grid values for {name} must lie in [{low}, {'inf' if high is None else high}].")
    return grid


def _curve(fit, parameter, grid, values, best):
    return {"distribution": fit["distribution"], "parameter": parameter, "n": fit["n"],
            "grid": grid.tolist(), "log_likelihood": [finite_or_none(v) for v in np.broadcast_to(values, grid.shape)],
            "mle": best}


def _bernoulli_curve(fit, data, grid, n_points, prior, positive):
    if grid is None:
        grid = np.linspace(0, 1, n_points + 2)[1:-1]  # the open interval: log 0 at the ends is no use on a plot
    grid = _grid(grid, 0, 1, n_points, low=0.0, high=1.0)
    n1, n0 = fit["counts"]["n1"], fit["counts"]["n0"]
    log_lik = bernoulli_log_likelihood(n1, n0, grid)  # (G,)
    out = _curve(fit, "theta", grid, log_lik, fit["params"]["theta"])
    if prior is not None:
        a, b = beta_prior(prior)
        out["log_posterior"] = [finite_or_none(v) for v in log_lik + beta_log_density(grid, a, b)]
        out["map"] = map_estimate("bernoulli", data, (a, b), positive)["params"]["theta"]
        out["prior"] = {"name": "beta", "a": a, "b": b}
    return out
