"""Impurity and IMPORTANCE: entropy B(q), Gini impurity, variance, and the gain of a split.

Notes 000, "Decision Trees": H(V) = -sum_k P(v_k) log2 P(v_k), its binary form
B(q) = -q log2 q - (1 - q) log2(1 - q), and

    Gain(A) = B(p / (p + n)) - sum_k (p_k + n_k) / (p + n) * B(p_k / (p_k + n_k)).

Notes 004 ("Choosing best attribute") adds Gini impurity as the other measure of homogeneity; regression
trees (notes 000, last paragraph of "Decision Trees") use the variance of the target instead.

Notes 004 names C4.5 beside ID3 among the max-gain learners. C4.5 (Quinlan, "C4.5: Programs for Machine
Learning", 1993, section 2.2) divides the gain by the split information, the entropy of the branch sizes,

    SplitInfo(A) = -sum_k (n_k / n) log2(n_k / n),    GainRatio(A) = Gain(A) / SplitInfo(A),

because the gain alone favours tests of many values (a test with one branch per example gains the most
of all). With criterion="gain_ratio" each attribute's test (its threshold, its value set) is still the
one of largest information gain, as in C4.5, and the attributes are then compared by gain ratio
(`Classes.rank`). C4.5's further rule, considering only tests of at least average gain, is not applied.

Every function reads a node from its statistics, which add up over examples: the class counts, or for a
regression tree (count, sum, sum of squares) of the target. They work on one node or, along the last
axis, on many at once (the candidate thresholds of a numeric attribute). `Classes` and `Values` are the
two kinds of target a tree learns; criteria_fast.py computes the same gains for many nodes at once.
"""

import numpy as np


