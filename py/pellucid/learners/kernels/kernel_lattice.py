"""Kernel sums over a lattice: h(g) = sum_j coef_j K(x_j, g) for every point g of a grid that equals one
held row except in one or two coordinates, each taking few values (a decision boundary's 200 x 200 grid).
The plain way measures every grid point against every stored row, and on 40,000 points and 1,400 rows
that is 56 million kernel values; here it is a few hundred thousand.

With the held coordinates h and the varied ones a (and b), a stored row x_j splits the same way:

  rbf     |x_j - g|^2 = |x_jh - h|^2 + (x_ja - a)^2 + (x_jb - b)^2, so K = e_j(h) e_j(a) e_j(b) with
          e = exp(-gamma * square), and h(a, b) = sum_j [coef_j e_j(h)] e_j(a) e_j(b): one matrix product
          of the (A, n) and (n, B) factor tables;
  poly    x_j . g + c = t_j(a) + x_jb b with t_j(a) = x_jh . h + c + x_ja a, and by the binomial theorem
          (t + x_jb b)^d = sum_k C(d, k) t^(d-k) x_jb^k b^k, so h(a, b) = sum_k C(d, k) b^k m_k(a) with
          m_k(a) = sum_j coef_j t_j(a)^(d-k) x_jb^k: d + 1 products of an (A, n) table with a vector;
  linear  the poly kernel of degree 1 with c = 0.

The same sums as the plain way up to float rounding (tests/unit/test_grid_held_columns.py): rbf's factors are
its definition's exp(-gamma |x - g|^2) split into a product; the binomial sum adds terms that may cancel
where the kernel's argument is near 0, to within rounding of the terms' size.
"""

from math import comb

import numpy as np


def lattice_sums(model, held_row, axes, coef):
    """(A,) or (A, B): sum_j coef_j K(x_j, g) over the model's stored rows x_j (`X_fit_`, (n, D)) for
    the points g equal to `held_row` (D,) but in the columns of `axes`, one or two (column, values) pairs:
    point p (or (p, q)) takes the first axis's values[p] (and the second's values[q])."""
    X = model.X_fit_  # (n, D)
    held = np.ones(X.shape[1], dtype=bool)
    held[[column for column, _ in axes]] = False
    along = [X[:, column] for column, _ in axes]  # each (n,)
    values = [np.asarray(v, dtype=float) for _, v in axes]  # (A,) and (B,)
    if model.kernel == "rbf":
        held_squares = ((X[:, held] - held_row[held]) ** 2).sum(axis=1)  # (n,)
        return _rbf(model.gamma_, held_squares, along, values, coef)
    held_dot = X[:, held] @ held_row[held]  # (n,)
    if model.kernel == "linear":
        return _polynomial(held_dot, 1, along, values, coef)
    return _polynomial(held_dot + model.coef0, model.degree, along, values, coef)


def _rbf(gamma, held_squares, along, values, coef):
    weights = coef * np.exp(-gamma * held_squares)  # (n,) coef_j e_j(h)
    factors = [np.exp(-gamma * (v[:, None] - x) ** 2) for v, x in zip(values, along)]  # (A, n), (B, n)
    if len(factors) == 1:
        return factors[0] @ weights  # (A,)
    return (factors[0] * weights) @ factors[1].T  # (A, B)


def _polynomial(base, degree, along, values, coef):
    t = base + values[0][:, None] * along[0]  # (A, n) t_j(a)
    if len(along) == 1:
        return t ** degree @ coef  # (A,)
    b, x_b = values[1], along[1]
    out = np.zeros((len(values[0]), len(b)))  # (A, B)
    for k in range(degree + 1):
        m_k = t ** (degree - k) @ (coef * x_b ** k)  # (A,)
        out += comb(degree, k) * m_k[:, None] * b ** k
    return out
