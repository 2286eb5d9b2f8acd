"""The last stage of the lattice search (grid.py): the (query, row) pairs it found measured in
all p features as distance_scores.exact measures them, and each query's k nearest of its pairs by
(distance, training row).

A boundary's queries share the held features' values, so a row's differences in them are the same for
every query: they are worked out once per row (`gaps`, x - q, exact's q - x negated: the same squares and
absolute values) and only the two varying features' are put in for each pair."""

import numpy as np

from . import distance_scores
from .kd_tree import order_by_query_distance_row

_EXACT_PAIRS = 8192  # (query, row) pairs measured in all features at once


def measured(Q, gaps, xu, xw, u, w, query, rows, metric):
    """(pairs,) exact's distances from the queries Q[query] (m, p) to the training rows `rows`: gaps (n, p)
    holds x - Q[0] for every row (u and w aside), xu and xw (n,) the rows' values of u and w."""
    dist = np.empty(len(query))
    x_of, y_of = np.ascontiguousarray(Q[:, u])[query], np.ascontiguousarray(Q[:, w])[query]  # (pairs,) each
    for first in range(0, len(query), _EXACT_PAIRS):  # in pieces that stay in the cache
        pairs = slice(first, first + _EXACT_PAIRS)
        found = rows[pairs]
        diff = gaps[found]  # (pairs, p) exact's differences, negated, once u and w are put in
        diff[:, u], diff[:, w] = xu[found] - x_of[pairs], xw[found] - y_of[pairs]
        dist[pairs] = distance_scores.length_of_differences(diff, metric)
    return dist


def k_best(query, dist, rows, m, k):
    """(distances, indices), each (m, k): each query's k nearest of its (query, distance, row) pairs,
    by distance, then training row. The pairs of a query come together; when no query has more than
    k (no tie at a k-th place), each run of k is sorted where it is."""
    if len(query) == m * k:  # every query has at least k pairs, so exactly k here
        dist, rows = dist.reshape(m, k), rows.reshape(m, k)
        flat = (np.argsort(dist, axis=1) + np.arange(0, m * k, k)[:, None]).ravel()  # equal distances: below
        ranked, ranked_rows = dist.ravel()[flat].reshape(m, k), rows.ravel()[flat].reshape(m, k)
        tied = np.flatnonzero((ranked[:, 1:] == ranked[:, :-1]).any(axis=1))  # equal distances: by training row
        if len(tied):
            by_row = np.lexsort((ranked_rows[tied], ranked[tied]), axis=-1)
            ranked_rows[tied] = np.take_along_axis(ranked_rows[tied], by_row, axis=1)
        distances, indices = np.empty((m, k)), np.empty((m, k), dtype=rows.dtype)
        distances[query[::k]], indices[query[::k]] = ranked, ranked_rows
        return distances, indices
    order = order_by_query_distance_row(query, dist, rows, int(rows.max()) + 1)
    take = np.searchsorted(query[order], np.arange(m))[:, None] + np.arange(k)  # (m, k)
    return dist[order][take], rows[order][take]
