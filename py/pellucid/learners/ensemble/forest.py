"""Random forests and bagged trees: many of the notes' trees, each grown on a bootstrap sample of the rows,
answering together (votes.py).

A random forest's trees are also offered a random subset of the features at each node (max_features,
drawn by each tree with its own seed), which makes them differ more from one another, so their mean
varies less; bagging offers every node every feature. With bootstrap=False and max_features=None every
tree is the notes' tree of all the rows, and the ensemble answers as that one tree."""

import warnings

import numpy as np

from ...core.base import ClassifierMixin, Estimator, RegressorMixin
from ...core.descriptor import Task
from ...core.errors import DataError
from ...core.params import Choice, Flag, Integer, Number
from ...core.sample_weight import check_sample_weight
from ...core.scores import accuracy_score, r2_score
from ...core.validation import Columns, check_classes
from ...host.progress import report
from ...tabular.features import read, read_fit
from ..shared.class_weights import CLASS_WEIGHT_RULE
from ..tree.columns import encode
from ..tree.feature_draw import MaxFeaturesRule
from . import model_file
from .draws import draws, fit_seed
from .growers import forget_candidates, make_tree
from .routes import routed
from .stacked_routes import StackCache
from .size import check_projected, check_size
from .votes import out_of_bag_mean, running_means

_TREE_RULES = {
    "max_depth": Integer(1, None, none_ok=True, help="Each tree stops splitting at this depth (None: grow fully)"),
    "min_samples_split": Integer(2, None, help="A node of a tree with fewer examples becomes a leaf"),
    "min_samples_leaf": Integer(1, None, help="Every branch of a split keeps at least this many examples"),
    "min_weight_fraction_leaf": Number(0.0, 0.5, help="Every branch of a split keeps at least this share of "
                                                      "the examples' total weight"),
    "max_leaf_nodes": Integer(2, None, none_ok=True, help="Each tree grows best-first up to this many leaves "
                                                          "(None: no cap)"),
}
_ENSEMBLE_RULES = {
    "n_estimators": Integer(1, None, label="trees", help="How many trees answer together"),
    "bootstrap": Flag(help="Grow each tree on a bootstrap sample (n rows drawn with replacement); off: on "
                           "every row"),
    "oob_score": Flag(help="Score each row with the trees that did not draw it (needs bootstrap)"),
    "random_state": Integer(0, None, none_ok=True, label="seed",
                            help="Seed of the samples and of each tree's seed; None: a fresh one each fit"),
    "trace": Flag(help="Record each tree's draw: its seed, the rows in its sample and out of bag, its size"),
}
_CRITERION = Choice("gini", "entropy", help="How a tree scores a split: the decrease in Gini impurity or the "
                                            "information gain in bits")
_MAX_FEATURES = MaxFeaturesRule(help="How many features each node may test, drawn at random (None: all; sqrt "
                                     "or log2 of their number; or a number or share of them)")


