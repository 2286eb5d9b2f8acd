"""Naive Bayes: the notes' Laplace estimates and worked example, scikit-learn as an oracle, zero probabilities."""

import json
import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import naive_bayes as sknb
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.model_selection import StratifiedKFold

from pellucid import from_dict
from pellucid.core import serialize
from pellucid.core.errors import DataError, NotFittedError
from pellucid.learners.naive_bayes.discrete import BernoulliNB, CategoricalNB, MultinomialNB, laplace_estimate
from pellucid.learners.naive_bayes.gaussian import GaussianNB


@pytest.fixture(autouse=True)
def no_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # log 0 and 0/0 must not warn
        yield


# --- notes 000: MLE and Laplace smoothing of strength k ---------------------------------------------

@pytest.mark.parametrize("k, expected", [(0, [2 / 3, 1 / 3]), (1, [3 / 5, 2 / 5]), (100, [102 / 203, 101 / 203])])
def test_laplace_estimate_on_the_red_red_blue_sample(k, expected):
    # Notes 000: draws red, red, blue; P_MLE(red) = 2/3 and P_LAP,k(x) = (count(x) + k) / (N + k|X|).
    assert np.allclose(laplace_estimate([2, 1], 3, k, 2), expected, rtol=0, atol=1e-15)


def test_laplace_estimate_tends_to_uniform_as_k_grows():
    assert np.allclose(laplace_estimate([2, 1, 0], 3, 1e12, 3), 1 / 3, atol=1e-9)


@pytest.mark.parametrize("k", [0, 1, 100])
def test_categorical_tables_use_the_laplace_estimate(k):
    X = [["red"], ["red"], ["blue"], ["blue"], ["green"]]
    y = ["a", "a", "a", "b", "b"]
    model = CategoricalNB(alpha=k).fit(X, y)
    assert list(model.categories_[0]) == ["blue", "green", "red"]
    assert model.counts_[0].tolist() == [[1, 0, 2], [1, 1, 0]]
    # Class a: N = 3, |X| = 3 categories -> (count + k) / (3 + 3k).
    expected = (np.array([1, 0, 2]) + k) / (3 + 3 * k)
    assert np.allclose(np.exp(model.feature_log_prob_[0][0]), expected)


def test_mle_zero_probability_never_predicts_that_class():
    # Notes 000's "minute" example: the word appears only in spam, so with k = 0 P(minute | ham) = 0.
    X = np.array([[1, 1], [1, 0], [0, 1], [0, 1], [0, 0]])  # columns: minute, free
    y = np.array(["spam", "spam", "ham", "ham", "ham"])
    mle = BernoulliNB(alpha=0, binarize=None).fit(X, y)
    assert np.exp(mle.feature_log_prob_[0, 0]) == 0.0  # classes_ = [ham, spam]
    proba = mle.predict_proba([[1, 1]])
    assert proba[0, 0] == 0.0 and proba[0, 1] == 1.0
    assert mle.predict([[1, 1]])[0] == "spam"
    smoothed = BernoulliNB(alpha=1, binarize=None).fit(X, y)
    assert 0 < smoothed.predict_proba([[1, 1]])[0, 0] < 1


def test_every_class_impossible_still_gives_probabilities():
    # With k = 0 a row can get probability 0 in every class; the classes with the fewest zero terms
    # are then compared on the rest, without NaN.
    X = np.array([[1, 0, 0], [1, 0, 1], [0, 1, 0], [0, 1, 1]])
    y = np.array([0, 0, 1, 1])
    model = BernoulliNB(alpha=0, binarize=None).fit(X, y)
    proba = model.predict_proba([[1, 1, 1], [0, 0, 1]])
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1)
    explained = model.explain([1, 1, 1])
    json.dumps(explained, allow_nan=False)
    assert explained["total"] == ["-inf", "-inf"] and explained["all_classes_impossible"]
    # [1, 1, 1]: one zero term in each class; the rest, log(1/2) + log(1/2) vs the same, tie -> class 0.
    assert explained["prediction"] == 0 and np.allclose(proba[0], [0.5, 0.5])


# --- notes 001: the Star Wars / Harry Potter / Lord of the Rings example -----------------------------

