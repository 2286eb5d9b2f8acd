"""Growing the tree: DECISION-TREE-LEARNING of notes 000, one node at a time, as the notes write it.

    function DECISION-TREE-LEARNING(examples, attributes, parent_examples) returns a tree
      if examples is empty then return PLURALITY-VALUE(parent_examples)
      else if all examples have the same classification then return the classification
      else if attributes is empty then return PLURALITY-VALUE(examples)
      else
        A <- argmax_{a in attributes} IMPORTANCE(a, examples)
        tree <- a new decision tree with root test A
        for each value v_k of A do
          exs <- {e : e in examples and e.A = v_k}
          subtree <- DECISION-TREE-LEARNING(exs, attributes - A, examples)
          add a branch to tree with label (A = v_k) and subtree subtree
        return tree

The added stops (max_depth, min_samples_split, best gain <= min_gain) are the pre-pruning of notes 004
("if info. gain of best attribute at a node is below a threshold, stop and make this node a leaf"). A
numeric attribute gets a binary test x <= t, with t halfway between consecutive distinct values (the
best such t is the attribute's IMPORTANCE), and stays in `attributes` below it. A categorical attribute
marked binary gets a test "A in S" instead of the multiway one (see `binary_category_importance`) and
also stays in `attributes`. min_samples_leaf rules out tests that leave fewer examples in a branch (an
empty branch of a multiway test is still allowed: it is the notes' PLURALITY-VALUE(parent_examples)
leaf), and min_weight_fraction_leaf those that leave a branch less than that share of the examples'
total weight (scikit-learn's min_weight_leaf). Ties go to the first: gains within the target's tol tie,
and the earlier column, the lower threshold or the earlier subset wins. Each attribute's test is the one
of largest gain; its IMPORTANCE is that gain, or with criterion="gain_ratio" the gain over the test's
split information (criteria.py: `rank`).

This grower is the one a traced fit (trace=True, the steps view) runs. growth_fast.py grows the same
tree, every node of a depth at once, for everything else; tests/unit/test_fast_paths.py checks they agree.
Leaves keep their statistics; PLURALITY-VALUE is read from them (classifier.plurality_value).
"""

import numpy as np

from .criteria import heavy_enough
from .feature_draw import child_keys, offered, root_key
from .structure import ALL_PRESENT, LEAF, REASON, Tree


class Node:
    """One node as the recursion creates it: its examples' statistics, and its test once it has one."""

    def __init__(self, stats, depth, parent, branch):
        self.stats, self.depth, self.parent, self.branch = stats, depth, parent, branch
        self.feature, self.threshold, self.gain = LEAF, np.nan, np.nan
        self.missing_left = False  # where a missing value goes at its numeric test
        self.had_gaps = False  # whether the node's rows had missing values in the tested column
        self.candidates = None  # (d, 3) IMPORTANCE, threshold and missing values' side of every attribute
        self.subsets = {}  # attribute -> its best left set, for binary categorical attributes
        self.left_values = None  # the left set of the node's own binary categorical test
        self.reason = None  # why it is a leaf
        self.children = []


