"""The views of an ensemble of trees (workbench/ensemble_view.py through the bridge): the forest's small
multiples are its own trees' shapes, a row's votes are each tree's own predict and the tally the
ensemble's predict_proba and predict, the staged score is the model's staged_predict scored on the run's
rows (the last stage the run's own metrics), the out-of-bag score is the model's, and a large forest's
replies stay small."""

import json

import numpy as np
import pytest

from bridgekit import session_with_csv
from pellucid import bridge
from pellucid.core.scores import accuracy_score, r2_score
from pellucid.tabular.table import Table
from pellucid.workbench import ensemble_view

FEATURES = ["a", "b", "c"]


def rows(n=120, seed=0):
    """Three numeric features (no two rows alike), a class that depends on two of them with noise, and a
    value that depends on all three."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    label = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.4 * rng.normal(size=n) > 0, "yes", "no").astype(object)
    label[X[:, 2] > 1.2] = "maybe"
    value = 2 * X[:, 0] - X[:, 1] + 0.5 * X[:, 2] + 0.3 * rng.normal(size=n)
    lines = ["a,b,c,label,value"]
    lines += [f"{x[0]:.5f},{x[1]:.5f},{x[2]:.5f},{c},{v:.5f}" for x, c, v in zip(X, label, value)]
    return "\n".join(lines) + "\n"


def ok(session, cmd, **args):
    reply = json.loads(session.handle_json(cmd, json.dumps(args)))
    assert reply["ok"], reply
    return reply["result"]


def refused(session, cmd, **args):
    reply = json.loads(session.handle_json(cmd, json.dumps(args)))
    assert reply["ok"] is False and reply["error"]["code"] == "data_error", reply
    return reply["error"]["message"]


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    return session_with_csv(tmp_path_factory.mktemp("forest"), rows(), "forest.csv")


def train(session, model="RandomForestClassifier", target="label", params=None, evaluation=None):
    result = ok(session, "train", table_id=session.table_id, target=target, features=FEATURES, model=model,
                params={"n_estimators": 30, **(params or {})},
                evaluation=evaluation or {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 1})
    return result, session.runs[result["model_id"]]


@pytest.fixture(scope="module")
def forest_run(session):
    return train(session, params={"oob_score": True})


def test_a_forest_shows_its_trees_and_its_score_by_trees_and_opens_on_the_trees(forest_run):
    result, _ = forest_run
    assert result["views"] == ["metrics", "forest", "boundary", "curves", "staged", "importance"]
    assert result["default_view"] == "forest"
    assert result["model"]["n_trees"] == 30 and "trees" not in result["model"]


def test_the_fitted_model_summary_gives_the_trees_and_the_out_of_bag_score(forest_run):
    result, run = forest_run
    depths = [tree.get_depth() for tree in run.estimator.estimators_]
    rows = dict(result["summary"])
    assert rows["trees"] == "30"
    assert rows["depth (least, mean, most)"] == f"{min(depths)}, {np.mean(depths):.4g}, {max(depths)}"
    assert float(rows["out-of-bag accuracy"]) == pytest.approx(run.estimator.oob_score_, abs=5e-5)


def test_the_small_multiples_are_the_first_trees_shapes(session, forest_run):
    result, run = forest_run
    forest = ok(session, "forest", model_id=result["model_id"])
    assert forest["n_trees"] == 30 and forest["shown"] == len(forest["trees"]) == ensemble_view.MAX_SHOWN
    assert forest["classes"] == ["maybe", "no", "yes"]
    for shape, tree in zip(forest["trees"], run.estimator.estimators_):
        assert shape["depth"] == tree.get_depth() and shape["leaves"] == tree.get_n_leaves()
        assert shape["nodes"] == tree.tree_.node_count
        drawn = len(shape["kids"])
        if tree.get_depth() <= ensemble_view.THUMB_DEPTH:  # the whole tree, its leaves as its leaves predict
            assert drawn == tree.tree_.node_count and -1 not in shape["kids"]
            preorder = tree.tree_.preorder()
            leaves = [node for node in preorder if tree.tree_.feature[node] < 0]
            predicted = tree.predict_at(np.array(leaves))
            drawn_leaves = [v for v, k in zip(shape["value"], shape["kids"]) if k == 0]
            assert [forest["classes"][v] for v in drawn_leaves] == predicted.tolist()
        else:  # cut at the drawing's depth: fewer nodes, each cut one marked
            assert drawn < tree.tree_.node_count and -1 in shape["kids"]
        # every node fills one place of its parent's and opens its children's: one whole tree
        assert sum(max(0, k) for k in shape["kids"]) == drawn - 1


def test_a_rows_votes_are_each_trees_predict_and_the_tally_the_forests(session, forest_run):
    result, run = forest_run
    estimator = run.estimator
    for row in (1, 57, 120):
        votes = ok(session, "forest_votes", model_id=result["model_id"], row=row)
        X = run.model_input(np.array([row - 1]))
        classes = estimator.classes_.tolist()
        assert [classes[v] for v in votes["tree_votes"]] == [tree.predict(X)[0] for tree in estimator.estimators_]
        assert sum(votes["counts"]) == votes["n_trees"] == 30
        assert votes["vote_share"] == pytest.approx(np.array(votes["counts"]) / 30)
        assert votes["mean_proba"] == pytest.approx(estimator.predict_proba(X)[0])
        trees_mean = np.mean([tree.predict_proba(X)[0] for tree in estimator.estimators_], axis=0)
        assert votes["mean_proba"] == pytest.approx(trees_mean)  # the soft vote: the trees' mean
        shown = estimator.estimators_[:ensemble_view.MAX_SHOWN]
        assert np.allclose(votes["tree_proba"], [tree.predict_proba(X)[0] for tree in shown])
        assert votes["predicted"] == estimator.predict(X)[0] == run.predicted[row - 1]
        assert votes["majority"] == classes[int(np.argmax(votes["counts"]))]
        assert votes["actual"] == session.tables[session.table_id].column("label")[row - 1]


def test_fully_grown_trees_vote_as_their_probabilities_say(session, forest_run):
    """No two rows are alike, so every leaf of a fully grown tree is pure: each tree's probability is 1 for
    the class it votes, and the forest's mean probability is the share of trees voting each class."""
    result, _ = forest_run
    for row in range(1, 121, 7):
        votes = ok(session, "forest_votes", model_id=result["model_id"], row=row)
        assert votes["mean_proba"] == pytest.approx(votes["vote_share"])


