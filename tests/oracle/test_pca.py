"""PCA (notes 004, Algorithm 37): explained variance and components against scikit-learn, the notes' rule
for choosing K by explained variance, the redundant-information example, round trips and errors."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_digits, load_iris, load_wine
from sklearn.decomposition import PCA as SKPCA

from pellucid import from_dict
from pellucid.core.errors import DataError, NotFittedError
from pellucid.learners.projection.pca import PCA

DATA = {"iris": load_iris().data, "wine": load_wine().data, "digits": load_digits().data}


def _distinct_components(values, keep):
    """Components whose eigenvalue is well separated from its neighbours (others are not unique)."""
    gaps = np.abs(np.diff(values)) / values[0]
    ok = np.ones(len(values), bool)
    ok[:-1] &= gaps > 1e-6
    ok[1:] &= gaps > 1e-6
    return np.flatnonzero(ok & (values > 1e-9 * values[0]))[:keep]


@pytest.mark.parametrize("name", ["iris", "wine", "digits"])
def test_equals_sklearn(name):
    X = DATA[name]
    ours, theirs = PCA().fit(X), SKPCA().fit(X)
    np.testing.assert_allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_,
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.explained_variance_, theirs.explained_variance_,
                               rtol=1e-9, atol=1e-9 * theirs.explained_variance_[0])
    np.testing.assert_allclose(ours.mean_, theirs.mean_, rtol=1e-12)
    rows = _distinct_components(theirs.explained_variance_, 20)
    signs = np.sign(np.sum(ours.components_[rows] * theirs.components_[rows], axis=1))
    assert np.all(signs != 0)
    np.testing.assert_allclose(ours.components_[rows], signs[:, None] * theirs.components_[rows], atol=1e-8)
    # with the same sign rule (largest |entry| positive) the signs agree outright
    np.testing.assert_allclose(ours.components_[rows], theirs.components_[rows], atol=1e-8)
    scale = np.abs(theirs.transform(X)).max()
    np.testing.assert_allclose(ours.transform(X)[:, rows], theirs.transform(X)[:, rows], atol=1e-8 * scale)


@pytest.mark.parametrize("name", ["iris", "wine", "digits"])
def test_variance_rule_keeps_fewest_components(name):
    X = DATA[name]
    model = PCA(n_components=0.9).fit(X)
    assert model.n_components_ == SKPCA(n_components=0.9, svd_solver="full").fit(X).n_components_
    ratios = PCA().fit(X).explained_variance_ratio_
    k = model.n_components_
    assert ratios[:k].sum() >= 0.9 > ratios[:k - 1].sum()
    nearly_all = PCA(n_components=1 - 1e-13).fit(X)
    assert nearly_all.explained_variance_ratio_.sum() == pytest.approx(1.0, abs=1e-12)
    if name != "digits":  # digits has constant pixels: its last eigenvalues are 0 and are not needed
        assert nearly_all.n_components_ == min(X.shape)


def test_eigenvalues_add_up_to_the_trace():
    # the notes: tr(C) = sum of the eigenvalues, which is why the ratio is a fraction of the variance
    X = DATA["wine"]
    model = PCA().fit(X)
    assert model.explained_variance_.sum() == pytest.approx(np.trace(np.cov(X.T)), rel=1e-12)
    assert model.explained_variance_ratio_.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(np.diff(model.explained_variance_) <= 0)


def test_redundant_information_example():
    # The notes' example: (2,1) = 1*(2,1) and (4,2) = 2*(2,1): points on one line need one component.
    X = np.array([[2.0, 1.0], [4.0, 2.0], [6.0, 3.0]])
    model = PCA(trace=True).fit(X)
    np.testing.assert_allclose(model.explained_variance_ratio_, [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(model.components_[0], np.array([2.0, 1.0]) / np.sqrt(5), atol=1e-12)
    np.testing.assert_allclose(model.transform(X)[:, 0], [-np.sqrt(5), 0.0, np.sqrt(5)], atol=1e-12)
    assert PCA(n_components=0.9).fit(X).n_components_ == 1
    steps = [t["step"] for t in model.trace_]
    assert steps == ["mean", "covariance", "eigen", "choose"]
    np.testing.assert_allclose(model.trace_[1]["matrix"], np.cov(X.T), atol=1e-12)
    json.dumps(model.trace_)


def test_wide_data_uses_the_thin_svd():
    X = DATA["digits"][:30]  # fewer rows than columns
    ours, theirs = PCA().fit(X), SKPCA().fit(X)
    assert ours.components_.shape == (30, 64)
    np.testing.assert_allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_, atol=1e-12)
    np.testing.assert_allclose(ours.inverse_transform(ours.transform(X)), X, atol=1e-9)


def test_round_trip_and_categorical_columns():
    X = [[1.0, "a"], [2.0, "b"], [3.0, "a"], [5.0, "b"]]
    model = PCA(n_components=2).fit(X)
    assert model.components_.shape == (2, 3)  # x0, x1=a, x1=b
    rebuilt = from_dict(json.loads(json.dumps(model.to_dict())))
    np.testing.assert_allclose(rebuilt.transform(X), model.transform(X), atol=0)
    assert model.score(X) == pytest.approx(1.0)  # rank 2 after centring: nothing lost


def test_errors():
    X = DATA["iris"]
    with pytest.raises(DataError, match="at most min"):
        PCA(n_components=5).fit(X)
    with pytest.raises(DataError, match="whole number of components or a fraction below 1"):
        PCA(n_components=1.5).fit(X)
    with pytest.raises(DataError, match="at least 2 rows"):
        PCA().fit(X[:1])
    with pytest.raises(DataError, match=r"shape \(n, 2\)"):
        PCA(n_components=2).fit(X).inverse_transform(np.zeros((3, 4)))
    with pytest.raises(NotFittedError):
        PCA().transform(X)


@settings(max_examples=50, deadline=None)
@given(arrays(float, st.tuples(st.integers(2, 30), st.integers(1, 6)),
              elements=st.floats(-1e3, 1e3, allow_nan=False)))
def test_inverse_transform_undoes_transform_with_all_components(X):
    model = PCA().fit(X)
    scale = max(1.0, float(np.abs(X).max()))
    np.testing.assert_allclose(model.inverse_transform(model.transform(X)), X, atol=1e-9 * scale)
