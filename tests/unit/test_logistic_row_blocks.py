"""On many rows logistic_fast's losses read X's rows in place a block at a time (row_blocks.py) instead of
a kept transposed copy of [1, x]: the losses, their Hessians and the fits are the formulas' all the same,
with numpy's BLAS and without it, and the fit's memory beyond X stays a fraction of X's own."""

import tracemalloc

import numpy as np
import pytest

from pellucid.learners.logistic import logistic, logistic_fast, row_blocks
from pellucid.learners.logistic.row_blocks import RowBlocks
from test_logistic_newton_fast import assert_fast_fit_is_the_traced_fit

SEEDS = range(4)


@pytest.fixture(params=[True, False], ids=["blas", "no-blas"])
def blas(request, monkeypatch):
    """With BLAS (natively) and without it (Pyodide): streamed blocks' sums and Gram matrices differ."""
    monkeypatch.setattr(logistic_fast, "HAS_BLAS", request.param)
    monkeypatch.setattr(row_blocks, "HAS_BLAS", request.param)
    return request.param


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of a few dozen rows, and no table kept whole, as on a table of millions of rows."""
    monkeypatch.setattr(row_blocks, "KEEP_CELLS", 0)
    monkeypatch.setattr(row_blocks, "BLOCK_CELLS", 200)


def test_blocks_cover_every_row_once_in_order(small_blocks):
    X = np.arange(3 * 101, dtype=float).reshape(101, 3)
    XbT = np.vstack([np.ones(101), X.T])  # (4, 101)
    rows = RowBlocks.of(X)
    assert not rows.kept and rows.D == 4
    seen = list(rows.blocks())
    assert [part.start for part, _ in seen] == [0, 50, 100]  # 50, 50 and 1 rows
    assert all(np.shares_memory(block.X, X) for _, block in seen)  # views of X, no copy
    np.testing.assert_array_equal(np.vstack([block.X for _, block in seen]), X)
    buffer = np.empty(4 * 50)
    for part, block in seen:  # each transposed block contiguous, the last one too
        XT = block.transposed(buffer)
        assert XT.flags.c_contiguous and np.shares_memory(XT, buffer)
        np.testing.assert_array_equal(XT, XbT[:, part])
    W = np.arange(8.0).reshape(2, 4)
    np.testing.assert_array_equal(rows.times(W), W @ XbT)
    np.testing.assert_array_equal(rows.take([3, 70]), XbT[:, [3, 70]])


@pytest.mark.parametrize("seed", SEEDS)
def test_rows_in_place_give_the_transposed_products(seed, blas):
    rng = np.random.default_rng(seed + 40)
    n, d, m = int(rng.integers(1, 60)), int(rng.integers(1, 6)), int(rng.integers(1, 4))
    X = rng.normal(size=(n, d))
    XbT = np.vstack([np.ones(n), X.T])
    rows = row_blocks.Rows(X)
    W, A = rng.normal(size=(m, d + 1)), rng.normal(size=(m, n))
    np.testing.assert_allclose(rows.scores(W), W @ XbT, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rows.sums(A), A @ XbT.T, rtol=1e-12, atol=1e-12)
    for C in (A, np.abs(A)):  # any weights; the Hessian's, never negative, by a symmetric product
        np.testing.assert_allclose(rows.gram_sums(C), logistic.weighted_gram(XbT, C) * n, rtol=1e-12,
                                   atol=1e-12)


def test_a_small_table_is_one_kept_block():
    X = np.ones((10, 2))
    rows = RowBlocks.of(X)
    assert rows.kept and len(list(rows.blocks())) == 1 and RowBlocks.wrap(rows) is rows


def test_without_blas_one_hot_columns_keep_the_copy(small_blocks, blas):
    # Their Hessian blocks are sums per category (indicator_gram.py), which read the kept rows; with BLAS
    # the streamed dense products are as fast, and the copy is not made.
    rng = np.random.default_rng(1)
    X = np.hstack([rng.normal(size=(90, 2)), np.eye(3)[rng.integers(0, 3, 90)]])
    assert RowBlocks.of(X).kept != blas
    assert not RowBlocks.of(X[:, :2]).kept


def _problem(seed, weighted, K):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(60, 300)), int(rng.integers(1, 6))
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 4, d)
    y = rng.integers(0, K, n)
    y[:K] = np.arange(K)  # every class present
    row_weights = rng.uniform(0.2, 3.0, K)[y] if weighted else None
    return rng, X, y, row_weights


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "class-weighted"])
@pytest.mark.parametrize("K", [2, 3])
def test_streamed_losses_equal_the_formulas(seed, weighted, K, blas, small_blocks):
    rng, X, y, row_weights = _problem(seed, weighted, K)
    Xb = np.column_stack([np.ones(len(X)), X])
    if K == 2:
        formulas = logistic.binary_log_loss(Xb, y, 0.05, row_weights)
        streamed = logistic_fast.binary_log_loss(RowBlocks.of(X), y, 0.05, row_weights)
    else:
        formulas = logistic.softmax_log_loss(Xb, y, K, 0.05, row_weights)
        streamed = logistic_fast.softmax_log_loss(RowBlocks.of(X), y, K, 0.05, row_weights)
    size = (1 if K == 2 else K) * Xb.shape[1]
    biases_only = np.zeros(size)
    biases_only[::Xb.shape[1]] = rng.normal(size=size // Xb.shape[1])  # the softmax Hessian's shortcut
    for w in (np.zeros(size), biases_only, rng.normal(size=size), 8 * rng.normal(size=size)):
        loss, grad = formulas[0](w)
        streamed_loss, streamed_grad = streamed[0](w)
        assert streamed_loss == pytest.approx(loss, rel=1e-12, abs=1e-12)
        np.testing.assert_allclose(streamed_grad, grad, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(streamed[1](w), formulas[1](w), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("K", [2, 3])
def test_streamed_fit_equals_the_traced_fit(seed, K, blas, small_blocks):
    _, X, y, _ = _problem(seed + 10, False, K)
    assert_fast_fit_is_the_traced_fit(X, y, "balanced" if seed % 2 else None)


def test_a_fit_on_many_rows_keeps_no_copy_of_them(monkeypatch):
    # Budgets a thirty-second of a real fit's, so that 50,000 rows stream as 10^6 would (and the sample's
    # fit makes no products table a larger sample would not): the fit's own arrays are then a few vectors
    # of n numbers (the class numbers, probabilities, IRLS weights and scores), a quarter of X's 20
    # columns; a transposed copy alone would be all of X's size again.
    monkeypatch.setattr(row_blocks, "KEEP_CELLS", row_blocks.KEEP_CELLS >> 5)
    monkeypatch.setattr(row_blocks, "BLOCK_CELLS", row_blocks.BLOCK_CELLS >> 5)
    monkeypatch.setattr(logistic_fast, "MAX_PRODUCTS", logistic_fast.MAX_PRODUCTS >> 5)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50_000, 20))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=len(X)) > 0).astype(int)
    tracemalloc.start()
    try:
        model = logistic.LogisticRegression().fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert model.converged_
    assert peak < 0.5 * X.nbytes, f"the fit's peak {peak / 1e6:.1f} MB is above half of X's {X.nbytes / 1e6:.1f}"
