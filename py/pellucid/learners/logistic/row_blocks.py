"""The rows [1, x] as logistic_fast's losses read them: transposed, (D, n), one contiguous row per feature
with the bias feature first, taken a block of rows at a time.

Where that transposed copy is small (at most KEEP_CELLS values: every table of the speed suite) it is
made once and kept for the whole fit, one block: the layout the losses were tuned on. On more rows a
copy would double the data's memory (10^6 x 20: 168 MB beside X's 160), so the fit keeps none and reads
X's own rows in place, BLOCK_CELLS values at a time (`Rows`): the scores and the gradient's sums are
matrix products with X or its transpose as an operand, which BLAS reads as fast, and which without BLAS
(Pyodide) cost about what they cost on transposed rows (matmul for the scores, einsum for the sums),
the bias's part summed apart. Only the Hessian without BLAS wants transposed rows (its products table
multiplies whole feature rows): StreamedGram transposes each block into one reused buffer. Without BLAS
a table with one-hot columns keeps its copy at any size, for the per-category sums of its Hessian.

10^6 x 20, natively, one thread, CPU time of a fit: 0.59 s with the kept copy, 0.45 s in place; numpy's
own loops standing in for Pyodide's (no BLAS), 0.90 s either way. In Pyodide under Node, 300,000 x 20:
0.51 s kept, 0.52 s in place (binary), 0.91 and 0.85 s (3 classes).
"""

import numpy as np

from ...tabular.features import bias_rows
from ..shared.gram_fast import HAS_BLAS
from .indicator_gram import indicator_groups

KEEP_CELLS = 1 << 22  # most values of a transposed copy kept for the whole fit (32 MB)
BLOCK_CELLS = 1 << 20  # values of X read as one block beyond that (8 MB; its temporaries scale with it)


class RowBlocks:
    """[1, x]^T of X (n, d) in blocks of rows: `blocks()` yields (part, XT) for the rows `part` (a slice),
    XT their (D, b) transposed rows, D = d + 1, where the copy is kept (one block), else `Rows` of X in
    place."""

    def __init__(self, X=None, XT=None):
        self.X, self.XT = X, XT  # X (n, d) read only, or the kept XT (D, n)
        self.D, self.n = XT.shape if XT is not None else (X.shape[1] + 1, X.shape[0])
        self.step = self.n if XT is not None else max(1, BLOCK_CELLS // self.D)  # rows a block

    @classmethod
    def of(cls, X):
        """The blocks of X (n, d): kept whole when small, or without BLAS where some columns are one-hot
        groups (their Hessian blocks are summed per category from the kept rows, indicator_gram.py: in
        Pyodide, 200,000 x 45 with 25 one-hot columns, 1.3 s a fit against 2.3 streamed); else streamed
        from X itself."""
        if (X.shape[1] + 1) * X.shape[0] <= KEEP_CELLS or (not HAS_BLAS and indicator_groups(X.T)):
            return cls(XT=bias_rows(X))
        return cls(X=X)

    @classmethod
    def wrap(cls, XT):
        """XT (D, n) as one kept block; RowBlocks are returned as they are."""
        return XT if isinstance(XT, cls) else cls(XT=np.asarray(XT))

    @property
    def kept(self):
        return self.XT is not None

    def blocks(self):
        if self.kept:
            yield slice(0, self.n), self.XT
            return
        for start in range(0, self.n, self.step):
            yield slice(start, min(start + self.step, self.n)), Rows(self.X[start:start + self.step])

    def take(self, rows):
        """(D, m) kept copy of the rows numbered `rows`."""
        return np.ascontiguousarray(self.XT[:, rows]) if self.kept else bias_rows(self.X[rows])

    def times(self, W):
        """W @ [1, x]^T for W (K, D): every row's score per class, (K, n)."""
        if self.kept:
            return W @ self.XT
        out = np.empty((len(W), self.n))
        for part, rows in self.blocks():
            out[:, part] = rows.scores(W)
        return out


class Rows:
    """A block of X's rows (b, d) as they are, standing for [1, x]^T (D, b): the losses' products over
    the rows, with the bias feature's part summed apart."""

    def __init__(self, X):
        self.X = X  # (b, d), read only

    def scores(self, W):
        """W @ [1, x]^T for W (K, D): (K, b)."""
        return W[:, 1:] @ self.X.T + W[:, :1]

    def sums(self, A):
        """A @ [1, x] for A (m, b): sums of the rows weighted by each row of A, (m, D). Without BLAS
        einsum's loop, twice as fast as numpy's own matrix product in Pyodide."""
        out = np.empty((len(A), self.X.shape[1] + 1))
        out[:, 0] = A.sum(axis=1)
        out[:, 1:] = A @ self.X if HAS_BLAS else np.einsum("mn,nd->md", A, self.X)
        return out

    def gram_sums(self, C):
        """(m, D, D) sums sum_i c_i [1, x_i][1, x_i]^T, one per row of C (m, b), by BLAS: X^T diag(c) X
        as B^T B with B = diag(sqrt(c)) X where no weight is negative (the Hessian's never are)."""
        grams = np.empty((len(C), self.X.shape[1] + 1, self.X.shape[1] + 1))
        for G, c in zip(grams, C):
            if np.all(c >= 0.0):
                B = self.X * np.sqrt(c)[:, None]  # (b, d)
                G[1:, 1:] = B.T @ B
            else:
                G[1:, 1:] = (self.X * c[:, None]).T @ self.X
            G[0, 0] = c.sum()
            G[0, 1:] = G[1:, 0] = c @ self.X
        return grams

    def transposed(self, buffer):
        """[1, x]^T (D, b), contiguous, in the first D b values of `buffer` (flat)."""
        b, d = self.X.shape
        XT = buffer[:(d + 1) * b].reshape(d + 1, b)
        XT[0] = 1.0
        XT[1:] = self.X.T
        return XT
