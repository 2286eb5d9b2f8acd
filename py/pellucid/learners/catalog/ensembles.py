"""Ensembles of trees: random forests and bagged trees, and their scikit-learn twins."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..ensemble import BaggingClassifier, BaggingRegressor, RandomForestClassifier, RandomForestRegressor


def _notes(p):
    notes = ["Both grow each tree on a bootstrap sample of the rows (each row weighted by its count in the "
             "sample) and average the trees: the class probabilities (the soft vote) or the predictions. "
             "The samples are drawn from other random generators, so with bootstrap the two ensembles hold "
             "other trees and agree on average, not tree by tree.",
             "Each node's features are drawn per node from the tree's seed and the node's place in pellucid, "
             "from the tree's random state as it grows in scikit-learn; with bootstrap=False and every "
             "feature offered, the two give the same predictions where no tie between equally good splits "
             "decides (scikit-learn breaks such ties at random, pellucid by column order).",
             "A categorical column is split as pellucid's tree splits it (auto: many ways up to 10 values, "
             "one value against the rest beyond); scikit-learn's trees read its one-hot columns."]
    if "max_features" not in p:
        notes.append("scikit-learn's BaggingClassifier/BaggingRegressor takes the trees' settings on its "
                     "estimator (a DecisionTree...); pellucid's bagging takes them itself.")
    return notes


def _tree_settings(p):
    return {"max_depth": p["max_depth"], "min_samples_split": p["min_samples_split"],
            "min_samples_leaf": p["min_samples_leaf"], "min_weight_fraction_leaf": p["min_weight_fraction_leaf"],
            "max_leaf_nodes": p["max_leaf_nodes"]}


def _ensemble_settings(p):
    return {"n_estimators": p["n_estimators"], "bootstrap": p["bootstrap"], "oob_score": p["oob_score"],
            "random_state": p["random_state"]}


def _forest_classifier(sk, p, ctx):
    return sk.ensemble.RandomForestClassifier(criterion=p["criterion"], max_features=p["max_features"],
                                              class_weight=p["class_weight"], **_tree_settings(p),
                                              **_ensemble_settings(p))


def _forest_regressor(sk, p, ctx):
    return sk.ensemble.RandomForestRegressor(max_features=p["max_features"], **_tree_settings(p),
                                             **_ensemble_settings(p))


def _bagging_classifier(sk, p, ctx):
    tree = sk.tree.DecisionTreeClassifier(criterion=p["criterion"], class_weight=p["class_weight"],
                                          **_tree_settings(p))
    return sk.ensemble.BaggingClassifier(estimator=tree, **_ensemble_settings(p))


def _bagging_regressor(sk, p, ctx):
    return sk.ensemble.BaggingRegressor(estimator=sk.tree.DecisionTreeRegressor(**_tree_settings(p)),
                                        **_ensemble_settings(p))


# Tune starts on the two questions a forest raises first: how many trees, and how deep.
_TUNE = (("n_estimators", (10, 25, 50, 100)), ("max_depth", (None, 3, 6, 10)))

# Every ensemble also shows its trees (the Forest view) and its score after each tree (staged_predict). A
# classifier's predict is the class of highest mean probability: the boundary and the predictions ask for
# the probabilities once and take their argmax, rather than reading every tree twice.
_SHARED = dict(group="Ensembles", needs="categories", steps="ensemble", tune=_TUNE, summary="forest")
_CLASSIFIER = dict(_SHARED, task=Task.CLASSIFICATION, predict_is_argmax_proba=True,
                   capabilities={"probabilities", "boundary", "steps", "forest", "staged", "trees_apart"})
_REGRESSOR = dict(_SHARED, task=Task.REGRESSION,
                  capabilities={"boundary", "regression_fit", "steps", "forest", "staged", "trees_apart"})

LEARNERS = (
    Learner(RandomForestClassifier, "Random forest", sklearn=SklearnTwin(_forest_classifier, _notes), **_CLASSIFIER),
    Learner(RandomForestRegressor, "Random forest (regression)", sklearn=SklearnTwin(_forest_regressor, _notes),
            **_REGRESSOR),
    Learner(BaggingClassifier, "Bagged trees", sklearn=SklearnTwin(_bagging_classifier, _notes), **_CLASSIFIER),
    Learner(BaggingRegressor, "Bagged trees (regression)", sklearn=SklearnTwin(_bagging_regressor, _notes),
            **_REGRESSOR),
)
