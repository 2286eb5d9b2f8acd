"""An ensemble's model file keeps each tree's nodes packed, every array in the narrowest type that holds
it exactly and without what the children already say (each node's parent, branch and depth) or NaN at
every leaf (thresholds and gains): read back, the forest answers bit for bit as before. Files in the older
layout (every array per node, float counts) still read back the same trees, and damage to the new
encoding is a DataError about the model file."""

import json

import numpy as np
import pytest

import pellucid
from pellucid import BaggingRegressor, DataError, RandomForestClassifier, RandomForestRegressor
from pellucid.core import serialize
from pellucid.learners.tree.packed import _narrowest  # as the older files narrowed their integers


def data(n=600, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    label = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.4, "yes", "no")
    return X, label, X[:, 0] * 2 + np.sin(X[:, 1]) + 0.1 * rng.normal(size=n)


def gappy(X, seed=1):
    X = X.copy()
    X[np.random.default_rng(seed).random(X.shape) < 0.1] = np.nan
    return X


FORESTS = [
    ("label", lambda: RandomForestClassifier(n_estimators=4, random_state=0), False),
    ("label", lambda: RandomForestClassifier(n_estimators=3, class_weight="balanced", random_state=1), True),
    ("target", lambda: RandomForestRegressor(n_estimators=4, random_state=0), False),
    ("target", lambda: RandomForestRegressor(n_estimators=3, max_features=0.5, random_state=2), True),
    ("target", lambda: BaggingRegressor(n_estimators=3, bootstrap=False, random_state=0), False),
]


def fitted(target, make, gaps):
    X, label, value = data()
    X = gappy(X) if gaps else X
    return make().fit(X, label if target == "label" else value), X


def answers(forest, X):
    return forest.predict_proba(X) if hasattr(forest, "classes_") else forest.predict(X)


def older_layout(tree):
    """A tree's nodes as files written before held them: every array per node, floats as they are."""
    t = tree.tree_
    scored = np.zeros(t.node_count, dtype=bool)
    arrays = {name: _narrowest(getattr(t, name)) for name in ("feature", "child_start", "n_children", "parent",
                                                              "branch", "depth", "reason")}
    arrays.update({name: getattr(t, name) for name in ("threshold", "gain", "impurity", "stats")})
    arrays.update(scored=scored, candidates=t.candidates[scored], values=tree._node_values())
    if t.weighted is not None:
        arrays["weighted"] = t.weighted
    if t.takes_missing:
        arrays["gap_nodes"], arrays["gap_sides_left"] = np.flatnonzero(t.gap_nodes), t.missing_left[t.gap_nodes]
    return {**serialize.encode(arrays), "left_values": {}}


@pytest.mark.parametrize("target, make, gaps", FORESTS)
def test_a_forest_reads_back_answering_bit_for_bit(target, make, gaps):
    forest, X = fitted(target, make, gaps)
    rebuilt = pellucid.from_dict(json.loads(json.dumps(forest.to_dict(), allow_nan=False)))
    queries = np.vstack([X, gappy(data(n=200, seed=3)[0], seed=4)])
    np.testing.assert_array_equal(answers(rebuilt, queries), answers(forest, queries))
    np.testing.assert_array_equal(rebuilt.feature_importances_, forest.feature_importances_)
    for mine, read in zip(forest.estimators_, rebuilt.estimators_):
        for name in ("feature", "threshold", "child_start", "n_children", "parent", "branch", "depth", "gain",
                     "impurity", "stats", "reason", "missing_left"):
            assert getattr(read.tree_, name).dtype == getattr(mine.tree_, name).dtype, name
            np.testing.assert_array_equal(getattr(read.tree_, name), getattr(mine.tree_, name), err_msg=name)
        if mine.tree_.weighted is not None:
            np.testing.assert_array_equal(read.tree_.weighted, mine.tree_.weighted)


@pytest.mark.parametrize("target, make, gaps", FORESTS)
def test_a_file_of_the_older_layout_reads_back_the_same_forest(target, make, gaps):
    forest, X = fitted(target, make, gaps)
    d = json.loads(json.dumps(forest.to_dict()))
    for entry, tree in zip(d["trees"], forest.estimators_):
        entry["nodes"] = older_layout(tree)
    rebuilt = pellucid.from_dict(json.loads(json.dumps(d)))
    np.testing.assert_array_equal(answers(rebuilt, X), answers(forest, X))
    for mine, read in zip(forest.estimators_, rebuilt.estimators_):
        np.testing.assert_array_equal(read.tree_.depth, mine.tree_.depth)


def test_a_regression_forest_file_is_at_least_30_percent_smaller_than_in_the_older_layout():
    X, _, value = data(n=3000)
    forest = RandomForestRegressor(n_estimators=3, random_state=0).fit(X, value)
    d = forest.to_dict()
    newer = len(json.dumps(d))
    for entry, tree in zip(d["trees"], forest.estimators_):
        entry["nodes"] = older_layout(tree)
    assert newer < 0.7 * len(json.dumps(d))


def _damaged(change):
    X, _, value = data(n=3000)
    d = json.loads(json.dumps(RandomForestRegressor(n_estimators=2, random_state=0).fit(X, value).to_dict()))
    change(d["trees"][1]["nodes"])
    return d


def _truncated(packed):
    return {**packed, "__packed__": packed["__packed__"][:-8]}


@pytest.mark.parametrize("change, fragment", [
    (lambda n: n.__setitem__("split_threshold", _truncated(n["split_threshold"])), "split_threshold has .* bytes"),
    (lambda n: n.__setitem__("child_start", {**n["child_start"], "__packed__": "AAA*"}), "not valid base64"),
    (lambda n: n.__setitem__("impurity", {**n["impurity"], "shape": [n["impurity"]["shape"][0] + 1]}),
     "impurity has .* bytes"),
    (lambda n: n.__setitem__("values", {**n["values"], "dtype": "float128"}), "unknown dtype"),
    (lambda n: n.__setitem__("stats", n["stats"][:2]), "stats must hold 3 items"),
    (lambda n: n["stats"].__setitem__(0, {**n["stats"][1], "dtype": "float32"}), r"stats\[0\] has .* bytes"),
    (lambda n: n.pop("split_gain"), "split_gain"),
    (lambda n: n.__setitem__("split_threshold", serialize.encode(np.full(len(serialize.decode(
        n["split_threshold"])), np.nan))), "finite threshold"),
])
def test_damage_to_the_new_encoding_is_refused(change, fragment):
    with pytest.raises(DataError, match=fragment) as refused:
        pellucid.from_dict(_damaged(change))
    assert "Tree 1 of the ensemble" in str(refused.value)
