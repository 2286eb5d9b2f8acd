"""The corrected resampled t-test's pieces, against values known by hand: the Student t CDF (t = 0, the
Cauchy distribution at one degree of freedom, the normal at many, symmetry, extreme t and degrees of
freedom), the incomplete beta function it comes from, and the test's cases without spread."""

import math

import numpy as np
import pytest

from pellucid import DataError
from pellucid.evaluation.significance import (LEVEL, betainc, corrected_resampled_t_test, t_cdf, t_sf,
                                              t_two_sided)


def normal_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


@pytest.mark.parametrize("df", [0.1, 0.5, 1, 2, 7.5, 30, 1e3, 1e9])
def test_t_zero_is_the_median(df):
    assert t_cdf(0.0, df) == 0.5 and t_sf(0.0, df) == 0.5 and t_two_sided(0.0, df) == 1.0


@pytest.mark.parametrize("t", [-1e6, -40.0, -3.0, -1.0, -0.2, -1e-9, 1e-9, 0.5, 1.0, 2.5, 12.0, 1e8])
def test_one_degree_of_freedom_is_the_cauchy_distribution(t):
    cauchy = 0.5 + math.atan(t) / math.pi
    assert t_cdf(t, 1) == pytest.approx(cauchy, rel=1e-13)
    upper = math.atan2(1, t) / math.pi  # 1 - cauchy, without cancelling for large t
    assert t_sf(t, 1) == pytest.approx(upper, rel=1e-12)


def test_two_degrees_of_freedom_have_a_closed_form():
    for t in (-5.0, -1.0, 0.3, 2.0, 30.0):
        assert t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), rel=1e-13)


@pytest.mark.parametrize("df, tolerance", [(1e4, 5e-5), (1e6, 5e-7), (1e9, 1e-9)])
def test_many_degrees_of_freedom_approach_the_normal(df, tolerance):
    for t in (-3.0, -1.96, -0.5, 0.7, 1.645, 4.0):
        assert t_cdf(t, df) == pytest.approx(normal_cdf(t), abs=tolerance)
    assert t_two_sided(1.959963984540054, 1e12) == pytest.approx(0.05, rel=1e-6)


def test_known_quantiles_of_small_degrees_of_freedom():
    # Textbook table values: t_{0.975, df} and t_{0.995, df}.
    for t, df, upper in [(12.706204736174698, 1, 0.025), (2.7764451051977934, 4, 0.025),
                         (2.2621571628540993, 9, 0.025), (3.249835541592144, 9, 0.005)]:
        assert t_sf(t, df) == pytest.approx(upper, rel=1e-10)
        assert t_two_sided(t, df) == pytest.approx(2 * upper, rel=1e-10)


@pytest.mark.parametrize("df", [0.3, 1, 3, 9, 49, 199, 5e4])
def test_the_distribution_is_symmetric_and_its_tails_add_up(df):
    for t in (0.01, 0.4, 1.5, 3.0, 8.0):
        assert t_cdf(-t, df) == pytest.approx(t_sf(t, df), rel=1e-12)
        assert t_cdf(t, df) + t_sf(t, df) == pytest.approx(1.0, abs=1e-15)
        assert t_two_sided(-t, df) == t_two_sided(t, df) == pytest.approx(2 * t_sf(t, df), rel=1e-12)
        assert 0 < t_sf(t, df) < 0.5


def test_extreme_t_keeps_its_digits_in_the_far_tail():
    assert t_sf(1e6, 3) == pytest.approx(2 * math.sqrt(3) / (math.pi * 1e18), rel=1e-5)  # ~ c / t^3
    assert 0 <= t_sf(1e200, 2) < 1e-300 and t_cdf(-1e200, 2) == t_sf(1e200, 2)
    assert t_cdf(math.inf, 5) == 1.0 and t_cdf(-math.inf, 5) == 0.0 and t_two_sided(math.inf, 5) == 0.0
    assert 0 < t_two_sided(60.0, 10) < 1e-13
    assert t_two_sided(1e-12, 4) == pytest.approx(1.0, abs=1e-11)


