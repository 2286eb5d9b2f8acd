"""Logistic regression's speed-ups: the losses for Newton's method in fewer passes over the data, the
Hessian's Gram matrices from one table of feature products, and the scores of a grid whose rows differ
in a few columns only.

logistic.py writes the losses, their gradients and Hessians as the formulas; fits without a trace use
`binary_log_loss` and `softmax_log_loss` here instead, traced fits (the steps view) the formulas. In
Pyodide under Node a softmax fit on 100,000 x 10 with 3 classes went from 187 to 88 ms this way, a
binary one from 90 to 56 ms. One-hot columns' Hessian blocks are sums per category
(indicator_gram.py). A decision boundary scores its grid with `held_scores`, the held columns'
part of theta^T x worked out once. The losses read the rows transposed, [1, x]^T, through RowBlocks
(row_blocks.py): kept whole on moderate tables, a block of rows at a time from X on large ones, so a fit
on 10^6 x 20 needs no copy of X. tests/unit/test_fast_paths.py, tests/unit/test_logistic_newton_fast.py
and tests/unit/test_logistic_row_blocks.py check that they give what the formulas give.
"""

import numpy as np

from ..shared.gram_fast import HAS_BLAS
from .indicator_gram import IndicatorGram, indicator_groups
from .row_blocks import RowBlocks, Rows

MAX_PRODUCTS = 4_000_000  # most feature products (rows x D(D+1)/2) in one table for the Hessian
GRAM_BLOCK_CELLS = 1 << 22  # values of a weighted block of rows the BLAS Gram forms at once (32 MB)


def binary_log_loss(XbT, y01, l2, row_weights=None):
    """(value_grad, hessian) of logistic.binary_log_loss, the same numbers in fewer passes over the rows.
    XbT is (D, n), the rows with the bias feature first, one contiguous row per feature, or their
    RowBlocks (row_blocks.py: made a block at a time on many rows). The gradient's target part
    sum_i s_i y_i x_i is worked out once, and the Hessian's Gram matrix comes from `gram_maker` (without
    BLAS its upper half only, from the feature products kept between iterations)."""
    rows = RowBlocks.wrap(XbT)
    D, n = rows.D, rows.n
    target_part = np.zeros(D)
    for part, XT in rows.blocks():
        target_part += rows_times_rows((_weights(row_weights, part) * y01[part])[None], XT)[0]  # (D,)
    mask = np.ones(D)
    mask[0] = 0.0  # the bias is not penalised
    gram = _gram_of(rows)
    p = np.empty(n)  # sigma(z) of every row at the last weights, for the Hessian
    cache = {}

    def value_grad(w):
        if _same_point(cache, w):  # asked again where it was last asked (a fit's start, checked first)
            return cache["value"]
        loss, grad = 0.0, np.zeros(D)
        for part, XT in rows.blocks():  # one pass: the scores, then the loss and gradient terms
            s = _weights(row_weights, part)  # (b,)
            z = scores(w[None], XT)[0]  # (b,)
            e = np.exp(-np.abs(z))  # (b,) in (0, 1]: no overflow either way
            softplus = np.where(z > 0.0, z, 0.0) + np.log1p(e)  # log(1 + e^z); np.where is np.maximum, faster
            np.divide(np.where(z >= 0, 1.0, e), 1.0 + e, out=p[part])  # (b,) sigma(z)
            loss += (softplus - y01[part] * z) @ s
            grad += rows_times_rows((s * p[part])[None], XT)[0]
        loss = loss / n + 0.5 * l2 * np.sum((mask * w) ** 2)
        grad = (grad - target_part) / n
        cache["w"], cache["value"] = w.copy(), (float(loss), grad + l2 * mask * w)
        return cache["value"]  # (loss, (D,) gradient)

    def hessian(w):
        if not _same_point(cache, w):
            value_grad(w)
        irls = p * (1.0 - p) if row_weights is None else row_weights * p * (1.0 - p)  # (n,) from w's pass
        return gram(irls[None])[0] + l2 * np.diag(mask)  # (D, D)

    return value_grad, hessian


