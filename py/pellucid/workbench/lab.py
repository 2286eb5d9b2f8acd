"""The estimation lab: a sample (drawn with a seed, or a table column), its likelihood curve, the MLE, the
MAP estimate under a Beta or Dirichlet prior, and Laplace smoothing with strength k (notes 000, "Parameter
Estimation", "Smoothing"; notes 003, section 2.2, the Poisson MLE; notes 004, "Principles for Estimating
Probabilities", Beta and Dirichlet priors). Everything is computed by `pellucid.estimation` and
`pellucid.likelihood_curves`.
"""

import numpy as np

from ..probability import estimation, likelihood_curves
from ..core.errors import DataError
from .formula_text import fixed

DEFAULTS = {"bernoulli": {"theta": 0.3}, "poisson": {"lambda": 3.0}, "gaussian": {"mu": 0.0, "sigma": 1.0},
            "categorical": {"probabilities": [0.5, 0.3, 0.2]}}
CATEGORY_NAMES = "abcdefghij"
MAX_N = 10_000


def draw_sample(distribution, n=20, seed=0, params=None):
    """n values from the distribution with `np.random.default_rng(seed)`; params as in DEFAULTS."""
    if distribution not in DEFAULTS:
        raise DataError(f"distribution must be one of {', '.join(DEFAULTS)}; got {distribution!r}.")
    if isinstance(n, bool) or not isinstance(n, (int, float)) or n != int(n) or not 1 <= n <= MAX_N:
        raise DataError(f"n must be a whole number from 1 to {MAX_N}; got {n!r}.")
    p = {**DEFAULTS[distribution], **(params or {})}
    rng = np.random.default_rng(seed)
    n = int(n)
    if distribution == "bernoulli":
        if not 0 <= p["theta"] <= 1:
            raise DataError(f"theta must be between 0 and 1; got {p['theta']!r}.")
        return (rng.random(n) < p["theta"]).astype(int).tolist()
    if distribution == "poisson":
        if not p["lambda"] > 0:
            raise DataError(f"lambda must be > 0; got {p['lambda']!r}.")
        return rng.poisson(p["lambda"], n).tolist()
    if distribution == "gaussian":
        if not p["sigma"] > 0:
            raise DataError(f"sigma must be > 0; got {p['sigma']!r}.")
        return rng.normal(p["mu"], p["sigma"], n).round(3).tolist()
    probs = np.asarray(p["probabilities"], dtype=float)
    if probs.ndim != 1 or not 2 <= len(probs) <= len(CATEGORY_NAMES) or np.any(probs < 0) or probs.sum() <= 0:
        raise DataError("probabilities must be 2 to 10 non-negative numbers that do not all vanish.")
    return [CATEGORY_NAMES[i] for i in rng.choice(len(probs), size=n, p=probs / probs.sum())]


def lab(distribution, sample, prior_a=1.0, prior_b=1.0, k=1.0, positive=None):
    """{sample summary, mle, curve, map (bernoulli/categorical), laplace (bernoulli/categorical), math}.
    The prior is Beta(prior_a, prior_b) for Bernoulli data and a symmetric Dirichlet(prior_a) for
    categorical data; a MAP that is not defined (e.g. a flat posterior) comes back as an error message."""
    out = {"distribution": distribution, "n": len(sample), "sample": list(sample[:200]),
           "mle": estimation.mle(distribution, sample, positive)}
    if distribution in ("bernoulli", "poisson", "gaussian"):
        prior = (prior_a, prior_b) if distribution == "bernoulli" else None
        try:
            out["curve"] = likelihood_curves.log_likelihood_curve(distribution, sample, n_points=160,
                                                                  prior=prior, positive=positive)
        except DataError as exc:
            out["curve_error"] = str(exc)
    if distribution in ("bernoulli", "categorical"):
        prior = (prior_a, prior_b) if distribution == "bernoulli" else prior_a
        try:
            out["map"] = estimation.map_estimate(distribution, sample, prior, positive)
        except DataError as exc:
            out["map_error"] = str(exc)
        counts = out["mle"]["counts"]
        if distribution == "bernoulli":
            counts = {"1": counts["n1"], "0": counts["n0"]}
        out["laplace"] = {"k": k, "counts": counts, "estimates": estimation.laplace(counts, k)}
    out["math"] = _math(out, prior_a, prior_b, k)
    return out


def _math(out, a, b, k):
    d, m = out["distribution"], out["mle"]
    if d == "bernoulli":
        n1, n0 = m["counts"]["n1"], m["counts"]["n0"]
        rows = [{"tex": rf"\theta_{{MLE}} = \frac{{\alpha_1}}{{\alpha_1 + \alpha_0}} = \frac{{{n1}}}{{{n1 + n0}}} = "
                        rf"{m['params']['theta']:.4f}", "text": f"θ_MLE = {n1}/{n1 + n0} = {m['params']['theta']:.4f}"}]
        if "map" in out:
            t = out["map"]["params"]["theta"]
            rows.append({"tex": rf"\theta_{{MAP}} = \frac{{\alpha_1 + a - 1}}{{n + a + b - 2}} = "
                                rf"\frac{{{n1} + {a:g} - 1}}{{{n1 + n0} + {a:g} + {b:g} - 2}} = {t:.4f}",
                         "text": f"θ_MAP = ({n1} + {a:g} − 1)/({n1 + n0} + {a:g} + {b:g} − 2) = {t:.4f}"})
        rows.append(_laplace_row(out, k))
        return rows
    if d == "categorical":
        return [{"tex": r"P_{MLE}(x) = \frac{\mathrm{count}(x)}{N}", "text": "P_MLE(x) = count(x)/N"},
                {"tex": rf"\theta_i^{{MAP}} = \frac{{\mathrm{{count}}_i + {a:g} - 1}}{{N + |X|({a:g} - 1)}}",
                 "text": f"θ_i MAP = (count_i + {a:g} − 1)/(N + |X|({a:g} − 1))"}, _laplace_row(out, k)]
    if d == "poisson":
        lam = m["params"]["lambda"]
        return [{"tex": rf"\lambda_{{MLE}} = \frac{{1}}{{n}}\sum_i z_i = \frac{{{m['sum']:g}}}{{{m['n']}}} = {lam:.4f}",
                 "text": f"λ_MLE = {m['sum']:g}/{m['n']} = {lam:.4f}"}]
    p = m["params"]
    return [{"tex": rf"\mu_{{MLE}} = \bar x = {fixed(p['mu'], '.4f')},"
                    rf"\quad \sigma^2_{{MLE}} = \tfrac{{1}}{{n}}\sum_i (x_i - \bar x)^2"
                    rf" = {p['sigma2']:.4f}", "text": f"μ_MLE = {fixed(p['mu'], '.4f')}, σ²_MLE = {p['sigma2']:.4f}"}]


def _laplace_row(out, k):
    lap = out["laplace"]
    n = sum(lap["counts"].values())
    size = len(lap["counts"])
    first = next(iter(lap["counts"]))
    est = lap["estimates"][first]
    return {"tex": rf"P_{{LAP,{k:g}}}({first}) = \frac{{\mathrm{{count}}({first}) + k}}{{N + k|X|}} = "
                   rf"\frac{{{lap['counts'][first]:g} + {k:g}}}{{{n:g} + {k:g} \cdot {size}}} = {est:.4f}",
            "text": f"P_LAP,{k:g}({first}) = ({lap['counts'][first]:g} + {k:g})/({n:g} + {k:g}·{size}) = {est:.4f}"}
