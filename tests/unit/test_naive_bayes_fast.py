"""Naive Bayes' fast paths give the readable ones' numbers: categorical naive Bayes' log-likelihoods of
all the columns at once (categorical_fast) equal the column-by-column sum to the last bit, on codes with
gaps, values never seen, fractions, one row, constant columns and k = 0 (log 0 kept apart); Gaussian
naive Bayes' spreads summed a block of rows at a time are the per-class two-pass variances; Bernoulli's
0/1 rows kept as bools count and predict as the float 0/1 rows; multinomial's likelihoods count log 0
terms only where an estimate is 0."""

import numpy as np
import pytest

from pellucid import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB
from pellucid.learners.naive_bayes import categorical_fast, estimates


def _codes(rng, n, d, top):
    X = rng.integers(0, top, size=(n, d)).astype(float)
    X[:, 0] = 3.0  # a constant column
    if d > 2:
        X[:, 2] = 10 * rng.integers(0, 4, size=n)  # codes with gaps
    return X


def _both(model, Q):
    """(fast, readable) joint log-likelihoods and predictions of Q."""
    fast = model._joint_log_likelihood(Q), model.predict(Q)
    model.trace = True  # the readable column-by-column sum
    try:
        readable = model._joint_log_likelihood(Q), model.predict(Q)
    finally:
        model.trace = False
    return fast, readable


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("alpha", [1.0, 0.1, 0.0])
def test_categorical_all_columns_at_once_equal_the_column_by_column_sum(seed, alpha, monkeypatch):
    monkeypatch.setattr(categorical_fast, "_BLOCK_CELLS", 5 + seed)  # many blocks
    rng = np.random.default_rng(seed)
    n, d, top = int(rng.integers(1, 300)), int(rng.integers(1, 40)), int(rng.integers(2, 7))
    X = _codes(rng, n, d, top)
    y = rng.integers(0, 3, size=n)
    model = CategoricalNB(alpha=alpha).fit(X, y)
    Q = np.vstack([_codes(rng, 50, d, top + 2), X[:1]])  # values never seen (above the codes, in gaps) too
    Q[0, -1] = 1.5  # a fraction: never a category
    Q[1, -1] = -7.0  # below every code
    for rows in (Q, Q[:1], np.asfortranarray(Q)):
        (jll, pred), (jll_readable, pred_readable) = _both(model, rows)
        assert np.array_equal(jll, jll_readable)
        assert np.array_equal(pred, pred_readable)
    assert np.array_equal(model.predict_proba(Q), CategoricalNB(alpha=alpha).fit(X, y).predict_proba(Q))


def test_categorical_columns_of_other_categories_are_summed_column_by_column():
    """Texts, fractions or wide ranges of codes: the fast path declines, and the answer is the readable one."""
    rng = np.random.default_rng(1)
    wide = np.column_stack([rng.integers(0, 3, 80), rng.choice([0.0, 1000.0], 80)]).astype(float)
    fractions = np.column_stack([rng.integers(0, 3, 80), rng.choice([0.5, 1.5], 80)]).astype(float)
    y = rng.integers(0, 2, size=80)
    for X in (wide, fractions):
        model = CategoricalNB().fit(X, y)
        assert categorical_fast.log_likelihood(model._prepare(X), model.categories_, model.log_prob_,
                                               model.class_count_, model.alpha) is None
        (jll, _), (jll_readable, _) = _both(model, X)
        assert np.array_equal(jll, jll_readable)
    texts = np.array([["a", "b"], ["b", "c"], ["a", "c"]], dtype=object)
    model = CategoricalNB().fit(texts, [0, 1, 0])
    (jll, _), (jll_readable, _) = _both(model, texts)
    assert np.array_equal(jll, jll_readable)


@pytest.mark.parametrize("m, d", [(1, 300), (2, 300), (120, 500), (3000, 25)])
def test_categorical_wide_and_long_tables_at_the_usual_block_size(m, d):
    """m rows predicted: one or two rows of many columns (blocks of one or two rows), many of either."""
    rng = np.random.default_rng(m + d)
    X, y = _codes(rng, 60, d, 5), rng.integers(0, 4, size=60)
    model = CategoricalNB(alpha=0.5).fit(X, y)
    (jll, pred), (jll_readable, pred_readable) = _both(model, _codes(rng, m, d, 6))
    assert np.array_equal(jll, jll_readable) and np.array_equal(pred, pred_readable)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weighted", [False, True])
