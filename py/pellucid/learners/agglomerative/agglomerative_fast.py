"""The n x n distance matrix of agglomerative clustering, fast: distances.squared_distances(M, M)
computed for one triangle only and mirrored.

The matrix is symmetric, so half of the product is wasted work; in Pyodide, whose numpy has no
optimised BLAS, that product is most of a complete- or average-link fit (3,000 rows: about 90 of 220
ms). Blocks of rows get their distances to themselves and every later row (one product each) and the
blocks below the diagonal are copies of the ones above. The upper triangle is the same numbers as
squared_distances gives; the lower one is its mirror (squared_distances rounds the two orders of a
pair separately, so it can differ there in the last bit). tests/unit/test_fast_paths.py checks both.
"""

import numpy as np

BLOCK = 256  # rows per product: large enough for few numpy calls, small enough to stay in cache


def pairwise_squared_distances(M):
    """(n, n) ||x_i - x_j||^2 of the rows of M (n, d), clipped at 0 and exactly symmetric."""
    n = len(M)
    sq = np.einsum("ij,ij->i", M, M)  # (n,)
    left = np.hstack([-2.0 * M, sq[:, None], np.ones((n, 1))])  # (n, d+2), as squared_distances
    right_T = np.ascontiguousarray(np.hstack([M, np.ones((n, 1)), sq[:, None]]).T)  # (d+2, n)
    D = np.empty((n, n))
    for start in range(0, n, BLOCK):
        rows = slice(start, start + BLOCK)
        np.matmul(left[rows], right_T[:, start:], out=D[rows, start:])  # the block and all rows after it
    for start in range(0, n, BLOCK):
        rows = slice(start, start + BLOCK)
        D[start + BLOCK:, rows] = D[rows, start + BLOCK:].T
        square = D[rows, rows]  # the diagonal block: its lower half mirrors its upper half too
        square[...] = np.triu(square) + np.triu(square, 1).T
    return np.maximum(D, 0.0, out=D)
