"""Split costs for many candidate splits at once: the fast arithmetic behind growth_fast.py.

criteria.py writes IMPORTANCE as the notes do, one node at a time. Here the same quantities come from
"sufficient statistics" kept as an (s, m) array (class counts, or count/sum/sum of squares of the
target): with cost(node) = samples * impurity(node), the gain of a split is
(cost(parent) - sum cost(child)) / samples, so every threshold of every node and numeric column is
scored by one expression over running sums. With class weights (class_weight="balanced") the
statistics stay row counts; `cost` weighs them, and `mass` is a node's weighted number of examples,
the `samples` that gains are divided by (`samples` itself counts rows, for the leaf-size limits).
"""

import numpy as np

from .criteria import Classes, gain_ratio

BLOCK_CELLS = 1 << 16  # numbers the weighted split costs keep at once (512 kB), per block of features


def for_target(target):
    """The fast criterion of a readable target (criteria.Classes or criteria.Values)."""
    if isinstance(target, Classes):
        return ClassCriterion(target.y, target.k, target.kind, target.weights, target.sample_weight)
    return VarianceCriterion(target.y_raw, target.sample_weight)


class ClassCriterion:
    """Class counts as statistics; cost = samples * (entropy in bits | gini). gain_ratio costs entropy,
    and `rank` divides each chosen test's gain by its split information. With sample weights the
    statistics are (2k, ...): the class counts of rows, then each class's sum of sample weights, which
    the cost reads (criteria.Classes)."""

    task = "classification"

    def __init__(self, y_codes, n_classes, kind="entropy", weights=None, sample_weight=None):
        self.y = np.asarray(y_codes, dtype=np.int32)  # (n,)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)  # (n,)
        self.k = n_classes
        self.kind = kind
        self.by_ratio = kind == "gain_ratio"
        self.weights = None if weights is None else np.asarray(weights, dtype=float)[:, None]  # (k, 1)
        # What each row weighs (1, or its class's weight): the sizes split information reads.
        self.row_mass = np.ones(len(self.y)) if weights is None else self.weights[self.y, 0]  # (n,)
        if self.sample_weight is not None:
            self.row_mass = self.row_mass * self.sample_weight
        self.tol = 1e-12
        n = len(self.y)
        counts = np.arange(n + 1, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            self._xlogx = np.where(counts > 0, counts * np.log2(counts), 0.0)  # (n + 1,)
        # Running class counts come from cumulative sums of packed indicators: class c of a group
        # adds 1 << (bits * c), so one sum counts several classes, read back by shifts.
        self._bits = max(n.bit_length(), 1)
        per_word = max(62 // self._bits, 1)
        self._groups = [range(first, min(first + per_word, n_classes)) for first in range(0, n_classes, per_word)]
        self._words = [sum((self.y == c).astype(np.int64) << (self._bits * (c - g.start)) for c in g)
                       for g in self._groups]  # each (n,)

    def samples(self, stats):
        return stats[:self.k].sum(axis=0)

    @property
    def _plain(self):
        """True when the statistics are the counts the cost reads, weighed by nothing."""
        return self.weights is None and self.sample_weight is None

    def mass(self, stats):
        """Weighted number of examples of (k, ...) counts (their number, without class or sample weights)."""
        return self.samples(stats) if self._plain else self._weigh(stats).sum(axis=0)

    def _weigh(self, stats):
        """The (k, ...) class counts the cost reads: sums of sample weights (if any), times class weights (if any)."""
        if self.sample_weight is not None:
            stats = stats[self.k:]
        if self.weights is None:
            return stats
        return stats * self.weights.reshape((self.k,) + (1,) * (stats.ndim - 1))

    def order_key(self, table, n_value):
        """(A, V) P(second class) of each value at each node, as the cost weighs the examples (the order
        of binary tests' candidate sets, growth.candidate_subsets); inf for values absent from a node."""
        if self.sample_weight is None:
            return np.where(n_value > 0, table[1] / np.maximum(n_value, 1), np.inf)
        weighted = self._weigh(table)  # (k, A, V)
        mass = weighted.sum(axis=0)
        share = np.where(mass > 0, weighted[1] / np.where(mass > 0, mass, 1.0), 0.0)
        return np.where(n_value > 0, share, np.inf)

    def split_costs(self, orders, xs, valid, sizes, totals):
        """Candidate cuts (flat indices into (F, m), ascending), their node, and the cost of the two
        sides when the node's segment of an order is cut there.

        orders: (F, m) rows grouped by node (segments of `sizes`), sorted by xs within; valid: (F, m)
        cuts between different values of one node; totals: (k, A) class counts of the nodes.

        Only boundary points are scored: cuts between examples of different classes, or next to tied
        values. Inside a run of one class the cost is strictly concave in the cut position (for
        entropy and Gini alike), so it is lower at an end of the run (Fayyad and Irani, 1992): the
        best cut, and the first of several equally good ones, is always a boundary point. With sample
        weights the counts are sums of weights, which the packed integer sums cannot carry, and a row
        may weigh 0 (the growers allow it), which breaks that argument: every valid cut is scored."""
        if self.sample_weight is not None:
            return None, None, self._weighted_split_costs(orders, valid, sizes, totals)
        F, m = orders.shape
        words = [w[orders] for w in self._words]  # each (F, m)
        labels = words[0] if len(words) == 1 else self.y[orders]  # equal words <=> equal labels
        maybe = np.ones((F, m), dtype=bool)
        np.not_equal(labels[:, :-1], labels[:, 1:], out=maybe[:, :-1])
        ties = xs[:, :-1] == xs[:, 1:]  # (F, m - 1)
        maybe[:, 1:] |= ties
        maybe[:, :-2] |= ties[:, 1:]
        # The ends of every stretch of valid cuts too (min_samples_leaf cuts the ends of a node's
        # segment): within one class the cost is concave, so its least valid value is at such an end.
        maybe[:, 0] = maybe[:, -1] = True
        maybe[:, 1:] |= ~valid[:, :-1]
        maybe[:, :-1] |= ~valid[:, 1:]
        maybe &= valid
        flat = np.flatnonzero(maybe)  # (c,) candidate cuts, as indices into (F, m)
        pos = flat % m
        node = np.repeat(np.arange(len(sizes)), sizes)[pos]  # (c,)
        left = np.empty((self.k, len(flat)), dtype=np.intp)  # (k, c) counts up to the cut ...
        mask = (1 << self._bits) - 1
        for word, group in zip(words, self._groups):
            packed = np.cumsum(word, axis=-1, out=word).ravel()[flat]  # (c,)
            for c in group:
                left[c] = (packed >> (self._bits * (c - group.start))) & mask
        ends = np.cumsum(totals, axis=1)  # (k, A) counts up to the end of each segment
        left -= (ends - totals)[:, node]  # ... minus those before the node's segment
        right = totals[:, node] - left  # (k, c)
        n_left = pos + 1 - (np.cumsum(sizes) - sizes)[node]  # (c,)
        return flat, node, self.cost(left, n_left) + self.cost(right, sizes[node] - n_left)

    def _weighted_split_costs(self, orders, valid, sizes, totals):
        """(F, m) cost of the two sides of every cut of every node's segment (inf where not valid), from
        running sums of each class's sample weights along the orders."""
        totals = totals[self.k:].astype(float)  # (k, A) each class's weight at each node
        before = np.repeat(np.cumsum(totals, axis=1) - totals, sizes, axis=1)  # (k, m) weight of the earlier segments
        whole = np.repeat(totals, sizes, axis=1)  # (k, m) weight of the node's segment
        cost = np.empty(orders.shape)
        for part in feature_blocks(orders.shape, 2 * self.k):
            cost[part] = self._weighted_part_costs(orders[part], before, whole)
        cost[~valid] = np.inf
        return cost

    def _weighted_part_costs(self, orders, before, whole):
        """The costs of `orders`' cuts (some features' rows of the node orders), valid or not."""
        sides = np.empty((2, self.k) + orders.shape)  # (2, k, f, m) left and right weighted counts
        weight = self.sample_weight[orders]  # (f, m)
        labels = self.y[orders]  # (f, m)
        for c in range(self.k):
            np.cumsum(np.where(labels == c, weight, 0.0), axis=1, out=sides[0, c])
            sides[0, c] -= before[c]
            np.maximum(sides[0, c], 0.0, out=sides[0, c])  # cancellation must not make a weight negative
            np.subtract(whole[c], sides[0, c], out=sides[1, c])
            np.maximum(sides[1, c], 0.0, out=sides[1, c])
        if self.weights is not None:
            sides *= self.weights.reshape(1, self.k, 1, 1)
        return self._weighted_cost(sides[0]) + self._weighted_cost(sides[1])  # (f, m)

    def group_stats(self, rows, groups, n_groups):
        """(k, n_groups) class counts of `rows` falling in each group (with sample weights (2k, n_groups):
        the counts, then each class's sum of weights)."""
        keys = self.y[rows] * n_groups + groups
        flat = np.bincount(keys, minlength=self.k * n_groups)
        counts = flat.reshape(self.k, n_groups)
        if self.sample_weight is None:
            return counts
        weights = np.bincount(keys, weights=self.sample_weight[rows], minlength=self.k * n_groups)
        return np.vstack([counts, weights.reshape(self.k, n_groups)])

    def cost(self, stats, total=None):
        """samples * impurity for every column of (k, ...) counts (total: their sums, if known);
        with class weights, mass * impurity of the weighted counts."""
        if not self._plain:
            return self._weighted_cost(self._weigh(stats))
        if total is None:
            total = stats.sum(axis=0)
        if self.kind != "gini":
            table = self._xlogx
            out = table[total]
            for row in stats:
                out = out - table[row]
            return out
        squares = (stats.astype(float) ** 2).sum(axis=0)
        return np.where(total > 0, total - squares / np.maximum(total, 1), 0.0)

    def _weighted_cost(self, weighted):
        """mass * impurity of (k, ...) weighted counts: entropy W log2 W - sum_c v_c log2 v_c, or
        Gini W - sum_c v_c^2 / W (W = sum_c v_c), each 0 for a node without examples."""
        total = weighted.sum(axis=0)
        if self.kind != "gini":
            return _xlog2x(total) - _xlog2x(weighted).sum(axis=0)
        squares = (weighted ** 2).sum(axis=0)
        return np.where(total > 0, total - squares / np.where(total > 0, total, 1.0), 0.0)

    def rank(self, gain, sizes):
        """IMPORTANCE of tests of these gains whose branches weigh (..., branches): the gain, or for
        gain_ratio the gain over the split information (criteria.Classes.rank)."""
        return gain_ratio(gain, sizes) if self.by_ratio else gain

    def is_pure(self, stats):
        """True for columns whose examples (those that weigh anything) all share one class."""
        if self.sample_weight is not None:
            stats = stats[self.k:]
        return (stats > 0).sum(axis=0) <= 1

    def impurity(self, stats):
        total = self.mass(stats)
        return np.where(total > 0, self.cost(stats) / np.where(total > 0, total, 1), 0.0)


def feature_blocks(shape, arrays):
    """Slices of the features (rows) of an (F, m) order, each block small enough that `arrays` float
    arrays of its shape (the weighted path's running sums) take about BLOCK_CELLS numbers between them:
    a forest's or a boosted stump's root reads every row of every offered feature, and its temporaries of
    all features at once were many times the data's size."""
    F, m = shape
    step = max(1, BLOCK_CELLS // max(1, arrays * m))
    return [slice(start, start + step) for start in range(0, F, step)]


def _xlog2x(v):
    """v log2 v elementwise, 0 at 0."""
    return v * np.log2(np.where(v > 0, v, 1.0))


class VarianceCriterion:
    """Count, sum and sum of squares of the (centred) target; cost = samples * variance. With sample
    weights (count of rows, sum of weights, weighted sum, weighted sum of squares); cost = weight *
    weighted variance (criteria.Values)."""

    task = "regression"
    by_ratio = False  # IMPORTANCE is the variance reduction itself

    def __init__(self, y, sample_weight=None):
        y = np.asarray(y, dtype=float)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)  # (n,)
        w = self.sample_weight
        self.offset = float(y.mean()) if w is None else float(np.average(y, weights=w))
        self.y = y - self.offset  # centred, so sums of squares lose less to cancellation
        self.k = 3
        mean_square = float(np.mean(self.y ** 2)) if w is None else float(np.average(self.y ** 2, weights=w))
        self.tol = 1e-12 * max(mean_square, 1e-300)
        self.row_mass = np.ones(len(y)) if w is None else w  # (n,) what each row weighs

    def samples(self, stats):
        return stats[0]

    def _moments(self, stats):
        """(3, ...) weight, weighted sum and weighted sum of squares: what the variance reads."""
        return stats if self.sample_weight is None else stats[1:]

    def mass(self, stats):
        return self._moments(stats)[0]  # the number of examples, or their sum of weights

    def order_key(self, table, n_value):
        """(A, V) mean target of each value at each node; inf for values absent from a node."""
        moments = self._moments(table)
        return np.where(n_value > 0, moments[1] / np.where(moments[0] > 0, moments[0], 1.0), np.inf)

    def split_costs(self, orders, xs, valid, sizes, totals):
        """(None, None, cost): the (F, m) n * variance of the two sides when the node's segment of an
        order is cut after each entry (inf where the cut is not valid); every cut is a candidate.

        Both sides' sums of squares add up to the node's, so only running sums are needed:
        cost = sum_sq(node) - sum_left^2 / n_left - sum_right^2 / n_right (weighted: n the weights)."""
        if self.sample_weight is not None:
            return None, None, self._weighted_split_costs(orders, valid, sizes, totals)
        F, m = orders.shape
        starts = np.cumsum(sizes) - sizes  # (A,)
        n_left = np.arange(1, m + 1) - np.repeat(starts, sizes)  # (m,)
        n_right = np.repeat(sizes, sizes) - n_left  # (m,)
        with np.errstate(divide="ignore"):
            inv_right = np.where(n_right > 0, 1.0 / np.maximum(n_right, 1), 0.0)  # (m,)
        left = np.cumsum(self.y[orders], axis=-1)  # (F, m) running sum of y ...
        left -= np.repeat(np.cumsum(totals[1]) - totals[1], sizes)  # ... within the node's segment
        right = np.repeat(totals[1], sizes) - left  # (F, m)
        left *= left
        left *= 1.0 / n_left
        right *= right
        right *= inv_right
        left += right  # (F, m) sum_left^2 / n_left + sum_right^2 / n_right
        cost = np.repeat(totals[2], sizes) - left  # (F, m)
        np.maximum(cost, 0.0, out=cost)
        cost[~valid] = np.inf
        return None, None, cost

    def _weighted_split_costs(self, orders, valid, sizes, totals):
        """split_costs with sample weights: running sums of w and w y along the orders."""
        weight, total, squares = totals[1], totals[2], totals[3]  # each (A,)
        segment = (np.repeat(np.cumsum(weight) - weight, sizes), np.repeat(np.cumsum(total) - total, sizes),
                   np.repeat(weight, sizes), np.repeat(total, sizes), np.repeat(squares, sizes))  # each (m,)
        cost = np.empty(orders.shape)
        for part in feature_blocks(orders.shape, 6):
            cost[part] = self._weighted_part_costs(orders[part], *segment)
        cost[~valid] = np.inf
        return cost

    def _weighted_part_costs(self, orders, weight_before, total_before, weight, total, squares):
        """The costs of `orders`' cuts (some features' rows of the node orders), valid or not."""
        w = self.sample_weight[orders]  # (f, m)
        w_left = np.cumsum(w, axis=-1) - weight_before  # (f, m)
        y_left = np.cumsum(w * self.y[orders], axis=-1) - total_before
        w_right = weight - w_left
        y_right = total - y_left
        with np.errstate(divide="ignore", invalid="ignore"):
            explained = np.where(w_left > 0, y_left * y_left / w_left, 0.0) + \
                np.where(w_right > 0, y_right * y_right / w_right, 0.0)
        return np.maximum(squares - explained, 0.0)  # (f, m)

    def group_stats(self, rows, groups, n_groups):
        y = self.y[rows]
        columns = (np.ones_like(y), y, y * y)
        if self.sample_weight is not None:
            w = self.sample_weight[rows]
            columns = (np.ones_like(y), w, w * y, w * y * y)
        return np.vstack([np.bincount(groups, weights=c, minlength=n_groups) for c in columns])  # (s, n_groups)

    def cost(self, stats, total=None):
        moments = self._moments(stats)
        count = moments[0] if total is None or self.sample_weight is not None else total
        sums, squares = moments[1], moments[2]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(count > 0, squares - sums * sums / np.where(count > 0, count, 1), 0.0)
        return np.maximum(out, 0.0)

    def is_pure(self, stats):
        return self.cost(stats) <= 1e-12 * np.maximum(self._moments(stats)[2], 1e-300) + 1e-300

    def impurity(self, stats):
        count = self.mass(stats)
        return np.where(count > 0, self.cost(stats) / np.where(count > 0, count, 1), 0.0)

    def mean(self, stats):
        moments = self._moments(stats)
        count = moments[0]
        return self.offset + np.where(count > 0, moments[1] / np.where(count > 0, count, 1), 0.0)
