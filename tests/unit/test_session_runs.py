"""The session keeps a bounded number of fitted runs: the newest ones, a run shown again counting as new,
at most KEPT_RUNS and, before the newest, no more bytes than the loaded table (or a floor); runs waiting in
the history let go of what they can rebuild. An evicted id gets a DataError that says so, and `show_run`
gives back what `train` replied."""


import numpy as np
import pytest

from bridgekit import ok_in as ok, reply_in as reply
from pellucid import bridge
from pellucid.workbench import runs as runs_module

IRIS_FEATURES = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"]
HOLD_OUT = {"method": "split", "train": 70, "validation": 0, "test": 30, "stratify": True, "seed": 0}


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


# --- the bytes budget -----------------------------------------------------------------------------------

BLOB_FEATURES = ["x1", "x2"]


def train_on_blobs(session, table_id, model, **params):
    return ok(session, "train", table_id=table_id, target="class", features=BLOB_FEATURES, model=model,
              params=params, evaluation=HOLD_OUT)


def waiting_bytes(session):
    """Bytes of the kept runs before the newest, beside the loaded table."""
    tables = list(session.tables.values())
    return sum(session.runs[i].footprint(shared=tables) for i in list(session.runs)[:-1])


def test_older_runs_are_kept_within_a_budget_of_bytes_newest_first(session, monkeypatch):
    blobs = ok(session, "load_example", name="blobs", n=3000)["table_id"]
    first = train_on_blobs(session, blobs, "DecisionTreeClassifier", max_depth=1)["model_id"]
    one_run = session.runs[first].footprint(shared=session.tables.values())
    monkeypatch.setattr(runs_module, "MIN_RUNS_BUDGET", int(2.5 * one_run))  # room for two runs, not three
    budget = max(runs_module.MIN_RUNS_BUDGET, runs_module.held_bytes(list(session.tables.values())))
    assert budget < 3 * one_run, "the table alone would hold every run: the test needs a bigger run"
    ids = [first] + [train_on_blobs(session, blobs, "DecisionTreeClassifier", max_depth=d)["model_id"]
                     for d in range(2, 6)]
    kept = list(session.runs)
    assert kept == ids[-len(kept):], "the newest runs are kept, in order"
    assert len(kept) < bridge.Session.KEPT_RUNS, "the bytes, not the count, bounded them"
    assert 0 < waiting_bytes(session) <= budget
    let_go = ids[0]
    answer = reply(session, "show_run", model_id=let_go)
    assert answer["error"]["code"] == "data_error"
    assert f"Model {let_go!r} is no longer kept" in answer["error"]["message"]
    assert "train it again" in answer["error"]["message"]


def test_the_newest_run_is_kept_whole_however_large(session, monkeypatch):
    monkeypatch.setattr(runs_module, "MIN_RUNS_BUDGET", 0)  # the budget: the table's own bytes
    blobs = ok(session, "load_example", name="blobs", n=3000)["table_id"]
    for model in ("GaussianNB", "KNeighborsClassifier"):
        newest = train_on_blobs(session, blobs, model)["model_id"]
        assert list(session.runs)[-1] == newest
    run = session.runs[newest]
    assert run.probabilities is not None  # the export writes them without searching the neighbours again
    assert run.footprint(shared=session.tables.values()) > runs_module.held_bytes(list(session.tables.values()))


def test_a_kept_run_shown_again_after_others_gives_its_reply_and_export(session, iris):
    """A k-NN run waiting in the history has let go of its probabilities; showing it and exporting its
    predictions gives what it gave as the newest run."""
    knn = ok(session, "train", table_id=iris, target="species", features=IRIS_FEATURES,
             model="KNeighborsClassifier", params={"n_neighbors": 7}, evaluation=HOLD_OUT)
    exported = ok(session, "export_predictions", model_id=knn["model_id"])
    train_tree(session, iris, 2)
    waiting = session.runs[knn["model_id"]]
    assert waiting.probabilities is None
    assert ok(session, "show_run", model_id=knn["model_id"]) == knn
    assert ok(session, "export_predictions", model_id=knn["model_id"]) == exported


def test_a_model_imported_to_apply_keeps_the_run_on_screen_however_large(session, monkeypatch):
    """Apply to new data imports a model without showing it: the k-NN run on screen, larger than the
    budget, stays kept (its boundary still draws); the page's own import, which is shown, may let it go."""
    monkeypatch.setattr(runs_module, "MIN_RUNS_BUDGET", 0)  # the budget: the table's own bytes
    blobs = ok(session, "load_example", name="blobs", n=3000)["table_id"]
    shown = train_on_blobs(session, blobs, "KNeighborsClassifier")["model_id"]
    saved = ok(session, "export_model", model_id=shown)["json"]
    for _ in range(2):
        applied = ok(session, "import_model", json=saved, shown=False)["model_id"]
        assert shown in session.runs and applied in session.runs
        assert ok(session, "boundary", model_id=shown, x="x1", y="x2")
    ok(session, "import_model", json=saved)  # shown in its place: the trained run may now wait or go
    assert shown not in session.runs


def test_held_bytes_counts_each_buffer_once():
    rows = np.zeros((1000, 4))
    holder = {"rows": rows, "view": rows[::2], "again": [rows, (rows.T,)], "labels": np.array(["a"] * 10)}
    assert runs_module.held_bytes(holder) == rows.nbytes + holder["labels"].nbytes
    # a shared array is not the holder's, nor are views into it (a run's view of the loaded table's column)
    assert runs_module.held_bytes(holder, skip={id(rows)}) == holder["labels"].nbytes
    assert runs_module.held_bytes({"only": [1, 2, 3]}) > 0