def softmax_log_loss(XbT, y_index, n_classes, l2, row_weights=None):
    """(value_grad, hessian) of logistic.softmax_log_loss, the same numbers in fewer passes over the rows.
    XbT is (D, n), the rows with the bias feature first, one contiguous row per feature, or their
    RowBlocks (row_blocks.py: made a block at a time on many rows).

    - The targets enter the loss and the gradient linearly, through M = sum_i s_i e_(y_i) x_i^T (K, D),
      worked out once: the own-class scores add up to sum(W * M) and the gradient's target part is M / n,
      so no one-hot matrix is read on each call.
    - The largest and the total of each row's K scores are taken class by class over whole rows (np.where,
      +), not as reductions along the short axis, which Pyodide's numpy runs several times slower.
    - Hessian: each row's weights P_k (delta_kl - P_l) add up to zero over l, so a diagonal block is minus
      the sum of the other blocks in its row and only the K(K-1)/2 blocks k < l are Gram matrices (half
      of the K(K+1)/2 products for three classes).
    - Where the weights are all zero but the biases (Newton's start), every row has the same
      probabilities p and every block is p_k (delta_kl - p_l) times one Gram matrix."""
    rows = RowBlocks.wrap(XbT)
    D, n = rows.D, rows.n
    K = n_classes
    M = np.zeros((K, D))
    for part, XT in rows.blocks():
        targets = np.zeros((K, part.stop - part.start))
        targets[y_index[part], np.arange(part.stop - part.start)] = _weights(row_weights, part)  # s_i at y_i
        M += rows_times_rows(targets, XT)  # (K, D)
    del targets
    mask = np.ones((K, D))
    mask[:, 0] = 0.0  # biases are not penalised
    mask = mask.ravel()  # (K * D,)
    pairs = [(k, c) for k in range(K) for c in range(k + 1, K)]
    gram = _gram_of(rows)
    P = np.empty((K, n))  # the softmax probabilities at the last weights, for the Hessian
    cache = {}

    def value_grad(w):
        if _same_point(cache, w):  # asked again where it was last asked (a fit's start, checked first)
            return cache["value"]
        W = w.reshape(K, D)
        log_norms, G = 0.0, np.zeros((K, D))
        for part, XT in rows.blocks():  # one pass: the scores, then the loss and gradient terms
            Pb = P[:, part]  # (K, b) filled below
            log_norms += _softmax_block(scores(W, XT), Pb) @ _weights(row_weights, part)
            G += rows_times_rows(Pb if row_weights is None else Pb * row_weights[part], XT)
        loss = (log_norms - np.sum(W * M)) / n + 0.5 * l2 * np.sum((mask * w) ** 2)
        G = (G - M) / n  # (K, D)
        cache["w"], cache["value"] = w.copy(), (float(loss), G.ravel() + l2 * mask * w)
        return cache["value"]  # (loss, (K * D,) gradient)

    def hessian(w):
        if not _same_point(cache, w):
            value_grad(w)
        if not w.reshape(K, D)[:, 1:].any():
            p = P[:, 0]  # (K,) the probabilities of every row
            s = np.ones(n) if row_weights is None else row_weights  # (n,)
            H = np.kron(np.diag(p) - np.outer(p, p), gram(s[None])[0])
        else:
            C = np.empty((len(pairs), n))
            for j, (k, c) in enumerate(pairs):
                np.multiply(P[k], P[c], out=C[j])
                if row_weights is not None:
                    C[j] *= row_weights
            H = _blocks_from_pairs(gram(C), pairs, K, D)
        return H + l2 * np.diag(mask)  # (K * D, K * D)

    return value_grad, hessian


def _softmax_block(Z, P):
    """Fill P (K, b) with the softmax probabilities of the scores Z (K, b); return each row's log sum_k
    exp(z_k) (b,)."""
    top = Z[0]
    for k in range(1, len(Z)):
        top = np.where(Z[k] > top, Z[k], top)  # (b,) each row's largest score: exp cannot overflow
    np.subtract(Z, top, out=P)
    np.exp(P, out=P)
    total = P[0].copy()
    for k in range(1, len(Z)):
        total += P[k]  # (b,) sum_k exp(z_k - top)
    P /= total
    log_norm = np.log(total)
    log_norm += top
    return log_norm


def _weights(row_weights, part):
    """The rows' weights s_i of the rows `part` (all 1 when None)."""
    return np.ones(part.stop - part.start) if row_weights is None else row_weights[part]


def _same_point(cache, w):
    """Whether the loss was last worked out at these weights (compared by value: a solver may copy them)."""
    last = cache.get("w")
    return last is not None and np.array_equal(last, w)


