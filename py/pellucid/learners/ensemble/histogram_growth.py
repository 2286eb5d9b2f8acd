"""Growing a boosting round's regression tree from histograms of binned features (max_bins), a fast path
beside the exact grower (tree/growth_fast.py), which it follows rule for rule.

Every feature is binned once per fit (binning.py). A node is then summed up, for every feature and bin,
by the number of its rows in the bin, their weight and their weighted target: its histogram. Cumulative
sums along the bins give both sides of every cut "bin <= b" at once, and the cut is scored as the exact
grower scores a threshold: cost = sum of squares - S_left^2 / W_left - S_right^2 / W_right, the first of
the cuts within tol of the least cost per feature, the first of the features within tol of the best gain
per node, the same leaf-size, weight and max_features rules. A cut only counts after a bin the node's
rows fill (the other cuts there split its rows the same way), and its threshold is midway between the
values of that bin and the next filled one when the bins hold one value each, so on a feature of at
most max_bins distinct values the tree is the exact grower's.

Missing numbers fill a bin of their own (binning.py). A feature with gaps at a node is scored as
tree/gaps_fast.py scores it: its missing values right of every cut (the cut after the last filled bin is
then the test "present?"), and again left of every cut, which wins only by more than tol; a split node
whose rows had no gap in its feature sends a missing value to the child of more rows.

The histograms of a level come from one np.bincount over (node, feature, bin) keys. Only the smaller
child of each split is counted row by row; its sibling's histogram is the parent's less its own (the
subtraction trick), so a level reads at most half the rows.
"""

import numpy as np

from ...core.errors import DataError
from ..tree.criteria import heavy_enough
from ..tree.criteria_fast import VarianceCriterion
from ..tree.feature_draw import number_level, offered_mask
from ..tree.structure import ALL_PRESENT, LEAF, REASON, Tree

HISTOGRAM_BYTES = 128 * 1024 ** 2  # the most one level's histograms may take (a fit peaks at several times it)


class BinnedRows:
    """The binned training matrix and what every tree of the fit reads of it: (d, n) bin indices and
    each (feature, bin)'s place in a histogram, key[f, i] = f * B + bin[f, i] (feature by feature, so a
    histogram fills one feature's bins at a time)."""

    def __init__(self, bins, binned):
        self.bins, self.binned = bins, binned  # binning.Bins, (d, n) uint8
        self.n_features, self.n_rows = binned.shape
        self.missing = bins.missing_bin  # the bin of missing values
        self.gaps = bool((binned == self.missing).any())  # whether some value is missing
        self.width = self.missing + 1 if self.gaps else self.missing  # B: bins of the widest feature (and gaps)
        offsets = np.arange(self.n_features, dtype=np.intp)[:, None] * self.width
        self.keys = binned.astype(np.intp) + offsets  # (d, n) intp: what np.bincount counts without a cast
        # (d * B,) how many rows fill each (feature, bin): the root's counts whenever every row is grown on
        self.counts = np.bincount(self.keys.ravel(), minlength=self.n_features * self.width).astype(float)


class _Level:
    """The open nodes of one depth: their ids, statistics (s, A) and histograms (c, A, d, B)."""

    def __init__(self, ids, stats, hist):
        self.ids, self.stats, self.hist = ids, stats, hist


