"""Gaussian naive Bayes' log-likelihoods as two matrix products: the same numbers as gaussian.py's sum
over features, computed in a few passes over X whatever the number of classes.

    sum_j -(x_j - mu_cj)^2 / (2 var_cj) = x^2 @ a_c + x @ b_c + c_c,
    a_c = -1 / (2 var_c),  b_c = mu_c / var_c,  c_c = -sum_j mu_cj^2 / (2 var_cj).

Expanded, a value x_j far from zero would cancel: x^2 / var and the cross term grow as x^2 while their
sum stays the size of the distance. So x and the means are first shifted by each feature's mean over the
classes' means, after which x and mu are measured from the middle of the classes and the products round
no worse than the distances themselves.
"""

import numpy as np

from ..shared.gram_fast import HAS_BLAS


def log_likelihood(X, theta, var):
    """(n, C): sum_j log N(x_ij; theta_cj, var_cj) for the rows of X (n, d), means and variances (C, d)."""
    shift = theta.mean(axis=0)  # (d,)
    mu = theta - shift  # (C, d)
    inverse = 1.0 / var  # (C, d)
    constant = -0.5 * (np.log(2 * np.pi * var).sum(axis=1) + (mu * mu * inverse).sum(axis=1))  # (C,)
    centred = X - shift  # (n, d) the one copy of X
    linear = _times(centred, (mu * inverse).T)  # (n, C)
    np.square(centred, out=centred)
    return _times(centred, -0.5 * inverse.T) + linear + constant


def _times(M, B):
    """M (n, d) @ B (d, C); numpy without BLAS multiplies faster by einsum."""
    return M @ B if HAS_BLAS else np.einsum("nd,dc->nc", M, B)
