"""Kernel functions K(x, z) = <phi(x), phi(z)>, the polynomial kernel's explicit feature map, and the
notes' test of a valid kernel matrix (notes 002 section 4 "Kernel methods").

A function K is a valid kernel when every kernel matrix K_ij = K(x_i, x_j) it makes is positive
semidefinite (Mercer's theorem, notes 002). The learners that use them are in `kernels`.
"""

import itertools
import math

import numpy as np

from ...core.errors import DataError


def _as_matrix(name, A):
    try:
        A = np.asarray(A, dtype=float)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{name} must be a numeric 2-D array ({exc}).") from exc
    if A.ndim != 2:
        raise DataError(f"{name} must be 2-D (rows x features); got shape {A.shape}.")
    if not np.isfinite(A).all():
        raise DataError(f"{name} has missing or infinite values.")
    return A


def _pair(X, Z):
    X = _as_matrix("X", X)
    Z = X if Z is None else _as_matrix("Z", Z)
    if X.shape[1] != Z.shape[1]:
        raise DataError(f"X has {X.shape[1]} features but Z has {Z.shape[1]}; a kernel compares rows "
                        "with the same features.")
    return X, Z


def linear_kernel(X, Z=None):
    """(n, m) K(x, z) = x^T z (the identity feature map)."""
    X, Z = _pair(X, Z)
    return X @ Z.T  # (n, m)


def polynomial_kernel(X, Z=None, degree=2, c=1.0):
    """(n, m) K(x, z) = (x^T z + c)^degree (notes 002; degree 2 is the notes' example)."""
    X, Z = _pair(X, Z)
    return (X @ Z.T + c) ** degree  # (n, m)


def rbf_kernel(X, Z=None, gamma=None):
    """(n, m) K(x, z) = exp(-gamma |x - z|^2); gamma None means 1 / n_features. Its feature map is
    infinite-dimensional, the case the notes' beta form exists for."""
    X, Z = _pair(X, Z)
    gamma = 1.0 / X.shape[1] if gamma is None else gamma
    sq = (X ** 2).sum(axis=1)[:, None] - 2.0 * (X @ Z.T) + (Z ** 2).sum(axis=1)[None, :]  # (n, m)
    return np.exp(-gamma * np.maximum(sq, 0.0))


def polynomial_feature_map(X, degree=2, c=1.0):
    """The explicit phi with phi(x)^T phi(z) = (x^T z + c)^degree: every monomial of degree `degree` in
    (x_1, ..., x_d, sqrt(c)), scaled by the square root of its multinomial coefficient. (n, C(d+degree, d))."""
    X = _as_matrix("X", X)
    Xa = np.hstack([X, np.full((len(X), 1), math.sqrt(c))])  # (n, d + 1)
    columns = []
    for combo in itertools.combinations_with_replacement(range(Xa.shape[1]), degree):
        multiplicities = np.bincount(combo)
        coef = math.factorial(degree) / np.prod([math.factorial(m) for m in multiplicities])
        columns.append(math.sqrt(coef) * np.prod(Xa[:, list(combo)], axis=1))
    return np.column_stack(columns)  # (n, p)


def is_psd(K, tol=1e-10):
    """True when K is symmetric and its eigenvalues are >= -tol * scale (scale = the largest |K_ij|):
    the notes' test that K is a valid kernel matrix."""
    K = _as_matrix("K", K)
    if K.shape[0] != K.shape[1]:
        raise DataError(f"A kernel matrix must be square (n x n); got shape {K.shape}.")
    scale = float(np.abs(K).max()) if K.size else 0.0
    if scale == 0.0:
        return True
    if np.abs(K - K.T).max() > tol * scale:
        return False
    return bool(np.linalg.eigvalsh((K + K.T) / 2.0).min() >= -tol * scale)
