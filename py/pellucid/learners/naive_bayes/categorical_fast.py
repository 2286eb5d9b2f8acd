"""Categorical naive Bayes' log-likelihoods fast: every column at once where every column's categories
are small whole numbers (codes), the common case of a numeric table of categories.

discrete.CategoricalNB writes it column by column (find each value among the column's sorted categories,
take its log-estimates, sum over the columns); that is a few numpy calls per column, which on a table
of 1,000 columns is most of predict's time. Here all the columns' categories and log-estimates are laid
end to end, one lookup table finds every value's category in every column, and one gather and one sum
add the terms up. The columns are summed in the same order, one after the other, so the numbers are
the same to the last bit; tests/unit/test_naive_bayes_fast.py checks it.
"""

import numpy as np

from .estimates import finite_and_zero, safe_log

_BLOCK_CELLS = 1 << 16  # (column, row) values looked up at once: a block's (d, b) arrays stay in cache


def log_likelihood(data, categories, log_prob, class_count, alpha):
    """CategoricalNB._log_likelihood (finite (n, C), n_zero (n, C) or None) of `data`, the (d, n) columns
    (a 2-D float array, or a list of float columns), or None where a column's categories are not small
    whole numbers (texts, fractions, wide ranges): then the column-by-column way is the one."""
    columns = _as_matrix(data)
    table = columns is not None and _lookup(categories)
    if not table:
        return None
    lookup, starts, lows, widths, cats, offsets = table
    d, n = columns.shape
    n_cats = np.diff(offsets)  # (d,)
    unseen = alpha / (class_count[:, None] + alpha * n_cats) if alpha > 0 else np.ones((len(class_count), d))
    # Each column's log-estimates, then one more entry per column for a value it never took: (total + d, C).
    terms = np.concatenate(list(log_prob) + [safe_log(unseen)], axis=1)  # (C, total + d)
    finite, zero = finite_and_zero(terms) if alpha == 0 else (terms, None)
    out_finite = np.empty((n, len(class_count)))
    out_zero = None if zero is None else np.empty_like(out_finite)
    low, top, start = lows[:, None], (widths - 1)[:, None].astype(float), starts[:, None]  # (d, 1) each
    unseen_at = len(cats) + np.arange(d)[:, None]  # (d, 1)
    step = max(1, _BLOCK_CELLS // max(1, d))
    for a in range(0, n, step):
        block = np.ascontiguousarray(columns[:, a:a + step])  # (d, b) copied from one run of rows of X
        # As category_positions: the lookup slot of each value, clipped into its column's table (a value
        # that is not a category lands on some category and fails the check below).
        slot = block - low
        np.maximum(slot, 0.0, out=slot)
        np.minimum(slot, top, out=slot)
        slot += start
        pos = lookup[slot.astype(np.intp)]  # (d, b) a place in `cats`, right wherever the value is a category
        pos = np.where(cats[pos] == block, pos, unseen_at)  # a value never seen: its column's own entry
        # Class by class, a gather of single numbers (much faster than gathering rows of C), added up
        # column after column as the readable sum adds them.
        for c in range(len(class_count)):
            out_finite[a:a + step, c] = _column_after_column(finite[c][pos])
            if out_zero is not None:
                out_zero[a:a + step, c] = _column_after_column(zero[c][pos])
    return out_finite, out_zero


def _column_after_column(terms):
    """(b,) the sum over axis 0 of terms (d, b), added one row after the other: numpy's sum does so when
    it runs along the rows (b > 1), but adds a single column (b = 1) in pairs, which can change the last
    bit; a running sum (10 times slower) keeps the order there."""
    return terms.sum(axis=0) if terms.shape[1] > 1 else np.cumsum(terms, axis=0)[-1]


def _as_matrix(data):
    """The (d, n) float columns as one array (maybe a view of X (n, d)), or None when they are not all
    numbers."""
    if isinstance(data, np.ndarray):
        return data if data.ndim == 2 and data.dtype.kind == "f" else None
    if len(data) == 0 or not all(isinstance(col, np.ndarray) and col.dtype.kind == "f" for col in data):
        return None
    return np.stack(data)


def _lookup(categories):
    """(lookup, starts, lows, widths, cats, offsets) where every column's categories are whole numbers
    spanning at most 4 per category + 64 (as category_positions' lookup), else None: `cats` all the
    categories end to end (column j's at offsets[j]:offsets[j + 1]), `lookup[starts[j] + v - lows[j]]`
    the place in `cats` of column j's category v (its first category where v is none)."""
    if not categories or not all(c.dtype.kind == "f" and len(c) for c in categories):
        return None
    sizes = np.array([len(c) for c in categories])  # (d,)
    offsets = np.concatenate([[0], np.cumsum(sizes)])  # (d + 1,)
    cats = np.concatenate(categories)  # (total,)
    lows, highs = cats[offsets[:-1]], cats[offsets[1:] - 1]  # (d,) each column's sorted categories' ends
    if not (np.all(cats == np.round(cats)) and np.all(highs - lows < 4 * sizes + 64)):
        return None
    widths = (highs - lows).astype(np.intp) + 1  # (d,)
    starts = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.intp)  # (d,)
    column = np.repeat(np.arange(len(sizes)), sizes)  # (total,) the column of each category
    lookup = np.repeat(offsets[:-1], widths).astype(np.intp)  # a gap in a column's range: its first category
    lookup[starts[column] + (cats - lows[column]).astype(np.intp)] = np.arange(len(cats))
    return lookup, starts, lows, widths, cats, offsets
