"""The decision trees: classification and regression trees, and their scikit-learn twins."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor


def _notes(p):
    notes = ["Both grow a tree by the best impurity decrease (entropy or Gini) with midpoint thresholds on "
             "numeric features, with the same min_samples_leaf and best-first max_leaf_nodes. A categorical "
             "column splits many ways, into a set of values against the rest, or one value against the rest "
             f"in pellucid (categorical_split={p.get('categorical_split', 'auto')!r}: auto splits up to 10 "
             "values many ways, more one against the rest), but on one-hot columns (one yes/no test per "
             "category, the one_vs_rest test) in scikit-learn.",
             "scikit-learn visits the features in a random order (random_state = seed) and keeps the first "
             "best split it meets, so equally good splits are broken at random; pellucid takes the first "
             "feature in column order."]
    if p.get("criterion") == "gain_ratio":
        notes.append("Not the same criterion: pellucid ranks the attributes by C4.5's gain ratio (information "
                     "gain over split information); scikit-learn has no gain ratio, so its twin uses "
                     "criterion=\"entropy\" (the plain information gain) and can choose other splits.")
    if p.get("prune"):
        notes.append(f"pellucid prunes the tree ({p['prune']}); scikit-learn has no such pruning here and "
                     "keeps the fully grown tree.")
    if p.get("max_features") is not None:
        notes.append("max_features draws other subsets of features: pellucid seeds each node's draw by the "
                     "seed and the node's place in the tree, scikit-learn draws from its random_state as it "
                     "grows, so the two trees differ.")
    if p.get("min_gain"):
        notes.append("min_gain is not passed on: scikit-learn's min_impurity_decrease weighs the decrease by "
                     "the node's share of the rows.")
    return notes


def _sklearn_criterion(criterion):
    """scikit-learn's nearest criterion: it has entropy and gini, and no gain ratio (see _notes)."""
    return "entropy" if criterion == "gain_ratio" else criterion


def _classifier(sk, p, ctx):
    return sk.tree.DecisionTreeClassifier(criterion=_sklearn_criterion(p["criterion"]), max_depth=p["max_depth"],
                                          min_samples_split=p["min_samples_split"],
                                          min_samples_leaf=p["min_samples_leaf"],
                                          min_weight_fraction_leaf=p["min_weight_fraction_leaf"],
                                          max_leaf_nodes=p["max_leaf_nodes"], max_features=p["max_features"],
                                          random_state=p["random_state"],
                                          class_weight=p["class_weight"])


def _regressor(sk, p, ctx):
    return sk.tree.DecisionTreeRegressor(max_depth=p["max_depth"], min_samples_split=p["min_samples_split"],
                                         min_samples_leaf=p["min_samples_leaf"],
                                         min_weight_fraction_leaf=p["min_weight_fraction_leaf"],
                                         max_leaf_nodes=p["max_leaf_nodes"], max_features=p["max_features"],
                                         random_state=p["random_state"])


LEARNERS = (
    Learner(DecisionTreeClassifier, "Decision tree", "Trees", Task.CLASSIFICATION,
            {"probabilities", "boundary", "tree", "steps", "exercises", "explain"}, steps="tree",
            exercise="gain", explain="path", summary="tree", needs="categories",
            sklearn=SklearnTwin(_classifier, _notes)),
    Learner(DecisionTreeRegressor, "Regression tree", "Trees", Task.REGRESSION,
            {"boundary", "tree", "regression_fit", "steps", "explain"}, steps="tree", explain="path",
            summary="tree", needs="categories", sklearn=SklearnTwin(_regressor, _notes)),
)
