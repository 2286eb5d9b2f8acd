"""Binning the numeric features once per fit, for the histogram grower (histogram_growth.py).

As scikit-learn's HistGradientBoosting bins them (its max_bins): a feature of at most max_bins distinct
values gets one bin per value, the edges midway between consecutive values (lo / 2 + hi / 2, the
threshold the exact grower places there), so every split the exact grower could make is still on
offer. A feature of more values gets edges at the quantiles k / max_bins of its values (k = 1..max_bins
- 1; the "averaged inverted CDF" quantile: the value of that rank, or midway between two values when
the rank falls between them; equal edges merged), so each bin holds about the same number of rows, as
scikit-learn 1.9 places them (earlier versions took the "midpoint" quantile). A value x falls in bin b
when edge[b - 1] < x <= edge[b]: a test "bin <= b" is the test "x <= edge[b]". scikit-learn bins a
random subsample of 200,000 rows of a larger table; every row is read here.

A missing number (NaN) falls in a bin of its own after every feature's last (`missing_bin`), as
scikit-learn keeps one; the bins are placed from the values present."""

import numpy as np

MAX_BINS = 255  # bins of one feature at most: a bin index fits in one byte


def midpoints(lo, hi):
    """lo / 2 + hi / 2 (no overflow), or lo where rounding would put it outside [lo, hi): the exact
    grower's threshold between two consecutive values."""
    mid = lo / 2.0 + hi / 2.0
    return np.where((mid >= hi) | (mid < lo), lo, mid)


class FeatureBins:
    """One feature's bins: `edges` (b - 1,) ascending, and `values` (b,) the value of each bin when
    every bin holds one distinct value (then the splits are the exact ones), else None."""

    def __init__(self, column, max_bins):
        column = column[~np.isnan(column)]
        distinct = np.unique(column)
        if len(distinct) <= max_bins:
            self.values = distinct
            self.edges = midpoints(distinct[:-1], distinct[1:])
        else:
            self.values = None
            shares = np.linspace(0.0, 100.0, max_bins + 1)[1:-1]
            self.edges = np.unique(np.percentile(column, shares, method="averaged_inverted_cdf"))

    @property
    def n_bins(self):
        return len(self.edges) + 1

    def bin_of(self, column, missing_bin):
        """(n,) the bin of each value, `missing_bin` for a missing one."""
        bins = np.searchsorted(self.edges, column, side="left").astype(np.uint8)
        bins[np.isnan(column)] = missing_bin
        return bins

    def threshold(self, lo_bin, hi_bin):
        """The test value of a split that sends bins <= lo_bin left, when hi_bin is the next bin the
        node's rows fill: midway between the two bins' values when they are exact (the exact grower's
        threshold), else the edge after lo_bin (scikit-learn's)."""
        if self.values is None:
            return self.edges[lo_bin]
        return midpoints(self.values[lo_bin], self.values[hi_bin])

    def last_bin_within(self, threshold):
        """(...,) the last bin whose every value is <= threshold: a row goes left at "x <= threshold"
        exactly when its bin is at most this."""
        if self.values is None:
            return np.searchsorted(self.edges, threshold, side="left")
        return np.searchsorted(self.values, threshold, side="right") - 1


class Bins:
    """The bins of every feature of a training matrix, fitted once per fit."""

    def __init__(self, X, max_bins):
        X = np.asarray(X, dtype=float)
        self.features = [FeatureBins(X[:, j], max_bins) for j in range(X.shape[1])]
        self.missing_bin = int(self.n_bins.max())  # the bin of missing values, after every feature's last

    @property
    def n_bins(self):
        """(d,) how many bins each feature has."""
        return np.array([f.n_bins for f in self.features], dtype=np.intp)

    def transform(self, X):
        """(d, n) uint8: each value's bin, feature by feature (the grower reads one feature at a time)."""
        X = np.asarray(X, dtype=float)
        binned = np.empty((X.shape[1], X.shape[0]), dtype=np.uint8)
        for j, feature in enumerate(self.features):
            binned[j] = feature.bin_of(X[:, j], self.missing_bin)
        return binned
