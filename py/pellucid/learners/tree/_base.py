"""What the tree classifier and regressor share: reading X, growing, routing rows, and the JSON form."""

import numpy as np

from ...core.errors import DataError
from ...core.file_fields import (Dims, Kinds, damaged, require_dict, require_int, require_key, require_list,
                                 require_names)
from ...core.params import Choice, Integer, Number
from ...core.validation import CATEGORICAL, Columns, check_target
from ...tabular.features import fit_columns, read
from . import tracing
from .columns import category_lists, encode
from .description import from_nested, to_nested
from .export import export_text
from .feature_draw import MaxFeaturesRule, n_offered
from .importance import impurity_decrease
from .packed import from_packed, to_packed
from . import growth, growth_fast
from .leaf_budget import limit_leaves

MULTIWAY_MAX_VALUES = 10  # categorical_split="auto": columns with more values get one-value-against-the-rest tests
BINARY_KINDS = ("binary", "one_vs_rest")  # split kinds whose test is "A in S", with two branches
PACK_NODES_ABOVE = 1000  # a model file writes a tree of more nodes as packed arrays, not nested nodes
MAX_COUNT = 2 ** 53  # the most rows a node of a model file may count: beyond it a float is no longer exact

# Parameters both trees take, for real tables: leaf sizes, a cap on leaves, and binary category tests.
SIZE_RULES = {
    "min_samples_leaf": Integer(1, None, help="Every branch of a split keeps at least this many examples "
                                              "(an empty branch of a multiway split is allowed)"),
    "min_weight_fraction_leaf": Number(0.0, 0.5, help="Every branch of a split keeps at least this share of "
                                                      "the examples' total weight (as scikit-learn; with class or "
                                                      "sample weights, of their sum)"),
    "max_leaf_nodes": Integer(2, None, none_ok=True,
                              help="Grow best-first, splitting the leaf that lowers impurity most, up to "
                                   "this many leaves (None: no cap)"),
    "max_features": MaxFeaturesRule(help="How many features each node may test, drawn at random with the "
                                         "seed (None: all; sqrt or log2 of their number; or a number or "
                                         "share of them), as a random forest's trees do"),
    "categorical_split": Choice("auto", "multiway", "binary", "one_vs_rest",
                                help="Categorical tests: one branch per value (multiway, the notes' ID3), "
                                     "the best set of values against the rest (binary), one value against "
                                     f"the rest (one_vs_rest), or auto: multiway up to {MULTIWAY_MAX_VALUES} "
                                     "values, one_vs_rest beyond"),
}