class _HistogramGrower:
    """One tree's growth, level by level, over the rows `rows` of a BinnedRows with weights (or None)."""

    def __init__(self, data, rows, y, weights, max_depth, min_samples_split, min_samples_leaf,
                 min_weight_leaf, n_offered, seed):
        self.data, self.rows = data, rows  # rows: the training rows (weight > 0), or None for all
        self.criterion = VarianceCriterion(y, weights)  # y, weights: of those rows
        y = self.criterion.y  # centred
        # what each row adds to its node's histogram beside its count: (its weight and) its weighted target
        self.channels = [y] if weights is None else [weights, weights * y]
        self.squares = y * self.channels[-1]  # (m,) what each row adds to its node's sum of squares
        self.max_depth, self.min_samples_split = max_depth, min_samples_split
        self.min_leaf, self.min_weight = min_samples_leaf, min_weight_leaf
        self.n_offered, self.seed = n_offered, seed
        self.keys = np.empty(0, dtype=np.uint64)  # per node, its key for the max_features draw
        self.levels, self.inner, self.evaluated, self.no_gain = [], [], [], []
        self.n_nodes = 0

    def keys_of(self, rows):
        """(d, m) histogram keys of training rows `rows` (positions among the training rows; None: all)."""
        if rows is None:
            return self.data.keys if self.rows is None else np.take(self.data.keys, self.rows, axis=1)
        return np.take(self.data.keys, rows if self.rows is None else self.rows[rows], axis=1)

    def bins_of(self, feature, rows):
        """(m,) the bins of training rows `rows` in features `feature` (m,), read from the flat matrix (one
        index per row: cheaper than a two-index take)."""
        columns = rows if self.rows is None else self.rows[rows]
        return np.take(self.data.binned.ravel(), feature * self.data.n_rows + columns)

    def histograms(self, rows, slot, n_slots):
        """(c, n_slots, d, B): count, (weight,) weighted target of the training rows `rows` (None: all)
        in each slot (slot (m,) of each row), feature and bin."""
        d, B = self.data.n_features, self.data.width
        keys = self.keys_of(rows)
        if n_slots > 1:
            keys = keys + slot * (d * B)
        keys = keys.ravel()
        size = n_slots * d * B
        if rows is None and self.rows is None:
            counts = self.data.counts
        else:
            counts = np.bincount(keys, minlength=size).astype(float)
        picked = [c if rows is None else c[rows] for c in self.channels]
        sums = [np.bincount(keys, weights=np.tile(c, d), minlength=size) for c in picked]
        return np.stack([counts, *sums]).reshape(-1, n_slots, d, B)

    def new_nodes(self, parent, branch, depth, stats):
        """Record a level of nodes; returns (ids, mask of the nodes still to expand) (growth_fast's rules)."""
        count = stats.shape[1]
        ids = number_level(self, parent, branch, count)
        reason = np.full(count, -1)
        depth_reached = depth >= self.max_depth if self.max_depth is not None else np.zeros(count, bool)
        for mask, name in ((self.criterion.samples(stats) < self.min_samples_split, "min_samples_split"),
                           (depth_reached, "max_depth"), (self.criterion.is_pure(stats), "pure")):
            reason[mask] = REASON[name]
        self.levels.append({"parent": parent, "branch": branch, "depth": depth, "stats": stats, "reason": reason})
        return ids, reason < 0

    def grow(self):
        """The tree, grown level by level from the root's histogram."""
        n = len(self.criterion.y)
        self.row_node = np.zeros(n, dtype=np.intp)  # each training row's node
        stats = np.array([[n], *([c.sum()] for c in self.channels), [self.squares.sum()]], dtype=float)  # (s, 1)
        ids, open_ = self.new_nodes(np.array([-1]), np.array([0]), np.array([0]), stats)
        level = _Level(ids, stats, self.histograms(None, None, 1)) if open_[0] else None
        depth = 0
        while level is not None:
            level = self.expand(level, depth)
            depth += 1
        return self.finish()

    def score(self, level):
        """(gains (A, d), NaN where a feature is not offered; chosen cut bin (A, d); whether its missing values
        go left (A, d)) of every open node: each feature's first cut within tol of its least cost, its gain
        per unit of the node's weight. With gaps, a feature is scored twice, its missing values right of
        every cut, then left; left wins only by more than tol (growth_fast's rule)."""
        criterion, stats = self.criterion, level.stats
        mass = criterion.mass(stats)  # (A,)
        tie = (criterion.tol * mass)[:, None]  # (A, 1) costs this close tie
        best, cut = _first_best(self.cut_costs(level, False), tie)  # (A, d) each
        goes_left = np.zeros(best.shape, dtype=bool)
        if self.data.gaps:
            best_left, cut_left = _first_best(self.cut_costs(level, True), tie)
            goes_left = best_left < best - tie
            best, cut = np.where(goes_left, best_left, best), np.where(goes_left, cut_left, cut)
        gains = np.where(np.isfinite(best), criterion.cost(stats)[:, None] - best, 0.0) / mass[:, None]
        if self.n_offered is not None:
            offered = offered_mask(self.keys[level.ids], np.ones(gains.shape, dtype=bool), self.n_offered)
            gains = np.where(offered, gains, np.nan)
        return gains, cut, goes_left

    def cut_costs(self, level, missing_left):
        """(A, d, B') the cost, sum of squares - S_left^2 / W_left - S_right^2 / W_right, of cutting each open
        node after each present bin of each feature, its missing values on the left side when missing_left
        (only where it has some); inf where the cut is not valid: after an empty bin, leaving a side
        empty (or, missing values left, no present value right), or a side below min_samples_leaf rows or
        min_weight_fraction_leaf of the weight."""
        hist, stats = level.hist, level.stats  # stats (s, A): count, (weight,) weighted sum, sum of squares
        present = hist[..., :self.data.missing]  # (c, A, d, B') the bins of values present
        count, total = present[0], present[-1]  # each (A, d, B')
        n_left, s_left = np.cumsum(count, axis=-1), np.cumsum(total, axis=-1)
        w_left = n_left if len(hist) == 2 else np.cumsum(present[1], axis=-1)
        if missing_left:
            gap = hist[..., self.data.missing, None]  # (c, A, d, 1) the missing values
            n_left, s_left = n_left + gap[0], s_left + gap[-1]
            w_left = n_left if len(hist) == 2 else w_left + gap[1]
        n_right = stats[0][:, None, None] - n_left
        w_right = self.criterion.mass(stats)[:, None, None] - w_left
        s_right = stats[-2][:, None, None] - s_left
        valid = (count > 0) & (n_right > 0) & (n_left >= self.min_leaf) & (n_right >= self.min_leaf)
        if missing_left:
            valid &= gap[0] > 0
        if self.min_weight > 0:
            valid &= heavy_enough(w_left, self.min_weight) & heavy_enough(w_right, self.min_weight)
        with np.errstate(divide="ignore", invalid="ignore"):
            explained = np.where(w_left > 0, s_left * s_left / w_left, 0.0) + \
                np.where(w_right > 0, s_right * s_right / w_right, 0.0)
        return np.where(valid, np.maximum(stats[-1][:, None, None] - explained, 0.0), np.inf)

    def expand(self, level, depth):
        """Split every open node whose best gain passes tol; returns the next level's open nodes."""
        gains, cut, goes_left = self.score(level)
        self.evaluated.append((level.ids, gains))
        best = np.nanmax(gains, axis=1)  # (A,)
        tol = self.criterion.tol
        feature = np.argmax(gains >= (best - tol)[:, None], axis=1)  # (A,) the earliest of the best
        splits = best > tol
        self.no_gain.append(level.ids[~splits])
        if not splits.any():
            return None
        at = np.flatnonzero(splits)  # (S,) positions of the split nodes in the level
        feature, lo, goes_left = feature[at], cut[at, feature[at]], goes_left[at, feature[at]]
        threshold = self.thresholds(level.hist[0, at, feature], feature, lo)
        S = len(at)
        rows, child = self.route(level.ids[at], feature, lo, goes_left)
        child_stats = self.child_stats(level, at, feature, lo, goes_left, rows, child)  # (s, 2S)
        counts = self.criterion.samples(child_stats)
        ids = level.ids[at]
        had_gaps = level.hist[0, at, feature, self.data.missing] > 0 if self.data.gaps else np.zeros(S, bool)
        missing_left = np.where(had_gaps, goes_left, counts[0::2] > counts[1::2])  # else the side of more rows
        self.inner.append((ids, feature, threshold, self.n_nodes + 2 * np.arange(S), best[at], missing_left,
                           had_gaps))
        child_ids, open_ = self.new_nodes(np.repeat(ids, 2), np.tile([0, 1], S), np.full(2 * S, depth + 1),
                                          child_stats)
        if len(rows) == len(self.row_node):
            self.row_node = child_ids[child]
        else:
            self.row_node[rows] = child_ids[child]
        if not open_.any():
            return None
        hist = self.child_histograms(level.hist[:, at], rows, child, counts, open_)
        return _Level(child_ids[open_], child_stats[:, open_], hist[:, open_])

    def route(self, ids, feature, lo, goes_left):
        """(rows, child): the training rows at the split nodes `ids` (S,) and the child each goes to, 2s for
        the first child of split s and 2s + 1 for its second: right when its bin is past the cut `lo`, and
        a missing value the side its split chose."""
        position = np.full(self.n_nodes, -1)  # each node's place among the splits, -1 elsewhere
        position[ids] = np.arange(len(ids))
        split = position[self.row_node]  # which split each training row is at (-1: none)
        rows = np.flatnonzero(split >= 0)
        if len(rows) < len(split):
            split = split[rows]
        bins = self.bins_of(feature[split], rows)
        right = bins > lo[split]
        if self.data.gaps:
            gap = bins == self.data.missing
            right[gap] = ~goes_left[split[gap]]
        return rows, 2 * split + right

    def thresholds(self, counts, feature, lo):
        """(S,) the test value of each split node (counts (S, B): its rows per bin of its test feature): midway
        to the next bin its rows fill (binning.FeatureBins.threshold), or "present?" (ALL_PRESENT) when
        only missing values are right of the cut."""
        filled = counts[:, :self.data.missing] > 0  # (S, B')
        after = filled & (np.arange(filled.shape[1]) > lo[:, None])
        hi = np.argmax(after, axis=1)  # the next filled bin
        return np.array([self.data.bins.features[f].threshold(b, h) if more else ALL_PRESENT
                         for f, b, h, more in zip(feature, lo, hi, after.any(axis=1))])

    def child_stats(self, level, at, feature, lo, goes_left, rows, child):
        """(s, 2S) the statistics of each split's two children: count, (weight,) weighted target read from
        the parent's histogram of its test feature on either side of the cut (the statistics but the last
        are the histogram's channels), and the weighted sum of squares summed over their rows."""
        hist = level.hist[:, at, feature]  # (c, S, B)
        left = np.where(np.arange(hist.shape[-1]) <= lo[:, None], hist, 0.0).sum(axis=-1)  # (c, S)
        if self.data.gaps:
            left += np.where(goes_left, hist[..., self.data.missing], 0.0)
        right = level.stats[:-1, at] - left
        stats = np.empty((len(hist) + 1, 2 * len(at)))
        stats[:-1, 0::2], stats[:-1, 1::2] = left, right
        stats[-1] = np.bincount(child, weights=self.squares[rows], minlength=2 * len(at))
        return stats

    def child_histograms(self, parent_hist, rows, child, counts, open_):
        """(c, 2S, d, B) the children's histograms (those of the closed children of closed siblings
        left 0): the smaller child of each pair counted from its rows, the other its parent's less it."""
        S = len(counts) // 2
        _check_room(parent_hist.shape[0] * 2 * S * parent_hist.shape[2] * parent_hist.shape[3])
        smaller = np.where(counts[1::2] < counts[0::2], 1, 0)  # (S,) which child of each pair is smaller
        needed = open_[0::2] | open_[1::2]  # (S,) pairs with a child to expand
        slot = np.full(2 * S, -1)
        counted = 2 * np.flatnonzero(needed) + smaller[needed]  # the children counted row by row
        slot[counted] = np.arange(len(counted))
        mine = slot[child] >= 0
        small = self.histograms(rows[mine], slot[child[mine]], len(counted))  # (c, K, d, B)
        hist = np.zeros((parent_hist.shape[0], 2 * S) + parent_hist.shape[2:])
        hist[:, counted] = small
        pairs = np.flatnonzero(needed)
        hist[:, 2 * pairs + 1 - smaller[pairs]] = parent_hist[:, pairs] - small
        return hist

    def finish(self):
        """The recorded levels as a Tree (statistics as the exact grower leaves them)."""
        column = {name: np.concatenate([lv[name] for lv in self.levels]) for name in ("parent", "branch", "depth",
                                                                                      "reason")}
        stats = np.concatenate([lv["stats"] for lv in self.levels], axis=1)
        N, d = self.n_nodes, self.data.n_features
        feature, threshold = np.full(N, LEAF), np.full(N, np.nan)
        child_start, n_children, gain = np.full(N, -1), np.zeros(N, dtype=np.intp), np.full(N, np.nan)
        missing_left, gap_nodes = np.zeros(N, dtype=bool), np.zeros(N, dtype=bool)
        for ids, f, t, c, g, left, gaps in self.inner:
            feature[ids], threshold[ids], child_start[ids], n_children[ids], gain[ids] = f, t, c, 2, g
            missing_left[ids], gap_nodes[ids] = left, gaps
        candidates = np.full((N, d), np.nan)
        for ids, g in self.evaluated:
            candidates[ids] = g
        reason = column["reason"]
        for ids in self.no_gain:
            reason[ids] = REASON["no gain"]
        return Tree(feature, threshold, child_start, n_children, column["parent"], column["branch"],
                    column["depth"], stats, gain, candidates, reason, None, missing_left, gap_nodes)