def numeric_importance(target, values, rows, parent, min_leaf=1, min_weight=0.0):
    """(gains, thresholds, missing_left), each (F,): the best test x <= t on each numeric attribute at a
    node (the largest gain), with its IMPORTANCE and the side its missing values take; (0, NaN, False) for
    an attribute whose values there are all equal. values: (m, F) the attributes at the node's rows. The
    attributes are scored side by side: the same steps, one array.

    A missing value (NaN) is not below or above any t: an attribute with gaps at the node is scored with
    them sent right at every t, with the test "present or missing" (t = ALL_PRESENT), then sent left at
    every t, and the best of all wins (ties: in that order, as scikit-learn's trees search)."""
    m, F = values.shape
    order = np.argsort(values, axis=0, kind="stable")  # (m, F) missing values last
    v = np.take_along_axis(values, order, axis=0)  # (m, F) each attribute sorted
    own = target.stats_of_rows(rows)  # (m, s)
    left = np.cumsum(own[order], axis=0)[:-1]  # (m - 1, F, s) examples up to each cut
    gaps = np.isnan(values)  # (m, F)
    n_gaps = gaps.sum(axis=0)  # (F,)
    gap_stats = gaps.T.astype(own.dtype) @ own  # (F, s) the statistics of the missing examples
    n_left = np.arange(1, m)[:, None]  # (m - 1, 1)
    between = v[:-1] < v[1:]  # (m - 1, F) between two different present values
    last_present = n_left == (m - n_gaps)  # (m - 1, F) the cut "present or missing"
    # Missing values right, then left: (2 (m - 1), F) cuts in the order they are searched.
    lefts = np.concatenate([left, left + gap_stats])
    sizes = np.concatenate([n_left + 0 * n_gaps, n_left + n_gaps])
    valid = np.concatenate([between | last_present, between & (n_gaps > 0)])
    valid &= (sizes >= min_leaf) & (m - sizes >= min_leaf)
    sides = np.stack([lefts, parent - lefts], axis=2)  # (2 (m - 1), F, 2, s) the two branches of each cut
    if min_weight > 0:  # and both sides weigh at least min_weight
        mass_left = target.mass(lefts)  # (2 (m - 1), F)
        valid &= heavy_enough(mass_left, min_weight) & heavy_enough(target.mass(parent) - mass_left, min_weight)
    gains = np.where(valid, target.importance(parent, sides), -np.inf)  # (2 (m - 1), F)
    best = gains.max(axis=0, initial=-np.inf)  # (F,)
    first = np.argmax(gains >= best - target.tol, axis=0)  # (F,) the earliest among equal gains
    cut, columns = first % (m - 1), np.arange(F)
    lo, hi = v[cut, columns], v[np.minimum(cut + 1, m - 1), columns]
    t = lo / 2.0 + hi / 2.0
    t = np.where((t >= hi) | (t < lo), lo, t)  # halfway, guarded against rounding
    t = np.where(np.isnan(hi), ALL_PRESENT, t)  # present values left, missing ones right
    found = np.isfinite(best)
    missing_left = np.where(n_gaps > 0, first >= m - 1, cut + 1 > m - cut - 1)  # no gaps: the larger side
    score = target.rank(np.where(found, best, 0.0), sides[first, columns])  # (F,) of the chosen cuts
    return np.where(found, score, 0.0), np.where(found, t, np.nan), found & missing_left


def value_stats(target, codes, rows, n_values):
    """(n_values, s) statistics of the node's examples taking each value of a categorical attribute:
    each example's statistics added to its value's row (one pass over the examples, however many values)."""
    own = target.stats_of_rows(rows)  # (m, s)
    stats = np.zeros((n_values, own.shape[1]), dtype=own.dtype)
    np.add.at(stats, codes, own)
    return stats


def categorical_importance(target, codes, rows, parent, n_values, min_leaf=1, min_weight=0.0):
    """Gain of a multiway test on a categorical attribute: one branch per value (codes 0..n_values-1);
    0 when a non-empty branch would hold fewer than min_leaf examples, or weigh less than min_weight."""
    branches = value_stats(target, codes, rows, n_values)  # (n_values, s)
    sizes = target.size(branches)
    light = ~heavy_enough(target.mass(branches), min_weight) if min_weight > 0 else False
    if ((sizes > 0) & ((sizes < min_leaf) | light)).any():
        return 0.0
    return float(target.rank(target.importance(parent, branches), branches))


def candidate_subsets(target, branches, single=False):
    """The left sets a binary test "A in S" tries, from the (V, s) statistics of each value.

    Two classes or a numeric target: the values present are ordered by P(second class) or by mean
    target (ties by value), and S is every prefix of that order. Breiman et al. (1984) showed the
    best of all 2^(V-1) subsets is among these V - 1 cuts for a two-class gain or a variance
    reduction. More classes, or `single` (a one_vs_rest column): each value is tried against the
    rest, as a tree on one-hot columns tests them."""
    sizes = target.size(branches)
    present = np.flatnonzero(sizes > 0)
    if single or (target.kind != "variance" and target.k > 2):  # one value against the rest
        return [present[i:i + 1] for i in range(len(present))]
    key = target.order_key(branches, present)  # P(second class), or the mean of the centred target
    ordered = present[np.argsort(key, kind="stable")]
    return [np.sort(ordered[:i]) for i in range(1, len(ordered))]


