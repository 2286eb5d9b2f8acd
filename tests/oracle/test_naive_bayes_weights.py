"""Naive Bayes and scikit-learn's contract: row weights, fitting chunk by chunk, the fitted attributes and
sparse count matrices, each against scikit-learn's twin and against the rows repeated."""

import json

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
import scipy.sparse as scipy_sparse  # scikit-learn's own dependency
from sklearn import naive_bayes as sknb
from sklearn.datasets import load_digits, load_iris, load_wine
from sklearn.feature_extraction.text import CountVectorizer

from pellucid import from_dict
from pellucid.core.errors import DataError
from pellucid.learners.naive_bayes.discrete import BernoulliNB, CategoricalNB, MultinomialNB
from pellucid.learners.naive_bayes.gaussian import GaussianNB


def _digits():
    X, y = load_digits(return_X_y=True)
    return X[:600], y[:600]


def _binned_wine():
    """Wine's columns cut at their quartiles into ordinal codes 0..3 (scikit-learn's CategoricalNB reads
    codes; pellucid's sorts the same numbers, so the categories line up)."""
    X, y = load_wine(return_X_y=True)
    edges = np.quantile(X, [0.25, 0.5, 0.75], axis=0)  # (3, d)
    return (X[None, :, :] > edges[:, None, :]).sum(axis=0).astype(float), y


# (pellucid model, its scikit-learn twin, data)
CASES = {
    "gaussian": (lambda: GaussianNB(), lambda: sknb.GaussianNB(), lambda: load_iris(return_X_y=True)),
    "multinomial": (lambda: MultinomialNB(alpha=0.5), lambda: sknb.MultinomialNB(alpha=0.5), _digits),
    "bernoulli": (lambda: BernoulliNB(alpha=0.5, binarize=4.0), lambda: sknb.BernoulliNB(alpha=0.5, binarize=4.0),
                  _digits),
    "categorical": (lambda: CategoricalNB(alpha=1.0), lambda: sknb.CategoricalNB(alpha=1.0), _binned_wine),
}


def _weights(n, seed=0, whole=True):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 4, n).astype(float) if whole else rng.uniform(0, 3, n)


@pytest.mark.parametrize("name", CASES)
def test_whole_weights_count_as_repeated_rows(name):
    make, _, data = CASES[name]
    X, y = data()
    w = _weights(len(y))
    weighted = make().fit(X, y, sample_weight=w)
    repeated = make().fit(np.repeat(X, w.astype(int), axis=0), np.repeat(y, w.astype(int)))
    np.testing.assert_allclose(weighted.class_count_, repeated.class_count_)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), atol=1e-9)
    if name == "gaussian":
        np.testing.assert_allclose(weighted.var_, repeated.var_, rtol=1e-9)
        assert weighted.epsilon_ == pytest.approx(repeated.epsilon_)
    else:
        for a, b in zip(weighted.feature_log_prob_, repeated.feature_log_prob_):
            np.testing.assert_allclose(a, b, atol=1e-12)


@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize("name", CASES)
def test_weights_equal_scikit_learns(name, whole):
    make, make_twin, data = CASES[name]
    X, y = data()
    w = _weights(len(y), seed=1, whole=whole)
    ours, theirs = make().fit(X, y, sample_weight=w), make_twin().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.class_count_, theirs.class_count_)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    np.testing.assert_allclose(ours.predict_log_proba(X), theirs.predict_log_proba(X), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("name", CASES)
def test_chunks_fit_as_the_whole_and_as_scikit_learns_partial_fit(name):
    make, make_twin, data = CASES[name]
    X, y = data()
    w = _weights(len(y), seed=2, whole=False)
    order = np.argsort(y, kind="stable")  # sorted by class: the first chunk lacks some classes
    X, y, w = X[order], y[order], w[order]
    chunks = np.array_split(np.arange(len(y)), 4)
    ours, theirs = make(), make_twin()
    for rows in chunks:
        ours.partial_fit(X[rows], y[rows], classes=np.unique(y), sample_weight=w[rows])
        theirs.partial_fit(X[rows], y[rows], classes=np.unique(y), sample_weight=w[rows])
    whole = make().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.class_count_, whole.class_count_)
    np.testing.assert_allclose(ours.predict_proba(X), whole.predict_proba(X), atol=1e-9)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    if name == "gaussian":
        np.testing.assert_allclose(ours.theta_, theirs.theta_, rtol=1e-9)
        np.testing.assert_allclose(ours.var_, whole.var_, rtol=1e-9)


