"""The trees an ensemble is made of: the notes' DecisionTreeClassifier and DecisionTreeRegressor, set up
from the ensemble's parameters, each with its own seed for the features offered at its nodes."""

import numpy as np

from ...core.descriptor import Task
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor

# The parameters an ensemble passes on to each tree unchanged, where the ensemble has them.
TREE_PARAMS = ("criterion", "max_depth", "min_samples_split", "min_samples_leaf", "min_weight_fraction_leaf",
               "max_features", "max_leaf_nodes", "class_weight")


def tree_class(task):
    """The tree an ensemble of `task` grows."""
    return DecisionTreeClassifier if task == Task.CLASSIFICATION else DecisionTreeRegressor


def make_tree(ensemble, seed):
    """An unfitted tree with the ensemble's tree parameters and `seed` as its random_state (never traced:
    the fast grower)."""
    cls = tree_class(ensemble.task)
    accepted = set(cls._param_names())
    params = {name: getattr(ensemble, name) for name in TREE_PARAMS
              if name in accepted and name in ensemble._param_names()}
    if "max_features" not in ensemble._param_names():
        params["max_features"] = None  # bagging: every node is offered every feature
    return cls(**params, random_state=int(seed), trace=False)


def forget_candidates(tree):
    """Let go of the gains of every attribute at every node a tree recorded as it grew ((nodes, features)
    floats: with 20 features more than the rest of the tree). The ensemble answers with its trees' tests,
    not with what they weighed; the steps read the first tree's, which keeps them. What stays reads as
    "not scored" (NaN) at every node, without the memory."""
    tree.tree_.candidates = np.broadcast_to(np.nan, tree.tree_.candidates.shape)
    return tree
