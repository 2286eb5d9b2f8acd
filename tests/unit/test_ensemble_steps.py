"""The steps of a forest (pellucid.workbench.ensemble_steps): tree 1's bootstrap sample drawn again from the
seed as the documented draw makes it, the root's offered features and its choice among them, and each
tree's vote and their average equal to what the trained model itself answers for the row."""

import json
import math

import numpy as np
import pytest

from pellucid import bridge
from pellucid.core.jsonable import plain
from pellucid.workbench import steps

session = bridge.Session()
TREES = 7


def trained(example, model, target, params):
    table = session.handle("load_example", {"name": example})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": target, "features": None,
                                    "model": model, "params": params,
                                    "evaluation": {"method": "split", "train": 70, "validation": 0, "test": 30,
                                                   "seed": 3}})
    assert reply["ok"], reply
    return session.runs[reply["result"]["model_id"]]


@pytest.fixture(scope="module")
def forest():
    return trained("iris", "RandomForestClassifier", "species", {"n_estimators": TREES, "random_state": 11})


def frames_of(timeline):
    return {frame["kind"]: frame for frame in timeline["frames"]}


def test_the_first_trees_sample_is_the_seeded_draw(forest):
    timeline = steps.timeline(forest, row=5)
    sample = frames_of(timeline)["sample"]
    rows = forest.train_rows()
    n = len(rows)
    # The documented draw: one generator from random_state; per tree its seed, then n rows with replacement.
    rng = np.random.default_rng(11)
    rng.integers(2 ** 31 - 1)
    counts = np.bincount(rng.integers(0, n, n), minlength=n)
    assert sample["n"] == n and sample["out_of_bag"] == int((counts == 0).sum())
    assert {t["times"]: t["rows"] for t in sample["times"]} == {t: int(c) for t, c in enumerate(np.bincount(counts))
                                                                 if c}
    assert all(counts[np.flatnonzero(rows == r["row"] - 1)[0]] == r["times"] > 1 for r in sample["repeated"])
    assert sample["expected_out_of_bag"] == pytest.approx((1 - 1 / n) ** n)
    assert f"= {sample['out_of_bag']} / {n}" in sample["math"][1]["text"].replace("left ", "= ")
    assert "e^-1 = " + f"{math.exp(-1):.4f}" in sample["math"][0]["text"]
    json.dumps(plain(timeline), allow_nan=False)


def test_the_root_tests_the_best_of_the_features_it_was_offered(forest):
    root = frames_of(steps.timeline(forest, row=5))["root"]
    assert root["n_features"] == 4 and root["n_offered"] == 2  # max_features "sqrt" of 4
    best = max(root["offered"], key=lambda o: o["gain"])
    assert root["chosen"] == best["feature"]
    assert forest.estimator.estimators_[0].feature_names_in_[forest.estimator.estimators_[0].tree_.feature[0]] \
        == root["chosen"]


@pytest.mark.parametrize("row", [1, 60, 150])
def test_each_trees_vote_and_their_mean_are_the_models_answers(forest, row):
    frames = frames_of(steps.timeline(forest, row=row))
    x = forest.model_input(np.array([row - 1]))
    model = forest.estimator
    expected = [tree.predict(x)[0] for tree in model.estimators_]
    assert [v["class"] for v in frames["votes"]["votes"]] == [str(c) for c in expected]
    together = frames["together"]
    np.testing.assert_allclose([c["mean_p"] for c in together["per_class"]], model.predict_proba(x)[0], rtol=1e-12)
    assert together["prediction"] == str(model.predict(x)[0])
    assert sum(c["votes"] for c in together["per_class"]) == TREES
    votes = {c["class"]: c["votes"] for c in together["per_class"]}
    assert together["majority"] == max(votes, key=votes.get)


def test_a_regression_forest_predicts_the_mean_of_its_trees_values():
    run = trained("line", "RandomForestRegressor", "y", {"n_estimators": TREES, "max_depth": 3})
    frames = frames_of(steps.timeline(run, row=10))
    x = run.model_input(np.array([9]))
    values = [tree.predict(x)[0] for tree in run.estimator.estimators_]
    np.testing.assert_allclose([v["value"] for v in frames["votes"]["votes"]], values, rtol=1e-12)
    assert frames["together"]["prediction"] == pytest.approx(np.mean(values), rel=1e-12)
    assert frames["root"]["n_offered"] == run.estimator.n_features_in_  # regression: every feature (1.0)


def test_bagging_offers_every_feature_and_says_so():
    run = trained("iris", "BaggingClassifier", "species", {"n_estimators": 3})
    root = frames_of(steps.timeline(run, row=1))["root"]
    assert root["n_offered"] == 4 and root["rule"] == "every feature"
    assert "all 4 features" in root["math"][0]["text"]
