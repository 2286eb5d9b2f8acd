"""A forest's trees grown in ranges, each range in a worker of its own and handed to `train`, make the very
model one worker's `train` makes: the same trees node for node, so the same predictions and probabilities
bit for bit, the same out-of-bag score, trace and reply. Every piece crosses the bridge as JSON text both
ways, as the page's pool sends it, and comes back in any order. Pieces that are not every tree of this very
training once are refused."""

import json

import numpy as np
import pytest

from bridgekit import ok_in as call
from bridgekit import without
from pellucid import DataError, bridge
from pellucid.learners.ensemble import RandomForestClassifier

TIMES = ("fit_seconds", "predict_seconds", "fit_times", "predict_times", "timing", "model_id")
SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 2}


def mixed(folder):
    """Numbers with gaps, a categorical column and three classes: what a tree reads in every way it can."""
    rng = np.random.default_rng(4)
    n = 240
    x = rng.normal(size=(n, 2))
    colour = rng.choice(["red", "green", "blue"], n)
    label = np.where(x[:, 0] + (colour == "red") + rng.normal(0, 0.5, n) > 0.5, "yes",
                     np.where(x[:, 1] > 0, "no", "maybe"))
    cells = [["" if rng.random() < 0.08 else repr(v) for v in row] for row in x.tolist()]
    path = folder / "mixed.csv"
    path.write_text("a,b,colour,label\n" + "".join(f"{a},{b},{c},{d}\n" for (a, b), c, d in zip(cells, colour, label)))
    return {"cmd": "load_csv", "path": str(path), "name": "mixed.csv"}


IRIS = lambda folder: {"cmd": "load_example", "name": "iris"}  # noqa: E731
LINE = lambda folder: {"cmd": "load_example", "name": "line", "n": 150}  # noqa: E731

CASES = {
    "a forest of classes, out of bag": (IRIS, {"target": "species", "model": "RandomForestClassifier",
                                               "params": {"n_estimators": 9, "oob_score": True}}),
    "gaps and categories": (mixed, {"target": "label", "model": "RandomForestClassifier",
                                    "params": {"n_estimators": 7, "random_state": 11, "max_depth": 4}}),
    "a forest of numbers, out of bag": (LINE, {"target": "y", "model": "RandomForestRegressor",
                                               "params": {"n_estimators": 8, "oob_score": True}}),
    "bagging classes": (IRIS, {"target": "species", "model": "BaggingClassifier", "params": {"n_estimators": 6}}),
    "bagging numbers, under k-fold": (LINE, {"target": "y", "model": "BaggingRegressor",
                                             "params": {"n_estimators": 5, "oob_score": True},
                                             "evaluation": {"method": "kfold", "k": 3, "seed": 1}}),
}


def loaded(source):
    """A fresh session (a worker, the page's own or one of the pool) with `source` loaded: (session, table id)."""
    session = bridge.Session()
    args = {key: value for key, value in source.items() if key != "cmd"}
    info = call(session, source["cmd"], **args)
    return session, info["table_id"], info["columns"]


def request_for(source, request):
    _, _, columns = loaded(source)
    return {"evaluation": SPLIT, **request, "features": [c for c in columns if c != request["target"]]}


def pieces_of(source, request, ranges):
    """Each range of trees grown in a worker of its own, its reply through JSON, in the order of `ranges`."""
    pieces = []
    for start, stop in ranges:
        session, table_id, _ = loaded(source)
        pieces.append(call(session, "train_trees", table_id=table_id, start=start, stop=stop, **request))
    return pieces


def without_times(value):
    return without(value, TIMES)


def shuffled_ranges(n, seed):
    """Ranges covering 0 .. n once, cut at random, in a random order."""
    rng = np.random.default_rng(seed)
    cuts = [0] + sorted(rng.choice(np.arange(1, n), size=min(2, n - 1), replace=False).tolist()) + [n]
    ranges = list(zip(cuts[:-1], cuts[1:]))
    return [ranges[i] for i in rng.permutation(len(ranges))]


