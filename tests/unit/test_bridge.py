"""The bridge, as the page's worker calls it: commands in, plain JSON-able replies out, errors as data."""

import json
import sys

import numpy as np
import pytest

from pellucid import bridge
from pellucid.core import serialize
from pellucid.core.jsonable import plain, tagged, untag
from pellucid.tabular.datasets import load_restaurant

session = bridge.Session()


def call(cmd, **args):
    reply = session.handle(cmd, args)
    json.dumps(reply, allow_nan=False)  # everything that crosses to JavaScript is plain JSON
    return reply


def ok(cmd, **args):
    reply = call(cmd, **args)
    assert reply["ok"], reply
    return reply["result"]


@pytest.fixture
def restaurant_path(tmp_path):
    path = tmp_path / "restaurant.csv"
    path.write_text(load_restaurant().csv_text)
    return str(path)


def test_load_csv_describes_the_table(restaurant_path):
    data = ok("load_csv", path=restaurant_path, name="restaurant.csv")
    assert data["n_rows"] == 12
    assert data["columns"][-1] == "WillWait"
    assert data["kinds"]["Pat"] == "categorical"
    assert len(data["preview"]) == 10 and len(data["preview"][0]) == 11


def test_train_grows_the_restaurant_tree(restaurant_path):
    table_id = ok("load_csv", path=restaurant_path)["table_id"]
    result = ok("train", table_id=table_id, target="WillWait", features=None, model="DecisionTreeClassifier",
                params={"criterion": "entropy", "max_depth": None}, evaluation={"method": "none"})
    assert result["metrics"]["train"]["accuracy"] == 1.0
    assert "WillWait" not in result["features"]
    root = result["model"]["tree"]
    assert root["feature"] == "Pat"
    assert round(root["gain"], 3) == 0.541


def test_example_loads_like_an_upload():
    data = ok("load_example", name="restaurant")
    assert data["n_rows"] == 12


def test_models_menu_describes_controls():
    menu = ok("models")
    tree = next(m for m in menu if m["name"] == "DecisionTreeClassifier")
    criterion = next(p for p in tree["params"] if p["name"] == "criterion")
    assert criterion["kind"] == "choice" and set(criterion["options"]) >= {"entropy", "gini"}
    assert criterion["default"] == "entropy"


def test_the_form_offers_one_standardize_switch_the_preprocessing_step():
    """k-NN, the linear models and the perceptron can standardize inside themselves (their Python API);
    the page standardizes in its preprocessing step instead, so their forms show no second switch."""
    menu = ok("models")
    knn = next(m for m in menu if m["name"] == "KNeighborsClassifier")
    assert {p["name"] for p in knn["params"]} >= {"n_neighbors", "metric", "weights"}
    for model in menu:
        assert not {p["name"] for p in model["params"]} & {"standardize", "trace"}, model["name"]


@pytest.mark.parametrize("cmd, args, fragment", [
    ("load_csv", {"path": None}, ""),
    ("train", {"table_id": "t999", "target": "y", "features": None, "model": "DecisionTreeClassifier"},
     "No data set is loaded"),
    ("fit", {"table_id": "t999", "target": "y", "features": None, "model": "DecisionTreeClassifier"},
     "Unknown command 'fit'"),
    ("nonsense", {}, "Unknown command"),
])
def test_errors_come_back_as_data(cmd, args, fragment):
    reply = call(cmd, **args)
    assert reply["ok"] is False
    assert fragment in reply["error"]["message"]