def _check_room(cells):
    """DataError when a level's histograms would take more than HISTOGRAM_BYTES: a deep tree (max_depth
    None) on many rows has thousands of open nodes, each with a histogram of every feature's bins."""
    if cells * 8 > HISTOGRAM_BYTES:
        raise DataError(f"Growing a tree from histograms would take {cells * 8 / 1024 ** 2:,.0f} MB for one level "
                        f"of its nodes, more than the {HISTOGRAM_BYTES // 1024 ** 2} MB allowed: set max_depth "
                        "(for example 3 to 8) or fewer bins, or max_bins None for the exact trees.",
                        field="params.max_bins")


def _first_best(cost, tie):
    """((A, d) the least cost over the last axis, (A, d) the first index within `tie` (A, 1) of it)."""
    best = cost.min(axis=-1)
    return best, np.argmax(cost <= (best + tie)[..., None], axis=-1)


def grow(data, rows, y, weights, *, max_depth=None, min_samples_split=2, min_samples_leaf=1, min_weight_leaf=0.0,
         n_offered=None, seed=0):
    """The regression tree of y (m,) on the training rows `rows` (m,) of `data` (a BinnedRows; None: every
    row) weighed by `weights` (m,) (None: each 1, and then none may be 0), with growth_fast.grow's rules
    and statistics, (m,) the node each training row ends in, and the criterion that scored it (its offset
    and the nodes' impurity)."""
    grower = _HistogramGrower(data, rows, y, weights, max_depth, min_samples_split, min_samples_leaf,
                              min_weight_leaf, n_offered, seed)
    tree = grower.grow()
    return tree, grower.row_node, grower.criterion


def route(tree, data):
    """(n,) the node each row of `data` ends in, read from its bins: x <= threshold is bin <= the last bin
    wholly within the threshold."""
    inner = np.flatnonzero(tree.feature != LEAF)
    last_bin = np.full(tree.node_count, -1)
    for i in inner:
        last_bin[i] = data.bins.features[tree.feature[i]].last_bin_within(tree.threshold[i])
    node = np.zeros(data.n_rows, dtype=np.intp)
    active = np.arange(data.n_rows)
    while active.size:
        at = node[active]
        split = tree.feature[at] != LEAF
        active, at = active[split], at[split]
        bins = data.binned[tree.feature[at], active]
        right = bins > last_bin[at]
        gap = bins == data.missing  # a missing value goes the side its node learned
        right[gap] = ~tree.missing_left[at[gap]]
        node[active] = tree.child_start[at] + right
    return node