def same_trees(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.random_state == b.random_state
        for name, value in vars(a.tree_).items():
            if isinstance(value, np.ndarray):
                other = getattr(b.tree_, name)
                assert value.dtype == other.dtype and np.array_equal(value, other, equal_nan=True), name
        assert {k: v.tolist() for k, v in a.tree_.left_values.items()} == \
               {k: v.tolist() for k, v in b.tree_.left_values.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_trees_grown_in_pieces_make_the_forest_one_worker_makes(case, tmp_path):
    source, request = CASES[case][0](tmp_path), CASES[case][1]
    request = request_for(source, request)
    one_session, table_id, _ = loaded(source)
    one = call(one_session, "train", table_id=table_id, include_trace=True, **request)
    n = request["params"]["n_estimators"]
    many_session, many_table, _ = loaded(source)
    pieces = pieces_of(source, request, shuffled_ranges(n, len(case)))
    kfold = request["evaluation"]["method"] == "kfold"
    folds = [call(session, "train_fold", table_id=table, index=i, **request)
             for i, (session, table, _) in enumerate(loaded(source) for _ in range(request["evaluation"]["k"]))] \
        if kfold else None
    many = call(many_session, "train", table_id=many_table, include_trace=True, trees=pieces, folds=folds, **request)
    assert without_times(many) == without_times(one)
    ours, theirs = (s.run(r["model_id"]).estimator for s, r in ((many_session, many), (one_session, one)))
    same_trees(ours.estimators_, theirs.estimators_)
    assert np.isfinite(ours.estimators_[0].tree_.candidates).any()  # the first tree keeps what its nodes weighed
    X = one_session.run(one["model_id"]).preprocessor.transform(one_session.table(table_id).select(request["features"]))
    answers = ("predict_proba", "predict") if hasattr(theirs, "predict_proba") else ("predict",)
    for answer in answers:
        a, b = getattr(ours, answer)(X), getattr(theirs, answer)(X)
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    assert getattr(ours, "oob_score_", None) == getattr(theirs, "oob_score_", None)
    assert (hasattr(theirs, "oob_score_")) == request["params"].get("oob_score", False)
    exports = [call(s, "export_model", model_id=r["model_id"])["json"] for s, r in ((one_session, one),
                                                                                    (many_session, many))]
    assert exports[0] == exports[1]


@pytest.fixture(scope="module")
def iris_forest():
    request = request_for(IRIS(None), CASES["a forest of classes, out of bag"][1])
    return request, pieces_of(IRIS(None), request, [(0, 4), (4, 9)])


def refused(request, pieces):
    session, table_id, _ = loaded(IRIS(None))
    reply = json.loads(session.handle_json("train", json.dumps({"table_id": table_id, "trees": pieces, **request})))
    assert not reply["ok"] and reply["error"]["code"] == "data_error", reply
    return reply["error"]["message"]


@pytest.mark.parametrize("wrong, says", [
    (lambda p: p[:1], "got the ranges 0-4."),
    (lambda p: p + p[:1], "got the ranges 0-4, 0-4, 4-9"),
    (lambda p: [p[0], dict(p[1], start=3)], "got the ranges 0-4, 3-9"),
    (lambda p: [p[0], dict(p[1], trees=p[1]["trees"][:-1])], "holds 4 trees"),
    (lambda p: [p[0], dict(p[1], run="0" * 64)], "trees 5 to 9 was grown for another training"),
    (lambda p: [dict(piece, start=str(piece["start"])) for piece in p], "train_trees replies"),
    (lambda p: "not a list", "train_trees replies"),
    (lambda p: [], "got the ranges none"),
])
def test_pieces_that_are_not_every_tree_once_are_refused(iris_forest, wrong, says):
    request, pieces = iris_forest
    assert says in refused(request, wrong(pieces))


@pytest.mark.parametrize("other", [{"params": {"n_estimators": 9, "oob_score": True, "random_state": 5}},
                                   {"params": {"n_estimators": 9, "oob_score": True, "max_depth": 2}},
                                   {"evaluation": {**SPLIT, "seed": 3}},
                                   {"preprocessing": {"standardize": True}}])
def test_pieces_of_another_training_are_refused(iris_forest, other):
    request, pieces = iris_forest
    assert "was grown for another training" in refused({**request, **other}, pieces)


def test_an_unseeded_forest_or_another_learner_is_not_grown_in_pieces():
    request = request_for(IRIS(None), CASES["a forest of classes, out of bag"][1])
    session, table_id, _ = loaded(IRIS(None))
    for model, params, says in (("RandomForestClassifier", {"random_state": None}, "without a seed"),
                                ("DecisionTreeClassifier", {}, "only a random forest's or a bagging")):
        reply = json.loads(session.handle_json("train_trees", json.dumps(
            {**request, "table_id": table_id, "model": model, "params": params, "start": 0, "stop": 1})))
        assert not reply["ok"] and says in reply["error"]["message"], reply


@pytest.mark.parametrize("start, stop", [(-1, 2), (2, 2), (0, 10), (1.0, 3)])
def test_a_range_outside_the_trees_is_refused(start, stop):
    X, y = np.arange(40.0).reshape(20, 2), np.arange(20) % 2
    with pytest.raises(DataError, match="A range of trees must be within 0 to 9") as caught:
        RandomForestClassifier(n_estimators=9).grow_trees(X, y, start, stop)
    assert caught.value.field == "params.n_estimators"


def test_trees_of_another_seed_or_order_are_refused_by_the_forest():
    X, y = np.random.default_rng(0).normal(size=(60, 3)), np.arange(60) % 2
    forest = RandomForestClassifier(n_estimators=4, random_state=1)
    trees = forest.grow_trees(X, y, 0, 4)
    other_seed = RandomForestClassifier(n_estimators=4, random_state=2).grow_trees(X, y, 0, 4)
    for wrong in (trees[::-1], trees[:3], other_seed):
        with pytest.raises(DataError, match="must be the 4 this ensemble's seed"):
            RandomForestClassifier(n_estimators=4, random_state=1).fit_from_trees(X, y, wrong)
    assert np.array_equal(forest.fit_from_trees(X, y, trees).predict_proba(X),
                          RandomForestClassifier(n_estimators=4, random_state=1).fit(X, y).predict_proba(X))
