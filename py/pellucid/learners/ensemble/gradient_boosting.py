"""Gradient boosting (Friedman, 2001): an additive model F_M(x) = F_0 + eta * sum_m h_m(x), each h_m a
small regression tree grown on the negative gradient r of the loss at F_{m-1} (losses.py), its node
values then set by the loss (leaf_steps.py: the tree's means for squared error, one Newton step for
log-loss). A classifier of K > 2 classes grows K trees a round, one per class.

With subsample < 1 each round grows its trees on int(subsample * n) rows drawn without replacement and
scores the rest: oob_improvement_[m] is how much round m lowered the loss of the rows it left out (the
same rows before and after, as earlier scikit-learn versions did; scikit-learn 1.9 subtracts it from the
loss of the previous round's left-out rows, other rows). The trees are the notes' DecisionTreeRegressor,
criterion squared error, grown by its fast path. With max_bins (scikit-learn's HistGradientBoosting
name) the numeric features are binned once per fit and every tree is grown from histograms of the bins
(histogram_trees.py): the same trees when no feature has more than max_bins values, splits at bin edges
otherwise.

trace=True records trace_, a list of steps: first {"step": "start", "init": F_0 (K,), "rows_traced"}, then
for each round m
{"step": "round", "round": m, "learning_rate": eta, "residuals": r (n, K) at F_{m-1} (squared error:
y - F_{m-1}; log-loss: y_k - p_k), "leaves": (n, K) the node of tree k each row ends in, "node_values":
[(N_k,) the values of tree k's nodes, what h_m predicts], "after": F_m = F_{m-1} + eta * h_m (n, K),
"in_bag": (n,) bools (every row without subsampling), "train_score": the loss after the round}, the
per-row lists of the first rows_traced rows (traced_rows.py). F_{m-1}
is the previous round's "after" (F_0 for the first), not kept twice. Every number is read from the fitted
trees and the loss, so it equals what predict gives."""

import numpy as np

from ...core.base import ClassifierMixin, Estimator, RegressorMixin
from ...core.params import Choice, Flag, Integer, Number
from ...core.sample_weight import check_sample_weight
from ...core.scores import accuracy_score, r2_score
from ...core.targets import check_classes
from ...core.validation import Columns
from ...tabular.features import read, read_fit
from ..tree import DecisionTreeRegressor
from ..tree.columns import encode
from ..tree.feature_draw import MaxFeaturesRule
from . import boosting_file
from .binning import MAX_BINS
from .draws import SEED_LIMIT, generator
from .histogram_trees import binned_rows, histogram_tree
from .leaf_steps import newton_steps
from .losses import MultinomialLoss, SquaredError, loss_for
from .size import check_size
from .stacked_routes import StackCache, stacks
from .traced_rows import first_rows, rows_traced

_RULES = {
    "learning_rate": Number(0.0, None, low_open=True, label="learning rate (eta)",
                            help="Each tree's values are shrunk by this factor before they are added"),
    "n_estimators": Integer(1, None, label="rounds", help="How many rounds of trees are added"),
    "subsample": Number(0.0, 1.0, low_open=True, help="The share of the rows each round's trees are grown on, "
                                                      "drawn without replacement (1: every row)"),
    "min_samples_split": Integer(2, None, help="A node of a tree with fewer examples becomes a leaf"),
    "min_samples_leaf": Integer(1, None, help="Every branch of a split keeps at least this many examples"),
    "min_weight_fraction_leaf": Number(0.0, 0.5, help="Every branch of a split keeps at least this share of "
                                                      "the examples' total weight"),
    "max_depth": Integer(1, None, none_ok=True, help="Each tree stops splitting at this depth (None: grow fully)"),
    "max_features": MaxFeaturesRule(help="How many features each node may test, drawn at random (None: all; "
                                         "sqrt or log2 of their number; or a number or share of them)"),
    "max_leaf_nodes": Integer(2, None, none_ok=True, help="Each tree grows best-first up to this many leaves "
                                                          "(None: no cap)"),
    "random_state": Integer(0, None, none_ok=True, label="seed",
                            help="Seed of the subsamples and of each tree's features; None: a fresh one each fit"),
    "max_bins": Integer(2, MAX_BINS, none_ok=True, label="bins",
                        help="Grow every tree from histograms: each numeric feature is cut once into at most this "
                             "many bins (much faster on many rows; the splits stay exact where a feature has no "
                             "more values). None: exact splits"),
    "trace": Flag(help="Record each round: the residuals, each tree's node values, F before and after"),
}
TREE_PARAMS = ("max_depth", "min_samples_split", "min_samples_leaf", "min_weight_fraction_leaf", "max_features",
               "max_leaf_nodes")


