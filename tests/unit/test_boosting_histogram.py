"""Gradient boosting's histogram path (max_bins) against its exact path: on tables whose features have at
most max_bins distinct values the bins hold one value each, so every round grows the same trees (features,
thresholds, node values, where missing values go) and the model answers the same, with or without missing
values; with more values the thresholds are bin edges. The bins themselves, and what the path refuses,
naming the problem."""

import json

import numpy as np
import pytest

import pellucid
from pellucid import DataError, GradientBoostingClassifier, GradientBoostingRegressor
from pellucid.learners.ensemble.binning import Bins, FeatureBins
from pellucid.learners.ensemble.histogram_growth import BinnedRows, route
from pellucid.learners.tree.structure import ALL_PRESENT

SEEDS = range(3)


def few_values(seed, n=400, d=5, gaps=False):
    """X of a few repeated values per feature (at most 40), a regression target, labels of 2 and 3 classes;
    with gaps, a tenth of the values missing and, in feature 3, every value above 1 (the gaps tell)."""
    rng = np.random.default_rng(seed)
    levels = rng.integers(2, 40, size=d)
    X = np.column_stack([rng.integers(0, k, size=n) * 0.37 - 3 for k in levels]).astype(float)
    target = X[:, 0] - np.abs(X[:, 1]) + 0.5 * X[:, 2] * (X[:, 3] > 0) + 0.5 * rng.normal(size=n)
    if gaps:
        X[rng.random(X.shape) < 0.1] = np.nan
        X[X[:, 3] > 1, 3] = np.nan
    return X, target, (target > 0).astype(int), np.digitize(target, np.quantile(target, [0.3, 0.7]))


def same_trees(exact, binned):
    """Every tree of both models the same: the tests, the children, the node values to 1e-12."""
    assert exact.estimators_.shape == binned.estimators_.shape
    for a, b in zip(exact.estimators_.ravel(), binned.estimators_.ravel()):
        A, B = a.tree_, b.tree_
        np.testing.assert_array_equal(A.feature, B.feature)
        np.testing.assert_array_equal(A.child_start, B.child_start)
        np.testing.assert_array_equal(A.gap_nodes, B.gap_nodes)
        np.testing.assert_array_equal(A.missing_left, B.missing_left)
        np.testing.assert_allclose(A.threshold, B.threshold, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(A.samples, B.samples)
        np.testing.assert_allclose(a.predict_at(np.arange(A.node_count)), b.predict_at(np.arange(B.node_count)),
                                   rtol=0, atol=1e-12)


SETTINGS = [{}, {"subsample": 0.6}, {"max_features": 2, "subsample": 0.8}, {"min_samples_leaf": 7, "max_depth": 4},
            {"max_leaf_nodes": 5, "max_depth": None}, {"min_weight_fraction_leaf": 0.05, "min_samples_split": 30}]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("task", ["binary", "three classes", "regression"])
@pytest.mark.parametrize("gaps", [False, True])
def test_few_values_grow_the_exact_trees(seed, settings, task, gaps):
    X, target, binary, three = few_values(seed, gaps=gaps)
    cls, y = {"binary": (GradientBoostingClassifier, binary), "three classes": (GradientBoostingClassifier, three),
              "regression": (GradientBoostingRegressor, target)}[task]
    common = dict(n_estimators=8, random_state=seed, **settings)
    exact, binned = cls(**common).fit(X, y), cls(**common, max_bins=64).fit(X, y)
    same_trees(exact, binned)
    answer = "decision_function" if task != "regression" else "predict"
    np.testing.assert_allclose(getattr(binned, answer)(X), getattr(exact, answer)(X), rtol=0, atol=1e-10)
    np.testing.assert_allclose(binned.train_score_, exact.train_score_, rtol=1e-12, atol=1e-12)
    if "subsample" in settings:
        np.testing.assert_allclose(binned.oob_improvement_, exact.oob_improvement_, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_sample_weights_grow_the_exact_trees(seed):
    X, _, binary, _ = few_values(seed)
    weights = np.random.default_rng(seed).integers(0, 4, size=len(X)).astype(float)
    common = dict(n_estimators=10, random_state=seed, subsample=0.7)
    exact = GradientBoostingClassifier(**common).fit(X, binary, sample_weight=weights)
    binned = GradientBoostingClassifier(**common, max_bins=255).fit(X, binary, sample_weight=weights)
    same_trees(exact, binned)


def test_many_values_split_at_bin_edges_and_route_every_row_as_predict_does():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 3))
    y = X[:, 0] + np.sin(2 * X[:, 1]) + 0.1 * rng.normal(size=2000)
    X[rng.random(X.shape) < 0.05] = np.nan
    model = GradientBoostingRegressor(n_estimators=5, max_bins=16, subsample=0.5).fit(X, y)
    bins = Bins(X, 16)
    data = BinnedRows(bins, bins.transform(X))
    for tree in model.estimators_.ravel():
        inner = tree.tree_.feature >= 0
        for f, t in zip(tree.tree_.feature[inner], tree.tree_.threshold[inner]):
            assert t in bins.features[f].edges or t == ALL_PRESENT
        np.testing.assert_array_equal(route(tree.tree_, data), tree.apply(X))


