"""Missing numbers in the fast grower (growth_fast.py): where its row orders put them, and where each split
node sends them.

Missing values (NaN) sort last within every node's segment of an order, so the running sums of
`_best_thresholds` send them right at every threshold, and the cut between a node's last present value and
its first missing one is the test "present or missing" (t = ALL_PRESENT). A column with gaps is then
scored once more, on the nodes that have gaps in it, on an order with each node's missing rows moved to
the front of its segment (`gaps_first`), which sends them left; the better side wins, ties to the right, as
growth.numeric_importance and scikit-learn's trees choose. A split node whose rows had no gap in its
column sends a missing value to the child of more rows (`missing_sides`).
"""

import numpy as np


def missing_counts(values, order, starts):
    """(A,) how many rows of each node's segment of `order` miss their value in `values`."""
    return np.add.reduceat(np.isnan(values[order]), starts).astype(np.intp)


def gaps_first(order, sizes, starts, n_missing):
    """`order` (m,) with each node's `n_missing` missing rows (last in its segment) moved to the segment's
    front; sizes, starts and n_missing (A,) are the segments'."""
    place = np.arange(len(order)) - np.repeat(starts, sizes)  # (m,) position within the segment
    moved = np.empty_like(order)
    moved[np.repeat(starts, sizes) + (place + np.repeat(n_missing, sizes)) % np.repeat(sizes, sizes)] = order
    return moved


def missing_sides(counts, goes_left, categorical, gap, node, first_child):
    """((S,) where each split node sends a missing value, (S,) whether its rows had gaps in the tested
    column): the side chosen for its gaps, or without gaps the side that took more rows. counts: (C,) rows
    of each child; goes_left: (S,) the chosen sides; gap: (m,) the split rows missing their test's value,
    or None when the table has no gap; node: (m,) each row's split node."""
    numeric = ~categorical
    more_left = numeric & (counts[first_child] > counts[np.minimum(first_child + 1, len(counts) - 1)])
    if gap is None:
        return more_left, np.zeros(len(first_child), dtype=bool)
    had_gaps = np.bincount(node[gap], minlength=len(first_child)) > 0  # (S,)
    return np.where(had_gaps, goes_left, more_left) & numeric, had_gaps & numeric
