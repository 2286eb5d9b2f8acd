"""An ensemble's model file: each tree's own state (what the tree's model file holds, checked field by
field by the tree itself; its nodes always packed, as a large tree's are, since hundreds of trees are read
by a program rather than a person) with its seed, and the out-of-bag score when there is one. Read back, the trees
must be as many as n_estimators says and all read the same columns (and know the same classes)."""

from ...core.errors import DataError
from ...core.file_fields import FIELD, damaged, require_dict, require_int, require_key, require_list, require_number
from .draws import SEED_LIMIT
from .growers import make_tree
from .stacked_routes import StackCache


def write(model):
    """The "trees" and "oob_score" parts of the model's file."""
    trees = [tree_entry(tree) for tree in model.estimators_]
    state = {"trees": trees}
    if hasattr(model, "oob_score_"):
        state["oob_score"] = model.oob_score_
    return state


def read(model, d):
    """Set the ensemble's fitted state from its file `d`, every tree checked by the tree's own reader."""
    entries = require_list(require_key(d, "trees", ""), "trees", model.n_estimators)
    trees = [read_tree(model, entry, i) for i, entry in enumerate(entries)]
    first = trees[0]
    for i, tree in enumerate(trees[1:], start=1):
        for name in ("feature_names_in_", "feature_kinds_", "categories_", "classes_"):
            if hasattr(first, name) and _listed(getattr(tree, name)) != _listed(getattr(first, name)):
                raise damaged(f"trees[{i}]", f"must have the {name.rstrip('_')} of the first tree")
    model.estimators_ = trees
    model._stack_cache = StackCache()
    model.feature_names_in_, model.feature_kinds_ = list(first.feature_names_in_), list(first.feature_kinds_)
    model.n_features_in_ = first.n_features_in_
    if hasattr(first, "classes_"):
        model.classes_ = first.classes_
    if "oob_score" in d:
        model.oob_score_ = require_number(d["oob_score"], "oob_score", finite=False)


def tree_entry(tree, candidates=False):
    """A tree's entry in the file: its seed and its state, packed; with the gains its nodes weighed when
    `candidates` (the first tree of an ensemble crossing to another worker keeps them, as fit keeps them)."""
    return {"seed": int(tree.random_state), **tree._state_to_dict(packed=True, candidates=candidates)}


def read_tree(model, entry, i):
    """Tree i of the file, rebuilt with its seed and read by the tree's own checks."""
    entry = require_dict(entry, f"trees[{i}]")
    tree = make_tree(model, require_int(require_key(entry, "seed", f"trees[{i}]"), f"trees[{i}].seed", 0, SEED_LIMIT))
    try:
        tree._state_from_dict(entry)
    except DataError as exc:
        raise DataError(f"Tree {i} of the ensemble: {exc}", field=FIELD) from None
    return tree


def _listed(value):
    """A column list, a categories list or classes as plain lists, to compare two trees' by value."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return [v if v is None or isinstance(v, str) else list(v) for v in value]
