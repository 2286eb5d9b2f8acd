"""The Curves tab's threshold table at 0.5 is the confusion matrix of the run's predictions: one rule at a
tie of exactly 0.5 (predict's: the first class of the highest probability), on a k-NN with k = 2 whose
test rows often get 0.5."""

from pathlib import Path

import numpy as np
import pytest

from pellucid.evaluation.probability_report import probability_report

from bridgekit import session_with_csv
from tied_table import tied_csv

SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 7}


@pytest.fixture
def knn_run(tmp_path: Path):
    session = session_with_csv(tmp_path, tied_csv())
    reply = session.handle("train", {"table_id": session.table_id, "target": "label", "features": None,
                                     "model": "KNeighborsClassifier", "params": {"n_neighbors": 2},
                                     "evaluation": SPLIT})
    assert reply["ok"], reply
    return session, reply["result"]


def test_counts_at_the_default_threshold_are_the_metrics_confusion_matrix(knn_run):
    session, result = knn_run
    curves = session.handle("curves", {"model_id": result["model_id"]})["result"]
    table, i = curves["thresholds"], curves["thresholds"]["default_index"]
    assert table["thresholds"][i] == 0.5 and table["comparison"] == "above"
    confusion = result["metrics"]["test"]["confusion"]
    assert confusion["labels"] == ["no", "yes"] and curves["pos_label"] == "yes"
    (tn, fp), (fn, tp) = confusion["matrix"]
    assert [table[k][i] for k in ("tn", "fp", "fn", "tp")] == [tn, fp, fn, tp]
    # the case in question: test rows scored exactly 0.5, which "at least 0.5" would call "yes"
    run = session.run(result["model_id"])
    test = np.asarray(run.splits["test"], dtype=np.intp)
    proba = run.estimator.predict_proba(run.model_input(test))[:, 1]
    assert np.sum(proba == 0.5) >= 3


def _confusion(truth, predicted):
    return [int(np.sum((truth == a) & (predicted == b))) for a, b in ((0, 0), (0, 1), (1, 0), (1, 1))]


@pytest.mark.parametrize("column, comparison", [(1, "above"), (0, "at least")])
def test_the_table_follows_argmax_at_a_tie_for_either_positive_column(column, comparison):
    rng = np.random.default_rng(3)
    p1 = rng.choice([0.0, 0.25, 0.5, 0.5, 0.75, 1.0], size=200)
    proba = np.column_stack([1.0 - p1, p1])  # (200, 2)
    y = rng.integers(0, 2, 200)
    report = probability_report(y, proba, np.array([0, 1]), pos_label=column)
    table, i = report["thresholds"], report["thresholds"]["default_index"]
    assert table["comparison"] == comparison and table["thresholds"][i] == 0.5
    predicted = np.argmax(proba, axis=1)  # predict's rule: the first class on a tie
    is_positive = (y == column).astype(int)
    called_positive = (predicted == column).astype(int)
    assert [table[k][i] for k in ("tn", "fp", "fn", "tp")] == _confusion(is_positive, called_positive)


def test_thinning_keeps_the_default_threshold_and_adds_it_when_no_score_is_half():
    rng = np.random.default_rng(4)
    p1 = rng.uniform(0.001, 0.999, 5000)
    p1 = p1[p1 != 0.5]
    y = (rng.uniform(size=len(p1)) < p1).astype(int)
    report = probability_report(y, np.column_stack([1.0 - p1, p1]), np.array([0, 1]), max_points=100)
    table = report["thresholds"]
    assert len(table["thresholds"]) <= 100
    i = table["default_index"]
    assert table["thresholds"][i] == 0.5
    assert table["tp"][i] == np.sum((p1 > 0.5) & (y == 1)) and table["fp"][i] == np.sum((p1 > 0.5) & (y == 0))
    assert np.all(np.diff(table["thresholds"]) < 0)
    # the ends: above the highest score nothing is called positive, above 0 every row is
    assert table["tp"][0] + table["fp"][0] == 0 and table["tp"][-1] + table["fp"][-1] == len(p1)
