"""The fast grower's costs of categorical tests (growth_fast.py), for every open node of a level at once,
from a (node, value) table of the nodes' statistics: a multiway test's, the best binary test "A in S"
among growth.candidate_subsets', and a one_vs_rest column's from the (node, value) pairs present only."""

import numpy as np

from .criteria import heavy_enough


def value_table(criterion, codes, n_values, rows, node, n_nodes):
    """(s, A, V) statistics of each open node's rows taking each value of a categorical column."""
    table = criterion.group_stats(rows, node * n_values + codes[rows], n_nodes * n_values)  # (s, A * V)
    return table.reshape(-1, n_nodes, n_values)


def multiway_cost(criterion, table, min_leaf, min_weight=0.0):
    """(A,) cost after a multiway split on the column of `table` (inf where a non-empty branch would
    hold fewer than min_leaf rows, or weigh less than min_weight)."""
    n_value = criterion.samples(table)  # (A, V)
    cost = criterion.cost(table).sum(axis=1)
    small = n_value < min_leaf
    if min_weight > 0:
        small |= ~heavy_enough(criterion.mass(table), min_weight)
    return np.where(((n_value > 0) & small).any(axis=1), np.inf, cost)


def binary_cost(criterion, table, totals, min_leaf, min_weight=0.0):
    """Best test "A in S" on one categorical column at every open node: (cost (A,), inf where no test
    is valid; what its left set weighs (A,); order (A, V); count (A,)), the left set of node a being
    order[a, :count[a]].

    The candidates are growth.candidate_subsets': prefixes of the values ordered by P(second class) or
    mean target, or (three or more classes) each value alone (a one_vs_rest column: one_vs_rest_cost).
    Ties go to the earliest candidate."""
    s, A, V = table.shape
    n_value = criterion.samples(table)  # (A, V)
    one_vs_rest = criterion.task == "classification" and criterion.k > 2
    if one_vs_rest:
        order = np.broadcast_to(np.arange(V), (A, V))
        left = table  # (s, A, V) each value alone
    else:
        key = criterion.order_key(table, n_value)  # (A, V) absent values last
        order = np.argsort(key, axis=1, kind="stable")  # (A, V)
        left = np.cumsum(np.take_along_axis(table, order[None], axis=2), axis=2)  # (s, A, V) prefixes
    n_left = criterion.samples(left)  # (A, V)
    n_node = criterion.samples(totals)[:, None]  # (A, 1)
    cost = criterion.cost(left) + criterion.cost(totals[:, :, None] - left)  # (A, V)
    cost = np.where((n_left >= min_leaf) & (n_node - n_left >= min_leaf), cost, np.inf)
    if min_weight > 0:
        mass_left = criterion.mass(left)  # (A, V)
        mass_right = criterion.mass(totals)[:, None] - mass_left
        heavy = heavy_enough(mass_left, min_weight) & heavy_enough(mass_right, min_weight)
        cost = np.where(heavy, cost, np.inf)
    best = cost.min(axis=1)  # (A,)
    first = np.argmax(cost <= (best + criterion.tol * criterion.mass(totals))[:, None], axis=1)  # (A,)
    left_mass = criterion.mass(left)[np.arange(A), first]  # (A,) what the chosen left set weighs
    if one_vs_rest:
        return best, left_mass, first[:, None], np.ones(A, dtype=np.intp)
    return best, left_mass, order, first + 1


def one_vs_rest_cost(criterion, codes, n_values, rows, node, totals, min_leaf, min_weight=0.0):
    """binary_cost's answer for a one_vs_rest column, from the (node, value) pairs present only: a
    column of hundreds of values meets a few of them at each deep node, so the dense (s, A, V) table
    would be nearly all zeros. Candidates in value order within a node; ties go to the lowest value."""
    A = totals.shape[1]
    pair, inverse = np.unique(node * n_values + codes[rows], return_inverse=True)  # (P,) sorted by node
    left = criterion.group_stats(rows, inverse.ravel(), len(pair))  # (s, P) each value alone
    at = pair // n_values  # (P,) the node of each pair
    n_left = criterion.samples(left)  # (P,)
    n_node = criterion.samples(totals)[at]  # (P,)
    cost = criterion.cost(left) + criterion.cost(totals[:, at] - left)  # (P,)
    cost = np.where((n_left >= min_leaf) & (n_node - n_left >= min_leaf), cost, np.inf)
    if min_weight > 0:
        mass_left = criterion.mass(left)  # (P,)
        heavy = heavy_enough(mass_left, min_weight) & heavy_enough(criterion.mass(totals)[at] - mass_left, min_weight)
        cost = np.where(heavy, cost, np.inf)
    first = np.searchsorted(at, np.arange(A))  # (A,) each node's first pair (every open node has rows)
    best = np.minimum.reduceat(cost, first)  # (A,)
    near = cost <= (best + criterion.tol * criterion.mass(totals))[at]  # (P,) costs that tie the best
    chosen = np.minimum(np.minimum.reduceat(np.where(near, np.arange(len(pair)), len(pair)), first),
                        len(pair) - 1)  # (A,)
    value = pair[chosen] % n_values  # (A,) the left set's one value
    return best, criterion.mass(left)[chosen], value[:, None], np.ones(A, dtype=np.intp)