def test_tiny_degrees_of_freedom_have_heavy_tails():
    # As df -> 0 the distribution puts more and more of its mass at each far end (scipy: 0.42264665343581).
    assert t_sf(1e6, 0.01) == pytest.approx(0.4226466534358158, rel=1e-9) and t_sf(1e6, 1e-4) > 0.49
    assert t_cdf(-1e6, 0.01) == pytest.approx(t_sf(1e6, 0.01))


def test_the_incomplete_beta_function_at_known_points():
    assert betainc(1, 1, 0.3) == pytest.approx(0.3, rel=1e-14)  # the uniform distribution
    assert betainc(2, 1, 0.6) == pytest.approx(0.36, rel=1e-14)  # x^a for b = 1
    assert betainc(1, 3, 0.2) == pytest.approx(1 - 0.8 ** 3, rel=1e-14)  # 1 - (1 - x)^b for a = 1
    assert betainc(0.5, 0.5, 0.25) == pytest.approx(2 / math.pi * math.asin(0.5), rel=1e-14)  # arcsine
    assert betainc(3, 4, 0.0) == 0.0 and betainc(3, 4, 1.0) == 1.0
    assert betainc(5, 2, 0.7) + betainc(2, 5, 0.3) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("bad", [(math.nan, 3), (1.0, 0), (1.0, -2)])
def test_a_t_without_meaning_is_a_data_error(bad):
    with pytest.raises(DataError, match="t distribution"):
        t_cdf(*bad)


def test_identical_scores_are_not_significant_with_p_one():
    scores = [0.9, 0.85, 0.95, 0.9, 0.8]
    out = corrected_resampled_t_test(scores, scores, 120, 30)
    assert out["case"] == "identical" and out["t"] == 0.0 and out["p_value"] == 1.0
    assert out["significant"] is False and out["variance"] == 0.0


def test_differences_all_equal_are_said_so_without_dividing_by_zero():
    a = np.array([0.9, 0.85, 0.95, 0.9, 0.8])
    with np.errstate(all="raise"):
        out = corrected_resampled_t_test(a, a - 0.25, 120, 30)
    assert out["case"] == "constant" and out["t"] is None and out["p_value"] == 0.0 and out["significant"]
    assert out["mean_difference"] == pytest.approx(0.25) and out["variance"] == 0.0


def test_the_statistic_by_hand():
    a, b = np.array([0.9, 0.8, 0.85, 0.95]), np.array([0.8, 0.8, 0.75, 0.85])
    d = a - b  # 0.1, 0, 0.1, 0.1: mean 0.075, variance 0.0025
    out = corrected_resampled_t_test(a, b, [75, 75, 75, 75], [25, 25, 25, 25])
    expected = 0.075 / math.sqrt((1 / 4 + 1 / 3) * 0.0025)
    assert out["t"] == pytest.approx(expected, rel=1e-12) and out["df"] == 3
    assert out["variance"] == pytest.approx(np.var(d, ddof=1)) and out["test_train_ratio"] == pytest.approx(1 / 3)
    assert out["p_value"] == pytest.approx(t_two_sided(expected, 3), rel=1e-15)
    assert out["significant"] == (out["p_value"] < LEVEL) and out["case"] == "tested"


def test_the_correction_makes_the_test_more_cautious_than_the_plain_paired_t_test():
    rng = np.random.default_rng(3)
    a = rng.uniform(0.8, 0.9, 20)
    b = a - rng.normal(0.01, 0.01, 20)
    plain = corrected_resampled_t_test(a, b, 1e12, 1)  # n_test/n_train ~ 0: the uncorrected test
    corrected = corrected_resampled_t_test(a, b, 90, 10)
    assert corrected["p_value"] > plain["p_value"] and abs(corrected["t"]) < abs(plain["t"])


def test_one_score_has_no_test():
    out = corrected_resampled_t_test([0.9], [0.8], 100, 50)
    assert out["case"] == "one_score" and out["p_value"] is None and out["significant"] is None


def test_unpaired_scores_or_sizes_are_data_errors():
    with pytest.raises(DataError, match="one score per fold"):
        corrected_resampled_t_test([0.9, 0.8], [0.8, 0.7, 0.6], 10, 5)
    with pytest.raises(DataError, match="one per fold"):
        corrected_resampled_t_test([0.9, 0.8], [0.8, 0.7], [10, 10, 10], [5, 5, 5])
