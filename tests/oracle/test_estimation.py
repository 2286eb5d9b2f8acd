"""Parameter estimation: the notes' worked examples (notes 000, 001, 003, 004), oracle checks against
scipy.stats, the edge cases of MAP, and DataError messages."""

import json
import math

import numpy as np
import pytest
pytest.importorskip("scipy", reason="an oracle test: it compares with scipy")
from scipy import stats

from pellucid.core.errors import DataError
from pellucid.probability.estimation import laplace, map_estimate, mle
from pellucid.probability.likelihood_curves import log_likelihood_curve


def _strict_json(obj):
    return json.loads(json.dumps(obj, allow_nan=False))


# --- notes 000: "Parameter Estimation" and "Smoothing" ------------------------------------------

def test_seed000_red_red_blue_theta_two_thirds_likelihood_4_over_27():
    fit = mle("bernoulli", ["red", "red", "blue"], positive="red")
    assert fit["params"]["theta"] == pytest.approx(2 / 3)
    assert math.exp(fit["log_likelihood"]) == pytest.approx(4 / 27)  # L(2/3) = 4/27
    assert fit["counts"] == {"n1": 2, "n0": 1}
    _strict_json(fit)


def test_seed000_ten_flips_seven_heads():
    flips = [1] * 7 + [0] * 3
    assert mle("bernoulli", flips)["params"]["theta"] == pytest.approx(0.7)
    assert mle("bernoulli", np.array(flips, dtype=bool))["params"]["theta"] == pytest.approx(0.7)


def test_seed000_theta_zero_is_a_minimum_of_the_likelihood():
    # theta(2 - 3 theta) = 0 has roots 0 and 2/3; L(0) = 0 < L(2/3) = 4/27.
    curve = log_likelihood_curve("bernoulli", ["red", "red", "blue"], positive="red", n_points=299)
    grid, ll = np.array(curve["grid"]), np.array(curve["log_likelihood"])
    assert grid[np.argmax(ll)] == pytest.approx(2 / 3, abs=1 / 300)
    assert ll[0] < ll[np.argmax(ll)]
    assert 0 < grid.min() and grid.max() < 1  # the open interval: no log 0
    assert curve["mle"] == pytest.approx(2 / 3)


def test_seed000_laplace_formula_and_its_two_limits():
    counts = {"red": 2, "blue": 1}
    assert laplace(counts, 1) == pytest.approx({"red": 3 / 5, "blue": 2 / 5})  # (c + k) / (N + k|X|)
    assert laplace(counts, 0) == pytest.approx({"red": 2 / 3, "blue": 1 / 3})  # k = 0 is the MLE
    assert laplace(counts, 1e9) == pytest.approx({"red": 0.5, "blue": 0.5})  # k -> inf: uniform 1/|X|
    assert laplace([0, 5, 1], 2) == pytest.approx([2 / 12, 7 / 12, 3 / 12])


def test_seed000_conditional_laplace_one_row_per_class():
    # P_LAP,k(x | y) = (count(x, y) + k) / (count(y) + k|X|)
    table = laplace([[3, 4], [10, 13]], 1)
    assert table[0] == pytest.approx([4 / 9, 5 / 9])
    assert table[1] == pytest.approx([11 / 25, 14 / 25])


# --- notes 001: the 30 movie-preference examples -----------------------------------------------

def _movie_pairs(counts):
    """Rows (x, y) with counts {(x, y): count} as 'x,y' labels."""
    return [f"{x},{y}" for (x, y), c in counts.items() for _ in range(c)]


def test_seed001_joint_mle_estimates_match_the_published_table():
    x1 = {(0, 0): 3, (0, 1): 10, (1, 0): 4, (1, 1): 13}
    x2 = {(0, 0): 5, (0, 1): 8, (1, 0): 7, (1, 1): 10}
    fit1 = mle("categorical", _movie_pairs(x1))["params"]["probabilities"]
    fit2 = mle("categorical", _movie_pairs(x2))["params"]["probabilities"]
    assert {k: round(v, 2) for k, v in fit1.items()} == {"0,0": 0.10, "0,1": 0.33, "1,0": 0.13, "1,1": 0.43}
    assert {k: round(v, 2) for k, v in fit2.items()} == {"0,0": 0.17, "0,1": 0.27, "1,0": 0.23, "1,1": 0.33}
    y = [0] * 13 + [1] * 17
    assert round(mle("bernoulli", y)["params"]["theta"], 2) == 0.57
    assert round(1 - mle("bernoulli", y)["params"]["theta"], 2) == 0.43


