"""Whether two learners' scores differ by more than chance: the corrected resampled t-test of Nadeau and
Bengio (2003), as Weka's Experimenter uses it, with the Student t distribution computed here (numpy and
the standard library only: the page runs without scipy).

The test. Two learners are scored on the same n = r * k folds (r repeats of k-fold cross-validation, each
fold's models trained on the same rows and scored on the same held-out rows), giving paired differences
d_j = a_j - b_j. With their mean d̄ and sample variance σ² (ddof = 1),

    t = d̄ / sqrt((1/n + n_test/n_train) σ²),    n - 1 degrees of freedom,

and the two-sided p-value is P(|T| >= |t|) for T ~ Student t with n - 1 degrees of freedom. The plain
paired t-test would use σ²/n; the n_test/n_train term (the held-out rows over the training rows of a
fold, from the folds actually used) widens it because the folds' training sets overlap, so their scores
are correlated and σ²/n would understate the variance and call too many differences real.

What it assumes: the differences are roughly normal with a common mean, and their correlation is the
one Nadeau and Bengio's correction stands for (it is a heuristic, not exact). A p-value below the level
says the difference is unlikely if the learners were equally good on data like this; one above it does
not say they are equal, only that these folds cannot tell them apart. With σ² = 0 there is no spread to
weigh the mean by: identical scores give t = 0 and p = 1; differences all equal and non-zero have no
finite t, and the reply says so (p = 0, "constant") instead of dividing by zero.

The t distribution's tails come from the regularized incomplete beta function,
P(|T| >= |t|) = I_x(ν/2, 1/2) with x = ν / (ν + t²), evaluated by its continued fraction with the
modified Lentz method (the fraction is DLMF 8.17.22).
"""

import math

import numpy as np

from ..core.errors import DataError

LEVEL = 0.05  # the significance level a difference is marked at
_EPS = 1e-16  # a continued-fraction term this close to 1 changes nothing more
_TINY = 1e-300  # stands in for a zero denominator in Lentz's method
_MAX_TERMS = 100_000
_SPREAD_ROUNDING = 1e-12  # differences equal to this relative spread are equal up to rounding


# --- the regularized incomplete beta function ----------------------------------------------------

def _log_beta(a, b):
    """log B(a, b) = log Γ(a) + log Γ(b) - log Γ(a + b). When the larger of a and b is large (many degrees
    of freedom) the difference log Γ(a) - log Γ(a + b) of two huge numbers is taken from Stirling's series
    instead, so it keeps its digits."""
    a, b = max(a, b), min(a, b)  # B is symmetric
    if a < 100:
        return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    return math.lgamma(b) - _log_gamma_rise(a, b)


def _log_gamma_rise(a, b):
    """log Γ(a + b) - log Γ(a) for a >= 100, by Stirling's series (its terms to z^-7: past a = 100 the
    rest is below 1e-20)."""
    def correction(z):
        return 1 / (12 * z) - 1 / (360 * z ** 3) + 1 / (1260 * z ** 5) - 1 / (1680 * z ** 7)
    # (a + b - 1/2) log(a + b) - (a - 1/2) log a - b, with log(a + b) - log a as log1p(b / a)
    main = (a - 0.5) * math.log1p(b / a) + b * math.log(a + b) - b
    return main + correction(a + b) - correction(a)


def _continued_fraction(a, b, x):
    """1 + d_1/(1 + d_2/(1 + ...)), the continued fraction of I_x(a, b), by the modified Lentz method:
    d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)), d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)).
    It converges fast for x < (a + 1) / (a + b + 2)."""
    f, c, d = 1.0, 1.0, 0.0
    for j in range(1, _MAX_TERMS):
        m = j // 2
        if j % 2:
            term = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        else:
            term = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1.0 + term * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + term / c
        c = c if abs(c) > _TINY else _TINY
        step = c * d
        f *= step
        if abs(step - 1.0) < _EPS:
            return f
    raise DataError(f"The incomplete beta function I_x({a}, {b}) did not converge at x = {x}.")


def _beta_part(a, b, x, log_x, log_y):
    """I_x(a, b) straight from the continued fraction (for x below its turning point); log_x and log_y are
    log x and log(1 - x), passed in so a caller that knows them exactly keeps their digits."""
    front = math.exp(a * log_x + b * log_y - _log_beta(a, b) - math.log(a))
    return front / _continued_fraction(a, b, x)


def betainc(a, b, x, y=None):
    """The regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1; `y` = 1 - x when
    the caller has it more exactly than 1 - x would give (x near 1). Uses I_x(a, b) = 1 - I_(1-x)(b, a)
    where the fraction converges slowly."""
    y = 1.0 - x if y is None else y
    if not (a > 0 and b > 0) or not 0 <= x <= 1:
        raise DataError(f"betainc needs a, b > 0 and x in [0, 1]; got a={a}, b={b}, x={x}.")
    if x == 0 or y == 0:
        return float(x != 0)
    if x < (a + 1) / (a + b + 2):
        return _beta_part(a, b, x, math.log(x), math.log(y))
    return 1.0 - _beta_part(b, a, y, math.log(y), math.log(x))


# --- Student's t distribution ---------------------------------------------------------------------

_NEAR_NORMAL = 1e7  # past this many degrees of freedom, and for t below df^(1/4) / 10, the expansion