class _GradientBoosting:
    """What the regressor and the classifier share: the rounds, the staged raw answers F_m, the
    importances and the model file."""

    takes_missing_values = True  # its trees send a missing number down the side that gained more

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Fit n_estimators rounds; sample_weight (n,) weighs each row in the loss and in the trees."""
        self._check_params()
        for name in self.fitted_attributes():
            delattr(self, name)
        data, y = read_fit(self, X, y, feature_names, task=self.task.value)
        weights = check_sample_weight(sample_weight, len(y))
        target = self._target(y)
        loss = self._loss()
        K = loss.n_trees(len(getattr(self, "classes_", ())))
        check_size(self.n_estimators * K, len(y), 1, self.max_depth, self.min_samples_leaf, self.max_leaf_nodes)
        rng = generator(self.random_state)
        binned = None if self.max_bins is None else binned_rows(self, data)
        self.init_ = loss.start(target, weights)
        F = np.tile(self.init_, (len(y), 1))  # (n, K)
        trees = np.empty((self.n_estimators, K), dtype=object)
        scores, oob = np.zeros(self.n_estimators), np.zeros(self.n_estimators)
        steps = [{"step": "start", "init": self.init_.tolist(), "rows_traced": rows_traced(len(y))}]
        for m in range(self.n_estimators):
            in_bag = self._draw(rng, len(y))
            row_weights = (np.ones(len(y)) if weights is None else weights) * in_bag
            out = ~in_bag
            oob_before = loss.score(target[out], F[out], _part(weights, out)) if out.any() else 0.0
            r = loss.negative_gradient(target, F)  # (n, K)
            fit_weights = None if weights is None and not out.any() else row_weights
            grow = self._grower(X, feature_names, binned, r, fit_weights)
            trees[m], leaves = self._stage(grow, target, loss, r, row_weights, rng)
            for k, tree in enumerate(trees[m]):
                F[:, k] += self.learning_rate * tree.predict_at(leaves[:, k])
            scores[m] = loss.score(target[in_bag], F[in_bag], _part(weights, in_bag))
            if out.any():  # the same rows' loss before and after the round
                oob[m] = oob_before - loss.score(target[out], F[out], _part(weights, out))
            if self.trace:
                steps.append(_round_step(m, self, r, leaves, trees[m], F, in_bag, scores[m]))
        self.estimators_, self.train_score_ = trees, scores
        self._stack_cache = StackCache()
        if self.subsample < 1.0:
            self.oob_improvement_ = oob
        if self.trace:
            self.trace_ = steps
        return self

    def _grower(self, X, feature_names, binned, r, fit_weights):
        """grow(k, seed): the regression tree of r[:, k] with that seed and (n,) the node each training row
        ends in; grown from the bins' histograms when max_bins is set (binned: the fit's BinnedRows),
        else by the exact fast grower."""
        def grow_exact(k, seed):
            tree = self._tree_of(seed).fit(X, r[:, k], feature_names=feature_names, sample_weight=fit_weights)
            return tree, tree.tree_.apply(tree._encode(X), tree._is_categorical)

        def grow_binned(k, seed):
            return histogram_tree(self._tree_of(seed), self, binned, r[:, k], fit_weights)
        return grow_exact if binned is None else grow_binned

    def _stage(self, grow, target, loss, r, row_weights, rng):
        """One round's K trees, each grown on its column of r by grow(k, seed) and its node values set by
        the loss, and (n, K) the node each training row ends in."""
        trees, leaves = [], np.zeros((len(target), r.shape[1]), dtype=np.intp)
        for k in range(r.shape[1]):
            tree, leaves[:, k] = grow(k, int(rng.integers(SEED_LIMIT)))
            if loss.newton:
                numerator, denominator, factor = loss.step_terms(target, r[:, k], k)
                tree._set_node_values(newton_steps(tree.tree_, leaves[:, k], numerator, denominator, row_weights,
                                                   factor))
            trees.append(tree)
        return trees, leaves

    def _draw(self, rng, n):
        """(n,) bools: the rows of this round, int(subsample * n) of them (at least 1) drawn without
        replacement, or every row."""
        if self.subsample >= 1.0:
            return np.ones(n, dtype=bool)
        in_bag = np.zeros(n, dtype=bool)
        in_bag[rng.permutation(n)[:max(1, int(self.subsample * n))]] = True
        return in_bag

    def _tree_of(self, seed):
        """An unfitted regression tree with the ensemble's tree parameters and `seed` (untraced: the fast
        grower)."""
        params = {name: getattr(self, name) for name in TREE_PARAMS}
        return DecisionTreeRegressor(**params, random_state=seed, trace=False)

    # --- the raw answers F_m -----------------------------------------------------------------------

    def _encode(self, X):
        """X read as in training and encoded as the trees read it."""
        data = read(self, X)  # checks that the model is fitted
        if isinstance(data, Columns):
            return encode(data.kinds, data.data, self.estimators_[0, 0].categories_)
        return data

    def _staged_raw(self, X, staged=True):
        """F_m (n, K) for m = 1..n_estimators (a generator): F_0 plus eta times each round's trees; with
        staged=False, F_M only."""
        X_encoded = self._encode(X)
        trees = self.estimators_.ravel()
        if not staged and stacks([tree.tree_ for tree in trees], X_encoded, trees[0]._is_categorical):
            yield self._stacked_raw(np.ascontiguousarray(X_encoded, dtype=float))
            return
        F = np.tile(self.init_, (X_encoded.shape[0], 1))
        for m, stage in enumerate(self.estimators_):
            for k, tree in enumerate(stage):
                F[:, k] += self.learning_rate * tree.predict_at(tree.tree_.apply(X_encoded, tree._is_categorical))
            if staged or m == len(self.estimators_) - 1:
                yield F.copy() if staged else F

    def _raw(self, X):
        """F_M (n, K), the model's raw answer."""
        return next(self._staged_raw(X, staged=False))

    def _stacked_raw(self, X_encoded):
        """F_M (n, K) with every tree routed together (stacked_routes.py), a block of rows at a time: the
        same sums, added in the same order, as the rounds above."""
        cache = self.__dict__.get("_stack_cache") or StackCache()  # a model made before caches existed
        router, values = cache.with_values(self.estimators_.ravel())
        n_rounds, K = self.estimators_.shape
        F = np.tile(self.init_, (X_encoded.shape[0], 1))
        for block in router.blocks(len(X_encoded)):
            said = values[router.apply(X_encoded, block)]  # (T, b)
            said = said.reshape(n_rounds, K, -1)
            F_block = F[block]  # a view: the sums land in F
            for m in range(n_rounds):
                F_block += self.learning_rate * said[m].T
        return F

    # --- what the fitted model tells -----------------------------------------------------------------

    @property
    def feature_importances_(self):
        """(n_features,) as scikit-learn's: the mean over the trees that split of each tree's impurity
        decrease per feature divided by its root's weight, normalised to add up to 1 (all 0 if none split)."""
        self._check_fitted()
        grown = [_decrease(tree) for tree in self.estimators_.ravel() if tree.tree_.node_count > 1]
        if not grown:
            return np.zeros(self.n_features_in_)
        mean = np.mean(grown, axis=0)
        return mean / mean.sum()

    def staged_score(self, X, y):
        """(n_estimators,) the score (accuracy or R^2) after each round on X, y."""
        y = np.asarray(y)
        return np.array([self._score_of(y, prediction) for prediction in self.staged_predict(X)])

    def _state_to_dict(self):
        return boosting_file.write_boosting(self)

    def _state_from_dict(self, d):
        boosting_file.read_boosting(self, d)


