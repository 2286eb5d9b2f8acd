"""What a boosting trace keeps of each round's per-row numbers (weights, residuals, leaves, F): those of the
first TRACE_ROWS training rows, as plain lists. The steps view follows one row; every row of a large table
for every round would take hundreds of megabytes in the page."""

import numpy as np

TRACE_ROWS = 2000


def first_rows(values):
    """The first TRACE_ROWS rows of an (n, ...) array, as nested lists of Python numbers."""
    return np.asarray(values)[:TRACE_ROWS].tolist()


def rows_traced(n):
    """How many of n rows a trace keeps."""
    return min(n, TRACE_ROWS)
