"""The steps of boosting for one training row (pellucid.workbench.boosting_steps), recomputed apart: each
round's residual is the loss's negative gradient at the F before it, F after equals F before plus eta times
the leaf's value, the last F is the trained model's own answer for the row, and AdaBoost's error and vote
follow SAMME's formulas from the row weights it shows."""

import json
import math

import numpy as np
import pytest

from pellucid import bridge
from pellucid.core.errors import DataError
from pellucid.core.jsonable import plain
from pellucid.workbench import steps

session = bridge.Session()
SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 3}


def trained(example, model, target, params, **load):
    table = session.handle("load_example", {"name": example, **load})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": target, "features": None,
                                    "model": model, "params": params, "evaluation": SPLIT})
    assert reply["ok"], reply
    return session.runs[reply["result"]["model_id"]]


def first_training_row(run):
    return int(run.train_rows()[0]) + 1


def softmax(F):
    e = np.exp(F - F.max())
    return e / e.sum()


@pytest.mark.parametrize("example, model, target, classes", [
    ("line", "GradientBoostingRegressor", "y", None),
    ("moons", "GradientBoostingClassifier", "class", 2),
    ("iris", "GradientBoostingClassifier", "species", 3)])
def test_each_round_adds_eta_times_the_leaf_to_f_from_the_negative_gradient(example, model, target, classes):
    run = trained(example, model, target, {"n_estimators": 6, "learning_rate": 0.3, "max_depth": 2})
    row = first_training_row(run)
    timeline = steps.timeline(run, row=row)
    json.dumps(plain(timeline), allow_nan=False)
    start, rounds = timeline["frames"][0], timeline["frames"][1:]
    assert len(rounds) == 6
    np.testing.assert_allclose(start["init"], run.estimator.init_, rtol=1e-12)
    y = run.table.column(target)[row - 1]
    F = np.asarray(start["init"], dtype=float)
    for frame in rounds:
        before = np.array([t["before"] for t in frame["trees"]])
        np.testing.assert_allclose(before, F, rtol=1e-12, atol=1e-12)
        if classes is None:
            expected = [float(y) - F[0]]
        elif classes == 2:
            expected = [float(str(y) == str(run.estimator.classes_[1])) - 1 / (1 + math.exp(-F[0]))]
        else:
            onehot = np.array([str(y) == str(c) for c in run.estimator.classes_], dtype=float)
            expected = onehot - softmax(F)
        np.testing.assert_allclose([t["residual"] for t in frame["trees"]], expected, rtol=1e-9, atol=1e-12)
        after = np.array([t["before"] + 0.3 * t["value"] for t in frame["trees"]])
        np.testing.assert_allclose([t["after"] for t in frame["trees"]], after, rtol=1e-12, atol=1e-12)
        F = after
    x = run.model_input(np.array([row - 1]))
    answer = run.estimator.predict(x) if classes is None else run.estimator.decision_function(x)
    np.testing.assert_allclose(F if classes == 3 else F[:1], np.ravel(answer), rtol=1e-9)


def test_adaboost_rounds_follow_samme_from_the_weights_shown():
    run = trained("iris", "AdaBoostClassifier", "species", {"n_estimators": 5})
    row = first_training_row(run)
    timeline = steps.timeline(run, row=row)
    traced = steps.refit_traced(run)[0].trace_
    n = len(run.train_rows())
    assert timeline["frames"][0]["weight"] == pytest.approx(1 / n)  # every row starts with 1/n
    for frame, record in zip(timeline["frames"], (r for r in traced if r["step"] == "round")):
        w, wrong = np.asarray(record["weights"]), np.asarray(record["wrong"])
        error = w[wrong].sum() / w.sum()
        assert frame["error"] == pytest.approx(error, rel=1e-12)
        if error > 0:
            assert frame["alpha"] == pytest.approx(math.log((1 - error) / error) + math.log(2), rel=1e-12)
        heaviest = max(frame["heaviest"], key=lambda h: h["weight"])
        assert heaviest["weight"] == pytest.approx(w.max(), rel=1e-12)


def test_a_row_that_did_not_train_is_refused_with_a_training_row_to_try():
    run = trained("line", "GradientBoostingRegressor", "y", {"n_estimators": 3})
    held_out = int(np.setdiff1d(np.arange(run.table.n_rows), run.train_rows())[0]) + 1
    with pytest.raises(DataError, match=f"Row {held_out} is not one of the training rows") as caught:
        steps.timeline(run, row=held_out)
    assert caught.value.field == "row"


def test_the_trace_keeps_the_first_rows_and_a_later_row_is_refused_by_name(monkeypatch):
    from pellucid.learners.ensemble import traced_rows
    monkeypatch.setattr(traced_rows, "TRACE_ROWS", 10)
    run = trained("line", "GradientBoostingRegressor", "y", {"n_estimators": 3})
    traced = steps.refit_traced(run)[0].trace_
    assert traced[0]["rows_traced"] == 10 and all(len(r["residuals"]) == 10 for r in traced[1:])
    eleventh = int(run.train_rows()[10]) + 1
    with pytest.raises(DataError, match=f"keep the first 10 training rows of a round, and row {eleventh}"):
        steps.timeline(run, row=eleventh)
    assert steps.timeline(run, row=int(run.train_rows()[9]) + 1)["frames"]