class _TreeModel:
    """Mixin for DecisionTreeClassifier and DecisionTreeRegressor (fitted state: tree_ and its columns)."""

    takes_missing_values = True  # a missing number goes down the side that gained more (structure.py)

    def _read_training(self, X, y, feature_names, task):
        columns, y = fit_columns(self, X, y, feature_names, task=task)  # sets feature_names_in_ and kinds
        self.categories_ = category_lists(columns.kinds, columns.data)
        return encode(columns.kinds, columns.data, self.categories_, order="F"), y  # (n, d) column-major

    def _encode(self, X):
        """X read as in training: (n, d) floats with categorical values as codes (-1 if unseen). A plain
        numeric matrix for a tree of numeric columns is read as it is, not copied column by column."""
        data = read(self, X)  # checks the model is fitted first
        if not isinstance(data, Columns):
            return data
        return encode(data.kinds, data.data, self.categories_)

    def _split_kinds(self):
        """Per column: None (numeric), "multiway", "binary" or "one_vs_rest", as categorical_split asks.

        auto gives a many-valued column one value against the rest, as a one-hot column is tested: the
        best set of values (binary) orders the values by their mean target at the node, and with a
        handful of rows per value that order is learned from the very rows it splits, so such a column
        wins nearly every node and the tree fits noise (cross-validated R^2 below 0 on a 500-value
        column that a one-hot tree ignores: tests/oracle/test_tree_many_values.py)."""
        def kind(values):
            if values is None:
                return None
            if self.categorical_split == "auto":
                return "multiway" if len(values) <= MULTIWAY_MAX_VALUES else "one_vs_rest"
            return self.categorical_split
        return [kind(values) for values in self.categories_]

    @property
    def _is_categorical(self):
        return np.array([k == CATEGORICAL for k in self.feature_kinds_], dtype=bool)

    def _grow(self, X_encoded, target):
        """DECISION-TREE-LEARNING: the readable grower when the steps are traced, else the fast one
        (the same tree; tests/unit/test_fast_paths.py)."""
        n_values = [len(c) if c is not None else 0 for c in self.categories_]
        self.categorical_splits_ = self._split_kinds()
        binary = [kind in BINARY_KINDS for kind in self.categorical_splits_]
        single = [kind == "one_vs_rest" for kind in self.categorical_splits_]
        grow = growth.grow if self.trace else growth_fast.grow
        total = target.mass(target.stats_of_rows(np.arange(X_encoded.shape[0])).sum(axis=0))  # all rows weigh
        tree = grow(X_encoded, self._is_categorical, n_values, target, max_depth=self.max_depth,
                    min_samples_split=self.min_samples_split, min_gain=self.min_gain,
                    min_samples_leaf=self.min_samples_leaf, binary=binary, single=single,
                    min_weight_leaf=self.min_weight_fraction_leaf * float(total),
                    n_offered=n_offered(self.max_features, X_encoded.shape[1]), seed=self._seed())
        tree.impurity = target.impurity(tree.stats.T)  # (N,) read from every statistic grown
        tree.stats, tree.weighted = target.parts(tree.stats)  # counts of rows, and sample weights if any
        tree.class_weights = target.weights
        if self.max_leaf_nodes is not None:
            tree = limit_leaves(tree, self.max_leaf_nodes)
        return tree


    def _seed(self):
        """The seed of the features offered to each node: random_state, or a fresh one when it is None."""
        return self.random_state if self.random_state is not None else int(np.random.SeedSequence().entropy % 2**32)
    def _start_trace(self, tree):
        """Growth steps of the freshly grown tree, and the node paths pruning steps refer to."""
        node_paths = tracing.paths(tree, self.feature_names_in_, self.categories_)
        steps = tracing.growth_steps(tree, self.feature_names_in_, self.categories_, node_paths,
                                     lambda i: self._trace_payload(tree, i))
        return steps, node_paths

    def apply(self, X):
        """(n,) the id of the node each row of X ends in: its leaf, as scikit-learn's apply, or the inner
        node where a categorical value unseen in training stopped it. Ids are breadth first (the root 0,
        a node's children consecutive), not scikit-learn's depth-first order."""
        X_encoded = self._encode(X)  # checks the model is fitted first
        return self.tree_.apply(X_encoded, self._is_categorical)

    def decision_path(self, X):
        """The nodes each row of X passes through, as scikit-learn's decision_path: an (n, n_nodes)
        indicator, 1 where row i visits node j. A scipy.sparse CSR matrix when scipy can be imported, as
        scikit-learn returns; else (scipy is not a dependency, and the page has none) a dense 0/1 array."""
        ends = self.apply(X)  # (n,)
        return _indicator(path_nodes(self.tree_, ends), self.tree_.depth[ends] + 1, self.tree_.node_count)

    @property
    def feature_importances_(self):
        """(n_features,) impurity importance, scikit-learn's meaning (importance.py): each feature's share
        of the training rows' total impurity decrease, adding up to 1 (all 0 for a tree of one leaf)."""
        self._check_fitted()
        return impurity_decrease(self.tree_, self.n_features_in_)

    def get_depth(self):
        """Length of the longest root-to-leaf path."""
        self._check_fitted()
        return self.tree_.max_depth()

    def get_n_leaves(self):
        """Number of leaves."""
        self._check_fitted()
        return int((self.tree_.feature < 0).sum())

    def export_text(self, decimals=2):
        """The tree as indented text (see `pellucid.tree.export_text`)."""
        return export_text(self, decimals)

    # --- JSON round trip -------------------------------------------------------------------------

    def to_dict(self, max_nodes=None):
        """A JSON-able description of the fitted tree; `pellucid.from_dict` rebuilds it. Its "tree" is the
        nested nodes a person reads (description.py), or beyond PACK_NODES_ABOVE nodes "nodes", the flat
        arrays packed (packed.py). With `max_nodes`, what a view draws: the first max_nodes nodes nested,
        breadth first, and "tree_nodes_omitted" the number left out (it does not rebuild the tree)."""
        self._check_fitted()
        return {**self._header(), **self._state_to_dict(max_nodes)}

    def _state_to_dict(self, max_nodes=None, packed=None, candidates=False):
        """The tree's state (see to_dict); `packed` True writes the nodes packed whatever their number and
        without the gains of every candidate (an ensemble's many trees are read for their answers) unless
        `candidates` (an ensemble's first tree, sent to the worker that assembles the ensemble)."""
        state = {"feature_names": list(self.feature_names_in_), "feature_kinds": list(self.feature_kinds_),
                 "categories": [None if c is None else list(c) for c in self.categories_],
                 "n_nodes": int(self.tree_.node_count), "depth": self.get_depth(),
                 "n_leaves": self.get_n_leaves(), "categorical_splits": list(self.categorical_splits_),
                 **self._extra_state()}
        if self.tree_.weighted is not None:  # fitted with sample_weight: every node says what its rows weigh
            state["sample_weighted"] = True
        if packed or (packed is None and max_nodes is None and self.tree_.node_count > PACK_NODES_ABOVE):
            state["nodes"] = to_packed(self.tree_, self._node_values(), candidates=not packed or candidates)
            return state
        state["tree"], omitted = to_nested(self.tree_, self.feature_names_in_, self.categories_,
                                           lambda i: self._node_payload(i), max_nodes)
        if max_nodes is not None:
            state["tree_nodes_omitted"] = omitted
        return state

    def _state_from_dict(self, d):
        """The tree a model file describes, each field checked first (core.file_fields): the columns, their
        categories and tests, then the nodes, nested or packed, checked as they are read."""
        names = require_names(require_key(d, "feature_names", ""), "feature_names")
        kinds = Kinds(None).check(require_key(d, "feature_kinds", ""), "feature_kinds", Dims())
        categories = require_list(require_key(d, "categories", ""), "categories", len(names))
        if len(kinds) != len(names) or not names:
            raise damaged("feature_kinds", f"must give the kind of each of the {len(names)} features")
        categories = [_categories(c, kind, f"categories[{j}]") for j, (c, kind) in enumerate(zip(categories, kinds))]
        self.feature_names_in_, self.feature_kinds_, self.categories_ = names, kinds, categories
        self.n_features_in_ = len(names)
        self.categorical_splits_ = _split_kinds(d.get("categorical_splits"), categories)
        self._read_extra_state(d)
        self._file_weighted = require_flag(d.get("sample_weighted", False), "sample_weighted")
        if "nodes" in d:
            tree, values = from_packed(require_dict(d["nodes"], "nodes"), categories, self._n_stats(),
                                       self._n_counts(), self._n_weighted() if self._file_weighted else 0)
        else:
            tree, values = from_nested(require_dict(require_key(d, "tree", ""), "tree"), names, categories,
                                       self._read_node_payload)
            if self._file_weighted:  # each node's column ends with what its rows weigh
                tree.stats, tree.weighted = tree.stats[:-self._n_weighted()], tree.stats[-self._n_weighted():]
                if self._n_counts() == self._n_stats():  # a classifier's statistics are whole counts
                    tree.stats = tree.stats.round().astype(np.intp)
        del self._file_weighted
        self.tree_ = tree
        self._set_node_values(values)
        counted = {"n_nodes": tree.node_count, "depth": self.get_depth(), "n_leaves": self.get_n_leaves()}
        for key, value in counted.items():
            if key in d and require_int(d[key], key) != value:
                raise damaged(key, f"is {d[key]}, but the nodes make {value}")


