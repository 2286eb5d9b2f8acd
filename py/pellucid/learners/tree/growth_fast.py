"""Growing the tree fast: growth.py's DECISION-TREE-LEARNING with all nodes of one depth at a time.

The recursion of the notes (growth.py) builds the same tree whatever order the nodes are expanded in,
so here every node of a depth is expanded together and the arithmetic runs over all of them at once in
numpy. growth.py grows the tree one node at a time for traced fits (the steps view); this grower serves
every other fit, and tests/unit/test_fast_paths.py checks that both give the same tree.

Numeric attributes get binary tests x <= t, with t halfway between consecutive distinct values, and
can be tested again further down. The rows are kept in an (F, m) matrix of orders: row f lists the
rows of the open nodes grouped by node (same segments for every f) and sorted by column f within each
node. Cumulative sums of the rows' statistics along it give the class counts left of every threshold,
so one expression scores every threshold of every node and numeric column. Children inherit their
order by a stable partition of the parent's segment. Categorical attributes are scored from a
(node, value, class) count table: multiway tests are not reused below a node that tested them; binary
tests "A in S" score every candidate left set of growth.candidate_subsets at once, from prefix sums
of the table with each node's values in their order; one-value tests (one_vs_rest) score only the
(node, value) pairs present.

Missing numbers (NaN) are scored on both sides of every threshold (gaps_fast.py).
"""

import numpy as np

from .category_costs_fast import binary_cost, multiway_cost, one_vs_rest_cost, value_table
from .criteria import heavy_enough
from .criteria_fast import for_target
from .feature_draw import number_level, offered_mask
from .gaps_fast import gaps_first, missing_counts, missing_sides
from .orders import chunks, partition, sorted_orders, take_rows
from .structure import ALL_PRESENT, LEAF, REASON, Tree, in_left_set


_ROWS_FOR_COLUMNWISE = 4096  # numeric_cuts: a level of fewer rows scores every column at once


def _starts(sizes):
    return np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.intp)  # (A,)