class _Ensemble:
    """What every ensemble of trees shares: fitting the trees on their samples, reading X once for all of
    them, out-of-bag scores, importances, staged answers and the model file."""

    takes_missing_values = True  # its trees send a missing number down the side that gained more

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Grow n_estimators trees, each on its bootstrap sample; sample_weight (n,) multiplies the counts.
        The very steps of growing the trees in ranges elsewhere (grow_trees) and assembling them here
        (fit_from_trees), so either way makes the same ensemble."""
        y, weights = self._begin_fit(X, y, feature_names, sample_weight)
        seed = fit_seed(self.random_state)
        trees = self._grow(X, y, feature_names, weights, seed, 0, self.n_estimators)
        return self._assemble(X, y, trees, seed)

    def grow_trees(self, X, y, start, stop, feature_names=None, sample_weight=None):
        """Trees start .. stop - 1 of the ensemble `fit` grows on the same X, y and sample_weight, grown as
        fit grows them: the draws of the trees before `start` are replayed, not their trees. A list of
        fitted trees for fit_from_trees; the ensemble itself is left unfitted."""
        self._check_seeded()
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in (start, stop)) \
                or not 0 <= start < stop <= self.n_estimators:
            raise DataError(f"A range of trees must be within 0 to {self.n_estimators} (n_estimators), its start "
                            f"below its stop; got {start!r} to {stop!r}.", field="params.n_estimators")
        y, weights = self._begin_fit(X, y, feature_names, sample_weight)
        trees = self._grow(X, y, feature_names, weights, self.random_state, start, stop)
        for name in self.fitted_attributes():
            delattr(self, name)
        return trees

    def fit_from_trees(self, X, y, trees, feature_names=None, sample_weight=None):
        """The ensemble `fit` makes of X, y and sample_weight, its trees given (`trees`: all n_estimators,
        in order, as grow_trees grew them) rather than grown: each must have the seed its place draws."""
        self._check_seeded()
        y, _ = self._begin_fit(X, y, feature_names, sample_weight)
        seeds = [seed for seed, _ in draws(self.random_state, len(y), self.bootstrap, self.n_estimators)]
        if [int(tree.random_state) for tree in trees] != seeds:
            raise DataError(f"The trees must be the {self.n_estimators} this ensemble's seed "
                            f"({self.random_state}) draws, in order; {len(trees)} trees of other seeds or in "
                            "another order were given.", field="params.random_state")
        for tree in trees:
            tree._feature_names_from = self._feature_names_from  # as fit read X: warns alike at predict time
        return self._assemble(X, y, trees, self.random_state)

    def _check_seeded(self):
        if self.random_state is None:
            raise DataError("An unseeded ensemble (random_state None) draws other trees each time, so trees "
                            "grown apart would not make one ensemble: give it a seed.", field="params.random_state")

    def _begin_fit(self, X, y, feature_names, sample_weight):
        """(y, weights): the parameters, X and y checked and read (the names and kinds of the columns, the
        classes) and the size of the largest trees checked, any earlier fit forgotten."""
        self._check_params()
        if self.oob_score and not self.bootstrap:
            raise DataError("oob_score needs bootstrap: without it every tree draws every row, so no row is "
                            "left out of bag to score.", field="params.oob_score")
        for name in self.fitted_attributes():
            delattr(self, name)
        _, y = read_fit(self, X, y, feature_names, task=self.task.value)  # names, kinds; y checked
        weights = check_sample_weight(sample_weight, len(y))
        if self.task == Task.CLASSIFICATION:
            self.classes_ = check_classes(y)
        check_size(self.n_estimators, len(y), len(getattr(self, "classes_", [0])), self.max_depth,
                   self.min_samples_leaf, self.max_leaf_nodes)
        return y, weights

    def _grow(self, X, y, feature_names, weights, seed, start, stop):
        """Trees start .. stop - 1, each on its sample of the draws from `seed`; the first tree of all keeps
        the gains its nodes weighed (the steps read them) and tells whether all of them would fit."""
        trees = []
        for i, (tree_seed, counts) in enumerate(draws(seed, len(y), self.bootstrap, stop)):
            if i < start:
                continue
            tree_weights = counts if weights is None else weights if counts is None else counts * weights
            tree = make_tree(self, tree_seed).fit(X, y, feature_names=feature_names, sample_weight=tree_weights)
            if i == 0:
                check_projected(self.n_estimators, tree)  # before the others are grown
            trees.append(tree if i == 0 else forget_candidates(tree))
            report((i + 1 - start) / (stop - start), f"tree {i + 1} of {self.n_estimators}")  # the page's bar
        return trees

    def _assemble(self, X, y, trees, seed):
        """The fitted ensemble of `trees`, all n_estimators of them: its trace and out-of-bag score from
        the rows each tree drew, the draws from `seed` replayed."""
        self.estimators_ = list(trees)
        self._stack_cache = StackCache()
        in_bag, first_sample = [], None
        for i, (_, counts) in enumerate(draws(seed, len(y), self.bootstrap, self.n_estimators)):
            first_sample = counts if i == 0 else first_sample
            in_bag.append(counts > 0 if counts is not None else np.ones(len(y), dtype=bool))
        if self.trace:
            self.trace_ = [_tree_step(i, tree, drawn) for i, (tree, drawn) in enumerate(zip(trees, in_bag))]
            self.trace_[0]["sample_counts"] = (first_sample if first_sample is not None
                                               else np.ones(len(y), dtype=np.intp)).tolist()
        if self.oob_score:
            self._score_out_of_bag(self._encode(X), y, np.array(in_bag))
        return self

    # --- reading X once for every tree ---------------------------------------------------------------

    def _encode(self, X):
        """X read as in training and encoded as the trees read it (categorical values as codes); every tree
        saw the same columns, so the first tree's categories serve them all."""
        data = read(self, X)  # checks that the model is fitted
        if isinstance(data, Columns):
            return encode(data.kinds, data.data, self.estimators_[0].categories_)
        return data

    def _routed(self, X_encoded):
        """Each tree with the node every row ends in, tree after tree (routes.py: what the trees share of
        X is learned once)."""
        return routed(self.estimators_, X_encoded, self.estimators_[0]._is_categorical,  # the same columns
                      self.__dict__.get("_stack_cache"))

    def _answers(self, X_encoded):
        """(T, n, ...) each tree's answer for every row: class probabilities, or predictions."""
        return np.array([self._tree_answer(tree, nodes) for tree, nodes in self._routed(X_encoded)])

    def _mean_answer(self, X_encoded):
        """(n, ...) the mean of the trees' answers, each added in place to one total: the (T, n, ...)
        stack of all the answers is never made."""
        total = None
        for tree, nodes in self._routed(X_encoded):
            answer = self._tree_answer(tree, nodes)
            if total is None:
                total = answer.astype(float)  # a copy: the first answer may be a view of the tree's own table
            else:
                total += answer
        total /= len(self.estimators_)
        return total

    def _score_out_of_bag(self, X_encoded, y, in_bag):
        """oob_score_ and each row's out-of-bag answer, from the trees that did not draw it."""
        total, count = 0.0, np.zeros(len(y))
        for (tree, nodes), drawn in zip(self._routed(X_encoded), in_bag):
            out = ~drawn
            answer = self._tree_answer(tree, nodes)
            total = total + answer * out.reshape((-1,) + (1,) * (answer.ndim - 1))
            count += out
        mean = out_of_bag_mean(np.asarray(total), count)
        scored = count > 0
        if not scored.all():
            warnings.warn(f"{int((~scored).sum())} rows were drawn by every tree and have no out-of-bag answer "
                          "(NaN); oob_score_ is of the other rows. More trees leave fewer such rows.", UserWarning,
                          stacklevel=4)
        self._set_out_of_bag(mean, y, scored)

    # --- what the fitted ensemble tells ----------------------------------------------------------------

    @property
    def feature_importances_(self):
        """(n_features,) the mean of the trees' impurity importances (each adding up to 1), over the trees
        that split at all, normalised to add up to 1, as scikit-learn's forests; all 0 if none split."""
        self._check_fitted()
        grown = [tree.feature_importances_ for tree in self.estimators_ if tree.tree_.node_count > 1]
        if not grown:
            return np.zeros(self.n_features_in_)
        mean = np.mean(grown, axis=0)
        return mean / mean.sum()

    def staged_score(self, X, y):
        """(n_estimators,) the score (accuracy or R^2) of the first t trees together on X, y, t = 1..T:
        a held-out score against the number of trees."""
        y = np.asarray(y)
        return np.array([self._score_of(y, prediction) for prediction in self.staged_predict(X)])

    # --- the model file ----------------------------------------------------------------------------

    def _state_to_dict(self):
        return model_file.write(self)

    def _state_from_dict(self, d):
        model_file.read(self, d)


