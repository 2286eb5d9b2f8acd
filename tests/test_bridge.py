"""The bridge, as the page's worker calls it: commands in, plain JSON-able replies out, errors as data."""

import json

import pytest

from pellucid import bridge
from pellucid.datasets import load_restaurant


def call(cmd, **args):
    reply = bridge.handle(cmd, args)
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


def test_fit_trains_the_restaurant_tree(restaurant_path):
    table_id = ok("load_csv", path=restaurant_path)["table_id"]
    result = ok("fit", table_id=table_id, target="WillWait", features=None, model="DecisionTreeClassifier",
                params={"criterion": "entropy", "max_depth": None})
    assert result["train_score"] == 1.0
    assert result["score_name"] == "Accuracy"
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


@pytest.mark.parametrize("cmd, args, fragment", [
    ("load_csv", {"path": None}, ""),
    ("fit", {"table_id": "t999", "target": "y", "features": None, "model": "DecisionTreeClassifier"},
     "No data set is loaded"),
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
    reply = call("fit", table_id=table_id, target="WillWait", features=None, model="DecisionTreeClassifier",
                 params={"max_depth": 0})
    assert reply["ok"] is False and reply["error"]["type"] == "DataError"
    assert "max_depth" in reply["error"]["message"]


def test_unknown_target_is_named(restaurant_path):
    table_id = ok("load_csv", path=restaurant_path)["table_id"]
    reply = call("fit", table_id=table_id, target="Nope", features=None, model="DecisionTreeClassifier")
    assert reply["ok"] is False and "'Nope'" in reply["error"]["message"]


def test_handle_json_speaks_strict_json(restaurant_path):
    reply = json.loads(bridge.handle_json("load_csv", json.dumps({"path": restaurant_path})))
    assert reply["ok"] and reply["result"]["n_rows"] == 12
    broken = json.loads(bridge.handle_json("load_csv", json.dumps({"path": None})))
    assert broken["ok"] is False
