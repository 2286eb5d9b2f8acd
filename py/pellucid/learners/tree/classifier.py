"""DecisionTreeClassifier: ID3 with information gain, Gini or C4.5's gain ratio, multiway or binary
categorical and binary numeric tests, leaf-size and leaf-count limits, and chi-squared or reduced-error pruning."""

import numpy as np

from ...core.base import ClassifierMixin, Estimator
from ...core.params import Choice, Flag, Integer, Number
from ...core.errors import DataError
from ...core.validation import check_classes
from . import tracing
from ..shared.class_weights import CLASS_WEIGHT_RULE, check_saved_weights, class_weights
from ...core.file_fields import (damaged, require_array, require_dict, require_int, require_key, require_labels,
                                 require_number)
from ._base import MAX_COUNT, SIZE_RULES, _TreeModel, check_validation
from .criteria import Classes
from .pruning import chi2_prune, reduced_error_prune
from ...core.sample_weight import check_sample_weight
from .sample_weights import drop_weightless


def stratified_holdout(codes, fraction, seed):
    """(grow rows, validation rows): `fraction` of each class held out at random, at least one row of
    every class kept for growing."""
    rng = np.random.default_rng(seed)
    held = []
    for c in np.unique(codes):
        rows = np.flatnonzero(codes == c)
        n_val = min(int(round(fraction * len(rows))), len(rows) - 1)
        held.append(rows[rng.permutation(len(rows))[:n_val]])
    val = np.sort(np.concatenate(held))
    return np.setdiff1d(np.arange(len(codes)), val), val


def plurality_value(counts):
    """PLURALITY-VALUE (notes 000): the most common class among a node's examples, from its class counts
    or frequencies (..., k), as an index into classes_; a tie goes to the smallest label."""
    return np.argmax(counts, axis=-1)


def node_distribution(tree):
    """(N, k) class frequencies of every node, weighted by the rows' sample weights and the tree's class
    weights if it has them; an empty leaf takes its parent's (PLURALITY-VALUE of the parent's examples).
    Parents have smaller ids, so one pass in id order suffices."""
    counts = (tree.stats if tree.weighted is None else tree.weighted).T.astype(float)  # (N, k)
    if tree.class_weights is not None:
        counts *= tree.class_weights
    samples = counts.sum(axis=1, keepdims=True)  # (N, 1)
    proba = counts / np.where(samples > 0, samples, 1.0)  # weighted sums can be below 1
    for i in np.flatnonzero(samples[:, 0] == 0):
        proba[i] = proba[tree.parent[i]]
    return proba


