"""AdaBoost, multi-class SAMME (Freund & Schapire, 1997; Zhu, Zou, Rosset & Hastie, 2009), as
scikit-learn's AdaBoostClassifier: trees (stumps by default: the notes' tree with max_depth=1) grown one
after another on the rows reweighted toward those the trees before got wrong.

The weights w start as sample_weight (or 1) divided by their sum. Each round m: w is clipped to at least
the machine epsilon (a row given weight 0 stays 0), a tree is grown with sample_weight w, its weighted
error is err_m = sum(w [h_m(x) != y]) / sum(w), and
    alpha_m = learning_rate * (log((1 - err_m) / err_m) + log(K - 1));
the wrong rows' weights are multiplied by e^alpha_m and all are divided by their sum (not after the
last round). A tree with err_m = 0 is kept with alpha_m = 1 and stops the boosting (nothing is left to
reweight); one with err_m >= 1 - 1/K, no better than guessing, is dropped and stops it (if it is the
first, fitting fails). The classifier's decision for class c is sum_m alpha_m g_m,c / sum_m alpha_m, with
g_m,c = 1 where tree m says c and -1/(K-1) elsewhere; predict_proba is softmax(decision / (K - 1))
(two classes: the decision d of the second class, softmax of (-d/2, d/2)).

trace=True records trace_: for each round kept, {"step": "round", "round": m, "weights": w before the
round (adding up to 1 over all rows), "wrong": bools, "error": err_m, "alpha": alpha_m, "leaves": the
node each row ends in} (the per-row lists of the first traced_rows.TRACE_ROWS rows), and {"step":
"stop", "round": m, "reason": "perfect" or "no better than guessing" or "weights overflow"} when the
boosting stops before n_estimators."""

import warnings

import numpy as np

from ...core.base import ClassifierMixin, Estimator
from ...core.errors import DataError
from ...core.params import Choice, Flag, Integer, Number
from ...core.sample_weight import check_sample_weight
from ...core.scores import accuracy_score
from ...core.targets import check_classes
from ...core.validation import Columns
from ...tabular.features import read, read_fit
from ..tree import DecisionTreeClassifier
from ..tree.columns import encode
from . import boosting_file
from .draws import SEED_LIMIT, generator
from .routes import routed
from .size import check_size
from .stacked_routes import StackCache
from .traced_rows import first_rows

EPS = np.finfo(np.float64).eps  # the least weight a row keeps between rounds