def test_the_forest_opens_on_the_held_out_row_the_trees_disagree_on_most(session, forest_run):
    result, run = forest_run
    forest = ok(session, "forest", model_id=result["model_id"])
    test_rows = np.asarray(result["splits"]["test"])
    row = forest["votes"]["row"]
    assert row in test_rows
    X = run.model_input(test_rows - 1)
    answers = np.array([tree.predict(X) for tree in run.estimator.estimators_])  # (T, m)
    top = [np.unique(column, return_counts=True)[1].max() for column in answers.T]
    assert max(forest["votes"]["counts"]) == min(top)
    assert row == test_rows[int(np.argmin(top))]


def test_one_tree_opens_as_the_tree_view_draws_a_tree(session, forest_run):
    result, run = forest_run
    opened = ok(session, "forest_tree", model_id=result["model_id"], index=4)
    tree = run.estimator.estimators_[4]
    assert opened["tree"] == json.loads(json.dumps(tree.to_dict()["tree"]))
    assert opened["index"] == 4 and opened["n_trees"] == 30 and opened["depth"] == tree.get_depth()
    assert opened["path"] is None
    assert "from 0 to 29" in refused(session, "forest_tree", model_id=result["model_id"], index=30)


def test_an_opened_tree_tells_the_path_of_the_row_to_its_vote(session, forest_run):
    result, run = forest_run
    votes = ok(session, "forest_votes", model_id=result["model_id"], row=33)
    for index in (0, 5):
        path = ok(session, "forest_tree", model_id=result["model_id"], index=index, row=33)["path"]
        assert path["row"] == 33
        assert path["prediction"] == run.estimator.classes_[votes["tree_votes"][index]]
        assert path["text"].endswith(f"→ predict {path['prediction']}")
    assert "from 1 to 120" in refused(session, "forest_tree", model_id=result["model_id"], index=0, row=121)


def test_a_row_out_of_the_table_is_refused_with_the_rows_there_are(session, forest_run):
    result, _ = forest_run
    assert "from 1 to 120" in refused(session, "forest_votes", model_id=result["model_id"], row=0)
    assert "from 1 to 120" in refused(session, "forest_votes", model_id=result["model_id"], row=1.5)


def test_the_staged_score_is_the_models_staged_predict_on_each_split(session, forest_run):
    result, run = forest_run
    staged = ok(session, "staged", model_id=result["model_id"])
    y = session.tables[session.table_id].column("label")
    assert staged["n_stages"] == 30 and staged["scoring"] == "accuracy" and staged["held_out"] == "test"
    assert set(staged["scores"]) == {"train", "test"}
    for split in ("train", "test"):
        rows = np.asarray(result["splits"][split]) - 1
        expected = [accuracy_score(y[rows], p) for p in run.estimator.staged_predict(run.model_input(rows))]
        assert staged["scores"][split] == pytest.approx(expected)
        assert staged["scores"][split][-1] == pytest.approx(result["metrics"][split]["accuracy"])
    assert staged["oob_score"] == pytest.approx(run.estimator.oob_score_) and staged["oob"] is True


def test_the_staged_score_in_chunks_of_rows_is_the_same(session, forest_run, monkeypatch):
    result, run = forest_run
    whole = ok(session, "staged", model_id=result["model_id"])
    monkeypatch.setattr(ensemble_view, "STAGED_CELLS", 30 * 3 * 7)  # 7 rows at a time
    chunked = ok(session, "staged", model_id=result["model_id"])
    for split in ("train", "test"):
        assert chunked["scores"][split] == pytest.approx(whole["scores"][split])