def _seed001_data():
    # Notes 001's 30 examples, rebuilt from its count tables (rows Y, columns X = 0, 1):
    # X1: Y=0 -> 3, 10; Y=1 -> 4, 13.  X2: Y=0 -> 5, 8; Y=1 -> 7, 10.  Y: 13, 17.
    rows = []
    for label, x1_counts, x2_counts in [(0, (3, 10), (5, 8)), (1, (4, 13), (7, 10))]:
        x1 = [0] * x1_counts[0] + [1] * x1_counts[1]
        x2 = [0] * x2_counts[0] + [1] * x2_counts[1]
        rows += [(a, b, label) for a, b in zip(x1, x2)]
    data = np.array(rows)
    return data[:, :2], data[:, 2]


def test_seed001_count_tables_and_mle_estimates():
    X, y = _seed001_data()
    model = BernoulliNB(alpha=0, binarize=None).fit(X, y)
    assert model.counts_[:, 0, :].tolist() == [[3, 10], [4, 13]]
    assert model.counts_[:, 1, :].tolist() == [[5, 8], [7, 10]]
    assert model.class_count_.tolist() == [13, 17]
    # The seed's published MLE column: P(Y) = 0.43, 0.57 and the joint estimates count / 30.
    assert np.round(np.exp(model.class_log_prior_), 2).tolist() == [0.43, 0.57]
    joint = model.counts_ / 30
    assert np.round(joint[:, 0, :], 2).tolist() == [[0.10, 0.33], [0.13, 0.43]]
    assert np.round(joint[:, 1, :], 2).tolist() == [[0.17, 0.27], [0.23, 0.33]]
    # Conditional MLE P(X1 = 1 | Y = 0) = 10 / 13.
    assert np.isclose(np.exp(model.feature_log_prob_[0, 0]), 10 / 13)


@pytest.mark.parametrize("k", [0, 1])
def test_seed001_prediction_for_a_star_wars_fan_who_dislikes_harry_potter(k):
    X, y = _seed001_data()
    model = BernoulliNB(alpha=k, binarize=None).fit(X, y)

    def p(count, n):  # notes 001: MLE count / n, Laplace MAP (count + 1) / (n + 2)
        return (count + k) / (n + 2 * k)

    joint = np.array([13 / 30 * p(10, 13) * p(5, 13), 17 / 30 * p(13, 17) * p(7, 17)])
    assert np.allclose(model.predict_proba([[1, 0]])[0], joint / joint.sum(), rtol=1e-12)
    assert model.predict([[1, 0]])[0] == 1


# --- scikit-learn as an oracle ----------------------------------------------------------------------

@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
def test_gaussian_matches_sklearn(loader):
    X, y = loader(return_X_y=True)
    ours = GaussianNB().fit(X, y)
    theirs = sknb.GaussianNB().fit(X, y)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-8)
    assert np.array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("k", [1.0, 0.5, 0.01])
@pytest.mark.parametrize("threshold", [0.0, 7.5])
def test_bernoulli_matches_sklearn_on_binarised_digits(k, threshold):
    X, y = load_digits(return_X_y=True)
    ours = BernoulliNB(alpha=k, binarize=threshold).fit(X, y)
    theirs = sknb.BernoulliNB(alpha=k, binarize=threshold).fit(X, y)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-8)
    assert np.allclose(ours.feature_log_prob_, theirs.feature_log_prob_)


@pytest.mark.parametrize("k", [1.0, 0.5, 0.01])
def test_multinomial_matches_sklearn_on_digit_counts(k):
    X, y = load_digits(return_X_y=True)
    ours = MultinomialNB(alpha=k).fit(X, y)
    theirs = sknb.MultinomialNB(alpha=k).fit(X, y)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-8)
    assert np.array_equal(ours.counts_, theirs.feature_count_)


def _binned_wine():
    X, y = load_wine(return_X_y=True)
    edges = np.quantile(X, [0.25, 0.5, 0.75], axis=0)  # (3, d)
    codes = (X[None, :, :] > edges[:, None, :]).sum(axis=0)  # (n, d) in 0..3
    names = np.array(["low", "mid", "high", "top"])
    return names[codes].astype(object), codes, y