class AdaBoostClassifier(ClassifierMixin, Estimator):
    """AdaBoost (SAMME) of the notes' classification trees, stumps by default (see the module's notes).

    Fitted: estimators_ (the trees kept), estimator_weights_ (n_estimators,) alpha_m (0 after a stop),
    estimator_errors_ (n_estimators,) err_m (1 after a stop), classes_, n_classes_, feature_importances_,
    n_features_in_, feature_names_in_, feature_kinds_."""

    takes_missing_values = True  # its trees send a missing number down the side that gained more

    _param_rules = {
        "n_estimators": Integer(1, None, label="rounds", help="The most trees boosted (fewer if one is perfect or "
                                                              "no better than guessing)"),
        "learning_rate": Number(0.0, None, low_open=True, help="Each tree's vote alpha is multiplied by this"),
        "max_depth": Integer(1, None, none_ok=True, help="Each tree's depth (1: stumps)"),
        "criterion": Choice("gini", "entropy", help="How a tree scores a split: the decrease in Gini impurity "
                                                    "or the information gain in bits"),
        "random_state": Integer(0, None, none_ok=True, label="seed", help="Seed of each tree's seed; None: a "
                                                                          "fresh one each fit"),
        "trace": Flag(help="Record each round: the row weights, the error err_m and the vote alpha_m"),
    }

    def __init__(self, n_estimators=50, learning_rate=1.0, max_depth=1, criterion="gini", random_state=0,
                 trace=False):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.max_depth = max_depth
        self.criterion = criterion
        self.random_state = random_state
        self.trace = trace

    def fit(self, X, y, feature_names=None, sample_weight=None):
        """Boost up to n_estimators trees; sample_weight (n,) gives the rows' starting weights."""
        self._check_params()
        for name in self.fitted_attributes():
            delattr(self, name)
        _, y = read_fit(self, X, y, feature_names, task=self.task.value)
        self.classes_ = check_classes(y)
        self.n_classes_ = K = len(self.classes_)
        check_size(self.n_estimators, len(y), K, self.max_depth, 1, None)  # before n_estimators numbers are kept
        given = check_sample_weight(sample_weight, len(y))
        w = np.ones(len(y)) if given is None else given
        w, weightless = w / w.sum(), w == 0
        rng = generator(self.random_state)
        trees, alphas, errors = [], np.zeros(self.n_estimators), np.ones(self.n_estimators)
        steps = []
        for m in range(self.n_estimators):
            w = np.where(weightless, 0.0, np.maximum(w, EPS))
            tree = self._tree_of(int(rng.integers(SEED_LIMIT))).fit(X, y, feature_names=feature_names, sample_weight=w)
            leaves = tree.apply(X)
            wrong = tree.predict_at(leaves) != np.asarray(y)
            error = float(np.average(wrong, weights=w))
            if error >= 1.0 - 1.0 / K and error > 0:
                if not trees:
                    raise DataError(f"The first tree's weighted error is {error:.3g}, no better than guessing among "
                                    f"{K} classes (1 - 1/K = {1 - 1 / K:.3g}), so there is nothing to boost.",
                                    field="params.max_depth")
                steps.append({"step": "stop", "round": m, "reason": "no better than guessing"})
                break
            alpha = 1.0 if error <= 0 else self.learning_rate * (np.log((1 - error) / error) + np.log(K - 1.0))
            trees.append(tree)
            alphas[m], errors[m] = alpha, error
            steps.append({"step": "round", "round": m, "weights": first_rows(w), "wrong": first_rows(wrong),
                          "error": error, "alpha": float(alpha), "leaves": first_rows(leaves)})
            if error <= 0:
                steps.append({"step": "stop", "round": m, "reason": "perfect"})
                break
            if m < self.n_estimators - 1:
                w = _reweighted(w, wrong, alpha)
                total = w.sum()
                if not np.isfinite(total) or total <= 0:
                    warnings.warn(f"The row weights overflowed at round {m}; boosting stopped there. A lower "
                                  "learning_rate keeps them finite.", UserWarning, stacklevel=2)
                    steps.append({"step": "stop", "round": m, "reason": "weights overflow"})
                    break
                w = w / total
        self.estimators_, self.estimator_weights_, self.estimator_errors_ = trees, alphas, errors
        self._stack_cache = StackCache()
        if self.trace:
            self.trace_ = steps
        return self

    def _tree_of(self, seed):
        """An unfitted tree of the ensemble's depth and criterion, with `seed` (untraced: the fast grower)."""
        return DecisionTreeClassifier(criterion=self.criterion, max_depth=self.max_depth, random_state=seed)

    # --- answers -------------------------------------------------------------------------------------

    def _encode(self, X):
        data = read(self, X)  # checks that the model is fitted
        if isinstance(data, Columns):
            return encode(data.kinds, data.data, self.estimators_[0].categories_)
        return data

    def _votes(self, X):
        """Each kept tree's vote (n, K): alpha_m where it says the class, -alpha_m/(K-1) elsewhere, and
        alpha_m (a generator)."""
        X_encoded = self._encode(X)
        K = self.n_classes_
        routes = routed(self.estimators_, X_encoded, self.estimators_[0]._is_categorical,  # the same columns
                        self.__dict__.get("_stack_cache"))
        for (tree, nodes), alpha in zip(routes, self.estimator_weights_):
            said = tree.predict_at(nodes)
            yield np.where(said[:, None] == self.classes_[None, :], alpha, -alpha / (K - 1)), alpha

    def staged_decision_function(self, X):
        """decision_function after each tree (a generator)."""
        total, norm = None, 0.0
        for vote, alpha in self._votes(X):
            total = vote if total is None else total + vote
            norm += alpha
            yield self._shaped(total / norm)

    def decision_function(self, X):
        """sum_m alpha_m g_m / sum(estimator_weights_): (n, K), or (n,) for the second of two classes."""
        total = sum(vote for vote, _ in self._votes(X))
        return self._shaped(total / self.estimator_weights_.sum())

    def _shaped(self, decision):
        if self.n_classes_ == 2:
            return decision[:, 1] - decision[:, 0]
        return decision

    def _proba(self, decision):
        z = np.column_stack([-decision, decision]) / 2 if self.n_classes_ == 2 else decision / (self.n_classes_ - 1)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def _classes_of(self, decision):
        if self.n_classes_ == 2:
            return self.classes_[(decision > 0).astype(int)]
        return self.classes_[np.argmax(decision, axis=1)]

    def predict_proba(self, X):
        """(n, K) softmax of the decision over K - 1 (columns in the order of classes_)."""
        return self._proba(self.decision_function(X))

    def staged_predict_proba(self, X):
        for decision in self.staged_decision_function(X):
            yield self._proba(decision)

    def predict(self, X):
        """The class of highest decision (two classes: the second where the decision is > 0)."""
        return self._classes_of(self.decision_function(X))

    def staged_predict(self, X):
        for decision in self.staged_decision_function(X):
            yield self._classes_of(decision)

    def staged_score(self, X, y):
        """The accuracy after each tree."""
        y = np.asarray(y)
        return np.array([accuracy_score(y, prediction) for prediction in self.staged_predict(X)])

    @property
    def feature_importances_(self):
        """(n_features,) the trees' importances weighted by alpha_m, over the sum of the alphas."""
        self._check_fitted()
        total = sum(alpha * tree.feature_importances_ for tree, alpha in zip(self.estimators_,
                                                                              self.estimator_weights_))
        return total / self.estimator_weights_.sum()

    # --- the model file ----------------------------------------------------------------------------

    def _state_to_dict(self):
        return {**boosting_file.write_classes(self), "estimator_weights": self.estimator_weights_.tolist(),
                "estimator_errors": self.estimator_errors_.tolist(),
                "trees": boosting_file.write_trees(self.estimators_)}

    def _state_from_dict(self, d):
        boosting_file.read_adaboost(self, d)


def _reweighted(w, wrong, alpha):
    """w times e^alpha on the wrong rows, as exp(log w + alpha) (scikit-learn's order); 0 stays 0."""
    positive = w > 0
    return np.where(positive, np.exp(np.log(np.where(positive, w, 1.0)) + alpha * wrong), 0.0)