def _blocks_from_pairs(grams, pairs, K, D):
    """The (K D, K D) softmax Hessian from the Gram matrices of s_i P_ik P_il for k < l: off the diagonal
    minus each, on it the sum of its row's others."""
    H = np.zeros((K * D, K * D))
    block = lambda k: slice(k * D, (k + 1) * D)  # noqa: E731
    for G, (k, c) in zip(grams, pairs):
        H[block(k), block(c)] = H[block(c), block(k)] = -G
        H[block(k), block(k)] += G
        H[block(c), block(c)] += G
    return H


def scores(W, XT):
    """W @ XT for W (K, D) and XT (D, n) (or X's rows in place, row_blocks.Rows): every row's score per
    class, (K, n)."""
    if isinstance(XT, Rows):
        return XT.scores(W)
    return W @ XT if HAS_BLAS else np.einsum("kd,dn->kn", W, XT)


def rows_times_rows(A, B):
    """A @ B.T for A (m, n) and B (p, n), n long: sums of products along the rows. Without BLAS (Pyodide)
    einsum's sum-of-products loop runs it faster than numpy's own matrix product, and faster still when
    asked for the transpose: einsum then reads each row of B once for every row of A while it is in the
    cache, instead of reading all of B once per row of A (the same sums, bit for bit). Pyodide under
    Node, (3, 35000) by (231, 35000), the Hessian's products table for 20 features: 14.5 ms as A B^T,
    6.8 as (B A^T)^T, 15.7 by numpy's matrix product. B may be X's rows in place (row_blocks.Rows)."""
    if isinstance(B, Rows):
        return B.sums(A)
    return A @ B.T if HAS_BLAS else np.einsum("mn,pn->pm", A, B).T


def _gram_of(rows):
    """`gram_maker`'s Gram matrices of RowBlocks: of the kept copy, or summed over the streamed blocks of
    many rows (their one-hot groups not told apart: the IndicatorGram sorts a copy of every row)."""
    return gram_maker(rows.XT) if rows.kept else StreamedGram(rows)


class StreamedGram:
    """sum_i c_i x_i x_i^T / n over RowBlocks streamed from many rows: each block's sums, added up. With
    BLAS from X's rows in place; without it from the block's feature products, for which the block is
    transposed into one reused buffer and one products table serves every chunk of every block and call
    (a fresh 32 MB table each cost as much again as its sums: 300,000 x 20, natively without BLAS, 197
    ms a Hessian, 114 with the table reused, 97 with the whole transposed copy and its first table kept)."""

    def __init__(self, rows):
        self.rows = rows
        self.buffer = self.table = None  # made on the first call without BLAS

    def __call__(self, C):
        """(m, D, D) Gram matrices, one per row of C (m, n)."""
        total = 0.0
        for part, rows in self.rows.blocks():
            total = total + self._sums(rows, C[:, part])
        return total / self.rows.n

    def _sums(self, rows, C):
        if HAS_BLAS:
            return rows.gram_sums(C)
        if self.buffer is None:
            self.buffer = np.empty(self.rows.D * self.rows.step)
        gram = WeightedGram(rows.transposed(self.buffer))
        if self.table is None:
            self.table = np.empty((len(gram.upper[0]), gram.chunk))
        return gram.sums(C, table=self.table)


def gram_maker(XT):
    """What makes the Hessian's weighted Gram matrices of XT (D, n): where some rows are one-hot groups
    (a categorical column encoded), an `IndicatorGram` summing their blocks per category, otherwise
    `dense_gram_maker`'s. 35,000 x 45 with 25 one-hot columns, a softmax fit: in Pyodide under Node 1170
    ms to 368; natively (single-threaded BLAS) 233 to 207."""
    groups = indicator_groups(XT)
    return IndicatorGram(XT, groups, dense_gram_maker) if groups else dense_gram_maker(XT)


def dense_gram_maker(XT):
    """A `WeightedGram`, or, where numpy has BLAS and the products table would not hold every row, BLAS's
    weighted products themselves (natively, 100,000 x 11: 1.6 ms a matrix against 2.0 for the products
    formed again on every call)."""
    D, n = XT.shape
    if HAS_BLAS and n * D * (D + 1) // 2 > MAX_PRODUCTS:
        return lambda C: dense_gram_sums(XT, C) / n
    return WeightedGram(XT)


def dense_gram_sums(XT, C):
    """(m, D, D) sums sum_i c_i x_i x_i^T of XT (D, n), one per row of C (m, n): by BLAS, or without it
    from the rows' feature products (WeightedGram's, formed for this call)."""
    if HAS_BLAS:
        return np.stack([_blas_gram(XT, c) for c in C])
    return WeightedGram(XT).sums(C)


