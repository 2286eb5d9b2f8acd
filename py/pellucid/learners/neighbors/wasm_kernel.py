"""k-NN's candidate search in the page's WebAssembly kernel (web/wasm/knn.wat), used in place of the
numpy score product of neighbors_fast's brute force when the page has one.

In the browser Pyodide's numpy has no BLAS, and scoring every (query, training row) pair is most of a
k-NN prediction. The kernel computes the same scores as distance_scores (float32, Euclidean or cosine)
with 128-bit SIMD, and keeps for each query only the rows whose score is within the query's rounding
slack of its k-th smallest, never writing the block's score matrix. Those candidates go back to
neighbors_fast, which measures them exactly and orders them by (distance, training row) as with numpy,
so the neighbours found are the same.

The page registers the kernel as globalThis.pellucidKernels.knn (web/wasm/knn.mjs), found through
`pellucid.host.kernels`. Natively, or before the page has registered it, `searcher` answers None and
numpy does the work.
"""

import weakref

import numpy as np

from ...host.kernels import page_kernel

_PANEL_ROWS = 8  # the kernel reads the training rows in panels of 8 ...
_GROUP = 4  # ... and scores 4 queries against each panel at once
_TILE_BYTES = 96 * 1024  # panels read per pass over a group of queries: they stay in the cache
_MIN_ROWS = 2048  # below this the float64 scores of distance_scores are cheap enough
_MAX_BLOCK = 256  # queries per call
_BLOCK_STATE_BYTES = 16 * 2 ** 20  # a call's candidates and heaps, in the kernel's memory
_UNIT_ROUNDOFF = 2.0 ** -24

_loaded = None  # a weak reference to the score array whose rows the kernel holds


def _kernel():
    return page_kernel("knn")


def _address(array):
    return array.__array_interface__["data"][0]


def _score_rows(prepared, metric):
    """The training side of the kernel's scores: (source array, its float32 rows with the extra row),
    (d, n) in score-column order; None when the kernel does not apply."""
    if metric == "euclidean" and prepared["XaT"].dtype == np.float32:
        return prepared["XaT"]  # already [x_c; |x_c|^2]
    if metric == "cosine":
        return prepared["XnT"]  # [x_unit]; a row of zeros is added, as the left side adds a 1
    return None


def _panels(source, metric):
    """(n_panels, d, 8) float32: the rows of `source` (d, n) in the kernel's panel layout, the rows
    past the last one NaN (they never pass a comparison)."""
    rows = source if metric == "euclidean" else np.vstack([source, np.zeros((1, source.shape[1]))])
    d, n = rows.shape
    padded = np.full((d, -(-n // _PANEL_ROWS) * _PANEL_ROWS), np.nan, dtype=np.float32)
    padded[:, :n] = rows
    return np.ascontiguousarray(padded.reshape(d, -1, _PANEL_ROWS).transpose(1, 0, 2))


def available():
    """Whether the page registered its kernel (never natively)."""
    return _kernel() is not None


def applies(prepared, metric):
    """Whether the page's kernel can search these prepared rows: not natively, nor before the page
    registered it, nor for Manhattan distances or small training sets."""
    return (_kernel() is not None and len(prepared["points"]) >= _MIN_ROWS
            and _score_rows(prepared, metric) is not None)


def searcher(prepared, metric, k):
    """A KernelSearch over the prepared training rows (their scores' columns), or None: where the
    kernel does not apply, or when its memory cannot take the rows."""
    global _loaded
    if not applies(prepared, metric):
        return None
    kernel, source = _kernel(), _score_rows(prepared, metric)
    panels = None
    if _loaded is None or _loaded() is not source:  # another model's rows are in the kernel
        _loaded = None
        panels = _panels(source, metric)
        if not kernel.loadRows(_address(panels), panels.shape[0], panels.shape[1]):
            return None
        _loaded = weakref.ref(source)
    d = source.shape[0] + (metric == "cosine")
    return KernelSearch(kernel, metric, k, d)


class KernelSearch:
    """Candidates of blocks of queries against the rows loaded in the kernel."""

    def __init__(self, kernel, metric, k, d):
        self.kernel, self.metric, self.k, self.d = kernel, metric, k, d
        # Room for every row near the limit: the k first rows seen, the rows that lowered the limit
        # since, and ties; a query with more (many equal rows) is searched again with numpy.
        self.cap = 4 * k + 1024
        per_query = 4 * (k + 2 * self.cap + d) + 32
        self.block = int(max(_GROUP, min(_MAX_BLOCK, _BLOCK_STATE_BYTES // per_query // _GROUP * _GROUP)))
        self.tile = max(1, _TILE_BYTES // (d * _PANEL_ROWS * 4))

    def _left(self, side):
        """(groups, d, 4) float32: the queries' side of the scores, in groups of 4 (the last group
        filled with copies of the last query) as the kernel reads them."""
        left = side["left"]
        if self.metric == "cosine":
            left = np.hstack([left, np.ones((len(left), 1))])  # times the training rows' zero row
        padded = np.vstack([left, np.repeat(left[-1:], -len(left) % _GROUP, axis=0)]).astype(np.float32)
        return np.ascontiguousarray(padded.reshape(-1, _GROUP, self.d).transpose(0, 2, 1))

    def _slack(self, side):
        if self.metric == "cosine":  # |q.x| <= 1, as distance_scores, in float32's rounding
            return np.full(len(side["left"]), 8.0 * (self.d + 4) * _UNIT_ROUNDOFF)
        return np.asarray(side["slack"], dtype=float)  # already for float32 scores

    def candidates(self, side):
        """(rows, cols, again) for the queries of `side` (distance_scores.queries): every (query,
        score column) pair that can be among a query's k nearest, and the queries whose ties
        overflowed the kernel's room (to be searched again); None when its memory ran out."""
        c = len(side["left"])
        left = self._left(side)
        slack = np.concatenate([self._slack(side), np.zeros(len(left) * _GROUP - c)])
        total = self.kernel.search(_address(left), len(left) * _GROUP, c, _address(slack), self.k, self.cap,
                                   self.tile)
        if total < 0:
            return None
        cols, counts = np.empty(total, dtype=np.int32), np.empty(c, dtype=np.int32)
        self.kernel.collect(_address(cols), _address(counts))
        rows = np.repeat(np.arange(c), np.maximum(counts, 0))
        return rows, cols.astype(np.intp), np.flatnonzero(counts < 0)