def _best_thresholds(criterion, XT, orders, sizes, totals, min_leaf=1, min_weight=0.0, gaps=False):
    """Best threshold of every numeric column at every open node.

    XT: (F, n) numeric columns; orders: (F, m) orders; sizes: (A,) rows per node; totals: (s, A) node
    statistics; gaps: whether the columns may hold missing values. Returns (cost after the best split, inf
    if none; threshold; what the rows left of it weigh, or None unless the criterion ranks by gain ratio),
    each (F, A)."""
    F, m = orders.shape
    A = len(sizes)
    starts = _starts(sizes)
    xs = take_rows(XT, orders)  # (F, m)
    # Position i cuts between sorted entries i and i + 1 of the same node with different values.
    valid = np.zeros((F, m), dtype=bool)
    valid[:, :-1] = xs[:, :-1] < xs[:, 1:]
    if gaps:  # and between a node's last present value and its first missing one
        missing = np.isnan(xs)
        valid[:, :-1] |= ~missing[:, :-1] & missing[:, 1:]
    valid[:, starts + sizes - 1] = False
    if min_leaf > 1:  # both sides keep at least min_leaf rows
        n_left = np.arange(1, m + 1) - np.repeat(starts, sizes)  # (m,)
        valid &= (n_left >= min_leaf) & (np.repeat(sizes, sizes) - n_left >= min_leaf)
    if min_weight > 0:  # both sides weigh at least min_weight: running weights along each order
        masses = criterion.mass(totals)  # (A,)
        left = np.cumsum(take_rows(np.broadcast_to(criterion.row_mass, (F, len(criterion.row_mass))), orders),
                         axis=1) - np.repeat(np.cumsum(masses) - masses, sizes)  # (F, m)
        valid &= heavy_enough(left, min_weight) & heavy_enough(np.repeat(masses, sizes) - left, min_weight)
    # Candidate cuts in ascending flat order (so grouped by column, then node) with their cost, or
    # (when every valid cut is a candidate) the (F, m) costs with inf at the invalid ones. Costs within
    # tol * samples of the best tie (gains within tol): the first is chosen, as growth.py chooses.
    flat, node, cost = criterion.split_costs(orders, xs, valid, sizes, totals)
    masses = criterion.mass(totals)  # (A,) gains are cost decreases per unit of mass: ties scale with it
    best = np.full(F * A, np.inf)  # (F * A,)
    threshold = np.full(F * A, np.nan)
    if flat is None:
        group_best = np.minimum.reduceat(cost, starts, axis=1)  # (F, A)
        near = np.repeat(group_best + criterion.tol * masses, sizes, axis=1)  # (F, m) costs that tie the best
        index = np.where(cost <= near, np.arange(m), m)
        chosen = np.minimum.reduceat(index, starts, axis=1)  # (F, A) first best cut of each node
        keep = np.flatnonzero(np.isfinite(group_best))  # groups with a valid cut
        group, group_best = keep, group_best.ravel()[keep]
        chosen = (keep // A) * m + chosen.ravel()[keep]
    elif len(flat):
        group = (flat // m) * A + node  # (c,) ascending: which (column, node) each cut belongs to
        first = np.flatnonzero(np.diff(group, prepend=-1))  # (g,) start of each group
        group_best = np.minimum.reduceat(cost, first)  # (g,)
        size = np.diff(np.append(first, len(cost)))
        near = np.repeat(group_best + criterion.tol * masses[node[first]], size)  # (c,) costs that tie the best
        index = np.where(cost <= near, np.arange(len(cost)), len(cost))
        chosen = flat[np.minimum.reduceat(index, first)]  # (g,) first best cut of each group
        group = group[first]
    else:
        return best.reshape(F, A), threshold.reshape(F, A), np.zeros((F, A)) if criterion.by_ratio else None
    lo, hi = xs.ravel()[chosen], xs.ravel()[chosen + 1]
    mid = lo / 2.0 + hi / 2.0
    best[group] = group_best
    mid = np.where((mid >= hi) | (mid < lo), lo, mid)  # rounding guard
    threshold[group] = np.where(np.isnan(hi), ALL_PRESENT, mid)  # after the last present value: "present?"
    left_mass = None
    if criterion.by_ratio:  # the split information needs the weight left of each chosen cut
        running = np.cumsum(take_rows(np.broadcast_to(criterion.row_mass, (F, len(criterion.row_mass))), orders),
                            axis=1)  # (F, m)
        before = np.where(starts > 0, running[:, np.maximum(starts - 1, 0)], 0.0)  # (F, A) up to each segment
        left_mass = np.zeros(F * A)
        left_mass[group] = running.ravel()[chosen] - before.ravel()[group]
        left_mass = left_mass.reshape(F, A)
    return best.reshape(F, A), threshold.reshape(F, A), left_mass


class _Grower:
    """State of one growth: node records appended level by level."""

    def __init__(self, X, is_categorical, n_values, criterion, max_depth, min_samples_split, min_gain,
                 min_samples_leaf=1, binary=None, single=None, min_weight_leaf=0.0, n_offered=None, seed=0):
        self.X, self.criterion = X, criterion
        self.min_weight = min_weight_leaf
        self.n_offered, self.seed = n_offered, seed  # max_features: attributes offered at each node
        self.keys = np.empty(0, dtype=np.uint64)  # per node id, its key for the draw (feature_draw.py)
        self.is_cat = np.asarray(is_categorical, dtype=bool)
        self.binary = np.zeros(X.shape[1], dtype=bool) if binary is None else np.asarray(binary, dtype=bool)
        self.single = np.zeros(X.shape[1], dtype=bool) if single is None else np.asarray(single, dtype=bool)
        self.min_leaf = min_samples_leaf
        self.left_values = {}  # node id -> left set of its binary categorical test
        self.subsets = {}  # per binary column, the (order, count) of the level being scored
        self.n_values = np.asarray(n_values, dtype=np.intp)
        self.codes = {j: X[:, j].astype(np.intp) for j in np.flatnonzero(self.is_cat)}
        self.numeric = np.flatnonzero(~self.is_cat)
        # (F, n): for a column-major X of numeric columns only (as trees encode it), X.T itself, no copy
        self.XT = X.T if len(self.numeric) == X.shape[1] and X.flags.f_contiguous else np.ascontiguousarray(
            X[:, self.numeric].T)
        self.gaps = np.isnan(self.XT).any(axis=1) if np.isnan(np.sum(self.XT)) else np.zeros(len(self.XT), bool)
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_gain = min_gain
        self.n_nodes = 0
        self.levels = []  # per level: dict of node arrays
        self.inner = []  # per level: (ids, feature, threshold, child_start, n_children, gain)
        self.evaluated = []  # per level: (ids, candidate gains (A, d))
        self.no_gain = []

    def new_nodes(self, parent, branch, depth, stats, used):
        """Record a level of nodes; returns (ids, mask of nodes still to expand)."""
        count = stats.shape[1]
        ids = number_level(self, parent, branch, count)
        samples = self.criterion.samples(stats)
        reason = np.full(count, -1)
        attributes_left = (~used[:, self.is_cat]).any(axis=1) | (len(self.numeric) > 0)
        depth_reached = depth >= self.max_depth if self.max_depth is not None else np.zeros(count, bool)
        # Later entries win, so a leaf is named by the pseudocode's first test that holds (empty, same
        # classification, no attributes), then by the pre-pruning stops.
        for mask, name in ((samples < self.min_samples_split, "min_samples_split"), (depth_reached, "max_depth"),
                           (~attributes_left, "no attributes"), (self.criterion.is_pure(stats), "pure"),
                           (samples == 0, "empty branch: plurality of parent")):
            reason[mask] = REASON[name]
        self.levels.append({"parent": parent, "branch": branch, "depth": depth, "stats": stats,
                            "reason": reason})
        return ids, reason < 0

    def grow(self):
        n = self.X.shape[0]
        rows = np.arange(n)
        stats = self.criterion.group_stats(rows, np.zeros(n, np.intp), 1)  # (s, 1)
        used = np.zeros((1, self.X.shape[1]), dtype=bool)
        ids, open_ = self.new_nodes(np.array([-1]), np.array([0]), np.array([0]), stats, used)
        # Orders: one per numeric column, or just the rows when there is none.
        orders = sorted_orders(self.XT) if len(self.numeric) else rows[None, :]  # (F, n)
        level = (ids, stats, used, orders) if open_[0] else None
        depth = 0
        while level is not None:
            level = self.expand_level(*level, depth)
            depth += 1
        return self.finish()

    def score(self, stats, used, orders, sizes, offered=None):
        """Candidate gains (A, d) and thresholds (A, d) of every attribute at every open node; with `offered`
        ((A, d) bool, max_features), NaN gains where a node is not offered the attribute."""
        A, d = stats.shape[1], self.X.shape[1]
        parent_cost = self.criterion.cost(stats)  # (A,)
        masses = self.criterion.mass(stats)  # (A,) the node sizes gains are per (weighted, if classes are)
        gains = np.full((A, d), np.nan)
        thresholds = np.full((A, d), np.nan)
        self.goes_left = np.zeros((A, d), dtype=bool)  # (A, d) whether a column's missing values go left
        if len(self.numeric):
            cost, threshold, left, goes_left = self.numeric_cuts(stats, orders, sizes, offered)
            thresholds[:, self.numeric] = threshold.T
            if goes_left is not None:
                self.goes_left[:, self.numeric] = goes_left.T
            gain = np.where(np.isfinite(cost.T), parent_cost[:, None] - cost.T, 0.0) / masses[:, None]  # (A, F)
            if self.criterion.by_ratio:
                gain = self.criterion.rank(gain, np.stack([left.T, masses[:, None] - left.T], axis=-1))
            gains[:, self.numeric] = gain
        node = np.repeat(np.arange(A), sizes)  # (m,)
        for j in np.flatnonzero(self.is_cat):
            if self.single[j]:
                cost, left, *self.subsets[j] = one_vs_rest_cost(self.criterion, self.codes[j], self.n_values[j],
                                                                 orders[0], node, stats, self.min_leaf,
                                                                 self.min_weight)
                branches = np.stack([left, masses - left], axis=-1)  # (A, 2) what each side weighs
            elif self.binary[j]:
                table = value_table(self.criterion, self.codes[j], self.n_values[j], orders[0], node, A)
                cost, left, *self.subsets[j] = binary_cost(self.criterion, table, stats, self.min_leaf,
                                                            self.min_weight)
                branches = np.stack([left, masses - left], axis=-1)
            else:
                table = value_table(self.criterion, self.codes[j], self.n_values[j], orders[0], node, A)
                cost = multiway_cost(self.criterion, table, self.min_leaf, self.min_weight)
                branches = self.criterion.mass(table) if self.criterion.by_ratio else None  # (A, V)
            gain = np.where(np.isfinite(cost), parent_cost - cost, 0.0) / masses
            if self.criterion.by_ratio:
                gain = self.criterion.rank(gain, branches)
            gains[:, j] = np.where(used[:, j], np.nan, gain)
        return (gains if offered is None else np.where(offered, gains, np.nan)), thresholds

    def numeric_cuts(self, stats, orders, sizes, offered):
        """(cost, threshold, left weight or None, missing values left or None), each (F, A): the missing-right
        scoring of `right_cuts`, bettered on the columns with gaps by sending their missing values left."""
        cost, threshold, left = self.right_cuts(stats, orders, sizes, offered)
        if not self.gaps.any():
            return cost, threshold, left, None
        goes_left = np.zeros(cost.shape, dtype=bool)
        tie = self.criterion.tol * self.criterion.mass(stats)  # (A,) gains within tol tie: the right side wins
        for i in np.flatnonzero(self.gaps):
            n_missing = missing_counts(self.XT[i], orders[i], _starts(sizes))  # (A,)
            at = np.flatnonzero(n_missing)  # the nodes with gaps in this column: only there can it differ
            if not len(at):
                continue
            rows = orders[i] if len(at) == len(sizes) else orders[i][np.repeat(n_missing > 0, sizes)]
            moved = gaps_first(rows, sizes[at], _starts(sizes[at]), n_missing[at])
            c, t, lm = _best_thresholds(self.criterion, self.XT[i:i + 1], moved[None], sizes[at], stats[:, at],
                                        self.min_leaf, self.min_weight)
            better = at[c[0] < cost[i, at] - tie[at]]
            won = np.isin(at, better)
            cost[i, better], threshold[i, better], goes_left[i, better] = c[0, won], t[0, won], True
            if left is not None:
                left[i, better] = lm[0, won]
        return cost, threshold, left, goes_left

    def right_cuts(self, stats, orders, sizes, offered):
        """_best_thresholds of every numeric column at every open node, a few columns at a time on a large
        level (orders.py: the temporaries stay within a budget). With `offered` on a level of many rows,
        one column at a time on the rows of the nodes offered it, which skips the work of the columns a
        node is not offered (most of it, for a forest's sqrt of the features). On a few rows the calls per
        column cost more than they save: there every column is scored and score() keeps the offered ones."""
        F, A, m = len(self.numeric), len(sizes), orders.shape[1]
        if offered is not None and (m < _ROWS_FOR_COLUMNWISE or offered[:, self.numeric].all()):
            offered = None
        parts = chunks(F, m, per_row=stats.shape[0] + 1)  # the running statistics, and the values
        if offered is None and len(parts) == 1:
            return _best_thresholds(self.criterion, self.XT, orders, sizes, stats, self.min_leaf, self.min_weight,
                                    self.gaps.any())
        cost, threshold = np.full((F, A), np.inf), np.full((F, A), np.nan)
        left = np.zeros((F, A)) if self.criterion.by_ratio else None
        if offered is None:  # every column, a chunk at a time
            for part in parts:
                out = _best_thresholds(self.criterion, self.XT[part], orders[part], sizes, stats, self.min_leaf,
                                       self.min_weight, self.gaps[part].any())
                cost[part], threshold[part] = out[0], out[1]
                if left is not None:
                    left[part] = out[2]
            return cost, threshold, left
        for i, column in enumerate(self.numeric):  # each column on the nodes offered it
            nodes = offered[:, column]  # (A,)
            if not nodes.any():
                continue
            rows = orders[i] if nodes.all() else orders[i][np.repeat(nodes, sizes)]
            out = _best_thresholds(self.criterion, self.XT[i:i + 1], rows[None], sizes[nodes], stats[:, nodes],
                                   self.min_leaf, self.min_weight, self.gaps[i])
            cost[i, nodes], threshold[i, nodes] = out[0][0], out[1][0]
            if left is not None:
                left[i, nodes] = out[2][0]
        return cost, threshold, left

    def expand_level(self, ids, stats, used, orders, depth):
        """Score every open node of this depth, split those with gain > min_gain, create their children.
        Returns the children still to expand, with their orders."""
        sizes = self.criterion.samples(stats).astype(np.intp)  # (A,)
        offered = None if self.n_offered is None else offered_mask(self.keys[ids], ~used, self.n_offered)
        gains, thresholds = self.score(stats, used, orders, sizes, offered)
        self.evaluated.append((ids, gains))
        best = np.nanmax(gains, axis=1)  # (A,)
        # Gains within tol (1e-12 bits; 1e-12 of Var(y) for regression) tie: the earliest column wins.
        tol = self.criterion.tol
        feature = np.argmax(gains >= (best - tol)[:, None], axis=1)  # (A,)
        splits = best > self.min_gain + tol
        self.no_gain.append(ids[~splits])
        if not splits.any():
            return None
        rows = orders[0] if splits.all() else orders[0][np.repeat(splits, sizes)]  # rows of the split nodes
        threshold = thresholds[splits, feature[splits]]
        goes_left = self.goes_left[splits, feature[splits]]  # (S,)
        left_sets = self.chosen_subsets(np.flatnonzero(splits), feature[splits])  # split index -> codes
        ids, feature, used, sizes = ids[splits], feature[splits], used[splits], sizes[splits]
        self.left_values.update((int(ids[k]), codes) for k, codes in left_sets.items())
        # Children: 2 for a numeric or binary test, one per training value for a multiway one.
        categorical = self.is_cat[feature]
        multiway = categorical & ~self.binary[feature]
        n_children = np.where(multiway, self.n_values[feature], 2)  # (S,)
        first_child = _starts(n_children)  # (S,) index within the next level
        # Route the rows of the split nodes to their child.
        node = np.repeat(np.arange(len(ids)), sizes)  # (m,)
        value = self.X[rows, feature[node]]
        step = np.where(categorical[node], value, value > threshold[node]).astype(np.intp)  # (m,)
        gap = np.isnan(value) if self.gaps.any() else None  # (m,) missing values of numeric tests
        if gap is not None:
            step[gap] = ~goes_left[node[gap]]
        if left_sets:  # rows at a binary categorical test go left when their value is in the left set
            binary = np.isin(node, list(left_sets))  # (m,)
            step[binary] = ~in_left_set(node[binary], value[binary].astype(np.intp), left_sets)
        total = int(n_children.sum())
        child_stats = self.criterion.group_stats(rows, first_child[node] + step, total)  # (s, C)
        missing_left, had_gaps = missing_sides(self.criterion.samples(child_stats), goes_left, categorical, gap, node,
                                               first_child)
        self.inner.append((ids, feature, np.where(categorical, np.nan, threshold),
                           self.n_nodes + first_child, n_children, best[splits], missing_left, had_gaps))
        parent = np.repeat(np.arange(len(ids)), n_children)  # (C,)
        child_used = used[parent].copy()
        child_used[np.arange(total), feature[parent]] |= multiway[parent]
        branch = np.arange(total) - first_child[parent]
        child_ids, open_ = self.new_nodes(ids[parent], branch, np.full(total, depth + 1), child_stats,
                                          child_used)
        if not open_.any():
            return None
        child_of_row = np.full(len(self.X), total)  # (n,) rows of nodes that stay leaves: "child" total
        child_of_row[rows] = first_child[node] + step
        orders = partition(orders, child_of_row, np.append(open_, False))
        return child_ids[open_], child_stats[:, open_], child_used[open_], orders

    def chosen_subsets(self, nodes, features):
        """{k: sorted left set} for the split nodes (level indices `nodes`) whose test is binary categorical."""
        out = {}
        for k in np.flatnonzero(self.binary[features]):
            order, count = self.subsets[int(features[k])]
            out[int(k)] = np.sort(order[nodes[k], :count[nodes[k]]])
        return out

    def finish(self):
        """Assemble the recorded levels into a Tree."""
        levels = self.levels
        N, d = self.n_nodes, self.X.shape[1]
        parent = np.concatenate([lv["parent"] for lv in levels])
        branch = np.concatenate([lv["branch"] for lv in levels])
        depth = np.concatenate([lv["depth"] for lv in levels])
        reason = np.concatenate([lv["reason"] for lv in levels])
        stats = np.concatenate([lv["stats"] for lv in levels], axis=1)  # (s, N)
        feature = np.full(N, LEAF)
        threshold = np.full(N, np.nan)
        child_start = np.full(N, -1)
        n_children = np.zeros(N, dtype=np.intp)
        gain = np.full(N, np.nan)
        missing_left, gap_nodes = np.zeros(N, dtype=bool), np.zeros(N, dtype=bool)
        for ids, f, t, c, k, g, ml, gaps in self.inner:
            feature[ids], threshold[ids], child_start[ids], n_children[ids], gain[ids] = f, t, c, k, g
            missing_left[ids], gap_nodes[ids] = ml, gaps
        candidates = np.full((N, d), np.nan)
        for ids, g in self.evaluated:
            candidates[ids] = g
        for ids in self.no_gain:
            reason[ids] = REASON["no gain"]
        return Tree(feature, threshold, child_start, n_children, parent, branch, depth, stats,
                    gain, candidates, reason, self.left_values, missing_left, gap_nodes)


def grow(X, is_categorical, n_values, target, *, max_depth=None, min_samples_split=2, min_gain=0.0,
         min_samples_leaf=1, binary=None, single=None, min_weight_leaf=0.0, n_offered=None, seed=0):
    """growth.grow's tree (same arguments; target: criteria.Classes or criteria.Values), grown level-wise."""
    criterion = for_target(target)
    return _Grower(X, is_categorical, n_values, criterion, max_depth, min_samples_split, min_gain,
                   min_samples_leaf, binary, single, min_weight_leaf, n_offered, seed).grow()