def _blas_gram(XT, c):
    """sum_i c_i x_i x_i^T for XT (D, n) by BLAS: B B^T with B = XT sqrt(c) where no weight is negative
    (the Hessian's never are), which BLAS works out as a symmetric product, half the multiplications
    (natively 35,000 x 22: 0.8 ms against 1.3); (XT c) XT^T otherwise. The rows go in blocks of
    GRAM_BLOCK_CELLS values, so the weighted copy never holds the whole table (170 MB on 10^6 x 20)."""
    D, n = XT.shape
    step = max(1, GRAM_BLOCK_CELLS // max(1, D))
    if step >= n:
        B = XT * np.sqrt(c) if np.all(c >= 0.0) else None  # (D, n)
        return B @ B.T if B is not None else (XT * c) @ XT.T
    return sum(_blas_gram(XT[:, a:a + step], c[a:a + step]) for a in range(0, n, step))


class WeightedGram:
    """sum_i c_i x_i x_i^T / n for several weight vectors c at once: the softmax Hessian's blocks.

    Each Gram matrix is symmetric, so only its D(D+1)/2 upper entries are formed, as one matrix product
    of the weights with the rows' feature products x_ia x_ib (a <= b). Those products do not change
    between iterations: the first MAX_PRODUCTS of them (all, for moderate n) are formed once and kept;
    the rows beyond are formed again on each call, a chunk at a time, so memory stays bounded and each
    chunk costs one large product (few big numpy calls suit Pyodide, whose numpy has no optimised BLAS)."""

    def __init__(self, XT):
        self.D, self.n = XT.shape  # XT is (D, n): one contiguous row per feature
        self.upper = np.triu_indices(self.D)
        self.XT = XT
        self.chunk = max(1, MAX_PRODUCTS // len(self.upper[0]))  # rows per products table
        self.products = None  # kept for every call once formed, on the first (L-BFGS and gradient
        # descent never make one)

    def feature_products(self, start, stop, table=None):
        """(D(D+1)/2, stop - start) rows x_a * x_b, a <= b in np.triu_indices order, of rows start:stop
        (in the first columns of `table` where one is given)."""
        XT = self.XT[:, start:stop]  # (D, b)
        size = (len(self.upper[0]), stop - start)  # (D(D+1)/2, b)
        products = np.empty(size) if table is None else table[:, :size[1]]
        row = 0
        for a in range(self.D):
            np.multiply(XT[a], XT[a:], out=products[row:row + self.D - a])
            row += self.D - a
        return products

    def __call__(self, C):
        """(m, D, D) Gram matrices, one per row of C (m, n)."""
        return self.sums(C) / self.n

    def sums(self, C, table=None):
        """(m, D, D) sums sum_i c_i x_i x_i^T, one per row of C (m, n), not yet divided by n. With `table`
        ((D(D+1)/2, chunk) or wider) every chunk's products are formed in it, and none kept."""
        if self.products is None and table is None:
            self.products = self.feature_products(0, min(self.chunk, self.n))
        kept = 0 if table is not None else self.products.shape[1]
        upper = rows_times_rows(C[:, :kept], self.products) if kept else 0.0  # (m, D(D+1)/2)
        for start in range(kept, self.n, self.chunk):
            stop = min(start + self.chunk, self.n)
            upper = upper + rows_times_rows(C[:, start:stop], self.feature_products(start, stop, table))
        grams = np.empty((len(C), self.D, self.D))
        grams[:, self.upper[0], self.upper[1]] = upper
        grams[:, self.upper[1], self.upper[0]] = upper
        return grams


def held_scores(coef, intercept, held_row, varying, X_varying):
    """decision_function's theta^T x for rows equal to `held_row` (D,) except in the columns `varying`,
    which take the columns of X_varying (m, v): what a boundary grid asks. The held columns add one number
    per class, worked out once, so each row costs v products per class instead of D. (m,) for two classes,
    (m, K) for more; equal to the plain product up to float rounding (tests/unit/test_fast_paths.py)."""
    held = np.ones(len(held_row), dtype=bool)  # (D,)
    held[varying] = False
    constant = coef[:, held] @ held_row[held] + intercept  # (1 or K,)
    scores = X_varying @ coef[:, varying].T + constant  # (m, 1 or K)
    return scores[:, 0] if coef.shape[0] == 1 else scores