def test_seed001_laplace_map_is_beta_2_2_map():
    # (# with X=1 and Y=y + 1) / (# with Y=y + 2), e.g. x1 among the 17 with y = 1: 13 ones, 4 zeros.
    x1_given_y1 = [1] * 13 + [0] * 4
    fit = map_estimate("bernoulli", x1_given_y1, (2, 2))
    assert fit["params"]["theta"] == pytest.approx(14 / 19)
    assert fit["params"]["theta"] == pytest.approx(laplace([4, 13], 1)[1])
    assert fit["hallucinated"] == {"ones": 1.0, "zeros": 1.0}


# --- notes 003: Poisson MLE ---------------------------------------------------------------------

def test_seed003_poisson_mle_is_the_mean_and_a_maximum():
    z = np.random.default_rng(3).poisson(2.5, size=60)
    fit = mle("poisson", z)
    lam = fit["params"]["lambda"]
    assert lam == pytest.approx(z.sum() / len(z))
    # The score -n + sum(z)/lambda vanishes there and the second derivative -sum(z)/lambda^2 is negative.
    assert -len(z) + z.sum() / lam == pytest.approx(0, abs=1e-9)
    assert fit["log_likelihood"] == pytest.approx(stats.poisson.logpmf(z, lam).sum())
    for other in (lam * 0.9, lam * 1.1):
        assert stats.poisson.logpmf(z, other).sum() < fit["log_likelihood"]


def test_seed003_poisson_curve_matches_scipy_and_peaks_at_the_mean():
    z = [0, 1, 1, 2, 3, 5]
    curve = log_likelihood_curve("poisson", z, n_points=400)
    grid = np.array(curve["grid"])
    expected = [stats.poisson.logpmf(z, g).sum() for g in grid]
    np.testing.assert_allclose(curve["log_likelihood"], expected, rtol=1e-10)
    assert grid[np.argmax(curve["log_likelihood"])] == pytest.approx(2.0, abs=grid[1] - grid[0])
    _strict_json(curve)


def test_poisson_all_zero_counts_give_lambda_zero():
    fit = mle("poisson", [0, 0, 0])
    assert fit["params"]["lambda"] == 0.0 and fit["log_likelihood"] == 0.0


# --- notes 004: MLE and MAP with Beta and Dirichlet priors --------------------------------------

def test_seed004_mle_alpha1_over_alpha1_plus_alpha0():
    assert mle("bernoulli", [1, 0, 0, 1])["params"]["theta"] == pytest.approx(2 / 4)
    assert mle("bernoulli", [1, 0, 0, 1, 1])["params"]["theta"] == pytest.approx(3 / 5)


@pytest.mark.parametrize("n1, n0, a, b", [(2, 2, 3, 2), (7, 3, 2, 5), (0, 4, 2, 2), (5, 0, 1.5, 1)])
def test_seed004_beta_map_formula_and_posterior_mode(n1, n0, a, b):
    fit = map_estimate("bernoulli", [1] * n1 + [0] * n0, {"a": a, "b": b})
    expected = (n1 + a - 1) / ((n1 + a - 1) + (n0 + b - 1))
    assert fit["params"]["theta"] == pytest.approx(expected)
    assert fit["posterior"] == {"name": "beta", "a": n1 + a, "b": n0 + b}  # Beta(alpha_H + beta_H, alpha_T + beta_T)
    grid = np.linspace(0, 1, 100001)
    assert grid[np.argmax(stats.beta(n1 + a, n0 + b).pdf(grid))] == pytest.approx(expected, abs=1e-4)
    assert fit["log_posterior"] == pytest.approx(stats.beta(n1 + a, n0 + b).logpdf(expected))
    _strict_json(fit)


