"""X^T X of a tall, narrow matrix fast where numpy has no optimised BLAS (Pyodide's).

PCA's scatter matrix and the normal equation of linear regression are both M^T M for an (n, d) matrix
with n >> d. With BLAS, `M.T @ M` is the fastest way to it. Pyodide's numpy has no BLAS: its own matrix
product walks M across its rows, and measured in Pyodide under Node it took 1.2 ms for 20,000 x 10
(scikit-learn's PCA pays the same), 160 ms for 100,000 x 20 and 236 ms for 20,000 x 50. There the
product is taken as the dot products of M's columns, copied once into contiguous rows: each entry of the
upper triangle is one dot product of two contiguous (n,) vectors, the fastest loop numpy has without BLAS
(0.64, 33 and 46 ms for those three). Only half of the symmetric matrix is computed; the other half is
copied. tests/unit/test_fast_paths.py checks that both ways give the same matrix.
"""

import numpy as np


def _numpy_has_blas():
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except Exception:  # a numpy that does not describe its build this way: assume the usual BLAS build
        return True
    return bool(blas.get("found", False))


HAS_BLAS = _numpy_has_blas()


def gram(M):
    """M^T M, shape (d, d), for the (n, d) matrix M."""
    return M.T @ M if HAS_BLAS else gram_by_dots(M)


def gram_by_dots(M):
    """M^T M from the dot products of M's columns (the upper triangle, mirrored)."""
    d = M.shape[1]
    columns = np.ascontiguousarray(M.T, dtype=float)  # (d, n) each column of M contiguous
    G = np.empty((d, d))
    for j in range(d):
        G[j, j:] = columns[j:] @ columns[j]  # (d - j,) column j against columns j..d-1
        G[j:, j] = G[j, j:]
    return G
