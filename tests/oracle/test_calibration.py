"""The calibration (reliability) curve: its bins by hand, and scikit-learn's calibration_curve on the same
rows (uniform and quantile edges, probabilities exactly on an edge, empty bins dropped, text labels,
a fitted model's probabilities on a large table)."""

import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.calibration import calibration_curve as sk_calibration_curve

from pellucid import DataError, LogisticRegression
from pellucid.evaluation.calibration import calibration_bins, calibration_curve


def test_bins_by_hand():
    y = np.array([0, 0, 1, 1, 1, 0])
    p = np.array([0.1, 0.15, 0.2, 0.7, 0.9, 0.95])
    bins = calibration_bins(y, p, n_bins=4)  # edges 0, 0.25, 0.5, 0.75, 1
    assert bins["edges"].tolist() == [0, 0.25, 0.5, 0.75, 1]
    assert bins["count"].tolist() == [3, 0, 1, 2]  # 0.7 is in (0.5, 0.75]; the bin (0.25, 0.5] is empty
    assert bins["bin"].tolist() == [0, 2, 3]
    assert bins["prob_true"].tolist() == pytest.approx([1 / 3, 1, 1 / 2])
    assert bins["prob_pred"].tolist() == pytest.approx([0.15, 0.7, 0.925])


def test_a_probability_on_an_edge_goes_to_the_lower_bin():
    y, p = np.array([0, 1, 1]), np.array([0.0, 0.5, 1.0])
    bins = calibration_bins(y, p, n_bins=2)
    assert bins["count"].tolist() == [2, 1]


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 3, 5, 10, 40])
def test_matches_sklearn(strategy, n_bins):
    rng = np.random.default_rng(n_bins)
    for _ in range(10):
        n = int(rng.integers(5, 300))
        p = np.round(rng.beta(0.7, 1.5, n), int(rng.integers(1, 4)))  # ties, and values on the edges
        y = (rng.random(n) < p).astype(int)
        ours = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
        theirs = sk_calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(a, b, rtol=1e-12)


def test_points_weighted_by_their_counts_give_the_share_of_positives():
    rng = np.random.default_rng(7)
    p = rng.random(500)
    y = (rng.random(500) < p).astype(int)
    bins = calibration_bins(y, p, n_bins=7, strategy="quantile")
    filled = bins["count"][bins["bin"]]
    assert filled.sum() == 500
    assert filled @ bins["prob_true"] / 500 == pytest.approx(y.mean())
    assert filled @ bins["prob_pred"] / 500 == pytest.approx(p.mean())


def test_model_probabilities_on_a_large_table_with_text_labels():
    rng = np.random.default_rng(8)
    n = 30_000
    income = rng.lognormal(10, 0.6, n)  # on a scale of 10,000
    ratio = rng.random(n) * 0.05  # on a scale of 0.01
    logit = 2.5 * (np.log(income) - 10) + 40 * (ratio - 0.025)
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-logit)), "yes", "no")
    X = np.column_stack([np.log(income), ratio * 100])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = LogisticRegression().fit(X[:20_000], y[:20_000])
    p_yes = model.predict_proba(X[20_000:])[:, list(model.classes_).index("yes")]
    ours = calibration_curve(y[20_000:], p_yes, pos_label="yes", n_bins=10)
    theirs = sk_calibration_curve(y[20_000:], p_yes, pos_label="yes", n_bins=10)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    assert np.max(np.abs(ours[0] - ours[1])) < 0.1  # the model that made the data is well calibrated


@pytest.mark.parametrize("kwargs, message", [
    ({"y_prob": [0.2, 1.3, 0.5]}, "outside \\[0, 1\\]"),
    ({"y_prob": [0.2, np.nan, 0.5]}, "missing or infinite"),
    ({"n_bins": 0}, "n_bins"),
    ({"n_bins": 2.5}, "n_bins"),
    ({"strategy": "kmeans"}, "strategy"),
    ({"y_true": ["a", "b", "a"]}, "pos_label"),
])
def test_bad_input_is_a_data_error(kwargs, message):
    args = {"y_true": [0, 1, 1], "y_prob": [0.2, 0.6, 0.9], **kwargs}
    with pytest.raises(DataError, match=message):
        calibration_curve(**args)