def test_partial_fit_keeps_a_class_that_has_no_rows_yet_and_saves_it():
    X, y = load_iris(return_X_y=True)
    model = GaussianNB().partial_fit(X[y < 2], y[y < 2], classes=[0, 1, 2])
    assert model.class_count_.tolist() == [50, 50, 0]
    assert model.class_prior_.tolist() == [0.5, 0.5, 0.0]
    assert np.isneginf(model.class_log_prior_[2])
    assert not (model.predict(X) == 2).any()
    copy = from_dict(json.loads(json.dumps(model.to_dict())))
    copy.partial_fit(X[y == 2], y[y == 2])
    whole = GaussianNB().fit(X, y)
    np.testing.assert_allclose(copy.predict_proba(X), whole.predict_proba(X), atol=1e-9)


@pytest.mark.parametrize("name", CASES)
def test_partial_fit_needs_the_classes_first_and_keeps_them(name):
    make, _, data = CASES[name]
    X, y = data()
    with pytest.raises(DataError, match="classes must be passed on the first call"):
        make().partial_fit(X, y)
    model = make().partial_fit(X[y < 2], y[y < 2], classes=[0, 1])
    with pytest.raises(DataError, match=r"holds 2, which is not among the classes \[0, 1\]"):
        model.partial_fit(X[y == 2], y[y == 2])
    with pytest.raises(DataError, match="not the same as on the first call"):
        model.partial_fit(X[y < 2], y[y < 2], classes=[0, 1, 2])


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("weights, message", [
    (lambda n: -np.ones(n), "must not be negative; row 0 weighs -1"),
    (lambda n: np.ones(n - 1), "X has .* rows, sample_weight has shape"),
    (lambda n: np.full(n, np.nan), "must be finite"),
    (lambda n: np.zeros(n), "zero for every row"),
])
def test_bad_weights_are_refused_naming_sample_weight(name, weights, message):
    make, _, data = CASES[name]
    X, y = data()
    with pytest.raises(DataError, match=message):
        make().fit(X, y, sample_weight=weights(len(y)))


def test_fitted_attributes_are_scikit_learns():
    X, y = _binned_wine()
    for ours, theirs in [(GaussianNB().fit(X, y), sknb.GaussianNB().fit(X, y)),
                         (MultinomialNB().fit(X, y), sknb.MultinomialNB().fit(X, y)),
                         (BernoulliNB(binarize=1.5).fit(X, y), sknb.BernoulliNB(binarize=1.5).fit(X, y)),
                         (CategoricalNB().fit(X, y), sknb.CategoricalNB().fit(X, y))]:
        np.testing.assert_array_equal(ours.classes_, theirs.classes_)
        np.testing.assert_allclose(ours.class_count_, theirs.class_count_)
        if hasattr(theirs, "class_prior_"):
            np.testing.assert_allclose(ours.class_prior_, theirs.class_prior_)
        else:
            np.testing.assert_allclose(ours.class_log_prior_, theirs.class_log_prior_)
        for name in ("feature_count_", "feature_log_prob_", "category_count_", "n_categories_", "theta_"):
            if hasattr(theirs, name):
                for a, b in zip(np.atleast_1d(getattr(ours, name)), np.atleast_1d(getattr(theirs, name))):
                    np.testing.assert_allclose(a, b)
        np.testing.assert_allclose(ours.predict_log_proba(X), theirs.predict_log_proba(X), atol=1e-7)