def B(q):
    """Entropy in bits of a Boolean variable that is true with probability q (notes 000)."""
    q = np.asarray(q, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = -q * np.log2(q) - (1 - q) * np.log2(1 - q)
    return np.where((q <= 0) | (q >= 1), 0.0, terms)


def _scalar(value):
    return float(value) if np.ndim(value) == 0 else value


def _shares(counts):
    """Class frequencies p_c of nodes with these counts (all 0 for a node without examples)."""
    counts = np.asarray(counts, dtype=float)
    total = counts.sum(axis=-1, keepdims=True)
    return counts / np.where(total > 0, total, 1.0)


def entropy(counts):
    """H = -sum_c p_c log2 p_c of a node with these class counts, in bits."""
    p = _shares(counts)
    terms = p * np.log2(np.where(p > 0, p, 1.0))  # 0 log 0 = 0
    return _scalar(-terms.sum(axis=-1))


def gini(counts):
    """Gini impurity 1 - sum_c p_c^2 of a node with these class counts."""
    counts = np.asarray(counts, dtype=float)
    impurity = 1.0 - (_shares(counts) ** 2).sum(axis=-1)
    return _scalar(np.where(counts.sum(axis=-1) > 0, impurity, 0.0))


def variance(stats):
    """Variance of a regression node's targets, from (count, sum, sum of squares):
    (sum y^2 - (sum y)^2 / n) / n."""
    stats = np.asarray(stats, dtype=float)
    count, total, squares = stats[..., 0], stats[..., 1], stats[..., 2]
    n = np.where(count > 0, count, 1.0)
    return _scalar(np.where(count > 0, np.maximum(squares - total * total / n, 0.0) / n, 0.0))


def split_information(sizes):
    """SplitInfo = -sum_k (n_k / n) log2(n_k / n) in bits: the entropy of how a test shares out the
    examples, from the (..., branches) sizes of its branches (empty branches add 0)."""
    return entropy(sizes)


def gain_ratio(gain, sizes):
    """GainRatio = Gain / SplitInfo of a test whose branches have these (..., branches) sizes; 0 for a
    test that sends every example one way (its gain is 0 too)."""
    info = np.asarray(split_information(sizes), dtype=float)
    gain = np.asarray(gain, dtype=float)
    return _scalar(np.where(info > 0, gain / np.where(info > 0, info, 1.0), 0.0))


def heavy_enough(mass, min_weight):
    """mass >= min_weight (min_weight_fraction_leaf), up to the rounding of sums of weights taken in
    different orders (1e-12 relative), so both growers agree."""
    return np.asarray(mass) >= min_weight * (1.0 - 1e-12)


def class_count(counts):
    """How many examples a node with these class counts holds."""
    return np.asarray(counts).sum(axis=-1)


def importance(parent_counts, children_counts, impurity=entropy, size=class_count):
    """IMPORTANCE(a, examples): impurity of the parent minus the weighted impurity of the children
    (information gain in bits for `entropy`, Gini decrease for `gini`, variance reduction for
    `variance` with size=lambda s: s[..., 0]). children_counts: (..., branches, s)."""
    parent = np.asarray(parent_counts, dtype=float)  # (..., s)
    children = np.asarray(children_counts, dtype=float)  # (..., branches, s)
    n = size(parent)[..., None]  # (..., 1)
    remainder = (size(children) / n * impurity(children)).sum(axis=-1)  # (...,)
    return _scalar(impurity(parent) - remainder)


class Classes:
    """A classification target: class codes 0..k-1; a node is summed up by its class counts, and
    IMPORTANCE is the information gain (kind="entropy"), the Gini decrease (kind="gini") or the gain
    ratio (kind="gain_ratio"). `importance` is the gain that picks each attribute's test (information
    gain for gain_ratio); `rank` turns the chosen test's gain into the IMPORTANCE attributes compare.

    With class weights w (k,) (class_weight="balanced") the counts stay counts of rows, but impurity
    and IMPORTANCE read the weighted counts w_c * n_c: each example of class c counts w_c times, as
    scikit-learn weighs them. Leaf sizes (min_samples_leaf, min_samples_split) still count rows.

    With sample weights s (n,) a node's statistics are 2k numbers: its class counts of rows, then each
    class's sum of sample weights, which impurity reads (times the class weights, if any): an example of
    weight 3 counts as three examples, as in scikit-learn. Without them the statistics are the k counts."""

    def __init__(self, y_codes, n_classes, kind="entropy", weights=None, sample_weight=None):
        self.y = np.asarray(y_codes, dtype=np.intp)  # (n,)
        self.k = n_classes
        self.kind = kind
        self.weights = None if weights is None else np.asarray(weights, dtype=float)  # (k,)
        self._impurity = gini if kind == "gini" else entropy  # gain_ratio divides the information gain
        self.tol = 1e-12  # gains closer than this (bits, or Gini) tie
        self.row_stats = (self.y[:, None] == np.arange(n_classes)).astype(np.intp)  # (n, k) one-hot
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)  # (n,)
        if self.sample_weight is not None:  # (n, 2k): the row's class, then its weight in its class's place
            self.row_stats = np.hstack([self.row_stats, self.row_stats * self.sample_weight[:, None]])

    def stats_of_rows(self, rows):
        """(len(rows), k) each example's own statistics: a one-hot row of its class (and with sample
        weights its weight in its class's place, (len(rows), 2k))."""
        return self.row_stats[rows]

    def counts(self, stats):
        """The class counts of rows within (..., s) statistics."""
        return np.asarray(stats)[..., :self.k]

    def size(self, stats):
        return class_count(self.counts(stats))

    def weighted(self, stats):
        """The class counts as the impurity sees them: the rows' sample weights summed, times each
        class's weight, if any."""
        stats = np.asarray(stats)
        if self.sample_weight is not None:
            stats = stats[..., self.k:]
        return stats if self.weights is None else stats * self.weights

    def mass(self, stats):
        """How much the examples of nodes with these counts weigh (their number, without weights)."""
        return class_count(self.weighted(stats))

    def impurity(self, stats):
        return self._impurity(self.weighted(stats))

    def is_pure(self, stats):
        """All examples that weigh anything share one classification (or there are none)."""
        return np.count_nonzero(self.weighted(stats), axis=-1) <= 1

    def order_key(self, branches, present):
        """P(second class) of each value present, weighed as the impurity weighs the examples: the order
        of the binary test's candidate sets (with class weights alone, the order of the unweighted
        share; each set's weight is positive for the values present)."""
        if self.sample_weight is None:
            return branches[present, 1] / self.size(branches[present])
        weighted = self.weighted(branches[present])
        mass = weighted.sum(axis=-1)
        return np.where(mass > 0, weighted[:, 1] / np.where(mass > 0, mass, 1.0), 0.0)

    def importance(self, parent, children):
        return importance(self.weighted(parent), self.weighted(children), self._impurity)

    def rank(self, gain, branches):
        """IMPORTANCE of a test of this gain whose branches have these (..., branches, k) counts: the
        gain itself, or for gain_ratio the gain over the split information of the branch sizes
        (weighed like the counts: the sizes the gain itself reads)."""
        if self.kind != "gain_ratio":
            return gain
        return gain_ratio(gain, self.mass(branches))

    def parts(self, stats):
        """(row counts (k, N), weighted statistics (k, N) or None) of a grown tree's (s, N) statistics."""
        if self.sample_weight is None:
            return stats, None
        return np.asarray(stats[:self.k]).round().astype(np.intp), np.asarray(stats[self.k:], dtype=float)