def test_a_feature_of_few_values_gets_one_bin_per_value_with_midway_edges():
    feature = FeatureBins(np.array([3.0, 1.0, 2.0, 3.0, 1.0]), max_bins=3)
    np.testing.assert_array_equal(feature.edges, [1.5, 2.5])
    np.testing.assert_array_equal(feature.bin_of(np.array([1.0, 2.0, 3.0, 2.5, 9.0, np.nan]), 3), [0, 1, 2, 1, 2, 3])


def test_a_feature_of_many_values_gets_bins_of_about_equal_size():
    column = np.random.default_rng(1).exponential(size=10_000)
    feature = FeatureBins(column, max_bins=10)
    assert feature.values is None and feature.n_bins == 10
    sizes = np.bincount(feature.bin_of(column, 10), minlength=10)
    np.testing.assert_array_equal(sizes, np.full(10, 1000))


def test_the_model_file_of_a_binned_model_answers_the_same():
    X, _, _, three = few_values(1)
    rng = np.random.default_rng(1)
    X = X + rng.normal(size=X.shape)  # continuous: the thresholds are bin edges
    model = GradientBoostingClassifier(n_estimators=5, max_bins=32).fit(X, three)
    back = pellucid.from_dict(json.loads(json.dumps(model.to_dict())))
    assert back.max_bins == 32
    np.testing.assert_allclose(back.predict_proba(X), model.predict_proba(X), rtol=0, atol=1e-12)


def test_categorical_columns_are_refused_naming_the_problem():
    X, target, _, _ = few_values(0)
    table = np.column_stack([np.array(["red", "blue"] * (len(target) // 2)), target]).astype(object)
    table[:, 1] = target
    with pytest.raises(DataError, match="categorical"):
        GradientBoostingRegressor(max_bins=32).fit(table, target, feature_names=["colour", "x"])


@pytest.mark.parametrize("value", [1, 256, 2.5, "many"])
def test_max_bins_out_of_range_is_refused_naming_it(value):
    X, target, _, _ = few_values(0)
    with pytest.raises(DataError, match="max_bins"):
        GradientBoostingRegressor(max_bins=value).fit(X, target)


def test_a_level_too_wide_for_its_histograms_is_refused_naming_max_bins(monkeypatch):
    """A deep tree on many rows would hold a histogram of every feature's bins for thousands of nodes at
    once: past the budget, a DataError that names max_bins and says what to change."""
    from pellucid.learners.ensemble import histogram_growth
    monkeypatch.setattr(histogram_growth, "HISTOGRAM_BYTES", 1024 ** 2)  # 1 MB: a 2,000-row deep tree passes it
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(2000, 5)), rng.normal(size=2000)
    with pytest.raises(DataError, match="set max_depth") as caught:
        GradientBoostingRegressor(n_estimators=1, max_depth=None, max_bins=255).fit(X, y)
    assert caught.value.field == "params.max_bins"
    shallow = GradientBoostingRegressor(n_estimators=1, max_depth=3, max_bins=255).fit(X, y)  # 8 nodes a level
    assert shallow.estimators_[0, 0].tree_.depth.max() == 3
