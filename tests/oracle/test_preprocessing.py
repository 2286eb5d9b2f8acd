"""The preprocessing transformers against their scikit-learn namesakes on the same rows: imputation
(mean, median, most frequent), standardisation (population std, constant columns kept at scale 1) and
one-hot encoding (unseen categories as zeros); the chain and the pipeline fit on the rows they are given."""

import json

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import impute as sk_impute, preprocessing as sk_pre

from pellucid import DataError, KNeighborsClassifier, Table, cross_validate
from pellucid.preprocessing import OneHotEncoder, Pipeline, Preprocessor, SimpleImputer, StandardScaler


def messy_table(n=500, seed=0):
    """Columns on scales from 0.01 to 10,000, a constant one, text with repeats, and gaps of both kinds."""
    rng = np.random.default_rng(seed)
    small, large = rng.normal(0.5, 0.01, n), rng.normal(20_000, 10_000, n)
    small[rng.random(n) < 0.1] = np.nan
    large[rng.random(n) < 0.05] = np.nan
    city = rng.choice(["Oslo", "Bergen", "Tromsø", "Ålesund"], n, p=[0.4, 0.3, 0.2, 0.1]).astype(object)
    city[rng.random(n) < 0.08] = None
    return Table({"small": small, "large": large, "flat": np.full(n, 7.0), "city": city})


def numeric_matrix(table, names):
    return np.column_stack([table.column(name).astype(float) for name in names])  # (n, d)


@pytest.mark.parametrize("strategy", ["mean", "median", "most_frequent"])
def test_imputer_matches_simple_imputer_on_the_training_rows(strategy):
    table = messy_table()
    train, rest = table.take(np.arange(300)), table.take(np.arange(300, 500))
    ours = SimpleImputer(strategy).fit(train)
    names = ["small", "large", "flat"]
    theirs = sk_impute.SimpleImputer(strategy=strategy).fit(numeric_matrix(train, names))
    np.testing.assert_allclose([ours.statistics_[n] for n in names], theirs.statistics_)
    np.testing.assert_allclose(numeric_matrix(ours.transform(rest), names),
                               theirs.transform(numeric_matrix(rest, names)))
    text = np.array([np.nan if v is None else v for v in train.column("city")], dtype=object)[:, None]
    most = sk_impute.SimpleImputer(strategy="most_frequent").fit(text).statistics_[0]
    assert ours.statistics_["city"] == most  # a categorical column always takes its most frequent value
    assert None not in ours.transform(rest).column("city").tolist()


def test_imputer_refuses_a_column_without_values_in_the_training_rows():
    table = Table({"a": [np.nan, np.nan, 1.0], "b": [1.0, 2.0, 3.0]})
    with pytest.raises(DataError, match="'a' has no values at all"):
        SimpleImputer().fit(table.take([0, 1]))


def test_scaler_matches_standard_scaler_with_a_constant_column():
    table = SimpleImputer().fit_transform(messy_table())
    train, rest = table.take(np.arange(350)), table.take(np.arange(350, 500))
    names = ["small", "large", "flat"]
    ours = StandardScaler().fit(train)
    theirs = sk_pre.StandardScaler().fit(numeric_matrix(train, names))
    np.testing.assert_allclose([ours.mean_[n] for n in names], theirs.mean_)
    np.testing.assert_allclose([ours.scale_[n] for n in names], theirs.scale_)
    assert ours.scale_["flat"] == 1.0 and "city" not in ours.mean_  # text passes through
    np.testing.assert_allclose(numeric_matrix(ours.transform(rest), names),
                               theirs.transform(numeric_matrix(rest, names)), atol=1e-12)
    back = ours.inverse_transform(ours.transform(rest))
    np.testing.assert_allclose(numeric_matrix(back, names), numeric_matrix(rest, names))


def test_scaler_on_an_array_gives_an_array():
    X = np.array([[1.0, 100.0], [3.0, 300.0], [5.0, 200.0]])
    np.testing.assert_allclose(StandardScaler().fit_transform(X), sk_pre.StandardScaler().fit_transform(X))


def test_one_hot_matches_one_hot_encoder_with_unseen_categories_as_zeros():
    table = SimpleImputer().fit_transform(messy_table())
    train = table.take(np.arange(200))
    rest = Table({"small": [0.5, 0.6], "large": [1.0, 2.0], "flat": [7.0, 7.0], "city": ["Oslo", "Paris"]})
    ours = OneHotEncoder().fit(train)
    theirs = sk_pre.OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(
        np.array(train.column("city").tolist(), dtype=object)[:, None])
    assert ours.categories_["city"] == theirs.categories_[0].tolist()
    encoded = ours.transform(rest)
    dummies = [f"city={c}" for c in ours.categories_["city"]]
    assert encoded.columns == ["small", "large", "flat", *dummies] == ours.get_feature_names_out()
    np.testing.assert_array_equal(numeric_matrix(encoded, dummies),
                                  theirs.transform(np.array([["Oslo"], ["Paris"]], dtype=object)))
    assert numeric_matrix(encoded, dummies)[1].sum() == 0  # Paris was never seen


def test_chain_imputes_then_standardises_and_round_trips_as_json():
    table = messy_table()
    train = table.take(np.arange(300))
    prep = Preprocessor(impute="median", standardize=True).fit(train)
    names = ["small", "large", "flat"]
    filled = sk_impute.SimpleImputer(strategy="median").fit(numeric_matrix(train, names))
    scaled = sk_pre.StandardScaler().fit(filled.transform(numeric_matrix(train, names)))
    expected = scaled.transform(filled.transform(numeric_matrix(table, names)))
    np.testing.assert_allclose(numeric_matrix(prep.transform(table), names), expected, atol=1e-12)
    again = Preprocessor.from_dict(prep.to_dict())
    np.testing.assert_array_equal(numeric_matrix(again.transform(table), names),
                                  numeric_matrix(prep.transform(table), names))
    with pytest.raises(DataError, match="damaged"):
        Preprocessor.from_dict({"impute": "mean"})


def test_chain_with_one_hot_survives_a_json_round_trip():
    table = messy_table()
    encoded = Preprocessor(impute="most_frequent", standardize=True, one_hot=True).fit(table.take(np.arange(300)))
    again = Preprocessor.from_dict(json.loads(json.dumps(encoded.to_dict())))
    out, back = encoded.transform(table), again.transform(table)
    assert out.columns == back.columns and "city=Oslo" in out.columns and "city" not in out.columns
    np.testing.assert_array_equal(numeric_matrix(out, out.columns), numeric_matrix(back, back.columns))


def test_pipeline_refits_its_preparation_inside_each_fold():
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.normal(0, 0.01, 300), rng.normal(0, 10_000, 300)])  # (300, 2)
    y = np.where(X[:, 0] / 0.01 + X[:, 1] / 10_000 > 0, "a", "b")
    scaled = cross_validate(Pipeline(Preprocessor(standardize=True), KNeighborsClassifier()), X, y, k=5)
    raw = cross_validate(KNeighborsClassifier(), X, y, k=5)
    assert scaled["scoring"] == "accuracy" and scaled["mean"] > raw["mean"] + 0.1