def test_seed004_map_tends_to_mle_with_more_data():
    small = map_estimate("bernoulli", [1, 1, 0], (5, 5))["params"]["theta"]
    large = map_estimate("bernoulli", [1, 1, 0] * 1000, (5, 5))["params"]["theta"]
    assert abs(large - 2 / 3) < abs(small - 2 / 3) and large == pytest.approx(2 / 3, abs=1e-2)


def test_seed004_dirichlet_dice_map():
    rolls = [1, 2, 2, 6, 6, 6]
    alphas = {v: 2 for v in range(1, 7)}
    fit = map_estimate("categorical", rolls, alphas)
    # (alpha_i + beta_i - 1) / sum_j (alpha_j + beta_j - 1): counts 1,2,0,0,0,3 plus one hallucinated each.
    expected = np.array([2, 3, 1, 1, 1, 4]) / 12
    assert list(fit["params"]["probabilities"]) == [1, 2, 3, 4, 5, 6]
    assert list(fit["params"]["probabilities"].values()) == pytest.approx(expected.tolist())
    same = map_estimate("categorical", ["a", "b", "b"], [3, 1])["params"]["probabilities"]
    assert same == pytest.approx({"a": 3 / 5, "b": 2 / 5})  # (1 + 3 - 1) / 5, (2 + 1 - 1) / 5
    assert map_estimate("categorical", ["a", "b", "b"], 1)["params"]["probabilities"] == \
        pytest.approx(mle("categorical", ["a", "b", "b"])["params"]["probabilities"])


def test_beta_map_on_the_boundary_says_so():
    fit = map_estimate("bernoulli", [0, 0, 0], (0.5, 2))
    assert fit["params"]["theta"] == 0.0 and "theta = 0" in fit["note"]
    fit = map_estimate("bernoulli", [1, 1], (2, 0.5))
    assert fit["params"]["theta"] == 1.0 and "theta = 1" in fit["note"]
    # Posterior Beta(1, 3): the formula's boundary value, no density blow-up.
    assert map_estimate("bernoulli", [0, 0], (1, 1))["params"]["theta"] == 0.0


def test_beta_map_undefined_cases_raise():
    with pytest.raises(DataError, match=r"flat .*a \+ b - 2 \+ n = 0"):
        map_estimate("bernoulli", [], (1, 1))
    with pytest.raises(DataError, match="no single MAP"):
        map_estimate("bernoulli", [], (0.5, 0.5))
    with pytest.raises(DataError, match="positive number"):
        map_estimate("bernoulli", [1, 0], (0, 2))
    with pytest.raises(DataError, match="pair"):
        map_estimate("bernoulli", [1, 0], 2)
    assert map_estimate("bernoulli", [], (3, 2))["params"]["theta"] == pytest.approx(2 / 3)  # prior mode


def test_dirichlet_map_errors_name_the_problem():
    with pytest.raises(DataError, match=r"below 1 for \['c'\]"):
        map_estimate("categorical", ["a", "b"], {"a": 1, "b": 1, "c": 0.5})
    with pytest.raises(DataError, match=r"no alpha for the value\(s\) \['c'\]"):
        map_estimate("categorical", ["a", "b", "c"], {"a": 1, "b": 1})
    with pytest.raises(DataError, match="2 alphas but the data have 3"):
        map_estimate("categorical", ["a", "b", "c"], [1, 2])
    with pytest.raises(DataError, match="flat"):
        map_estimate("categorical", [], {"a": 1, "b": 1})
    with pytest.raises(DataError, match="bernoulli .* and categorical|one of 'bernoulli', 'categorical'"):
        map_estimate("poisson", [1, 2], (1, 1))


def test_map_curve_peaks_at_map():
    curve = log_likelihood_curve("bernoulli", [1, 1, 1, 0], prior=(2, 4), n_points=999)
    grid = np.array(curve["grid"])
    assert curve["map"] == pytest.approx((3 + 2 - 1) / (4 + 2 + 4 - 2))
    assert grid[np.argmax(curve["log_posterior"])] == pytest.approx(curve["map"], abs=1e-3)
    expected = [stats.binom.logpmf(3, 4, g) - math.log(4) + stats.beta(2, 4).logpdf(g) for g in grid[::50]]
    np.testing.assert_allclose(curve["log_posterior"][::50], expected, rtol=1e-10)
    _strict_json(curve)