def test_gaussian_spreads_in_blocks_are_the_per_class_two_pass_variances(seed, weighted, monkeypatch):
    monkeypatch.setattr(estimates, "_BLOCK_CELLS", 3 + 5 * seed)  # many blocks
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(3, 400)), int(rng.integers(2, 12))
    X = rng.normal(size=(n, d)) * 10.0 ** rng.integers(-3, 4, size=d) + 1e3 * rng.normal(size=d)
    X[:, 0] = 2.5  # a constant column
    y = rng.integers(0, 3, size=n)
    y[:3] = [0, 1, 2]
    X = np.vstack([X, rng.normal(size=(1, d))])
    y = np.append(y, 3)  # a class of one row
    w = rng.random(len(y)) + 0.5 if weighted else np.ones(len(y))
    model = GaussianNB().fit(X, y, sample_weight=w if weighted else None)
    for c in range(4):
        rows, wc = X[y == c], w[y == c]
        mean = (wc[:, None] * rows).sum(axis=0) / wc.sum()
        spread = (wc[:, None] * (rows - mean) ** 2).sum(axis=0) / wc.sum()
        np.testing.assert_allclose(model.theta_[c], mean, rtol=1e-12, atol=1e-12 * np.abs(X).max())
        np.testing.assert_allclose(model.var_[c] - model.epsilon_, spread, rtol=1e-12,
                                   atol=1e-12 * model.var_.max())
    half = len(y) // 2  # chunk by chunk: the same model
    chunked = GaussianNB().partial_fit(X[:half], y[:half], classes=[0, 1, 2, 3], sample_weight=w[:half])
    chunked.partial_fit(X[half:], y[half:], sample_weight=w[half:])
    np.testing.assert_allclose(chunked.theta_, model.theta_, rtol=1e-12, atol=1e-12 * np.abs(X).max())
    np.testing.assert_allclose(chunked.var_, model.var_, rtol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_bernoulli_rows_kept_as_bools_count_and_predict_as_float_rows(seed, monkeypatch):
    monkeypatch.setattr(estimates, "_BLOCK_CELLS", 7 + seed)
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(2, 300)), int(rng.integers(1, 15))
    X = rng.normal(size=(n, d))
    X[:, 0] = 0.0  # never present
    y = rng.integers(0, 3, size=n)
    y[:2] = [0, 1]
    w = rng.random(n) + 0.1
    for weights in (None, w):
        as_bools = BernoulliNB(binarize=0.0).fit(X, y, sample_weight=weights)
        as_floats = BernoulliNB(binarize=None).fit((X > 0).astype(float), y, sample_weight=weights)
        if weights is None:
            assert np.array_equal(as_bools.counts_, as_floats.counts_)
        np.testing.assert_allclose(as_bools.counts_, as_floats.counts_, rtol=1e-12, atol=1e-12)
        Q = rng.normal(size=(40, d))
        np.testing.assert_allclose(as_bools.predict_log_proba(Q), as_floats.predict_log_proba((Q > 0).astype(float)),
                                   rtol=1e-12, atol=1e-12)
    assert np.array_equal(as_bools.predict(Q[:1]), as_floats.predict((Q[:1] > 0).astype(float)))


@pytest.mark.parametrize("alpha", [1.0, 0.0])
def test_multinomial_log_likelihoods_count_log_zero_terms_only_where_an_estimate_is_zero(alpha):
    rng = np.random.default_rng(2)
    X = rng.poisson(1.5, size=(200, 8)).astype(float)
    y = rng.integers(0, 3, size=200)
    X[y == 0, 3] = 0.0  # a word class 0 never has: probability 0 there when alpha = 0
    model = MultinomialNB(alpha=alpha).fit(X, y)
    Q = np.vstack([rng.poisson(1.5, size=(30, 8)).astype(float), np.zeros((1, 8))])
    finite, n_zero = model._log_likelihood(model._prepare(Q))
    log_p = model.feature_log_prob_
    assert np.array_equal(finite, Q @ np.where(np.isinf(log_p), 0.0, log_p).T)
    if alpha > 0:
        assert n_zero is None
    else:
        assert np.array_equal(n_zero, (Q > 0).astype(float) @ np.isinf(log_p).astype(float).T)
        assert n_zero[:, 0].any() and not model.predict(Q[n_zero[:, 0] > 0]).tolist().count(0)