def _tree_step(i, tree, drawn):
    """What the trace records of tree i: its seed, how many different rows its sample holds and how many it
    left out of bag, and the tree it grew (the trees themselves grow by their fast path, untraced). The
    first tree's record also holds "sample_counts": how many times its sample drew each row."""
    return {"step": "tree", "tree": i, "seed": int(tree.random_state), "rows_drawn": int(drawn.sum()),
            "out_of_bag": int((~drawn).sum()), "nodes": int(tree.tree_.node_count), "depth": tree.get_depth()}


class RandomForestClassifier(_Ensemble, ClassifierMixin, Estimator):
    """Random forest classifier (Breiman, 2001): n_estimators of the notes' classification trees, each grown
    on a bootstrap sample of the rows (fitted with each row's count in the sample as its sample_weight)
    and offered max_features features drawn at random at each node; the forest predicts the class of
    highest mean probability over its trees (the soft vote).

    Fitted: estimators_ (the trees), classes_, n_features_in_, feature_names_in_, feature_kinds_,
    feature_importances_; with oob_score=True, oob_score_ (accuracy of the out-of-bag votes) and
    oob_decision_function_ (n, k) (NaN for a row every tree drew)."""

    _param_rules = {"n_estimators": _ENSEMBLE_RULES["n_estimators"], "criterion": _CRITERION, **_TREE_RULES,
                    "max_features": _MAX_FEATURES,
                    **{k: v for k, v in _ENSEMBLE_RULES.items() if k != "n_estimators"},
                    "class_weight": CLASS_WEIGHT_RULE}

    def __init__(self, n_estimators=100, criterion="gini", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 min_weight_fraction_leaf=0.0, max_features="sqrt", max_leaf_nodes=None, bootstrap=True,
                 oob_score=False, random_state=0, class_weight=None, trace=False):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.trace = trace
        self.class_weight = class_weight

    def predict_proba(self, X):
        """(n, k) the mean of the trees' class probabilities (columns in the order of classes_)."""
        return self._mean_answer(self._encode(X))

    def predict(self, X):
        """The class of highest mean probability (the first in classes_ on a tie)."""
        return self.answer_of_mean(self.predict_proba(X))[0]  # predict_proba checks the model is fitted

    def answer_of_mean(self, mean):
        """(predictions, probabilities) from the trees' mean probabilities (n, k)."""
        return self.classes_[np.argmax(mean, axis=1)], mean

    def staged_predict_proba(self, X):
        """The mean probabilities of the first t trees, for t = 1..n_estimators (a generator)."""
        yield from running_means(self._answers(self._encode(X)))

    def staged_predict(self, X):
        """The predictions of the first t trees together, for t = 1..n_estimators (a generator)."""
        for proba in self.staged_predict_proba(X):
            yield self.classes_[np.argmax(proba, axis=1)]

    @staticmethod
    def _tree_answer(tree, nodes):
        return tree.predict_proba_at(nodes)

    @staticmethod
    def _score_of(y, prediction):
        return accuracy_score(y, prediction)

    def _set_out_of_bag(self, mean, y, scored):
        self.oob_decision_function_ = mean
        predicted = self.classes_[np.argmax(np.nan_to_num(mean[scored], nan=0.0), axis=1)]
        self.oob_score_ = float(accuracy_score(np.asarray(y)[scored], predicted)) if scored.any() else float("nan")