def _part(weights, rows):
    return None if weights is None else weights[rows]


def _decrease(tree):
    """(n_features,) a tree's impurity decrease per feature over its root's weight (scikit-learn's
    unnormalised importance)."""
    t = tree.tree_
    cost = np.asarray(t.weighted_samples, dtype=float) * np.asarray(t.impurity, dtype=float)
    decrease = np.zeros(tree.n_features_in_)
    for node in np.flatnonzero(t.feature >= 0):
        decrease[t.feature[node]] += cost[node] - cost[t.children(node)].sum()
    return decrease / float(t.weighted_samples[0])


def _round_step(m, model, r, leaves, stage, after, in_bag, score):
    return {"step": "round", "round": m, "learning_rate": model.learning_rate, "residuals": first_rows(r),
            "leaves": first_rows(leaves),
            "node_values": [tree.predict_at(np.arange(tree.tree_.node_count)).tolist() for tree in stage],
            "after": first_rows(after), "in_bag": first_rows(in_bag), "train_score": float(score)}


class GradientBoostingRegressor(_GradientBoosting, RegressorMixin, Estimator):
    """Gradient boosting of regression trees on the squared error: F_0 = the mean target, each round a
    tree grown on the residuals y - F_{m-1}, F_m = F_{m-1} + learning_rate * h_m; predict gives F_M.

    Fitted: estimators_ ((n_estimators, 1) array of trees), init_ ((1,) F_0), train_score_ (the mean
    squared error of the round's rows after each round), oob_improvement_ (with subsample < 1: how much
    each round lowered the error of the rows it left out), feature_importances_, n_features_in_,
    feature_names_in_, feature_kinds_."""

    _param_rules = {"loss": Choice("squared_error", help="The loss the trees lower: (y - F)^2 / 2"), **_RULES}

    def __init__(self, loss="squared_error", learning_rate=0.1, n_estimators=100, subsample=1.0,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_depth=3,
                 max_features=None, max_leaf_nodes=None, random_state=0, trace=False, max_bins=None):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_depth = max_depth
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state
        self.trace = trace
        self.max_bins = max_bins

    def _target(self, y):
        return np.asarray(y, dtype=float)

    def _loss(self):
        return SquaredError()

    def predict(self, X):
        """F_M(x): F_0 plus learning_rate times every tree's value."""
        return self._raw(X)[:, 0]

    def staged_predict(self, X):
        """The prediction after each round, m = 1..n_estimators (a generator)."""
        for F in self._staged_raw(X):
            yield F[:, 0]

    @staticmethod
    def _score_of(y, prediction):
        return r2_score(np.asarray(y, dtype=float), prediction)