@pytest.mark.parametrize("k", [1.0, 0.5])
def test_categorical_matches_sklearn_on_binned_wine(k):
    X_text, codes, y = _binned_wine()
    ours = CategoricalNB(alpha=k).fit(X_text, y)
    # scikit-learn wants ordinal codes; ours sorts category names, so map them the same way.
    ordinal = np.column_stack([np.searchsorted(c, X_text[:, j]) for j, c in enumerate(ours.categories_)])
    theirs = sknb.CategoricalNB(alpha=k).fit(ordinal, y)
    assert np.allclose(ours.predict_proba(X_text), theirs.predict_proba(ordinal), rtol=0, atol=1e-8)


def test_gaussian_cross_validation_equals_sklearn():
    for loader in (load_iris, load_wine, load_breast_cancer):
        X, y = loader(return_X_y=True)
        ours, theirs = [], []
        for train, test in StratifiedKFold(10, shuffle=True, random_state=0).split(X, y):
            ours.append(GaussianNB().fit(X[train], y[train]).score(X[test], y[test]))
            theirs.append(sknb.GaussianNB().fit(X[train], y[train]).score(X[test], y[test]))
        assert np.mean(ours) == pytest.approx(np.mean(theirs), abs=1e-12)


# --- unseen categories, explain, trace, round trips -------------------------------------------------

def test_unseen_category_is_smoothed_or_ignored():
    X = [["red", "s"], ["red", "m"], ["blue", "m"], ["blue", "l"]]
    y = ["a", "a", "b", "b"]
    smoothed = CategoricalNB(alpha=1).fit(X, y)
    terms = smoothed.explain(["purple", "m"])["terms"]
    # k / (N_y + k |X|) = 1 / (2 + 2) in both classes.
    assert np.allclose(terms[1]["log_prob"], np.log(1 / 4))
    mle = CategoricalNB(alpha=0).fit(X, y)
    explained = mle.explain(["purple", "m"])
    assert explained["terms"][1]["ignored"] is True
    proba = mle.predict_proba([["purple", "m"]])
    assert np.allclose(proba, [[0.5, 0.5]])  # only the shared "m" counts, and it is 1/2 in both


def test_numeric_categories_and_values_never_seen():
    X = np.array([[1.0], [3.0], [7.0], [3.0]])
    model = CategoricalNB(alpha=1).fit(X, [0, 0, 1, 1])
    assert model.categories_[0].tolist() == [1.0, 3.0, 7.0]
    unseen = np.log(1 / (2 + 3))  # k / (N_y + k |X|) with N_y = 2, |X| = 3
    for value in (2.0, 5.5, 10.0, -3.0):
        assert np.allclose(model.explain([value])["terms"][1]["log_prob"], unseen)
    assert np.allclose(model.explain([7.0])["terms"][1]["log_prob"], np.log([1 / 5, 2 / 5]))


def test_explain_adds_up_term_by_term():
    X, y = load_iris(return_X_y=True)
    for model in (GaussianNB().fit(X, y), BernoulliNB(binarize=3.0).fit(X, y), MultinomialNB().fit(X, y)):
        explained = model.explain(X[60])
        json.dumps(explained, allow_nan=False)
        assert [t["term"] for t in explained["terms"]][:2] == ["prior", f"x0 = {X[60, 0]}"]
        total = np.sum([t["log_prob"] for t in explained["terms"]], axis=0)
        assert np.allclose(explained["total"], total)
        assert np.allclose(explained["log_proba"], model.predict_log_proba(X[60:61])[0])
        assert explained["prediction"] == model.predict(X[60:61])[0]


def test_explain_accepts_a_dict_by_feature_name():
    X, y = load_iris(return_X_y=True)
    names = ["sl", "sw", "pl", "pw"]
    model = GaussianNB().fit(X, y, feature_names=names)
    assert model.explain(dict(zip(names, X[0]))) == model.explain(list(X[0]))