def test_bad_csv_names_the_line(tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("a,b,c\n1,2,3\n4,5\n")
    reply = call("load_csv", path=str(path))
    assert reply["ok"] is False and reply["error"]["type"] == "DataError"
    assert "line 3" in reply["error"]["message"].lower()


def test_bad_parameter_is_a_data_error(restaurant_path):
    table_id = ok("load_csv", path=restaurant_path)["table_id"]
    reply = call("train", table_id=table_id, target="WillWait", features=None, model="DecisionTreeClassifier",
                 params={"max_depth": 0})
    assert reply["ok"] is False and reply["error"]["type"] == "DataError"
    assert "max_depth" in reply["error"]["message"]


def test_unknown_target_is_named(restaurant_path):
    table_id = ok("load_csv", path=restaurant_path)["table_id"]
    reply = call("train", table_id=table_id, target="Nope", features=None, model="DecisionTreeClassifier")
    assert reply["ok"] is False and "'Nope'" in reply["error"]["message"]


def test_handle_json_speaks_strict_json(restaurant_path):
    reply = json.loads(session.handle_json("load_csv", json.dumps({"path": restaurant_path})))
    assert reply["ok"] and reply["result"]["n_rows"] == 12
    broken = json.loads(session.handle_json("load_csv", json.dumps({"path": None})))
    assert broken["ok"] is False


# --- the data commands --------------------------------------------------------------------------------

def test_datasets_lists_examples_and_generators():
    menu = ok("datasets")
    names = [d["name"] for d in menu]
    assert names[:5] == ["iris", "restaurant", "play_tennis", "wine", "breast_cancer"]
    assert {"blobs", "moons", "circles", "xor", "spiral", "line"} <= set(names)
    for entry in menu:
        assert set(entry) == {"name", "label", "group", "description", "target", "generator_params"}
        assert entry["group"] in ("Examples", "Generators")
        assert (entry["generator_params"] == []) == (entry["group"] == "Examples")
    moons = next(d for d in menu if d["name"] == "moons")
    assert [p["name"] for p in moons["generator_params"]] == ["n", "noise", "seed"]
    assert set(moons["generator_params"][0]) == {"name", "label", "default", "low", "high", "step"}


def test_examples_suggest_their_target():
    data = ok("load_example", name="breast_cancer")
    assert data["n_rows"] == 569 and data["suggested_target"] == "diagnosis"
    assert data["name"] == "breast_cancer.csv"


def test_generators_load_like_examples():
    data = ok("load_example", name="spiral", n=90, noise=0.1, seed=3, arms=3)
    assert data["n_rows"] == 90 and data["columns"] == ["x1", "x2", "class"]
    assert data["suggested_target"] == "class"
    again = ok("load_example", name="spiral", n=90, noise=0.1, seed=3, arms=3)
    assert again["preview"] == data["preview"] and again["table_id"] != data["table_id"]
    reply = call("load_example", name="moons", n=6000)
    assert reply["ok"] is False and "n must be" in reply["error"]["message"]
    reply = call("load_example", name="penguins")
    assert reply["ok"] is False and "Unknown example 'penguins'" in reply["error"]["message"]


def test_csv_suggests_its_last_column(restaurant_path):
    assert ok("load_csv", path=restaurant_path, name="r.csv")["suggested_target"] == "WillWait"


def test_load_csv_refuses_files_over_max_bytes(restaurant_path):
    reply = call("load_csv", path=restaurant_path, name="r.csv", max_bytes=100)
    assert reply["ok"] is False and reply["error"]["type"] == "DataError"
    assert "100" in reply["error"]["message"] or "limit" in reply["error"]["message"].lower()


def test_load_csv_reports_progress_to_the_host(restaurant_path, monkeypatch):
    from pellucid.host import progress
    seen = []
    monkeypatch.setattr(progress, "_host_progress", lambda fraction, label: seen.append((fraction, label)))
    ok("load_csv", path=restaurant_path, name="r.csv")
    assert seen and seen[-1][0] == 1.0 and "r.csv" in seen[-1][1]
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions)


def test_load_csv_reads_the_first_row_as_the_user_says(tmp_path):
    path = tmp_path / "numbers.csv"
    path.write_text("5.1,3.5,setosa\n4.9,3.0,setosa\n6.3,2.9,virginica\n")
    detected = ok("load_csv", path=str(path))
    assert detected["n_rows"] == 3 and detected["read_info"]["header"] is False
    assert detected["read_info"]["header_detected"] is True
    named = ok("load_csv", path=str(path), header=True)
    assert named["n_rows"] == 2 and named["columns"] == ["5.1", "3.5", "setosa"]
    assert named["read_info"]["header"] is True and named["read_info"]["header_detected"] is False
    model_id = ok("train", table_id=named["table_id"], target="setosa", features=None, model="GaussianNB",
                  evaluation={"method": "none"})["model_id"]
    assert "read_csv('data.csv', header=True)" in ok("export_python", model_id=model_id)["script"]
    assert "header=0" in ok("export_sklearn", model_id=model_id)["script"]
    assert "header must be true, false or null" in call("load_csv", path=str(path), header="yes")["error"]["message"]