class DecisionTreeClassifier(_TreeModel, ClassifierMixin, Estimator):
    """Decision tree classifier grown by DECISION-TREE-LEARNING (notes 000, "Decision Trees"; notes 004,
    "Choosing best attribute", "Pruning decision trees").

    IMPORTANCE is the information gain in bits (criterion="entropy"), the decrease in Gini impurity
    (criterion="gini") or C4.5's gain ratio (criterion="gain_ratio": the information gain of each
    attribute's best test divided by its split information, -sum_k (n_k / n) log2(n_k / n) over its
    branches; criteria.py), which does not favour tests of many values as the gain does.
    A categorical column split multiway gets one branch per value it takes in the whole training set; a
    value with no examples at a node becomes a leaf predicting PLURALITY-VALUE of the parent's examples; the
    attribute is not tested twice on one path. A categorical column split binary gets a test "A in S" and
    may be tested again: with two classes S is the best of the cuts of its values ordered by P(second class)
    (the best of all subsets; Breiman et al., 1984), with more classes the best single value against the
    rest; values absent at the node go right. A column split one_vs_rest gets the same test with S one
    value, for any number of classes: the test a tree on one-hot columns makes. categorical_split="auto"
    splits columns with up to 10 values multiway (the notes' tables stay ID3-exact) and those with more
    one_vs_rest: ordering hundreds of values by the very rows a node splits makes the best set fit noise
    (_TreeModel._split_kinds). A numeric column gets binary tests x <= t (t halfway between consecutive
    distinct values) and may be tested again. Ties in PLURALITY-VALUE go to the smallest label; ties between
    attributes (gains within 1e-12) to the earlier column. Growth stops at pure nodes, when no attribute is
    left, at max_depth, below min_samples_split examples, or when the best gain is <= min_gain; a test
    leaving fewer than min_samples_leaf examples in a branch, or less than min_weight_fraction_leaf of
    the examples' total weight (class and sample weights included, as scikit-learn), is not
    considered. max_leaf_nodes grows
    best-first, as scikit-learn does: the leaf whose split lowers the total impurity most (samples * gain)
    is split first, until that many leaves.

    class_weight="balanced" weighs each example of class c by n / (k * n_c) (scikit-learn's meaning,
    counted on the training rows), so rare classes count as much as common ones; a dict {label: weight}
    weighs the examples of the classes it names by its numbers and the others by 1. Entropy, Gini and the
    gains are computed on the weighted class counts, and PLURALITY-VALUE and predict_proba read the
    weighted counts too. The nodes still report their counts of rows; min_samples_split and
    min_samples_leaf count rows, as in scikit-learn; the chi-squared test and reduced-error pruning
    count rows as well.

    fit's sample_weight (n,) makes each row count as that many rows, scikit-learn's meaning, times its
    class's weight: integer weights grow the tree of the rows repeated, and a row of weight 0 is left
    out. The nodes then also keep each class's sum of sample weights, which impurity, gains, leaves,
    predict_proba, feature_importances_ and the chi-squared test read. reduced_error pruning refuses
    sample weights (its validation errors are counted row by row).

    max_features offers each node a random subset of the attributes still open there, drawn with `random_state`
    (feature_draw.py; scikit-learn's values: None for all, an int, a share, "sqrt", "log2"): what the
    trees of a random forest do. None, the default, grows the tree of every attribute.

    prune="chi2" replaces, bottom-up, every node whose children are all leaves and whose split is not
    significant at level alpha (Delta ~ chi-squared with (branches - 1)(classes - 1) degrees of
    freedom, counting non-empty branches and classes present). prune="reduced_error" replaces,
    bottom-up, every inner node whose replacement by a leaf does not increase the error on validation
    data: X_val, y_val given to fit, or else a stratified `validation_fraction` of the training rows
    (drawn with `random_state`, the seed) held out from growing. X_val and y_val are ignored by the other settings.

    Fitted: classes_, class_weights_ (weight of each class's examples, or None), tree_ (flat node
    arrays), feature_names_in_, feature_kinds_, categories_ (sorted training values of each categorical
    column, None for numeric ones), categorical_splits_ (per column None, "multiway", "binary" or "one_vs_rest"),
    n_features_in_; feature_importances_ (impurity importance), apply and decision_path as scikit-learn's.

    trace=True records trace_, a list of steps. Growth, in the order of the recursive pseudocode:
    {"step": "split" | "leaf", "node": path such as "root/Pat=Full", "depth", "samples",
    "counts": {label: n}, "impurity", "candidates": {attribute: gain} (empty when the node was not
    scored), "chosen": attribute or None, "threshold": number (numeric test) or None, "values": the left
    set of a binary categorical test or None, "reason": None for splits, else "pure" | "no attributes" |
    "max_depth" | "min_samples_split" | "no gain" | "empty branch: plurality of parent" |
    "max_leaf_nodes"}. Then pruning, bottom-up: chi2 gives {"step": "prune",
    "node", "statistic": Delta, "dof", "p_value", "pruned"}; reduced_error gives {"step": "prune",
    "node", "error_before" (validation errors of the subtree), "error_after" (as a leaf), "pruned"}.
    """

    _param_rules = {
        "criterion": Choice("entropy", "gini", "gain_ratio",
                            help="How a split is scored (the notes' IMPORTANCE): information gain in bits "
                                 "(entropy), the decrease in Gini impurity, or C4.5's gain ratio (information "
                                 "gain over the entropy of the branch sizes)"),
        "max_depth": Integer(1, None, none_ok=True, help="Stop splitting at this depth (None: grow fully)"),
        "min_samples_split": Integer(2, None, help="A node with fewer examples becomes a leaf"),
        **SIZE_RULES,
        "min_gain": Number(0.0, None, help="Split only when the best gain exceeds this"),
        "prune": Choice("chi2", "reduced_error", none_ok=True,
                        help="After growing: chi-squared test, or pruning on validation data"),
        "alpha": Number(0.0, 1.0, low_open=True, high_open=True,
                        help="Significance level of the chi-squared test"),
        "validation_fraction": Number(0.0, 1.0, low_open=True, high_open=True,
                                      help="Share of training rows held out for reduced-error pruning"),
        "random_state": Integer(0, None, none_ok=True, label="seed",
                                help="Seed of the random validation hold-out and of the features offered to each "
                                     "node (max_features); None: a fresh one each fit"),
        "class_weight": CLASS_WEIGHT_RULE,
        "trace": Flag(help="Record every split, leaf and pruning test"),
    }

    _renamed_params = {"seed": "random_state"}  # before scikit-learn's name

    def __init__(self, criterion="entropy", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 max_leaf_nodes=None, categorical_split="auto", min_gain=0.0, prune=None, alpha=0.05,
                 validation_fraction=0.2, random_state=0, class_weight=None, trace=False,
                 min_weight_fraction_leaf=0.0, max_features=None):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.categorical_split = categorical_split
        self.min_gain = min_gain
        self.prune = prune
        self.alpha = alpha
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.class_weight = class_weight
        self.trace = trace

    def fit(self, X, y, feature_names=None, X_val=None, y_val=None, sample_weight=None):
        """Grow (and prune) the tree on X, y; sample_weight (n,): how many rows each row counts as."""
        self._check_params()
        self.__dict__.pop("trace_", None)
        X_encoded, y = self._read_training(X, y, feature_names, "classification")
        sample_weight = check_sample_weight(sample_weight, len(y))
        if sample_weight is not None and self.prune == "reduced_error":
            raise DataError("prune='reduced_error' counts the validation rows' errors one by one, so it does "
                            "not take sample_weight: leave out sample_weight, or prune with 'chi2' or None.")
        self.classes_ = check_classes(y)
        codes = np.searchsorted(self.classes_, y)  # (n,)
        self.class_weights_ = class_weights(self.class_weight, codes, self.classes_)  # of all rows, as scikit-learn
        X_encoded, codes, sample_weight = drop_weightless(X_encoded, codes, sample_weight)
        grow_rows = slice(None)  # every row, as views: no copy of the table to grow on
        if self.prune == "reduced_error":
            if X_val is None and y_val is None:
                grow_rows, val_rows = stratified_holdout(codes, self.validation_fraction, self.random_state)
                X_v, y_v = X_encoded[val_rows], codes[val_rows]
            else:
                X_v, labels = check_validation(self, X_val, y_val)
                index = {c: i for i, c in enumerate(self.classes_.tolist())}
                y_v = np.array([index.get(v, -1) for v in labels.tolist()], dtype=np.intp)
        target = Classes(codes[grow_rows], len(self.classes_), self.criterion, self.class_weights_, sample_weight)
        tree = self._grow(X_encoded[grow_rows], target)
        steps, paths = self._start_trace(tree) if self.trace else ([], None)
        if self.prune == "chi2":
            records = chi2_prune(tree, self.alpha)
            steps += tracing.chi2_steps(records, paths) if self.trace else []
        elif self.prune == "reduced_error":
            prediction = plurality_value(node_distribution(tree))
            records = reduced_error_prune(tree, X_v, y_v, self._is_categorical, prediction)
            steps += tracing.reduced_error_steps(records, paths) if self.trace else []
        self.tree_ = tree.compact()
        self._set_node_values(None)
        if self.trace:
            self.trace_ = steps
        return self

    def predict_proba(self, X):
        """(n, k) class frequencies of the leaf each row reaches (columns in the order of classes_)."""
        return self.predict_proba_at(self.apply(X))

    def predict(self, X):
        """The plurality class of the leaf each row reaches."""
        return self.predict_at(self.apply(X))

    def predict_proba_at(self, nodes):
        """predict_proba of rows that end in `nodes` (ids from `apply`)."""
        return self._proba[nodes]

    def predict_at(self, nodes):
        """predict of rows that end in `nodes` (ids from `apply`)."""
        return self.classes_[self._prediction[nodes]]

    # --- node payloads for the nested form, the trace and export ---------------------------------

    def _set_node_values(self, values):
        self.tree_.class_weights = self.class_weights_
        self._proba = node_distribution(self.tree_)  # (N, k)
        self._prediction = plurality_value(self._proba)  # (N,)

    def _counts(self, stats, i):
        return {str(c): int(n) for c, n in zip(self.classes_.tolist(), stats[:, i])}

    def _node_payload(self, i):
        label = self.classes_[self._prediction[i]]
        payload = {"counts": self._counts(self.tree_.stats, i), "prediction": label.item()}
        if self.tree_.weighted is not None:  # each class's sum of sample weights
            payload["weights"] = {str(c): float(w) for c, w in zip(self.classes_.tolist(), self.tree_.weighted[:, i])}
        return payload

    def _trace_payload(self, tree, i):
        return {"counts": self._counts(tree.stats, i)}

    def _leaf_text(self, i, decimals):
        return f"class: {self.classes_[self._prediction[i]]}"

    def _extra_state(self):
        weights = None if self.class_weights_ is None else self.class_weights_.tolist()
        return {"classes": self.classes_.tolist(), "class_weights": weights}

    def _read_extra_state(self, d):
        self.classes_ = np.array(require_labels(require_key(d, "classes", ""), "classes").tolist())
        if len(self.classes_) < 2:
            raise damaged("classes", "must list at least two classes")
        weights = d.get("class_weights")  # absent from models saved before class weights
        self.class_weights_ = None if weights is None else \
            require_array(weights, "class_weights", "f", (len(self.classes_),))
        if weights is not None and not _one_positive_weight_per_class(self.class_weights_, self.classes_):
            raise damaged("class_weights", "must give one positive number per class")
        check_saved_weights(self.class_weight, self.classes_, self.class_weights_, "class_weights")

    def _node_values(self):
        return None  # the class counts in the statistics are all a node needs

    def _n_stats(self):
        return len(self.classes_)

    def _n_counts(self):
        return len(self.classes_)  # every statistic is a class's count

    def _n_weighted(self):
        return len(self.classes_)  # each class's sum of sample weights

    def _read_node_payload(self, node, path="tree"):
        """The class counts of a node: a whole number per class, adding up to its samples."""
        counts = require_dict(require_key(node, "counts", path), f"{path}.counts")
        labels = [str(c) for c in self.classes_.tolist()]
        if sorted(counts) != sorted(labels):
            raise damaged(f"{path}.counts", "must give a count for each class, and no other")
        column = np.array([require_int(counts[c], f"{path}.counts.{c}", 0, MAX_COUNT) for c in labels], dtype=np.intp)
        if int(column.sum()) != require_int(require_key(node, "samples", path), f"{path}.samples", 0, MAX_COUNT):
            raise damaged(f"{path}.counts", f"must add up to the node's samples ({node['samples']})")
        if getattr(self, "_file_weighted", False):  # then the class's sums of sample weights follow
            weights = require_dict(require_key(node, "weights", path), f"{path}.weights")
            if sorted(weights) != sorted(labels):
                raise damaged(f"{path}.weights", "must give a weight for each class, and no other")
            column = np.concatenate([column, [require_number(weights[c], f"{path}.weights.{c}", 0.0) for c in labels]])
        return column, None


def _one_positive_weight_per_class(weights, classes):
    return weights.shape == classes.shape and bool((np.isfinite(weights) & (weights > 0)).all())