def path_nodes(tree, ends):
    """The nodes from the root to each of `ends`, concatenated row after row, each path in root-first
    (ascending id) order: a node's depth is its place in its path."""
    lengths = tree.depth[ends] + 1  # (n,)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))  # (n,)
    nodes = np.empty(int(lengths.sum()), dtype=np.intp)
    at = np.asarray(ends, dtype=np.intp).copy()
    live = np.arange(len(at))
    while live.size:  # every row climbs one level per pass, writing the node it is at
        nodes[starts[live] + tree.depth[at[live]]] = at[live]
        at[live] = tree.parent[at[live]]
        live = live[at[live] >= 0]
    return nodes


def _indicator(nodes, lengths, n_nodes):
    """The (n, n_nodes) 0/1 matrix of rows whose paths are `nodes` (split by `lengths`), CSR if scipy is there."""
    indptr = np.concatenate(([0], np.cumsum(lengths))).astype(np.intp)  # (n + 1,)
    try:
        from scipy.sparse import csr_matrix
    except ImportError:
        dense = np.zeros((len(lengths), n_nodes), dtype=np.int64)
        dense[np.repeat(np.arange(len(lengths)), lengths), nodes] = 1
        return dense
    return csr_matrix((np.ones(len(nodes), dtype=np.int64), nodes, indptr), shape=(len(lengths), n_nodes))


def require_flag(value, path):
    """A true or false of a model file."""
    if not isinstance(value, bool):
        raise damaged(path, "must be true or false")
    return value


def _categories(values, kind, path):
    """A column's categories: None for a numeric column, its values as sorted different texts else."""
    if kind != CATEGORICAL:
        if values is not None:
            raise damaged(path, "must be null for a numeric column")
        return None
    values = require_names(values, path)
    if not values or values != sorted(values):
        raise damaged(path, "must list a categorical column's values, sorted")
    return values


def _split_kinds(kinds, categories):
    """Each column's kind of test (None numeric, "multiway", "binary" or "one_vs_rest"); files written before
    binary tests have none: then every categorical test is multiway."""
    if kinds is None:
        return [None if c is None else "multiway" for c in categories]
    kinds = require_list(kinds, "categorical_splits", len(categories))
    for j, (kind, values) in enumerate(zip(kinds, categories)):
        if (kind is None) != (values is None) or kind not in (None, "multiway", *BINARY_KINDS):
            raise damaged(f"categorical_splits[{j}]", "must be null for a numeric column, else one of multiway, "
                                                      f"{', '.join(BINARY_KINDS)}")
    return kinds


def check_validation(model, X_val, y_val):
    """Validation rows given to fit: encoded X and target (both or neither)."""
    if (X_val is None) != (y_val is None):
        raise DataError("X_val and y_val go together: got only "
                        f"{'X_val' if y_val is None else 'y_val'}.")
    X_encoded = model._encode(X_val)
    return X_encoded, check_target(y_val, X_encoded.shape[0], task="classification")
