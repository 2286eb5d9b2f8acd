"""Coding X for a tree: numeric columns stay numbers, categorical columns become codes of their values.

A tree splits a categorical attribute multiway, one branch per value seen in the whole training set
(notes 000, DECISION-TREE-LEARNING: "for each value v_k of A"). The values are kept sorted, and a
column is stored as the index of its value in that list, so the tree can be kept in flat numeric
arrays; a value never seen in training is coded -1.

The columns come validated from the one reader of X (tabular.features), which refuses missing values
as everywhere in pellucid; note that the word "None" is a value, not a missing cell: the restaurant
data's Patrons attribute takes it.
"""

import numpy as np

from ...core.validation import CATEGORICAL


def category_lists(kinds, data):
    """For each column, the sorted list of its values (categorical) or None (numeric)."""
    return [sorted(set(col.tolist())) if kind == CATEGORICAL else None for kind, col in zip(kinds, data)]


def encode(kinds, data, categories, order="C"):
    """(n, d) float matrix: numeric values as they are, categorical values as codes (-1 if unseen);
    order="F" lays it out column by column, as growing a tree reads it (its transpose is then no copy)."""
    n = len(data[0])
    out = np.empty((n, len(data)), order=order)  # (n, d)
    for j, (kind, col) in enumerate(zip(kinds, data)):
        if kind != CATEGORICAL:
            out[:, j] = col
            continue
        known = np.array(categories[j], dtype=str)  # (V,) sorted
        values = np.array(col.tolist(), dtype=str)  # (n,)
        pos = np.searchsorted(known, values)  # (n,)
        pos = np.minimum(pos, len(known) - 1)
        out[:, j] = np.where(known[pos] == values, pos, -1)
    return out
