"""Logistic regression's speed-ups: the softmax Hessian's Gram matrices from one table of feature
products, and the scores of a grid whose rows differ in a few columns only.

logistic.py writes each Hessian block as the formula, (1/n) sum_i c_i x_i x_i^T; Newton fits without a
trace use `WeightedGram` instead, traced fits (the steps view) the formula. A decision boundary scores
its grid with `held_scores`, the held columns' part of theta^T x worked out once. tests/test_fast_paths.py
checks that both give what the formulas give.
"""

import numpy as np

MAX_PRODUCTS = 4_000_000  # most feature products (rows x D(D+1)/2) in one table for the Hessian


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
        self.products = self.feature_products(0, min(self.chunk, self.n))  # kept for every call

    def feature_products(self, start, stop):
        """(D(D+1)/2, stop - start) rows x_a * x_b, a <= b in np.triu_indices order, of rows start:stop."""
        XT = self.XT[:, start:stop]  # (D, b)
        products = np.empty((len(self.upper[0]), stop - start))  # (D(D+1)/2, b)
        row = 0
        for a in range(self.D):
            np.multiply(XT[a], XT[a:], out=products[row:row + self.D - a])
            row += self.D - a
        return products

    def __call__(self, C):
        """(m, D, D) Gram matrices, one per row of C (m, n)."""
        kept = self.products.shape[1]
        upper = C[:, :kept] @ self.products.T  # (m, D(D+1)/2)
        for start in range(kept, self.n, self.chunk):
            stop = min(start + self.chunk, self.n)
            upper += C[:, start:stop] @ self.feature_products(start, stop).T
        upper /= self.n
        grams = np.empty((len(C), self.D, self.D))
        grams[:, self.upper[0], self.upper[1]] = upper
        grams[:, self.upper[1], self.upper[0]] = upper
        return grams


def held_scores(coef, intercept, held_row, varying, X_varying):
    """decision_function's theta^T x for rows equal to `held_row` (D,) except in the columns `varying`,
    which take the columns of X_varying (m, v): what a boundary grid asks. The held columns add one number
    per class, worked out once, so each row costs v products per class instead of D. (m,) for two classes,
    (m, K) for more; equal to the plain product up to float rounding (tests/test_fast_paths.py)."""
    held = np.ones(len(held_row), dtype=bool)  # (D,)
    held[varying] = False
    constant = coef[:, held] @ held_row[held] + intercept  # (1 or K,)
    scores = X_varying @ coef[:, varying].T + constant  # (m, 1 or K)
    return scores[:, 0] if coef.shape[0] == 1 else scores