# --- Gaussian and categorical against scipy ----------------------------------------------------

def test_gaussian_mle_uses_one_over_n_variance():
    x = np.random.default_rng(0).normal(3, 2, size=50)
    fit = mle("gaussian", x)
    loc, scale = stats.norm.fit(x)
    assert fit["params"]["mu"] == pytest.approx(loc)
    assert fit["params"]["sigma"] == pytest.approx(scale)
    assert fit["params"]["sigma2"] == pytest.approx(np.var(x, ddof=0))
    assert fit["log_likelihood"] == pytest.approx(stats.norm.logpdf(x, loc, scale).sum())
    curve = log_likelihood_curve("gaussian", x, n_points=101)
    assert curve["grid"][50] == pytest.approx(loc) and np.argmax(curve["log_likelihood"]) == 50


def test_gaussian_identical_values_have_unbounded_likelihood():
    fit = mle("gaussian", [2.0, 2.0])
    assert fit["params"]["sigma2"] == 0.0 and fit["log_likelihood"] is None and "unbounded" in fit["note"]
    _strict_json(fit)


def test_categorical_mle_sorted_values_and_log_likelihood():
    data = ["b", "c", "a", "b", "b", "c"]
    fit = mle("categorical", data)
    assert fit["values"] == ["a", "b", "c"] and list(fit["params"]["probabilities"]) == ["a", "b", "c"]
    p = np.array([1, 3, 2]) / 6
    assert list(fit["params"]["probabilities"].values()) == pytest.approx(p.tolist())
    assert fit["log_likelihood"] == pytest.approx(stats.multinomial.logpmf([1, 3, 2], 6, p) - math.log(60))


# --- validation -------------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: mle("bernoulli", [0, 1, 2]), r"0/1 or booleans; found 0, 1, 2\. Pass positive="),
    (lambda: mle("bernoulli", ["yes", "no"]), r"found 'no', 'yes'"),
    (lambda: mle("poisson", [1, -2, 3]), r"non-negative integers\); found -2.0 \(rows 2\)"),
    (lambda: mle("poisson", [1, 2.5]), r"non-negative integers\); found 2.5"),
    (lambda: mle("poisson", ["a"]), "must be numbers"),
    (lambda: mle("gaussian", []), "data is empty"),
    (lambda: mle("gaussian", [1.0, float("nan"), 2.0]), r"1 missing values \(NaN or empty; rows 2\)"),
    (lambda: mle("categorical", ["a", None]), "missing values"),
    (lambda: mle("gaussian", [[1, 2], [3, 4]]), r"1-D list of observations; got an array of shape \(2, 2\)"),
    (lambda: mle("beta", [0.5]), "distribution must be one of"),
    (lambda: laplace([1, -1], 1), "non-negative"),
    (lambda: laplace([1, 2], -1), "k must be a number >= 0"),
    (lambda: laplace([0, 0], 0), "N \\+ k\\|X\\| = 0"),
    (lambda: log_likelihood_curve("categorical", ["a"]), "distribution must be one of"),
    (lambda: log_likelihood_curve("poisson", [1], prior=(1, 1)), "bernoulli curve only"),
    (lambda: log_likelihood_curve("bernoulli", [1, 0], grid=[0.5, 1.5]), r"must lie in \[0.0, 1.0\]"),
])
def test_bad_input_raises_a_data_error_that_explains(call, message):
    with pytest.raises(DataError, match=message):
        call()


def test_caller_data_unchanged():
    data = np.array([1.0, 0.0, 1.0, 1.0])
    before = data.copy()
    mle("bernoulli", data)
    map_estimate("bernoulli", data, (2, 3))
    log_likelihood_curve("bernoulli", data, prior=(2, 2))
    counts = {"a": 1, "b": 2}
    laplace(counts, 1)
    np.testing.assert_array_equal(data, before)
    assert counts == {"a": 1, "b": 2}
