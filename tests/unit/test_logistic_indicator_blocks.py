"""The Hessian's Gram matrices with one-hot columns summed per category (learners/logistic/indicator_gram.py) equal
the formula's weighted products, and a logistic fit on one-hot encoded data reaches the traced fit's
weights in the same iterations."""

import numpy as np
import pytest

from pellucid.learners.logistic import indicator_gram, logistic, logistic_fast
from pellucid.tabular.table import Table

SEEDS = range(6)


def _one_hot(rng, n, categories, missing=0):
    """(n, categories) 0/1 columns, one set per row except `missing` rows with none."""
    block = np.eye(categories)[rng.integers(0, categories, n)]
    block[rng.choice(n, missing, replace=False)] = 0.0
    return block


def _table(rng, n):
    """(D, n) rows: the bias, numbers, one-hot groups (one with uncategorised rows), a lone 0/1 row and
    two overlapping 0/1 rows, in a mixed order. Also the expected groups' row numbers."""
    parts = [np.ones((n, 1)), rng.normal(size=(n, 2)), _one_hot(rng, n, 3), rng.normal(size=(n, 1)) * 50,
             _one_hot(rng, n, 4, missing=n // 5), (rng.random((n, 1)) < 0.5), _one_hot(rng, n, 2)]
    overlapping = (rng.random((n, 2)) < 0.6).astype(float)
    overlapping[0] = 1.0  # at least one row has both
    parts.append(overlapping)
    expected = [[3, 4, 5], [7, 8, 9, 10], [12, 13]]  # 11 is alone, 14 and 15 share row 0
    return np.ascontiguousarray(np.hstack(parts).astype(float).T), expected


def test_groups_are_the_one_hot_columns_and_their_codes():
    XT = np.array([[1, 1, 1, 1, 1],  # bias: no group
                   [0, 1, 0, 0, 1],  # a one-hot group of three, row 3 in none
                   [1, 0, 0, 0, 0],
                   [0, 0, 1, 0, 0],
                   [0, 0, 0, 0, 0],  # a category no training row has
                   [2, 0, 1, 0, 0],  # not 0/1
                   [1, 0, 0, 1, 0],  # a lone 0/1 row: no group
                   [0.5, 1, 1, 0, 0],
                   [1, 1, 0, 0, 0],  # 0/1 rows sharing a column: separate, each alone
                   [1, 0, 0, 0, 0]], dtype=float)
    groups = indicator_gram.indicator_groups(XT)
    assert [rows.tolist() for rows, _ in groups] == [[1, 2, 3, 4]]
    assert groups[0][1].tolist() == [2, 1, 3, 0, 1]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("blas", [True, False], ids=["blas", "no-blas"])
@pytest.mark.parametrize("n, batches", [(40, [[0], [1], [2]]), (90, [[0, 1], [2]]), (400, [[0, 1, 2]])])
@pytest.mark.parametrize("max_codes", [70, 10 ** 6], ids=["row-chunks", "all-rows"])
def test_indicator_gram_equals_the_weighted_products(seed, blas, n, batches, max_codes, monkeypatch):
    # The groups' joint categories (4 x 5 x 3) stay under n / 4: all in one table, some, or none.
    monkeypatch.setattr(logistic_fast, "HAS_BLAS", blas)
    monkeypatch.setattr(logistic_fast, "MAX_PRODUCTS", 300)  # the dense columns' table in chunks
    monkeypatch.setattr(indicator_gram, "MAX_CODES", max_codes)  # 10 rows a chunk: runs cut across chunks
    rng = np.random.default_rng(seed)
    XT, expected = _table(rng, n)
    groups = indicator_gram.indicator_groups(XT)
    assert [rows.tolist() for rows, _ in groups] == expected
    C = rng.normal(size=(int(rng.integers(1, 4)), n))
    gram = indicator_gram.IndicatorGram(XT, groups, logistic_fast.dense_gram_maker)
    assert gram.batches == batches
    np.testing.assert_allclose(gram(C), logistic.weighted_gram(XT, C), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("blas", [True, False], ids=["blas", "no-blas"])
def test_gram_maker_sums_per_category_where_there_are_one_hot_columns(blas, monkeypatch):
    monkeypatch.setattr(logistic_fast, "HAS_BLAS", blas)
    rng = np.random.default_rng(0)
    XT, _ = _table(rng, 50)
    assert isinstance(logistic_fast.gram_maker(XT), indicator_gram.IndicatorGram)
    assert not isinstance(logistic_fast.gram_maker(rng.normal(size=(4, 50))), indicator_gram.IndicatorGram)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("blas", [True, False], ids=["blas", "no-blas"])
def test_fit_on_categorical_columns_equals_the_traced_fit(seed, n_classes, blas, monkeypatch):
    monkeypatch.setattr(logistic_fast, "HAS_BLAS", blas)
    rng = np.random.default_rng(seed + 10)
    n = int(rng.integers(150, 400))
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    words = np.array(["red", "green", "blue", "amber"])
    table = Table({"x1": rng.normal(size=n) + y, "x2": rng.normal(size=n) * 10,
                   "colour": words[(y + rng.integers(0, 2, n)) % 4], "size": np.array(["S", "M", "L"])[y % 3]},
                  kinds={"x1": "numeric", "x2": "numeric", "colour": "categorical", "size": "categorical"})
    params = dict(l2=0.01, standardize=True, class_weight="balanced" if seed % 2 else None)
    fast = logistic.LogisticRegression(**params).fit(table, y)
    readable = logistic.LogisticRegression(**params, trace=True).fit(table, y)
    assert fast.n_iter_ == readable.n_iter_ and fast.converged_
    np.testing.assert_allclose(fast.coef_, readable.coef_, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(fast.intercept_, readable.intercept_, rtol=1e-9, atol=1e-10)
    assert np.array_equal(fast.predict(table), readable.predict(table))