def _two_tails_near_normal(t, df):
    """P(|T| >= t) for t >= 0 and very many degrees of freedom: the normal tail corrected by the first three
    terms of the expansion in 1/df (Abramowitz and Stegun 26.7.5), used where t⁴ < df / 10⁴ so the terms
    left out are far below rounding, and where the continued fraction would need about sqrt(df) terms."""
    g1 = (t ** 3 + t) / 4
    g2 = (5 * t ** 7 + 16 * t ** 5 + 3 * t ** 3 - 3 * t) / 96
    g3 = (3 * t ** 11 + 19 * t ** 9 + 17 * t ** 7 - 15 * t ** 5 - 45 * t ** 3 - 15 * t) / 384
    density = math.exp(-t * t / 2) / math.sqrt(2 * math.pi)
    return math.erfc(t / math.sqrt(2)) + 2 * density * (g1 / df + g2 / df ** 2 + g3 / df ** 3)


def _two_tails(t, df):
    """P(|T| >= |t|) = I_x(df/2, 1/2), x = df / (df + t²), with x and 1 - x as q/(1+q) and 1/(1+q) for
    the ratio q of the smaller to the larger of df and t², so neither t² nor df + t² need be formed."""
    if math.isnan(t) or not df > 0:
        raise DataError(f"The t distribution needs a number t and degrees of freedom > 0; got t={t}, df={df}.")
    t = abs(t)
    if math.isinf(t):
        return 0.0
    if df > _NEAR_NORMAL and t ** 4 < 1e-4 * df:
        return _two_tails_near_normal(t, df)
    root = math.sqrt(df)
    if t > root:  # q = df / t²: x = q / (1 + q) is small
        q = (root / t) ** 2
        if q == 0:  # t so large that df / t² underflows: no mass left beyond it
            return 0.0
        log_x, log_y = math.log(q) - math.log1p(q), -math.log1p(q)
        x, y = q / (1 + q), 1 / (1 + q)
    else:  # q = t² / df: 1 - x = q / (1 + q) is small
        q = (t / root) ** 2
        if q == 0:
            return 1.0
        log_x, log_y = -math.log1p(q), math.log(q) - math.log1p(q)
        x, y = 1 / (1 + q), q / (1 + q)
    a, b = df / 2, 0.5
    if x < (a + 1) / (a + b + 2):
        return _beta_part(a, b, x, log_x, log_y)
    return 1.0 - _beta_part(b, a, y, log_y, log_x)


def t_sf(t, df):
    """P(T > t) for T ~ Student t with `df` degrees of freedom (scipy.stats.t.sf)."""
    tail = 0.5 * _two_tails(t, df)
    return tail if t >= 0 else 1.0 - tail


def t_cdf(t, df):
    """P(T <= t) for T ~ Student t with `df` degrees of freedom (scipy.stats.t.cdf)."""
    tail = 0.5 * _two_tails(t, df)
    return 1.0 - tail if t >= 0 else tail


def t_two_sided(t, df):
    """The two-sided p-value P(|T| >= |t|)."""
    return _two_tails(t, df)


# --- the corrected resampled t-test ----------------------------------------------------------------

def corrected_resampled_t_test(a, b, n_train, n_test, level=LEVEL):
    """The corrected resampled t-test of scores `a` and `b` on the same folds (one score per fold, in the
    same order); `n_train`, `n_test`: each fold's training and held-out rows (or one number for all),
    whose totals give the ratio n_test/n_train. Returns {"n", "df", "mean_difference" (of a - b),
    "variance" (σ², ddof = 1), "test_train_ratio", "t", "p_value", "significant", "level", "case"}: case
    "tested"; "identical" (every difference 0: t = 0, p = 1); "constant" (every difference the same
    non-zero value: t is infinite, reported as None, p = 0); "one_score" (fewer than two folds: no test,
    t and p None)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)  # (n,)
    if a.shape != b.shape or a.ndim != 1:
        raise DataError(f"The paired scores must be two lists of one score per fold; got shapes {a.shape} "
                        f"and {b.shape}.")
    d, n = a - b, len(a)
    ratio = _test_train_ratio(n_train, n_test, n)
    out = {"n": n, "df": n - 1 if n > 1 else None, "mean_difference": float(d.mean()) if n else None,
           "variance": float(d.var(ddof=1)) if n > 1 else None, "test_train_ratio": ratio, "t": None,
           "p_value": None, "significant": None, "level": level, "case": "one_score"}
    if n < 2:
        return out
    if np.ptp(d) <= _SPREAD_ROUNDING * np.max(np.abs(d)):  # no spread: nothing to weigh the mean by
        if out["mean_difference"] == 0:
            return {**out, "variance": 0.0, "t": 0.0, "p_value": 1.0, "significant": False, "case": "identical"}
        return {**out, "variance": 0.0, "p_value": 0.0, "significant": True, "case": "constant"}
    t = out["mean_difference"] / math.sqrt((1 / n + ratio) * out["variance"])
    p = t_two_sided(t, n - 1)
    return {**out, "t": t, "p_value": p, "significant": bool(p < level), "case": "tested"}


def _test_train_ratio(n_train, n_test, n):
    """n_test / n_train from each fold's sizes (their totals: the mean held-out over the mean training
    rows), or from one size for every fold."""
    train, test = np.asarray(n_train, dtype=float), np.asarray(n_test, dtype=float)
    if train.ndim == 0:
        train, test = np.full(n, float(train)), np.full(n, float(test))
    if train.shape != (n,) or test.shape != (n,) or np.any(train <= 0) or np.any(test <= 0):
        raise DataError(f"n_train and n_test must be positive row counts, one per fold ({n}); got {n_train!r} "
                        f"and {n_test!r}.")
    return float(test.sum() / train.sum())
