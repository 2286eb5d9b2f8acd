"""A large tree's model file holds its node arrays packed (learners/tree/packed.py), and a view describes only
its first nodes (to_dict's max_nodes): both rebuild or describe exactly what the nested form does, and a
damaged packed file is a DataError."""

import json

import numpy as np
import pytest

import pellucid
from pellucid import DataError
from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor
from pellucid.learners.tree._base import PACK_NODES_ABOVE
from pellucid.workbench import readouts


def _table(n, seed=0):
    """Numeric columns on different scales, a 4-valued and a 14-valued text column (multiway and binary
    tests under categorical_split="auto"), a noisy class and a noisy continuous target."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.uniform(0, 1000, size=n)
    small = rng.choice(["red", "green", "blue", "amber"], size=n).astype(object)
    many = rng.choice([f"v{i}" for i in range(14)], size=n).astype(object)
    X = np.empty((n, 4), dtype=object)
    X[:, 0], X[:, 1], X[:, 2], X[:, 3] = a, b, small, many
    label = np.where(a + b / 500 + (small == "red") + rng.normal(size=n) > 1.5, "yes", "no")
    value = 3 * a + b / 100 + (many == "v3") + rng.normal(scale=0.5, size=n)
    return X, label, value


NAMES = ["a", "b", "colour", "code"]
MODELS = [
    (DecisionTreeClassifier, {}, "label"),
    (DecisionTreeClassifier, {"criterion": "gini", "categorical_split": "multiway", "class_weight": "balanced"},
     "label"),
    (DecisionTreeClassifier, {"prune": "chi2"}, "label"),
    (DecisionTreeRegressor, {}, "value"),
    (DecisionTreeRegressor, {"categorical_split": "binary", "min_samples_leaf": 2}, "value"),
]


def _fit(cls, params, target, n=5000):
    X, label, value = _table(n)
    return cls(**params).fit(X, label if target == "label" else value, feature_names=NAMES), X


@pytest.mark.parametrize("cls, params, target", MODELS)
def test_a_large_tree_is_packed_and_reads_back_the_same_tree(cls, params, target):
    model, X = _fit(cls, params, target)
    assert model.tree_.node_count > PACK_NODES_ABOVE
    d = json.loads(json.dumps(model.to_dict(), allow_nan=False))
    assert "nodes" in d and "tree" not in d
    rebuilt = pellucid.from_dict(d)
    probe = np.concatenate([X, _table(500, seed=1)[0]])
    probe[-1, 2] = "violet"  # a value never seen: the row stops at its test
    np.testing.assert_array_equal(rebuilt.predict(probe), model.predict(probe))
    if cls is DecisionTreeClassifier:
        np.testing.assert_array_equal(rebuilt.predict_proba(probe), model.predict_proba(probe))
    for name in ("feature", "threshold", "child_start", "parent", "depth", "stats", "impurity", "candidates"):
        np.testing.assert_array_equal(getattr(rebuilt.tree_, name), getattr(model.tree_, name))
    assert rebuilt.to_dict() == d
    assert rebuilt.to_dict(max_nodes=10 ** 9) == model.to_dict(max_nodes=10 ** 9)  # every node, nested
    assert rebuilt.export_text() == model.export_text()


@pytest.mark.parametrize("cls, params, target", MODELS)
@pytest.mark.parametrize("budget", [1, 2, 7, 160, 1000])
def test_describing_the_first_nodes_is_the_whole_description_bounded(cls, params, target, budget):
    model, _ = _fit(cls, params, target, n=1500)
    whole = model.to_dict(max_nodes=10 ** 9)
    top = model.to_dict(max_nodes=budget)
    expected, omitted = readouts.bounded_tree(whole["tree"], budget)
    assert top["tree"] == expected
    assert top["tree_nodes_omitted"] == omitted and whole["tree_nodes_omitted"] == 0
    assert readouts.compact_model(model)["tree"] == readouts.bounded_tree(whole["tree"], readouts.MAX_TREE_NODES)[0]


def _damaged(change, older=False):
    """A packed classification tree's file after `change`(its node arrays, its value sets); older=True: in
    the layout of files written before, which held each node's parent, branch and depth."""
    model, _ = _fit(DecisionTreeClassifier, {"categorical_split": "binary"}, "label")
    d = json.loads(json.dumps(model.to_dict()))
    nodes = pellucid.core.serialize.decode({k: v for k, v in d["nodes"].items() if k != "left_values"})
    if older:
        nodes.update({name: getattr(model.tree_, name) for name in ("parent", "branch", "depth")})
    nodes = {k: v.astype(np.int64) if isinstance(v, np.ndarray) and v.dtype.kind == "i" else v
             for k, v in nodes.items()}  # room for out-of-range damage
    left_values = {int(k): v for k, v in d["nodes"]["left_values"].items()}
    change(nodes, left_values)
    d["nodes"] = {**pellucid.core.serialize.encode(nodes), "left_values": {str(k): v for k, v in left_values.items()}}
    return d


def _first_inner(nodes):
    return int(np.flatnonzero(nodes["feature"] >= 0)[1])


@pytest.mark.parametrize("change, fragment", [
    (lambda n, lv: n["child_start"].__setitem__(_first_inner(n), 0), "children are out of range"),
    (lambda n, lv: n["child_start"].__setitem__(_first_inner(n), 10 ** 6), "children are out of range"),
    (lambda n, lv: n["feature"].__setitem__(0, 9), "column the model does not have"),
    (lambda n, lv: n["n_children"].__setitem__(0, 3), "out of range|wrong number of branches|not one tree"),
    (lambda n, lv: n.__setitem__("split_gain", n["split_gain"][:-1]), "split_gain must have shape"),
    (lambda n, lv: n.__setitem__("split_threshold", n["split_threshold"][1:]), "split_threshold must have shape"),
    (lambda n, lv: n.pop("split_threshold"), "split_threshold is missing|split_threshold"),
    (lambda n, lv: n.__setitem__("candidates", n["candidates"][:, :2]), "candidates must have shape"),
    (lambda n, lv: lv.__setitem__(next(iter(lv)), [99]), "value set"),
    (lambda n, lv: lv.__setitem__(0, [0]) if n["feature"][0] in (0, 1) else lv.__setitem__(10 ** 6, [0]), "value set"),
])
def test_a_damaged_packed_tree_is_refused(change, fragment):
    with pytest.raises(DataError, match=fragment):
        pellucid.from_dict(_damaged(change))


@pytest.mark.parametrize("change, fragment", [
    (lambda n, lv: n["parent"].__setitem__(5, 0), "parents, branches or depths"),
    (lambda n, lv: n["depth"].__setitem__(0, 1), "not a root"),
    (lambda n, lv: n.__setitem__("branch", n["branch"][:-1]), "branch must have shape"),
])
def test_a_damaged_tree_of_the_older_layout_is_refused(change, fragment):
    with pytest.raises(DataError, match=fragment):
        pellucid.from_dict(_damaged(change, older=True))