def test_load_csv_tells_what_the_reader_renamed(tmp_path):
    path = tmp_path / "twice.csv"
    path.write_text("id,score,score\n1,2,3\n4,5,6\n")
    info = ok("load_csv", path=str(path))["read_info"]
    assert info["renamed"] and info["renamed"][0][0] == "score"
    assert any("score" in note for note in info["notes"])
    assert ok("load_example", name="restaurant")["read_info"] is None  # a built-in set has no reading to tell


def test_set_kind_keeps_the_id(restaurant_path, tmp_path):
    path = tmp_path / "codes.csv"
    path.write_text("code,y\n1,a\n2,b\n3,a\n")
    table_id = ok("load_csv", path=str(path))["table_id"]
    data = ok("set_kind", table_id=table_id, column="code", kind="categorical")
    assert data["table_id"] == table_id and data["kinds"]["code"] == "categorical"
    assert data["preview"][0][0] == "1"
    reply = call("set_kind", table_id=table_id, column="y", kind="numeric")
    assert reply["ok"] is False and "'y' cannot be read as numeric" in reply["error"]["message"]


def test_handle_missing_drops_or_fills(tmp_path):
    path = tmp_path / "gaps.csv"
    path.write_text("a,b,c\n1,,x\n2,4,\n,6,z\n8,8,z\n")
    loaded = ok("load_csv", path=str(path))
    table_id = loaded["table_id"]
    assert loaded["missing"] == {"a": 1, "b": 1, "c": 1}
    dropped = ok("handle_missing", table_id=table_id, strategy="drop", columns=["a"])
    assert dropped["table_id"] == table_id and dropped["n_rows"] == 3 and dropped["missing"]["a"] == 0
    filled = ok("handle_missing", table_id=table_id, strategy="fill", columns=None)
    assert filled["missing"] == {"a": 0, "b": 0, "c": 0}
    assert filled["preview"][0][1] == 6.0 and filled["preview"][1][2] == "x"  # mean of 4, 8; x, z tie: the first
    reply = call("handle_missing", table_id=table_id, strategy="guess", columns=None)
    assert reply["ok"] is False and "'drop' or 'fill'" in reply["error"]["message"]


@pytest.mark.parametrize("cmd, args", [
    ("set_kind", {"table_id": "t0", "column": "a", "kind": "numeric"}),
    ("handle_missing", {"table_id": "t0", "strategy": "drop"}),
    ("train", {"table_id": "t0", "target": None, "features": None, "model": "KMeans"}),
    ("boundary", {"model_id": "m0", "x": "a", "y": "b"}),
    ("export_predictions", {"model_id": "m0"}),
    ("export_model", {"model_id": "m0"}),
    ("export_python", {"model_id": "m0"}),
])
def test_unknown_ids_are_data_errors(cmd, args):
    reply = call(cmd, **args)
    assert reply["ok"] is False and reply["error"]["type"] == "DataError"
    assert "'t0'" in reply["error"]["message"] or "'m0'" in reply["error"]["message"]


def test_every_model_trains_and_draws_through_the_bridge():
    """Each menu model: train with a split, then its boundary (or PCA view), as plain strict JSON."""
    blobs = ok("load_example", name="blobs", n=150, noise=0.3, seed=0)["table_id"]
    evaluation = {"method": "split", "train": 60, "validation": 20, "test": 20, "seed": 0}
    for entry in ok("models"):
        task = entry["task"]
        if entry["name"] in ("MultinomialNB", "BernoulliNB", "CategoricalNB"):
            continue  # count / binary / categorical features: not for x1, x2 drawn from Gaussians
        # regressors learn x2 from x1 and the class; the others use x1, x2 (and the class as target)
        target, features = ("x2", ["x1", "class"]) if task == "regression" else ("class", ["x1", "x2"])
        result = ok("train", table_id=blobs, target=target, features=features, model=entry["name"],
                    params={}, evaluation=evaluation)
        assert result["task"] == task and set(result["metrics"]) == {"train", "validation", "test"}
        if task in ("classification", "clustering"):
            b = ok("boundary", model_id=result["model_id"], x="x1", y="x2", resolution=20)
            assert len(b["predicted"]) == 400
        if task == "regression":
            assert len(result["fit_curve"]["predicted"]) == 200
        export = ok("export_predictions", model_id=result["model_id"])
        assert export["csv"].count("\n") == 151


def test_wrong_arguments_are_named():
    reply = call("boundary", model="m1")
    assert reply["ok"] is False and reply["error"]["type"] == "DataError"
    assert "'boundary'" in reply["error"]["message"] and "model" in reply["error"]["message"]


