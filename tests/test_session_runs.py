"""The session keeps a bounded number of fitted runs: the newest ones, a run shown again counting as new;
an evicted id gets a DataError that says so, and `show_run` gives back what `train` replied."""

import json

import pytest

from pellucid import bridge

IRIS_FEATURES = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"]
HOLD_OUT = {"method": "split", "train": 70, "validation": 0, "test": 30, "stratify": True, "seed": 0}


def reply(session, cmd, **args):
    """The reply as the page receives it: through JSON, strictly."""
    return json.loads(session.handle_json(cmd, json.dumps(args)))


def ok(session, cmd, **args):
    answer = reply(session, cmd, **args)
    assert answer["ok"], answer
    return answer["result"]


@pytest.fixture
def session():
    return bridge.Session()


@pytest.fixture
def iris(session):
    return ok(session, "load_example", name="iris")["table_id"]


def train_tree(session, table_id, depth):
    return ok(session, "train", table_id=table_id, target="species", features=IRIS_FEATURES,
              model="DecisionTreeClassifier", params={"max_depth": depth}, evaluation=HOLD_OUT)


def test_only_the_most_recent_runs_are_kept(session, iris):
    bound = bridge.Session.KEPT_RUNS
    ids = [train_tree(session, iris, depth)["model_id"] for depth in range(1, bound + 4)]
    assert list(session.runs) == ids[-bound:]
    assert len(session.runs) == bound


def test_an_evicted_run_is_a_data_error_that_says_why(session, iris):
    first = train_tree(session, iris, 1)["model_id"]
    for depth in range(2, bridge.Session.KEPT_RUNS + 2):
        train_tree(session, iris, depth)
    for cmd in ("show_run", "boundary", "export_model"):
        answer = reply(session, cmd, model_id=first)
        assert answer["ok"] is False and answer["error"]["code"] == "data_error", answer
        assert f"Model {first!r} is no longer kept" in answer["error"]["message"]
        assert "train it again" in answer["error"]["message"]


def test_an_id_never_given_is_told_apart_from_an_evicted_one(session, iris):
    answer = reply(session, "show_run", model_id="m999")
    assert answer["error"]["code"] == "data_error"
    assert "No model is kept under id 'm999'" in answer["error"]["message"]


def test_show_run_gives_back_the_training_reply(session, iris):
    trained = train_tree(session, iris, 2)
    train_tree(session, iris, 3)  # another run in between changes nothing of the first
    assert ok(session, "show_run", model_id=trained["model_id"]) == trained


def test_a_run_shown_again_is_kept_as_the_newest(session, iris):
    first = train_tree(session, iris, 1)
    for depth in range(2, bridge.Session.KEPT_RUNS + 1):
        train_tree(session, iris, depth)
    ok(session, "show_run", model_id=first["model_id"])  # the shown one is now the most recent
    newest = train_tree(session, iris, 6)
    assert first["model_id"] in session.runs
    assert ok(session, "show_run", model_id=first["model_id"])["metrics"] == first["metrics"]
    assert list(session.runs)[-1] == first["model_id"] and newest["model_id"] in session.runs


def test_imported_models_count_towards_the_bound(session, iris):
    exported = ok(session, "export_model", model_id=train_tree(session, iris, 2)["model_id"])
    imported = [ok(session, "import_model", json=exported["json"])["model_id"]
                for _ in range(bridge.Session.KEPT_RUNS)]
    assert list(session.runs) == imported


def test_other_data_lets_go_of_every_run(session, iris):
    kept = train_tree(session, iris, 2)["model_id"]
    ok(session, "load_example", name="wine")
    assert session.runs == {}
    assert "No model is kept" in reply(session, "show_run", model_id=kept)["error"]["message"]