def test_a_regressors_votes_are_its_trees_values_and_its_staged_score_r2(session):
    result, run = train(session, "RandomForestRegressor", "value", {"n_estimators": 12})
    assert result["views"] == ["metrics", "forest", "boundary", "regression", "staged", "importance"]
    forest = ok(session, "forest", model_id=result["model_id"])
    assert forest["classes"] is None and forest["shown"] == 12
    leaves = [v for s in forest["trees"] for v, k in zip(s["value"], s["kids"]) if k <= 0]
    assert forest["value_range"] == [min(leaves), max(leaves)]
    votes = ok(session, "forest_votes", model_id=result["model_id"], row=9)
    X = run.model_input(np.array([8]))
    assert votes["tree_values"] == pytest.approx([tree.predict(X)[0] for tree in run.estimator.estimators_])
    assert votes["predicted"] == pytest.approx(np.mean(votes["tree_values"]))
    staged = ok(session, "staged", model_id=result["model_id"])
    assert staged["scoring"] == "r2" and staged["oob_score"] is None and staged["oob"] is False
    y = session.tables[session.table_id].column("value").astype(float)
    rows = np.asarray(result["splits"]["test"]) - 1
    expected = [r2_score(y[rows], p) for p in run.estimator.staged_predict(run.model_input(rows))]
    assert staged["scores"]["test"] == pytest.approx(expected)
    assert staged["scores"]["test"][-1] == pytest.approx(result["metrics"]["test"]["r2"])


def test_bagging_has_the_same_views(session):
    result, _ = train(session, "BaggingClassifier", params={"n_estimators": 5})
    assert "forest" in result["views"] and "staged" in result["views"]
    assert ok(session, "forest", model_id=result["model_id"])["shown"] == 5


def test_under_k_fold_the_staged_score_has_no_held_out_split(session):
    result, _ = train(session, params={"n_estimators": 6}, evaluation={"method": "kfold", "k": 3})
    staged = ok(session, "staged", model_id=result["model_id"])
    assert staged["held_out"] is None and list(staged["scores"]) == ["train"] and staged["method"] == "kfold"


def test_a_model_that_is_not_a_forest_has_neither_view(session):
    result = ok(session, "train", table_id=session.table_id, target="label", features=FEATURES,
                model="DecisionTreeClassifier")
    assert "forest" not in result["views"] and "staged" not in result["views"]
    assert "not an ensemble of trees" in refused(session, "forest", model_id=result["model_id"])
    assert "stage by stage" in refused(session, "staged", model_id=result["model_id"])


def test_an_imported_forest_shows_its_trees_without_votes(session, forest_run):
    result, _ = forest_run
    text = ok(session, "export_model", model_id=result["model_id"])["json"]
    assert len(json.loads(text)["trees"]) == 30  # the file keeps every tree
    imported = ok(bridge.Session(), "import_model", json=text)
    assert imported["model"]["n_trees"] == 30 and "trees" not in imported["model"]
    assert "forest" in imported["views"] and "staged" not in imported["views"]


def test_the_boundary_shades_by_the_forests_mean_probability(session, forest_run):
    """The boundary's colour strength is the largest of the forest's mean probabilities in each cell: here,
    with fully grown trees, the share of trees voting the cell's class."""
    result, run = forest_run
    b = run.estimator
    drawn = ok(session, "boundary", model_id=result["model_id"], x="a", y="b", resolution=6)
    gx, gy = np.meshgrid(drawn["x_values"], drawn["y_values"])
    held_c = drawn["held"]["c"]
    X = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, held_c)])
    proba = b.predict_proba(run.prepare(_table(X)))
    assert drawn["probability"] == pytest.approx(proba.max(axis=1))
    assert drawn["predicted"] == np.argmax(proba, axis=1).tolist()


def _table(X):
    return Table({name: X[:, j] for j, name in enumerate(FEATURES)}, {name: "numeric" for name in FEATURES})


def test_a_large_forests_replies_stay_small(tmp_path):
    """100 fully grown trees on 5,000 rows: the training reply, the forest and the staged score are
    kilobytes, not the megabytes the trees take (the model file has them)."""
    session = session_with_csv(tmp_path, rows(5000, seed=2), "large.csv")
    args = {"table_id": session.table_id, "target": "label", "features": FEATURES, "model": "RandomForestClassifier",
            "params": {"n_estimators": 100}, "evaluation": {"method": "split"}}
    text, bulk = session.handle_binary("train", json.dumps(args))
    model_id = json.loads(text)["result"]["model_id"]
    assert len(text) + sum(a.nbytes for a in bulk) < 400_000
    for cmd in ("forest", "staged"):
        text, bulk = session.handle_binary(cmd, json.dumps({"model_id": model_id}))
        assert json.loads(text)["ok"] and len(text) + sum(a.nbytes for a in bulk) < 200_000, cmd
    nodes = sum(tree.tree_.node_count for tree in session.runs[model_id].estimator.estimators_)
    assert nodes > 50_000  # the trees themselves are large: their file is megabytes
    assert len(session.handle_json("export_model", json.dumps({"model_id": model_id}))) > 2_000_000