def test_one_data_set_at_a_time(restaurant_path):
    """Loading new data forgets the previous table and its models, so memory does not pile up."""
    first = ok("load_csv", path=restaurant_path)["table_id"]
    model_id = ok("train", table_id=first, target="WillWait", features=None, model="DecisionTreeClassifier")["model_id"]
    ok("load_example", name="iris")
    reply = call("set_kind", table_id=first, column="Pat", kind="categorical")
    assert "No data set is loaded" in reply["error"]["message"]
    assert call("export_model", model_id=model_id)["ok"] is False


# --- sessions ------------------------------------------------------------------------------------------------

def test_each_session_keeps_its_own_data(restaurant_path):
    """A restarted worker starts a fresh session: what one session keeps, another does not see."""
    first, second = bridge.Session(), bridge.Session()
    table_id = first.handle("load_csv", {"path": restaurant_path})["result"]["table_id"]
    assert second.handle("set_kind", {"table_id": table_id, "column": "Pat", "kind": "categorical"})["ok"] is False
    assert first.handle("set_kind", {"table_id": table_id, "column": "Pat", "kind": "categorical"})["ok"]
    assert set(first.tables) == {table_id} and not second.tables


def test_the_worker_session_answers_the_module_level_calls():
    table_id = bridge.handle("load_example", {"name": "restaurant"})["result"]["table_id"]
    assert set(bridge.worker_session.tables) == {table_id}
    reply = json.loads(bridge.handle_json("set_kind", json.dumps({"table_id": table_id, "column": "Pat",
                                                                  "kind": "categorical"})))
    assert reply["ok"] and reply["result"]["table_id"] == table_id


# --- error codes: what the page switches on --------------------------------------------------------------

def test_bad_input_has_code_data_error():
    reply = call("load_example", name="penguins")
    assert reply["error"]["code"] == "data_error" and reply["error"]["type"] == "DataError"
    assert "traceback" not in reply["error"]


def test_scikit_learn_not_loaded_has_code_not_loaded(monkeypatch):
    model_id = ok("train", table_id=ok("load_example", name="iris")["table_id"], target="species", features=None,
                  model="GaussianNB", evaluation={"method": "none"})["model_id"]
    monkeypatch.setitem(sys.modules, "sklearn", None)  # import sklearn now raises ImportError
    reply = call("check_twin", model_id=model_id)
    assert reply["ok"] is False and reply["error"]["code"] == "not_loaded"
    assert "scikit-learn is not loaded" in reply["error"]["message"]


def test_a_bug_has_code_internal_with_its_traceback(monkeypatch):
    def broken():
        raise ZeroDivisionError("a bug")
    monkeypatch.setitem(bridge.STATELESS, "datasets", broken)
    reply = call("datasets")
    assert reply["ok"] is False and reply["error"]["code"] == "internal"
    assert reply["error"]["type"] == "ZeroDivisionError" and "broken" in reply["error"]["traceback"]


# --- one rule for NaN and infinity ----------------------------------------------------------------------------

def test_replies_carry_non_finite_numbers_as_null_and_fitted_state_keeps_them():
    value = {"a": np.array([1.5, np.nan, np.inf]), "b": (np.float32(-np.inf), np.int64(3)), 2: [np.bool_(True)]}
    assert plain(value) == {"a": [1.5, None, None], "b": [None, 3], "2": [True]}
    assert tagged(value) == {"a": [1.5, "nan", "inf"], "b": ["-inf", 3], "2": [True]}
    assert [untag(t) for t in tagged([np.inf, -np.inf])] == [np.inf, -np.inf] and np.isnan(untag("nan"))
    state = np.array([[0.0, -np.inf], [np.nan, 2.0]])
    again = serialize.decode(json.loads(json.dumps(serialize.encode(state), allow_nan=False)))
    np.testing.assert_array_equal(again, state)


def test_memory_is_a_command_with_no_heap_natively():
    # In the page the bridge reads Pyodide's WebAssembly heap (benchmarks/workflows.py --soak); natively there is none.
    assert ok("memory") == {"heap_bytes": None}


def test_import_sklearn_answers_whether_the_twin_check_can_run():
    try:
        import sklearn  # noqa: F401
        present = True
    except ImportError:
        present = False
    assert bridge.import_sklearn() is present