def test_trace_records_counts_and_smoothed_estimates():
    X, y = _seed001_data()
    model = BernoulliNB(alpha=1, binarize=None, trace=True).fit(X, y)
    json.dumps(model.trace_, allow_nan=False)
    prior, first = model.trace_[0], model.trace_[1]
    assert prior["step"] == "prior" and prior["class_count"] == [13, 17]
    assert first["counts"] == [[3, 10], [4, 13]] and first["k"] == 1.0 and first["n_values"] == 2
    assert np.allclose(first["estimates"], [[4 / 15, 11 / 15], [5 / 19, 14 / 19]])
    cat = CategoricalNB(alpha=0, trace=True).fit([["a"], ["b"], ["a"]], [0, 1, 1])
    assert cat.trace_[1]["log_estimates"][0] == [0.0, "-inf"]


@pytest.mark.parametrize("model, data", [
    (GaussianNB(), "iris"), (BernoulliNB(alpha=0, binarize=3.0), "iris"), (MultinomialNB(alpha=0), "iris"),
    (CategoricalNB(alpha=0), "wine"), (CategoricalNB(alpha=2), "wine"),
])
def test_round_trip_predicts_identically(model, data):
    if data == "iris":
        X, y = load_iris(return_X_y=True)
        y = np.array(["setosa", "versicolor", "virginica"])[y]
    else:
        X, _, y = _binned_wine()
    model.fit(X, y)
    rebuilt = from_dict(json.loads(json.dumps(model.to_dict())))
    assert np.array_equal(rebuilt.predict_proba(X), model.predict_proba(X))
    assert list(rebuilt.predict(X)) == list(model.predict(X))


def test_categorical_model_file_keeps_counts_and_reads_back_older_files():
    """A numeric column's distinct values are its categories: thousands of them. The file keeps the counts
    (whole numbers, in the smallest unsigned type) and not the estimates they give, and predicts identically;
    a file written with the estimates in it (before) reads back the same."""
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(6000, 3)), 3)  # about 2,500 distinct values a column
    y = np.where(X[:, 0] + rng.normal(size=6000) > 0, "yes", "no")
    model = CategoricalNB(alpha=0.5).fit(X, y)
    d = json.loads(json.dumps(model.to_dict()))
    assert "log_prob_" not in d["state"]
    assert {table["dtype"] for table in d["state"]["counts_"]} == {"uint8"}  # no value seen 256 times
    rebuilt = from_dict(d)
    assert np.array_equal(rebuilt.predict_proba(X), model.predict_proba(X))
    assert all(np.array_equal(a, b) for a, b in zip(rebuilt.log_prob_, model.log_prob_))
    older = dict(d, state=dict(d["state"], counts_=serialize.encode(model.counts_),
                               log_prob_=serialize.encode(model.log_prob_)))
    assert np.array_equal(from_dict(older).predict_proba(X), model.predict_proba(X))
    damaged = dict(d, state={k: v for k, v in d["state"].items() if k != "counts_"})
    with pytest.raises(DataError, match="damaged"):
        from_dict(damaged)


# --- errors -----------------------------------------------------------------------------------------

def test_negative_counts_are_refused_with_column_and_row():
    X = np.array([[1, 2], [3, -1], [0, 0]])
    with pytest.raises(DataError, match=r"column 'x1'.*row 2"):
        MultinomialNB().fit(X, [0, 1, 0])


def test_non_binary_features_need_a_threshold():
    with pytest.raises(DataError, match=r"column 'x0' holds 2 at row 1.*binarize"):
        BernoulliNB(binarize=None).fit([[2], [0]], [0, 1])


def test_text_columns_need_categorical_nb():
    with pytest.raises(DataError, match="'colour' holds text"):
        GaussianNB().fit([["red", 1.0], ["blue", 2.0]], [0, 1], feature_names=["colour", "size"])


def test_bad_parameters_and_unfitted_use():
    with pytest.raises(DataError, match="'alpha'"):
        BernoulliNB(alpha=-1).fit([[0], [1]], [0, 1])
    with pytest.raises(NotFittedError):
        MultinomialNB().predict([[1]])
    with pytest.raises(DataError, match="constant within class"):
        GaussianNB(var_smoothing=0.0).fit([[1.0], [1.0]], [0, 1])