class GradientBoostingClassifier(_GradientBoosting, ClassifierMixin, Estimator):
    """Gradient boosting on the log-loss. Two classes: one tree a round on r = y - p, F the log-odds of
    the second class of classes_, F_0 the log-odds of its share. K > 2 classes: K trees a round, tree k
    on r_k = y_k - p_k, p = softmax(F), F_0 the centred log of the class shares. Leaf values are the
    loss's Newton step (losses.py); predict_proba gives p, predict the class of highest p.

    Fitted: estimators_ ((n_estimators, 1 or K) array of regression trees), init_ ((1 or K,) F_0),
    classes_, train_score_ (the deviance of the round's rows after each round: twice the mean log-loss
    for two classes, the mean log-loss for more, as scikit-learn), oob_improvement_ (subsample < 1),
    feature_importances_, n_features_in_, feature_names_in_, feature_kinds_."""

    _param_rules = {"loss": Choice("log_loss", help="The loss the trees lower: the log-loss of p"), **_RULES}

    def __init__(self, loss="log_loss", learning_rate=0.1, n_estimators=100, subsample=1.0,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_depth=3,
                 max_features=None, max_leaf_nodes=None, random_state=0, trace=False, max_bins=None):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_depth = max_depth
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state
        self.trace = trace
        self.max_bins = max_bins

    def _target(self, y):
        """Each row's class as its index in classes_."""
        self.classes_ = check_classes(y)
        return np.searchsorted(self.classes_, y)

    def _loss(self):
        return loss_for(len(self.classes_))

    def decision_function(self, X):
        """F_M: (n,) the log-odds of the second class with two classes, else (n, K)."""
        return self._shaped(self._raw(X))

    def staged_decision_function(self, X):
        """decision_function after each round (a generator)."""
        for F in self._staged_raw(X):
            yield self._shaped(F)

    def predict_proba(self, X):
        """(n, k) the class probabilities p (columns in the order of classes_)."""
        F = self._raw(X)  # checks that the model is fitted first
        return self._loss().proba(F)

    def staged_predict_proba(self, X):
        """predict_proba after each round (a generator)."""
        for F in self._staged_raw(X):
            yield self._loss().proba(F)

    def predict(self, X):
        """The class of highest probability (the first in classes_ on a tie)."""
        proba = self.predict_proba(X)  # checks that the model is fitted first
        return self.classes_[np.argmax(proba, axis=1)]

    def staged_predict(self, X):
        """The predictions after each round (a generator)."""
        for proba in self.staged_predict_proba(X):
            yield self.classes_[np.argmax(proba, axis=1)]

    def _shaped(self, F):
        return F if isinstance(self._loss(), MultinomialLoss) else F[:, 0]

    @staticmethod
    def _score_of(y, prediction):
        return accuracy_score(y, prediction)