class RandomForestRegressor(_Ensemble, RegressorMixin, Estimator):
    """Random forest regressor: n_estimators of the notes' regression trees, each grown on a bootstrap
    sample of the rows and offered max_features features at each node (1.0, every feature, by default, as
    scikit-learn); the forest predicts the mean of its trees' predictions.

    Fitted: estimators_, n_features_in_, feature_names_in_, feature_kinds_, feature_importances_; with
    oob_score=True, oob_score_ (R^2 of the out-of-bag means) and oob_prediction_ (n,) (NaN for a row every
    tree drew)."""

    _param_rules = {"n_estimators": _ENSEMBLE_RULES["n_estimators"], **_TREE_RULES, "max_features": _MAX_FEATURES,
                    **{k: v for k, v in _ENSEMBLE_RULES.items() if k != "n_estimators"}}

    def __init__(self, n_estimators=100, max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 min_weight_fraction_leaf=0.0, max_features=1.0, max_leaf_nodes=None, bootstrap=True,
                 oob_score=False, random_state=0, trace=False):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.trace = trace

    def predict(self, X):
        """The mean of the trees' predictions."""
        return self._mean_answer(self._encode(X))

    @staticmethod
    def answer_of_mean(mean):
        """(predictions, None) from the trees' mean predictions (n,): a regressor has no probabilities."""
        return mean, None

    def staged_predict(self, X):
        """The mean prediction of the first t trees, for t = 1..n_estimators (a generator)."""
        yield from running_means(self._answers(self._encode(X)))

    @staticmethod
    def _tree_answer(tree, nodes):
        return tree.predict_at(nodes)

    @staticmethod
    def _score_of(y, prediction):
        return r2_score(np.asarray(y, dtype=float), prediction)

    def _set_out_of_bag(self, mean, y, scored):
        self.oob_prediction_ = mean
        self.oob_score_ = float(r2_score(np.asarray(y, dtype=float)[scored], mean[scored])) if scored.sum() > 1 \
            else float("nan")


class BaggingClassifier(RandomForestClassifier):
    """Bagged classification trees (Breiman, 1996): a random forest whose nodes are offered every feature,
    so its trees differ only by their bootstrap samples. n_estimators defaults to 10, as scikit-learn's
    BaggingClassifier; the trees' parameters are the ensemble's own (scikit-learn sets them on its
    `estimator`). Fitted as RandomForestClassifier."""

    _param_rules = {k: v for k, v in RandomForestClassifier._param_rules.items() if k != "max_features"}

    def __init__(self, n_estimators=10, criterion="gini", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 min_weight_fraction_leaf=0.0, max_leaf_nodes=None, bootstrap=True, oob_score=False, random_state=0,
                 class_weight=None, trace=False):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_leaf_nodes = max_leaf_nodes
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.trace = trace
        self.class_weight = class_weight


class BaggingRegressor(RandomForestRegressor):
    """Bagged regression trees: a random forest regressor whose nodes are offered every feature.
    n_estimators defaults to 10, as scikit-learn's BaggingRegressor. Fitted as RandomForestRegressor."""

    _param_rules = {k: v for k, v in RandomForestRegressor._param_rules.items() if k != "max_features"}

    def __init__(self, n_estimators=10, max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 min_weight_fraction_leaf=0.0, max_leaf_nodes=None, bootstrap=True, oob_score=False, random_state=0,
                 trace=False):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_leaf_nodes = max_leaf_nodes
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.random_state = random_state
        self.trace = trace
