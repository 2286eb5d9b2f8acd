"""Squared Euclidean distances between two sets of rows: what k-means assigns by, agglomerative
clustering merges by, and the cluster measures (Dunn index, silhouette) judge by."""

import numpy as np


def squared_distances(A, B, B_sq=None):
    """||a - b||^2 for every pair of rows, by the expansion ||a||^2 - 2 a.b + ||b||^2 (clipped at 0),
    computed as one matrix product of [-2a, ||a||^2, 1] and [b, 1, ||b||^2]."""
    A_sq = np.einsum("ij,ij->i", A, A)  # (m,)
    if B_sq is None:
        B_sq = np.einsum("ij,ij->i", B, B)  # (p,)
    left = np.hstack([-2.0 * A, A_sq[:, None], np.ones((len(A), 1))])  # (m, d+2)
    right = np.hstack([B, np.ones((len(B), 1)), B_sq[:, None]])  # (p, d+2)
    D2 = left @ right.T  # (m, p)
    return np.maximum(D2, 0.0, out=D2)
