"""The run history's words for a run's evaluation come from Python, as the split was made: "stratified"
only for a classification target, never for a regression's split or folds, nor for a clustering."""

from pathlib import Path

import pytest

from pellucid.workbench.training import evaluation_text

from bridgekit import session_with_csv

CSV = "a,b,size,kind\n" + "\n".join(f"{i % 7},{i % 5},{i * 0.5},{'big' if i % 3 else 'small'}"
                                     for i in range(60)) + "\n"


@pytest.mark.parametrize("target, model, evaluation, words", [
    ("size", "LinearRegression", {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 4},
     "held out 30% test, seed 4"),
    ("size", "LinearRegression", {"method": "kfold", "k": 5, "seed": 0}, "5-fold cross-validation, seed 0"),
    ("kind", "LogisticRegression", {"method": "split", "train": 60, "validation": 20, "test": 20, "seed": 1},
     "held out 20% validation and 20% test, stratified, seed 1"),
    ("kind", "LogisticRegression", {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 1,
                                     "stratify": False}, "held out 30% test, seed 1"),
    ("kind", "GaussianNB", {"method": "kfold", "k": 4, "seed": 2}, "4-fold cross-validation, stratified, seed 2"),
    (None, "KMeans", {"method": "kfold", "k": 4, "seed": 2}, "all rows (k-fold needs a target to score), seed 2"),
    ("kind", "GaussianNB", {"method": "none"}, "no held-out rows"),
])
def test_the_train_reply_describes_the_split_it_made(tmp_path: Path, target, model, evaluation, words):
    session = session_with_csv(tmp_path, CSV)
    features = None if target else ["a", "b"]
    reply = session.handle("train", {"table_id": session.table_id, "target": target, "features": features,
                                     "model": model, "evaluation": evaluation})
    assert reply["ok"], reply
    assert reply["result"]["evaluation_text"] == words
    again = session.handle("show_run", {"model_id": reply["result"]["model_id"]})["result"]
    assert again["evaluation_text"] == words  # a restored run keeps its words


def test_a_split_with_nothing_held_out_says_so_without_stratified():
    evaluation = {"method": "split", "train": 100, "validation": 0, "test": 0, "stratify": True, "seed": 0}
    assert evaluation_text(evaluation, "classification") == "nothing held out, seed 0"
