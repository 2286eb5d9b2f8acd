"""A tuning cut into pieces, one grid cell's folds each, scored in separate workers and merged, gives exactly
the reply `tune` gives in one worker: the same cells with the same fold scores, the same best cell, folds,
rows and warnings. Every piece goes through the bridge as the page sends it (JSON text both ways, in a fresh
session of its own: a pool worker), and the merge runs in yet another, so what crosses between workers is
tested too."""

import json
import random

import pytest

from bridgekit import ok_in as call, reply_in as reply
from pellucid import bridge


def loaded(name, **generator):
    """A fresh session (a worker) with the example `name` loaded: (session, table id)."""
    session = bridge.Session()
    return session, call(session, "load_example", name=name, **generator)["table_id"]


def cells(request):
    count = 1
    for axis in request["grid"]:
        count *= len(axis["values"])
    return count


def pieces_in_workers(example, request, order):
    """Every cell's tune_piece reply, each from a worker of its own, scored in `order`."""
    pieces = []
    for index in order:
        worker, table_id = loaded(*example[:1], **(example[1] if len(example) > 1 else {}))
        pieces.append(call(worker, "tune_piece", table_id=table_id, index=index, **request))
    return pieces


def merged(request, pieces):
    keys = ("model", "grid", "params", "metric")
    return reply(bridge.Session(), "tune_merge", pieces=pieces, **{key: request.get(key) for key in keys})


CASES = {
    "classification, one hyperparameter": (("iris",), {
        "target": "species", "features": None, "model": "DecisionTreeClassifier", "metric": "f1_macro",
        "grid": [{"name": "max_depth", "values": [1, 2, 3, None]}],
        "evaluation": {"method": "kfold", "k": 4, "seed": 3}}),
    "classification, two hyperparameters, a held-out split": (("wine",), {
        "target": "class", "features": None, "model": "KNeighborsClassifier", "metric": None,
        "params": {"standardize": True},
        "grid": [{"name": "n_neighbors", "values": [1, 5, 15]}, {"name": "weights", "values": ["uniform", "distance"]}],
        "evaluation": {"method": "split", "train": 60, "validation": 20, "test": 20, "seed": 7, "k": 3}}),
    "regression, one hyperparameter": (("line", {"n": 200}), {
        "target": "y", "features": None, "model": "KNeighborsRegressor", "metric": None,
        "grid": [{"name": "n_neighbors", "values": [1, 3, 9]}],
        "evaluation": {"method": "kfold", "k": 5, "seed": 1}}),
    "regression, two hyperparameters": (("line", {"n": 150}), {
        "target": "y", "features": None, "model": "DecisionTreeRegressor", "metric": "mean_absolute_error",
        "grid": [{"name": "max_depth", "values": [1, 2, 4]}, {"name": "min_samples_leaf", "values": [1, 10]}],
        "evaluation": {"method": "kfold", "k": 3, "seed": 0}}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_pieces_merged_in_any_order_tune_exactly_as_one_worker(case):
    example, request = CASES[case]
    session, table_id = loaded(*example[:1], **(example[1] if len(example) > 1 else {}))
    whole = call(session, "tune", table_id=table_id, **request)
    order = list(range(cells(request)))
    random.Random(case).shuffle(order)
    answer = merged(request, pieces_in_workers(example, request, order))
    assert answer["ok"], answer
    assert answer["result"] == whole
    assert len(whole["cells"]) == cells(request) > 1


def test_a_held_out_split_leaves_its_test_rows_out_of_the_merged_tuning_too():
    example, request = CASES["classification, two hyperparameters, a held-out split"]
    answer = merged(request, pieces_in_workers(example, request, range(cells(request))))["result"]
    assert answer["test_rows_left_out"] > 0
    assert answer["n_rows"] + answer["test_rows_left_out"] == 178  # wine's rows


FAILING = (("iris",), {"target": "species", "features": None, "model": "KNeighborsClassifier", "metric": None,
                       "grid": [{"name": "n_neighbors", "values": [3, 120, 5, 130]}],
                       "evaluation": {"method": "kfold", "k": 3, "seed": 0}})


def test_a_failing_cell_fails_the_merge_as_it_fails_tune():
    example, request = FAILING
    session, table_id = loaded("iris")
    whole = reply(session, "tune", table_id=table_id, **request)
    assert not whole["ok"]
    pieces = pieces_in_workers(example, request, [3, 2, 1, 0])
    assert [("failure" in piece) for piece in pieces] == [True, False, True, False]
    answer = merged(request, pieces)
    assert answer == whole  # the first failing cell in grid order (n_neighbors = 120), named as tune names it
    assert answer["error"]["field"] == "grid.n_neighbors" and "n_neighbors = 120" in answer["error"]["message"]


def test_pieces_missing_or_twice_are_refused_naming_the_grid():
    example, request = CASES["regression, one hyperparameter"]
    pieces = pieces_in_workers(example, request, [0, 1, 2])
    for wrong in (pieces[:2], pieces + pieces[1:2], [pieces[0], pieces[1], pieces[1]]):
        answer = merged(request, wrong)
        assert not answer["ok"] and answer["error"]["field"] == "grid"
        assert "one for every cell" in answer["error"]["message"]


def test_a_cell_outside_the_grid_is_refused():
    session, table_id = loaded("iris")
    example, request = CASES["classification, one hyperparameter"]
    answer = reply(session, "tune_piece", table_id=table_id, index=4, **request)
    assert not answer["ok"] and answer["error"]["field"] == "grid"
    assert "0 to 3" in answer["error"]["message"]


def test_a_score_that_is_not_a_number_crosses_as_the_very_float():
    from pellucid.workbench import tuning_pieces

    nan = float("nan")
    cell = {"params": {"n_neighbors": 1}, "validation_scores": [0.5, nan], "validation_mean": nan,
            "validation_std": nan, "train_mean": 1.0, "train_std": float("-inf")}
    crossed = json.loads(json.dumps(tuning_pieces.sent({"index": 0, "cell": cell, "warnings": []})))
    assert crossed["cell"]["validation_mean"] == "nan"  # not null, as a reply would make it
    back = tuning_pieces.received([crossed])[0]["cell"]
    assert back["validation_scores"][0] == 0.5 and back["validation_scores"][1] != back["validation_scores"][1]
    assert back["validation_mean"] != back["validation_mean"] and back["train_std"] == float("-inf")
    assert back["train_mean"] == 1.0