class Values:
    """A regression target: a node is summed up by (count, sum, sum of squares) of its targets, taken
    about the overall mean (so the sums of squares lose less to cancellation); IMPORTANCE is the
    reduction in variance.

    With sample weights a node's statistics are (count of rows, sum of weights, weighted sum, weighted
    sum of squares): the variance, its reduction and the mean are the weighted ones, each child's share
    its weight, as in scikit-learn. Leaf sizes still count rows."""

    kind = "variance"
    weights = None  # no class weights

    def __init__(self, y, sample_weight=None):
        self.y_raw = np.asarray(y, dtype=float)  # (n,)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)  # (n,)
        w = np.ones_like(self.y_raw) if self.sample_weight is None else self.sample_weight
        self.offset = float(np.average(self.y_raw, weights=w)) if self.sample_weight is not None \
            else float(self.y_raw.mean())
        self.y = self.y_raw - self.offset
        self.k = 3
        mean_square = float(np.average(self.y ** 2, weights=w)) if self.sample_weight is not None \
            else float(np.mean(self.y ** 2))
        self.tol = 1e-12 * max(mean_square, 1e-300)  # reductions closer than this tie
        self.row_stats = np.column_stack([np.ones_like(self.y), self.y, self.y * self.y])  # (n, 3)
        if self.sample_weight is not None:  # (n, 4): 1, w, w y, w y^2
            self.row_stats = np.column_stack([np.ones_like(self.y), w, w * self.y, w * self.y * self.y])

    def stats_of_rows(self, rows):
        """(len(rows), 3) each example's own statistics: (1, y, y^2) (with sample weights (1, w, wy, wy^2))."""
        return self.row_stats[rows]

    def _moments(self, stats):
        """(..., 3) (weight, weighted sum, weighted sum of squares): what the variance reads."""
        stats = np.asarray(stats)
        return stats if self.sample_weight is None else stats[..., 1:]

    def size(self, stats):
        return np.asarray(stats)[..., 0]

    def mass(self, stats):
        """How much the examples weigh: their number, or their sum of sample weights."""
        return self._moments(stats)[..., 0]

    def impurity(self, stats):
        return variance(self._moments(stats))

    def is_pure(self, stats):
        """All targets equal, up to rounding: n * variance is a negligible share of the sum of squares."""
        stats = np.asarray(self._moments(stats), dtype=float)
        return stats[..., 0] * variance(stats) <= 1e-12 * np.maximum(stats[..., 2], 1e-300) + 1e-300

    def order_key(self, branches, present):
        """The mean (centred) target of each value present: the order of the binary test's candidate sets."""
        moments = self._moments(branches[present])
        return np.where(moments[:, 0] > 0, moments[:, 1] / np.where(moments[:, 0] > 0, moments[:, 0], 1.0), 0.0)

    def importance(self, parent, children):
        return importance(self._moments(parent), self._moments(children), variance, lambda s: s[..., 0])

    def rank(self, gain, branches):
        """IMPORTANCE of a test: its variance reduction."""
        return gain

    def mean(self, stats):
        """Each node's mean target (0 offset for a node without examples: its parent's is used)."""
        stats = np.asarray(stats, dtype=float)
        count = stats[..., 0]
        return self.offset + np.where(count > 0, stats[..., 1] / np.where(count > 0, count, 1.0), 0.0)

    def parts(self, stats):
        """(statistics (3, N), weights (1, N) or None) of a grown tree's (s, N) statistics. With sample
        weights the three are (rows, rows x weighted mean, rows x weighted mean square), so the node's
        mean and variance read from them are the weighted ones, as a model file keeps them."""
        if self.sample_weight is None:
            return stats, None
        count, weight, total, squares = np.asarray(stats, dtype=float)
        safe = np.where(weight > 0, weight, 1.0)
        mean, square = np.where(weight > 0, total / safe, 0.0), np.where(weight > 0, squares / safe, 0.0)
        return np.vstack([count, count * mean, count * square]), weight[None, :]