def binary_category_importance(target, codes, rows, parent, n_values, min_leaf=1, single=False, min_weight=0.0):
    """(gain, left set) of the best test "A in S" on a categorical attribute (S of one value when
    `single`); (0, None) when no test leaves examples on both sides (at least min_leaf each). Values
    absent from the node go right."""
    branches = value_stats(target, codes, rows, n_values)  # (V, s)
    best, chosen = -np.inf, None
    subsets = candidate_subsets(target, branches, single)
    if subsets:
        left = np.stack([branches[S].sum(axis=0) for S in subsets])  # (c, s)
        sides = np.stack([left, parent - left], axis=1)  # (c, 2, s)
        n_left = target.size(left)
        valid = (n_left >= min_leaf) & (target.size(parent) - n_left >= min_leaf)
        if min_weight > 0:
            mass_left = target.mass(left)  # (c,)
            valid &= heavy_enough(mass_left, min_weight) & heavy_enough(target.mass(parent) - mass_left, min_weight)
        gains = np.where(valid, target.importance(parent, sides), -np.inf)  # (c,)
        best = gains.max()
        if np.isfinite(best):
            pick = int(np.argmax(gains >= best - target.tol))  # the earliest on ties
            chosen, best = subsets[pick], target.rank(best, sides[pick])
    return (float(best), chosen) if chosen is not None else (0.0, None)


class Learner:
    """DECISION-TREE-LEARNING on the encoded (n, d) matrix X (categorical columns hold value codes)."""

    def __init__(self, X, is_categorical, n_values, target, max_depth, min_samples_split, min_gain,
                 min_samples_leaf=1, binary=None, single=None, min_weight_leaf=0.0, n_offered=None, seed=0):
        self.X, self.target = X, target
        self.min_weight = min_weight_leaf
        self.n_offered, self.seed = n_offered, seed  # max_features: attributes offered at each node
        self.is_categorical = [bool(c) for c in is_categorical]
        self.n_values = [int(v) for v in n_values]
        self.binary = [False] * X.shape[1] if binary is None else [bool(b) for b in binary]
        self.single = [False] * X.shape[1] if single is None else [bool(b) for b in single]
        self.max_depth, self.min_samples_split, self.min_gain = max_depth, min_samples_split, min_gain
        self.min_leaf = min_samples_leaf

    def stats(self, rows):
        return self.target.stats_of_rows(rows).sum(axis=0)  # (s,)

    def learn(self, rows, attributes, depth=0, parent=None, branch=0, key=None):
        """The subtree grown on the examples `rows` (attributes: columns still open to a test; key: the
        node's key for its draw of attributes, feature_draw.py)."""
        node = Node(self.stats(rows), depth, parent, branch)
        node.reason = self.stop_reason(node, rows, attributes)
        if node.reason is not None:
            return node
        key = root_key(self.seed) if key is None else key
        scored = offered(attributes, self.n_offered, key, self.X.shape[1]).tolist()  # all, unless max_features
        node.candidates, node.subsets = self.importance_of_each(rows, scored, node.stats)
        gains = node.candidates[:, 0]
        best = np.nanmax(gains)
        if not best > self.min_gain + self.target.tol:
            node.reason = "no gain"
            return node
        a = int(np.argmax(gains >= best - self.target.tol))  # A <- argmax IMPORTANCE (the earliest on ties)
        node.feature, node.gain = a, best
        values = self.X[rows, a]
        if self.binary[a]:  # A in S, then A not in S; A may be tested again
            node.left_values, below = node.subsets[a], attributes
            inside = np.isin(values, node.left_values)
            groups = [rows[inside], rows[~inside]]
        elif self.is_categorical[a]:  # for each value v_k of A, with attributes - A below
            below = [b for b in attributes if b != a]
            groups = [rows[values == v] for v in range(self.n_values[a])]
        else:  # x <= t, then x > t; a numeric attribute may be tested again
            node.threshold, below = node.candidates[a, 1], attributes
            node.missing_left = bool(node.candidates[a, 2])
            node.had_gaps = bool(np.isnan(values).any())
            go_left = (values <= node.threshold) | (np.isnan(values) & node.missing_left)
            groups = [rows[go_left], rows[~go_left]]
        keys = child_keys(key, np.arange(len(groups)))
        node.children = [self.learn(exs, below, depth + 1, node, k, keys[k]) for k, exs in enumerate(groups)]
        return node

    def stop_reason(self, node, rows, attributes):
        """Why the node is a leaf (the pseudocode's tests first, then the pre-pruning stops), or None."""
        if len(rows) == 0:
            return "empty branch: plurality of parent"
        if self.target.is_pure(node.stats):
            return "pure"
        if not attributes:
            return "no attributes"
        if self.max_depth is not None and node.depth >= self.max_depth:
            return "max_depth"
        if len(rows) < self.min_samples_split:
            return "min_samples_split"
        return None

    def importance_of_each(self, rows, attributes, parent):
        """(d, 3): IMPORTANCE of every attribute still open (NaN for the others) and, for numeric ones,
        the threshold it was measured at and whether missing values go left; and the best left set of
        each binary categorical attribute."""
        scores = np.full((self.X.shape[1], 3), np.nan)
        subsets = {}
        for a in attributes:
            if not self.is_categorical[a]:
                continue
            codes = self.X[rows, a].astype(np.intp)
            if self.binary[a]:
                scores[a, 0], subsets[a] = binary_category_importance(self.target, codes, rows, parent,
                                                                      self.n_values[a], self.min_leaf,
                                                                      self.single[a], self.min_weight)
            else:
                scores[a, 0] = categorical_importance(self.target, codes, rows, parent, self.n_values[a],
                                                      self.min_leaf, self.min_weight)
        numeric = [a for a in attributes if not self.is_categorical[a]]
        if numeric:
            scores[numeric, 0], scores[numeric, 1], scores[numeric, 2] = numeric_importance(
                self.target, self.X[np.ix_(rows, numeric)], rows, parent, self.min_leaf, self.min_weight)
        return scores, subsets


