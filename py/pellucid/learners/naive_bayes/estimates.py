"""The arithmetic under naive Bayes: Laplace estimates from count tables, logs with log 0 = -inf kept
exactly, per-class sums, log-sum-exp normalisation, and JSON-able copies of the tables for traces.

Notes 000 ("Smoothing") gives the Laplace estimate P_LAP,k(x | y) = (count(x, y) + k) / (count(y) + k |X|);
notes 001 advises working in log space so that products of many small probabilities do not underflow.
"""

import numpy as np

from ...core.jsonable import tagged


def laplace_estimate(counts, total, k, n_values):
    """Notes 000's P_LAP,k(x|y) = (count(x,y) + k) / (count(y) + k|X|); k = 0 gives the MLE.

    A 0/0 (no examples and k = 0) is taken as 0 rather than NaN."""
    counts = np.asarray(counts, dtype=float)
    denominator = np.asarray(total, dtype=float) + k * n_values
    with np.errstate(divide="ignore", invalid="ignore"):
        p = (counts + k) / denominator
    return np.where(denominator > 0, p, 0.0)


def safe_log(p):
    """log with log 0 = -inf and no warning (notes 000's zero-probability case)."""
    with np.errstate(divide="ignore"):
        return np.log(p)


def finite_and_zero(log_p):
    """Split a log table into its finite part (with -inf read as 0) and a 0/1 table of where it was -inf."""
    zero = np.isneginf(log_p)
    return np.where(zero, 0.0, log_p), zero.astype(float)


_BLOCK_CELLS = 1 << 16  # values of X taken in floats at once by the block-wise sums below (they stay in cache)


def class_sums(values, codes, n_classes, weights=None):
    """(C, d) per-class column sums (each row times its weight), as one matrix product with the one-hot
    class indicator (built as (C, n): in Pyodide that layout makes the indicator and the product about
    twice as fast). A sparse `values` stays sparse: the product is taken as X^T @ indicator^T."""
    onehot = (codes == np.arange(n_classes)[:, None]).astype(float)  # (C, n)
    if weights is not None:
        onehot *= weights
    if hasattr(values, "tocsr"):  # scipy.sparse: its own product, (d, C), never densifying X
        return np.asarray(values.T @ onehot.T).T
    if values.dtype == float:
        return onehot @ values
    # 0/1 as bool (BernoulliNB): taken in floats a block of rows at a time, where the product would cast a
    # float copy of all of X first (at 10^6 rows, 160 MB written for 20 MB of bools).
    sums = np.zeros((n_classes, values.shape[1]))
    step = max(1, _BLOCK_CELLS // max(1, values.shape[1]))
    for a in range(0, len(codes), step):
        sums += onehot[:, a:a + step] @ values[a:a + step].astype(float)
    return sums


def class_square_sums(values, codes, centres, weights=None):
    """(C, d) per class, the (weighted) sum of (x - centre)^2 over its rows, each row's centre being its
    class's row of `centres` (C, d): class_sums of the squared residuals, formed a block of rows at a
    time, so that no (n, d) residual nor square of it is made (at 10^6 rows those two copies and the
    gather of the centres were most of GaussianNB's fit). The blocks' sums are added in another order
    than one product over all the rows: the same figures within rounding (about 1e-15 relative)."""
    total = np.zeros(centres.shape)
    step = max(1, _BLOCK_CELLS // max(1, values.shape[1]))
    for start in range(0, len(codes), step):
        at = codes[start:start + step]
        residual = values[start:start + step] - centres[at]  # (b, d)
        residual *= residual
        total += class_sums(residual, at, len(centres), None if weights is None else weights[start:start + step])
    return total


def category_positions(cats, col):
    """(n,) an index into the sorted categories for each value, right wherever the value is a category
    (callers check cats[pos] == col). Small whole-number categories use a lookup table, others a search."""
    if cats.dtype.kind == "f" and cats[-1] - cats[0] < 4 * len(cats) + 64 and np.all(cats == np.round(cats)):
        lookup = np.zeros(int(cats[-1] - cats[0]) + 1, dtype=np.intp)
        lookup[(cats - cats[0]).astype(np.intp)] = np.arange(len(cats))
        return lookup[np.clip(col - cats[0], 0, len(lookup) - 1).astype(np.intp)]
    return np.minimum(np.searchsorted(cats, col), len(cats) - 1)


def normalise(jll):
    """log P(y | x) = jll - log sum_y exp(jll) (log-sum-exp; each row has a finite entry)."""
    top = jll.max(axis=1, keepdims=True)  # (n, 1)
    return jll - (top + np.log(np.exp(jll - top).sum(axis=1, keepdims=True)))


def jsonable(value):
    """Plain JSON-able copy: numpy to Python, and -inf (log 0) to the string "-inf" as the model codec does."""
    return tagged(value)
