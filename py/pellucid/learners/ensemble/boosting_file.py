"""A boosted model's file: each tree's own state (checked field by field by the tree itself, its node
values those the loss set) with its seed, and what the boosting adds: gradient boosting's F_0, train
scores and out-of-bag improvements, or AdaBoost's tree weights and errors, and the classes. Read back,
the trees must be as many as n_estimators says (AdaBoost: as many as it kept) and read the same columns."""

import numpy as np

from ...core.errors import DataError
from ...core.file_fields import (FIELD, damaged, require_array, require_dict, require_int, require_key,
                                 require_labels, require_list)
from .draws import SEED_LIMIT
from .stacked_routes import StackCache


def write_trees(trees):
    """The file entries of `trees` (a flat list), each with its seed."""
    return [{"seed": int(tree.random_state), **tree._state_to_dict()} for tree in trees]


def read_trees(entries, make, path="trees"):
    """The trees of the file's `entries`, each rebuilt by make(seed) and read by the tree's own checks,
    all reading the columns of the first."""
    trees = [_tree(make, require_dict(entry, f"{path}[{i}]"), f"{path}[{i}]") for i, entry in enumerate(entries)]
    for i, tree in enumerate(trees[1:], start=1):
        for name in ("feature_names_in_", "feature_kinds_", "categories_"):
            if _listed(getattr(tree, name)) != _listed(getattr(trees[0], name)):
                raise damaged(f"{path}[{i}]", f"must have the {name.rstrip('_')} of the first tree")
    return trees


def set_columns(model, tree):
    """The model reads the columns its first tree reads."""
    model.feature_names_in_, model.feature_kinds_ = list(tree.feature_names_in_), list(tree.feature_kinds_)
    model.n_features_in_ = tree.n_features_in_


def write_classes(model):
    return {"classes": model.classes_.tolist()} if hasattr(model, "classes_") else {}


def read_classes(d):
    return require_labels(require_key(d, "classes", ""), "classes")


def write_boosting(model):
    """Gradient boosting's file: F_0, the trees round by round, the train scores (and oob improvements)."""
    state = {**write_classes(model), "init": model.init_.tolist(), "train_score": model.train_score_.tolist(),
             "trees": [write_trees(stage) for stage in model.estimators_]}
    if hasattr(model, "oob_improvement_"):
        state["oob_improvement"] = model.oob_improvement_.tolist()
    return state


def read_boosting(model, d):
    """Set a gradient boosting model's fitted state from its file `d`."""
    if model.task.value == "classification":
        model.classes_ = read_classes(d)
        K = 1 if len(model.classes_) == 2 else len(model.classes_)
    else:
        K = 1
    rounds = require_list(require_key(d, "trees", ""), "trees", model.n_estimators)
    trees = [read_trees(require_list(stage, f"trees[{m}]", K), lambda seed: model._tree_of(seed), f"trees[{m}]")
             for m, stage in enumerate(rounds)]
    flat = [tree for stage in trees for tree in stage]
    read_trees_agree(flat)
    model.init_ = require_array(require_key(d, "init", ""), "init", "f", (K,))
    model.train_score_ = require_array(require_key(d, "train_score", ""), "train_score", "f", (model.n_estimators,),
                                       finite=False)
    if "oob_improvement" in d:
        model.oob_improvement_ = require_array(d["oob_improvement"], "oob_improvement", "f", (model.n_estimators,),
                                               finite=False)
    estimators = np.empty((model.n_estimators, K), dtype=object)
    for m, stage in enumerate(trees):
        for k, tree in enumerate(stage):
            estimators[m, k] = tree
    model.estimators_ = estimators
    model._stack_cache = StackCache()
    set_columns(model, flat[0])


def read_trees_agree(trees):
    """Trees read round by round must also agree from one round to the next."""
    for i, tree in enumerate(trees[1:], start=1):
        for name in ("feature_names_in_", "feature_kinds_", "categories_"):
            if _listed(getattr(tree, name)) != _listed(getattr(trees[0], name)):
                raise damaged("trees", f"tree {i} must have the {name.rstrip('_')} of the first tree")


def _tree(make, entry, path):
    tree = make(require_int(require_key(entry, "seed", path), f"{path}.seed", 0, SEED_LIMIT))
    try:
        tree._state_from_dict(entry)
    except DataError as exc:
        raise DataError(f"Tree {path} of the ensemble: {exc}", field=FIELD) from None
    return tree


def _listed(value):
    """A column list, a categories list or classes as plain lists, to compare two trees' by value."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return [v if v is None or isinstance(v, str) else list(v) for v in value]


def read_adaboost(model, d):
    """Set an AdaBoost model's fitted state from its file `d`: the trees kept (1 to n_estimators), each
    knowing the model's classes, and the rounds' weights and errors."""
    model.classes_ = read_classes(d)
    model.n_classes_ = len(model.classes_)
    entries = require_list(require_key(d, "trees", ""), "trees")
    if not 1 <= len(entries) <= model.n_estimators:
        raise damaged("trees", f"must hold 1 to {model.n_estimators} trees; got {len(entries)}")
    trees = read_trees(entries, model._tree_of)
    for i, tree in enumerate(trees):
        if tree.classes_.tolist() != model.classes_.tolist():
            raise damaged(f"trees[{i}]", "must know the classes of the model")
    n = model.n_estimators
    model.estimator_weights_ = require_array(require_key(d, "estimator_weights", ""), "estimator_weights", "f", (n,))
    model.estimator_errors_ = require_array(require_key(d, "estimator_errors", ""), "estimator_errors", "f", (n,),
                                            low=0.0, high=1.0)
    kept = model.estimator_weights_[:len(trees)]
    if not (kept > 0).all() or (model.estimator_weights_[len(trees):] != 0).any():
        raise damaged("estimator_weights", f"must be above 0 for each of the {len(trees)} trees kept and 0 after")
    model.estimators_ = trees
    model._stack_cache = StackCache()
    set_columns(model, trees[0])
