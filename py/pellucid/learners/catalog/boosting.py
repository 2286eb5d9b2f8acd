"""Boosted ensembles of trees: AdaBoost and gradient boosting, and their scikit-learn twins."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..ensemble import AdaBoostClassifier, GradientBoostingClassifier, GradientBoostingRegressor


def _adaboost_notes(p):
    return ["Both boost by SAMME: each tree is grown on the rows weighted toward the mistakes of those before, "
            "and votes with alpha = learning_rate * (log((1 - err) / err) + log(K - 1)). With the same data "
            "and no tie between equally good splits, the trees, their alphas and the predictions are the same "
            "(scikit-learn breaks such ties at random, pellucid by column order).",
            "scikit-learn's AdaBoostClassifier takes the tree on its estimator (a DecisionTreeClassifier of "
            "max_depth 1 by default); pellucid's takes max_depth and criterion itself.",
            "A categorical column is split as pellucid's tree splits it (a stump on one of up to 10 values "
            "has a branch per value); scikit-learn's trees read its one-hot columns."]


def _adaboost(sk, p, ctx):
    tree = sk.tree.DecisionTreeClassifier(max_depth=p["max_depth"], criterion=p["criterion"])
    return sk.ensemble.AdaBoostClassifier(estimator=tree, n_estimators=p["n_estimators"],
                                          learning_rate=p["learning_rate"], random_state=p["random_state"])


def _gradient_notes(p):
    return ["Both start from F_0 (the mean target, or the log-odds or centred log of the class shares), grow "
            "each round a regression tree on the negative gradient and add learning_rate times its values; a "
            "classifier's leaves take one Newton step, as scikit-learn's. With subsample=1 and every feature "
            "offered, the two give the same predictions where no tie between equally good splits decides "
            "(scikit-learn breaks such ties at random, pellucid by column order).",
            "With subsample < 1 or max_features, the rows and features are drawn from other random "
            "generators: other trees, the same on average.",
            "A categorical column is split as pellucid's tree splits it; scikit-learn's trees read its one-hot "
            "columns. A row stopped at an inner node by a category unseen in training gets that node's "
            "value (pellucid sets every node's value from the loss; scikit-learn only the leaves').",
            "scikit-learn's init_ is the estimator that gives F_0 (a DummyRegressor or DummyClassifier); "
            "pellucid's is F_0 itself.", *_binned_note(p)]


def _binned_note(p):
    """What max_bins changes: the twin splits exactly, so the two agree only where no feature has more
    values than bins."""
    if p.get("max_bins") is None:
        return []
    return [f"pellucid grows each tree from histograms, each numeric feature cut into at most {p['max_bins']} "
            "bins (max_bins); scikit-learn's twin here splits exactly. Where no feature has more values than "
            "bins the trees are the same; otherwise they split between bins only and score a little "
            "differently. scikit-learn's own histogram version is HistGradientBoostingClassifier "
            "(or Regressor)."]


def _gradient_settings(p):
    return {"learning_rate": p["learning_rate"], "n_estimators": p["n_estimators"], "subsample": p["subsample"],
            "min_samples_split": p["min_samples_split"], "min_samples_leaf": p["min_samples_leaf"],
            "min_weight_fraction_leaf": p["min_weight_fraction_leaf"], "max_depth": p["max_depth"],
            "max_features": p["max_features"], "max_leaf_nodes": p["max_leaf_nodes"],
            "random_state": p["random_state"]}


def _gradient_classifier(sk, p, ctx):
    return sk.ensemble.GradientBoostingClassifier(loss=p["loss"], **_gradient_settings(p))


def _gradient_regressor(sk, p, ctx):
    return sk.ensemble.GradientBoostingRegressor(loss=p["loss"], **_gradient_settings(p))


# Tune starts on the rounds against how deep each tree grows (AdaBoost: against how much each vote counts).
_TUNE = (("n_estimators", (25, 50, 100, 200)), ("max_depth", (1, 2, 3, 5)))
_ADABOOST_TUNE = (("n_estimators", (10, 25, 50, 100)), ("learning_rate", (0.1, 0.5, 1.0)))
# Like the forests: the score after each round (staged_predict), and the algorithm's steps for one row.
_SHARED = dict(group="Ensembles", needs="categories", summary="forest")
_CLASSIFIES = {"probabilities", "boundary", "steps", "staged"}

LEARNERS = (
    Learner(AdaBoostClassifier, "AdaBoost", task=Task.CLASSIFICATION, capabilities=_CLASSIFIES, steps="adaboost",
            tune=_ADABOOST_TUNE, sklearn=SklearnTwin(_adaboost, _adaboost_notes), **_SHARED),
    Learner(GradientBoostingClassifier, "Gradient boosting", task=Task.CLASSIFICATION, capabilities=_CLASSIFIES,
            steps="boosting", tune=_TUNE, sklearn=SklearnTwin(_gradient_classifier, _gradient_notes), **_SHARED),
    Learner(GradientBoostingRegressor, "Gradient boosting (regression)", task=Task.REGRESSION,
            capabilities={"boundary", "regression_fit", "steps", "staged"}, steps="boosting", tune=_TUNE,
            sklearn=SklearnTwin(_gradient_regressor, _gradient_notes), **_SHARED),
)
