"""DecisionTreeRegressor: a regression tree, grown like ID3 with variance reduction as IMPORTANCE."""

import numpy as np

from ...core.base import Estimator, RegressorMixin
from ...core.params import Flag, Integer, Number
from ...core.file_fields import damaged, require_int, require_key, require_number
from ._base import MAX_COUNT, SIZE_RULES, _TreeModel
from .criteria import Values
from ...core.sample_weight import check_sample_weight
from .sample_weights import drop_weightless


def node_means(tree, means):
    """Leaf values: the mean target of each node; an empty leaf takes its parent's mean."""
    means = np.array(means, dtype=float)  # (N,)
    for i in np.flatnonzero(tree.weighted_samples == 0):
        means[i] = means[tree.parent[i]]
    return means


class DecisionTreeRegressor(_TreeModel, RegressorMixin, Estimator):
    """Regression tree (notes 000, "Decision Trees": trees "extended to continuous outputs").

    Grown by the same DECISION-TREE-LEARNING as DecisionTreeClassifier, with IMPORTANCE = reduction in
    the variance of the target: Var(parent) - sum_k (n_k / n) Var(child k). Numeric columns get binary
    tests x <= t (t halfway between consecutive distinct values), categorical columns multiway tests
    (one branch per training value, not reused below) or, as categorical_split says (see
    DecisionTreeClassifier), binary tests "A in S" with S the best cut of the values ordered by mean
    target, or one value against the rest (one_vs_rest, what auto gives a column of more than 10
    values). A leaf predicts the mean target of its examples; an empty branch the mean of its parent's.
    Growth stops when a node's targets are all equal, at max_depth, below min_samples_split examples,
    or when the best reduction is <= min_gain; min_samples_leaf and max_leaf_nodes (best-first growth)
    limit it as in DecisionTreeClassifier, and so do min_weight_fraction_leaf and fit's sample_weight
    (weighted means and variances; a row of weight 0 left out), and max_features with `random_state` (the seed).

    Fitted: tree_, feature_names_in_, feature_kinds_, categories_, categorical_splits_, n_features_in_;
    feature_importances_, apply and decision_path as scikit-learn's.

    trace=True records trace_ as DecisionTreeClassifier does, with "value" (the node's mean) in place
    of "counts", "impurity" the variance and candidate gains the variance reductions.
    """

    _param_rules = {
        "max_depth": Integer(1, None, none_ok=True, help="Stop splitting at this depth (None: grow fully)"),
        "min_samples_split": Integer(2, None, help="A node with fewer examples becomes a leaf"),
        **SIZE_RULES,
        "min_gain": Number(0.0, None, help="Split only when the best variance reduction exceeds this"),
        "random_state": Integer(0, None, none_ok=True, label="seed",
                                help="Seed of the features offered to each node (max_features); None: a fresh one"),
        "trace": Flag(help="Record every split and leaf"),
    }

    def __init__(self, max_depth=None, min_samples_split=2, min_samples_leaf=1, max_leaf_nodes=None,
                 categorical_split="auto", min_gain=0.0, trace=False, min_weight_fraction_leaf=0.0,
                 max_features=None, random_state=0):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.categorical_split = categorical_split
        self.min_gain = min_gain
        self.trace = trace

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Grow the tree on X, y; sample_weight (n,): how many rows each row counts as."""
        self._check_params()
        self.__dict__.pop("trace_", None)
        X_encoded, y = self._read_training(X, y, feature_names, "regression")
        X_encoded, y, sample_weight = drop_weightless(X_encoded, y, check_sample_weight(sample_weight, len(y)))
        target = Values(y, sample_weight)
        tree = self._grow(X_encoded, target)
        self.tree_ = tree
        self._set_node_values(target.mean(tree.stats.T))
        if self.trace:
            self.trace_ = self._start_trace(tree)[0]
        return self

    def predict(self, X):
        """The mean target of the leaf each row reaches."""
        return self.predict_at(self.apply(X))

    def predict_at(self, nodes):
        """predict of rows that end in `nodes` (ids from `apply`)."""
        return self._value[nodes]

    def _set_node_values(self, values):
        if values is None:  # a packed file must keep them: the statistics are of the target less an offset
            raise damaged("nodes.values", "must give each node's mean target")
        self._value = node_means(self.tree_, values)  # (N,)

    def _node_payload(self, i):
        payload = {"value": float(self._value[i]), "prediction": float(self._value[i])}
        if self.tree_.weighted is not None:  # the sum of its rows' sample weights
            payload["weight"] = float(self.tree_.weighted[0, i])
        return payload

    def _trace_payload(self, tree, i):
        return {"value": float(self._value[i])}

    def _leaf_text(self, i, decimals):
        return f"value: [{self._value[i]:.{decimals}f}]"

    def _extra_state(self):
        return {}

    def _read_extra_state(self, d):
        pass

    def _node_values(self):
        return self._value  # (N,) the statistics are of the target less an offset not kept

    def _n_stats(self):
        return 3  # count, sum and sum of squares

    def _n_counts(self):
        return 1  # the count; the sums may be of any sign

    def _n_weighted(self):
        return 1  # the sum of the rows' sample weights

    def _read_node_payload(self, node, path="tree"):
        """A node's count, mean and spread of the target, each checked."""
        n = require_int(require_key(node, "samples", path), f"{path}.samples", 0, MAX_COUNT)
        value = require_number(require_key(node, "value", path), f"{path}.value")
        impurity = require_number(require_key(node, "impurity", path), f"{path}.impurity")
        column = [n, n * value, n * (impurity + value * value)]
        if getattr(self, "_file_weighted", False):  # then the sum of its rows' sample weights
            column.append(require_number(require_key(node, "weight", path), f"{path}.weight", 0.0))
        return np.array(column, dtype=float), value
