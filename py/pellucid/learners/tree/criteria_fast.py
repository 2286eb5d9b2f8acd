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


def for_target(target):
    """The fast criterion of a readable target (criteria.Classes or criteria.Values)."""
    if isinstance(target, Classes):
        return ClassCriterion(target.y, target.k, target.kind, target.weights)
    return VarianceCriterion(target.y_raw)


class ClassCriterion:
    """Class counts as statistics; cost = samples * (entropy in bits | gini). gain_ratio costs entropy,
    and `rank` divides each chosen test's gain by its split information."""

    task = "classification"

    def __init__(self, y_codes, n_classes, kind="entropy", weights=None):
        self.y = np.asarray(y_codes, dtype=np.int32)  # (n,)
        self.k = n_classes
        self.kind = kind
        self.by_ratio = kind == "gain_ratio"
        self.weights = None if weights is None else np.asarray(weights, dtype=float)[:, None]  # (k, 1)
        # What each row weighs (1, or its class's weight): the sizes split information reads.
        self.row_mass = np.ones(len(self.y)) if weights is None else self.weights[self.y, 0]  # (n,)
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
        return stats.sum(axis=0)

    def mass(self, stats):
        """Weighted number of examples of (k, ...) counts (their number, without class weights)."""
        return self.samples(stats) if self.weights is None else self._weigh(stats).sum(axis=0)

    def _weigh(self, stats):
        return stats * self.weights.reshape((self.k,) + (1,) * (stats.ndim - 1))

    def split_costs(self, orders, xs, valid, sizes, totals):
        """Candidate cuts (flat indices into (F, m), ascending), their node, and the cost of the two
        sides when the node's segment of an order is cut there.

        orders: (F, m) rows grouped by node (segments of `sizes`), sorted by xs within; valid: (F, m)
        cuts between different values of one node; totals: (k, A) class counts of the nodes.

        Only boundary points are scored: cuts between examples of different classes, or next to tied
        values. Inside a run of one class the cost is strictly concave in the cut position (for
        entropy and Gini alike), so it is lower at an end of the run (Fayyad and Irani, 1992): the
        best cut, and the first of several equally good ones, is always a boundary point."""
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

    def group_stats(self, rows, groups, n_groups):
        """(k, n_groups) class counts of `rows` falling in each group."""
        flat = np.bincount(self.y[rows] * n_groups + groups, minlength=self.k * n_groups)
        return flat.reshape(self.k, n_groups)

    def cost(self, stats, total=None):
        """samples * impurity for every column of (k, ...) counts (total: their sums, if known);
        with class weights, mass * impurity of the weighted counts."""
        if self.weights is not None:
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
        """True for columns whose examples all share one class."""
        return (stats > 0).sum(axis=0) <= 1

    def impurity(self, stats):
        total = self.mass(stats)
        return np.where(total > 0, self.cost(stats) / np.where(total > 0, total, 1), 0.0)


def _xlog2x(v):
    """v log2 v elementwise, 0 at 0."""
    return v * np.log2(np.where(v > 0, v, 1.0))


class VarianceCriterion:
    """Count, sum and sum of squares of the (centred) target; cost = samples * variance."""

    task = "regression"
    by_ratio = False  # IMPORTANCE is the variance reduction itself

    def __init__(self, y):
        y = np.asarray(y, dtype=float)
        self.offset = float(y.mean())
        self.y = y - self.offset  # centred, so sums of squares lose less to cancellation
        self.k = 3
        self.tol = 1e-12 * max(float(np.mean(self.y ** 2)), 1e-300)

    def samples(self, stats):
        return stats[0]

    mass = samples  # every example weighs 1

    def split_costs(self, orders, xs, valid, sizes, totals):
        """(None, None, cost): the (F, m) n * variance of the two sides when the node's segment of an
        order is cut after each entry (inf where the cut is not valid); every cut is a candidate.

        Both sides' sums of squares add up to the node's, so only running sums are needed:
        cost = sum_sq(node) - sum_left^2 / n_left - sum_right^2 / n_right."""
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

    def group_stats(self, rows, groups, n_groups):
        y = self.y[rows]
        return np.vstack([np.bincount(groups, weights=w, minlength=n_groups)
                          for w in (np.ones_like(y), y, y * y)])  # (3, n_groups)

    def cost(self, stats, total=None):
        count = stats[0] if total is None else total
        sums, squares = stats[1], stats[2]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(count > 0, squares - sums * sums / np.maximum(count, 1), 0.0)
        return np.maximum(out, 0.0)

    def is_pure(self, stats):
        return self.cost(stats) <= 1e-12 * np.maximum(stats[2], 1e-300) + 1e-300

    def impurity(self, stats):
        count = stats[0]
        return np.where(count > 0, self.cost(stats) / np.maximum(count, 1), 0.0)

    def mean(self, stats):
        count = stats[0]
        return self.offset + np.where(count > 0, stats[1] / np.maximum(count, 1), 0.0)