# --- sparse count matrices ---------------------------------------------------------------------------

def _documents(n=400, seed=0):
    """Short texts whose words depend on their class, so the classes can be told apart by counting."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(300)])
    y = rng.integers(0, 3, n)
    texts = [" ".join(rng.choice(words[c * 80:c * 80 + 140], rng.integers(5, 30))) for c in y]
    return texts, y


@pytest.mark.parametrize("make, make_twin", [
    (lambda: MultinomialNB(alpha=0.5), lambda: sknb.MultinomialNB(alpha=0.5)),
    (lambda: BernoulliNB(alpha=0.5), lambda: sknb.BernoulliNB(alpha=0.5)),
])
def test_count_vectorizer_output_is_read_sparse_as_scikit_learn_reads_it(make, make_twin):
    texts, y = _documents()
    X = CountVectorizer().fit_transform(texts)
    w = _weights(len(y), seed=3, whole=False)
    ours, theirs = make().fit(X, y, sample_weight=w), make_twin().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    np.testing.assert_allclose(ours.feature_count_, theirs.feature_count_)
    dense = make().fit(X.toarray(), y, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(X.toarray()), dense.predict_proba(X), atol=1e-12)
    chunked = make()
    for rows in np.array_split(np.arange(len(y)), 3):
        chunked.partial_fit(X[rows], y[rows], classes=[0, 1, 2], sample_weight=w[rows])
    np.testing.assert_allclose(chunked.predict_proba(X), ours.predict_proba(X), atol=1e-9)
    assert X.nnz == CountVectorizer().fit_transform(texts).nnz  # the caller's matrix is not changed


@pytest.mark.parametrize("model", [MultinomialNB(), BernoulliNB()])
def test_a_wide_sparse_matrix_is_never_made_dense(model):
    # 2,000 x 1,000,000 would take 16 GB as a dense float matrix; sparse it is 10,000 numbers.
    rng = np.random.default_rng(0)
    n, d = 2000, 1_000_000
    rows, cols = rng.integers(0, n, 10_000), rng.integers(0, d, 10_000)
    X = scipy_sparse.csr_matrix((np.ones(10_000), (rows, cols)), shape=(n, d))
    y = rng.integers(0, 2, n)
    model.fit(X, y)
    assert model.predict_proba(X[:5]).shape == (5, 2)


def test_sparse_values_are_checked_where_they_are():
    X = scipy_sparse.csr_matrix(np.array([[0, 2.0, 0], [1, 0, -3]]))
    with pytest.raises(DataError, match=r"column 'x2' holds -3 at row 2"):
        MultinomialNB().fit(X, [0, 1])
    with pytest.raises(DataError, match=r"needs 0/1 features.*'x1' holds 2 at row 1"):
        BernoulliNB(binarize=None).fit(abs(X), [0, 1])
    with pytest.raises(DataError, match="binarize=-1"):
        BernoulliNB(binarize=-1.0).fit(abs(X), [0, 1])
    with pytest.raises(DataError, match="sparse"):
        GaussianNB().fit(X, [0, 1])
    with pytest.raises(DataError, match="X has 2 features, but MultinomialNB is expecting 3"):
        MultinomialNB().fit(abs(X), [0, 1]).predict(abs(X)[:, :2])


def test_fractional_weights_survive_the_model_file():
    X, y = _binned_wine()
    w = _weights(len(y), seed=4, whole=False)
    for model in (CategoricalNB(), MultinomialNB(), BernoulliNB(binarize=1.5), GaussianNB()):
        model.fit(X, y, sample_weight=w)
        copy = from_dict(json.loads(json.dumps(model.to_dict())))
        np.testing.assert_allclose(copy.predict_proba(X), model.predict_proba(X), atol=1e-12)
