"""The rows [1, x] as logistic_fast's losses read them: transposed, (D, n), one contiguous row per feature
with the bias feature first, taken a block of rows at a time.

Where that transposed copy is small (at most KEEP_CELLS values) it is made once and kept for the whole
fit, one block: the layout the losses were tuned on, in Pyodide above all, where numpy has no BLAS and
einsum's loops want long contiguous rows. On more rows a copy would double the data's memory (10^6 x 20:
168 MB beside X's 160), so each pass over the rows transposes one block of them at a time into a buffer
of BLOCK_CELLS values instead (8 MB), and the fit keeps no copy of X. Natively that costs about what the
one whole copy did on 10^6 x 20 (a pass transposes in about 40 ms, the copy took 200-600 ms to fault in).
"""

import numpy as np

from ...tabular.features import bias_rows

KEEP_CELLS = 1 << 22  # most values of a transposed copy kept for the whole fit (32 MB)
BLOCK_CELLS = 1 << 20  # values of one block transposed at a time beyond that (8 MB)


class RowBlocks:
    """[1, x]^T of X (n, d) in blocks of rows: `blocks()` yields (part, XT), XT (D, b) the transposed
    rows `part` (a slice), D = d + 1. A kept copy is one block; streamed blocks share one buffer, so a
    block is read before the next is asked for and never kept."""

    def __init__(self, X=None, XT=None):
        self.X, self.XT = X, XT  # X (n, d) read only, or the kept XT (D, n)
        self.D, self.n = XT.shape if XT is not None else (X.shape[1] + 1, X.shape[0])
        self.step = self.n if XT is not None else max(1, BLOCK_CELLS // self.D)  # rows a block

    @classmethod
    def of(cls, X):
        """The blocks of X (n, d): kept whole when small, else streamed from X itself."""
        if (X.shape[1] + 1) * X.shape[0] <= KEEP_CELLS:
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
        buffer = np.empty(self.D * min(self.step, self.n))
        for start in range(0, self.n, self.step):
            stop = min(start + self.step, self.n)
            XT = buffer[:self.D * (stop - start)].reshape(self.D, stop - start)  # contiguous, last one too
            XT[0] = 1.0
            XT[1:] = self.X[start:stop].T
            yield slice(start, stop), XT

    def take(self, rows):
        """(D, m) kept copy of the rows numbered `rows`."""
        return np.ascontiguousarray(self.XT[:, rows]) if self.kept else bias_rows(self.X[rows])

    def times(self, W):
        """W @ [1, x]^T for W (K, D): every row's score per class, (K, n)."""
        if self.kept:
            return W @ self.XT
        out = np.empty((len(W), self.n))
        for part, XT in self.blocks():
            out[:, part] = W @ XT
        return out