def flatten(root, n_features):
    """The recursion's nodes as a Tree: ids in breadth-first order (children of a node consecutive,
    after their parent), as growth_fast numbers them."""
    order, ids = [root], {id(root): 0}
    for node in order:  # the list grows while it is walked: breadth first
        for child in node.children:
            ids[id(child)] = len(order)
            order.append(child)
    leaf = [node.feature == LEAF for node in order]
    candidates = np.full((len(order), n_features), np.nan)
    for i, node in enumerate(order):
        if node.candidates is not None:
            candidates[i] = node.candidates[:, 0]
    return Tree(feature=[node.feature for node in order],
                threshold=[node.threshold for node in order],
                child_start=[-1 if is_leaf else ids[id(node.children[0])] for node, is_leaf in zip(order, leaf)],
                n_children=[len(node.children) for node in order],
                parent=[-1 if node.parent is None else ids[id(node.parent)] for node in order],
                branch=[node.branch for node in order], depth=[node.depth for node in order],
                stats=np.stack([node.stats for node in order], axis=1),  # (s, N)
                gain=[node.gain for node in order], candidates=candidates,
                reason=[-1 if is_leaf is False else REASON[node.reason] for node, is_leaf in zip(order, leaf)],
                left_values={i: node.left_values for i, node in enumerate(order) if node.left_values is not None},
                missing_left=[node.missing_left for node in order], gap_nodes=[node.had_gaps for node in order])


def grow(X, is_categorical, n_values, target, *, max_depth=None, min_samples_split=2, min_gain=0.0,
         min_samples_leaf=1, binary=None, single=None, min_weight_leaf=0.0, n_offered=None, seed=0):
    """DECISION-TREE-LEARNING(all examples, all attributes) as a Tree. n_values[j]: how many values
    column j takes in the whole training set (branches of a multiway test on it); binary[j]: True for
    a categorical column tested "A in S" instead; single[j]: True when that S is one value;
    min_weight_leaf: the least weight (target.mass) a branch of a test may have; n_offered: how many
    attributes each node is offered, drawn with `seed` (feature_draw.py), or None for all."""
    learner = Learner(X, is_categorical, n_values, target, max_depth, min_samples_split, min_gain,
                      min_samples_leaf, binary, single, min_weight_leaf, n_offered, seed)
    root = learner.learn(np.arange(X.shape[0]), list(range(X.shape[1])))
    return flatten(root, X.shape[1])
