"""Gradient boosting with max_bins against scikit-learn's HistGradientBoosting: the same bins, and on
continuous data held-out scores within a point of scikit-learn's with the same rounds, learning rate,
depth and leaf size.

The regressor's trees are scikit-learn's in principle (its squared error has hessian 1, so its gain
G_L^2 / H_L + G_R^2 / H_R - G^2 / H is the variance reduction, and its leaf value -G / H the mean
residual), but scikit-learn sums its gradients in float32, so a near-tie can go the other way and the
trees drift apart: the held-out R^2 are compared, within 0.01. The classifier's trees differ by design
(scikit-learn's gain is the Newton one, pellucid's the notes' variance of the residuals; both leaves
take a Newton step): the held-out accuracy is compared, within 0.02 (a point or two is the spread of
accuracy between seeds on these tables)."""

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor  # noqa: E402
from sklearn.ensemble._hist_gradient_boosting.binning import _BinMapper  # noqa: E402

from pellucid import GradientBoostingClassifier, GradientBoostingRegressor  # noqa: E402
from pellucid.learners.ensemble.binning import Bins  # noqa: E402

SKLEARN_QUANTILES = tuple(int(part) for part in sklearn.__version__.split(".")[:2]) >= (1, 9)


def table(seed, n=4000):
    """Continuous features, one of 7 values, a regression target and its labels of two classes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    X[:, 5] = rng.integers(0, 7, size=n)
    target = X[:, 0] * 2 + np.sin(3 * X[:, 1]) - X[:, 2] * X[:, 3] + 0.5 * X[:, 5] + 0.3 * rng.normal(size=n)
    return X, target, (target > 0.2).astype(int)


def hist_settings(rounds=100):
    """scikit-learn's settings of pellucid's defaults: depth 3 (8 leaves), leaves of 1 row, no shrinkage of
    the leaf values beyond the learning rate, every round grown."""
    return dict(max_iter=rounds, learning_rate=0.1, max_depth=3, max_leaf_nodes=8, min_samples_leaf=1,
                l2_regularization=0.0, early_stopping=False)


@pytest.mark.skipif(not SKLEARN_QUANTILES, reason="scikit-learn before 1.9 took the midpoint quantile")
@pytest.mark.parametrize("max_bins", [255, 16])
def test_the_bins_are_scikit_learns(max_bins):
    X, _, _ = table(0)
    theirs = _BinMapper(n_bins=max_bins + 1).fit(X)
    ours = Bins(X, max_bins)
    for feature, edges in zip(ours.features, theirs.bin_thresholds_):
        np.testing.assert_allclose(feature.edges, edges, rtol=1e-15, atol=0)
    np.testing.assert_array_equal(ours.transform(X).T, theirs.transform(X))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ours_class, theirs_class, column, within", [
    (GradientBoostingRegressor, HistGradientBoostingRegressor, 1, 0.01),  # R², the same trees but for float32 sums
    (GradientBoostingClassifier, HistGradientBoostingClassifier, 2, 0.02),  # accuracy; its gain is Newton's
], ids=["regressor", "classifier"])
def test_held_out_scores_as_scikit_learns(seed, ours_class, theirs_class, column, within):
    X, y = table(seed)[0], table(seed)[column]
    train, test = slice(0, 3000), slice(3000, None)
    ours = ours_class(max_bins=255, random_state=seed).fit(X[train], y[train])
    theirs = theirs_class(**hist_settings(), random_state=seed).fit(X[train], y[train])
    assert ours.score(X[test], y[test]) == pytest.approx(theirs.score(X[test], y[test]), abs=within)
