"""Growing the notes' tree by hand (pellucid.workbench.grow_yourself, bridge `grow_yourself`): the restaurant
root's gains are the notes' (Gain(Pat) = 0.541, Gain(Type) = 0), ID3's attribute at every node grows exactly
DecisionTreeClassifier(criterion="entropy")'s tree with its held-out accuracy, another choice grows another
tree whose accuracy is recounted here by walking the table's values, and bad choices are DataErrors."""

import pytest

from pellucid import bridge
from pellucid.core.errors import DataError
from pellucid.workbench import grow_yourself as grow

session = bridge.Session()
SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 3}


def trained(example, target, evaluation=None, model="DecisionTreeClassifier", params=None, **load):
    table = session.handle("load_example", {"name": example, **load})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": target, "features": None,
                                    "model": model, "params": params or {}, "evaluation": evaluation})
    assert reply["ok"], reply
    return reply["result"]["model_id"]


def grown(model_id, choices=None):
    reply = session.handle("grow_yourself", {"model_id": model_id, "choices": choices or {}})
    assert reply["ok"], reply
    return reply["result"]


def node(reply, path):
    return next(n for n in reply["nodes"] if n["path"] == path)


def grow_as(model_id, pick):
    """Choices made node after node, as the page makes them: pick(node record) at each open node."""
    choices = {}
    while True:
        reply = grown(model_id, choices)
        if reply["done"]:
            return reply, choices
        choices[reply["current"]] = pick(node(reply, reply["current"]))


def shape(tree):
    """A nested tree (the reply's, or a model's to_dict) as its tests and leaf predictions only."""
    if "branches" not in tree:
        return tree["prediction"]
    return (tree["feature"], {value: shape(child) for value, child in tree["branches"].items()})


def test_the_restaurant_root_shows_the_notes_gains_and_waits_for_a_choice():
    model_id = trained("restaurant", "WillWait")
    reply = grown(model_id)
    root = node(reply, "root")
    gains = {c["attribute"]: c["gain"] for c in root["candidates"]}
    assert round(gains["Pat"], 3) == 0.541 and gains["Type"] == pytest.approx(0, abs=1e-12)
    assert root["id3"] == "Pat" and root["kind"] == "open" and root["chosen"] is None
    assert root["counts"] == {"No": 6, "Yes": 6} and root["entropy"] == pytest.approx(1.0)
    pat = next(c for c in root["candidates"] if c["attribute"] == "Pat")
    assert pat["branches"] == {"Full": {"No": 4, "Yes": 2}, "None": {"No": 2, "Yes": 0}, "Some": {"No": 0, "Yes": 4}}
    assert reply["current"] == "root" and reply["open"] == ["root"] and not reply["done"]
    assert reply["tree"]["prediction"] == "?" and reply["tree"]["open"]
    assert "comparison" not in reply


def test_choosing_type_at_the_root_is_marked_as_not_id3s_and_opens_its_branches():
    model_id = trained("restaurant", "WillWait")
    reply = grown(model_id, [{"node": "root", "attribute": "Type"}])
    root = node(reply, "root")
    assert root["kind"] == "split" and root["chosen"] == "Type" and not root["matches_id3"]
    assert root["gain"] == pytest.approx(0, abs=1e-12)
    assert reply["open"] == [f"root/Type={t}" for t in ("Burger", "French", "Italian", "Thai")]
    assert reply["current"] == "root/Type=Burger"
    assert set(reply["tree"]["branches"]) == {"Burger", "French", "Italian", "Thai"}


@pytest.mark.parametrize("example, target", [("restaurant", "WillWait"), ("play_tennis", "PlayTennis")])
@pytest.mark.parametrize("evaluation", [None, SPLIT])
def test_id3s_choice_everywhere_grows_the_tree_of_decision_tree_classifier(example, target, evaluation):
    model_id = trained(example, target, evaluation)
    reply, choices = grow_as(model_id, lambda n: n["id3"])
    run = session.runs[model_id]
    assert shape(reply["tree"]) == shape(run.estimator.to_dict()["tree"])  # the run's tree: entropy, multiway
    assert all(n["matches_id3"] for n in reply["nodes"] if n["kind"] == "split")
    comparison = reply["comparison"]
    assert comparison["same_tree"] and comparison["n_differ"] == 0 and comparison["differences"] == []
    assert comparison["student"] == comparison["id3"]
    assert shape(comparison["id3_tree"]) == shape(reply["tree"])
    rows = run.splits["test"] if evaluation else run.train_rows()
    assert comparison["rows"] == ("test" if evaluation else "training") and comparison["n"] == len(rows)
    assert (comparison["note"] is None) == bool(evaluation)
    predicted = run.estimator.predict(run.model_input(rows))
    actual = run.table.column(target)[rows]
    assert comparison["id3"]["correct"] == sum(str(p) == str(a) for p, a in zip(predicted, actual))
    assert comparison["id3"]["accuracy"] == pytest.approx(comparison["id3"]["correct"] / len(rows))


def walk(tree, row):
    """The prediction of a nested tree for one table row (a dict of its values), by its values' text."""
    while "branches" in tree:
        value = str(row[tree["feature"]])
        if value not in tree["branches"]:
            break
        tree = tree["branches"][value]
    return tree["prediction"]


def test_another_root_grows_another_tree_whose_accuracy_is_counted_right():
    model_id = trained("play_tennis", "PlayTennis", SPLIT)
    reply, choices = grow_as(model_id, lambda n: "Temperature" if n["path"] == "root" else n["id3"])
    assert choices["root"] == "Temperature" and reply["tree"]["feature"] == "Temperature"
    comparison = reply["comparison"]
    assert not comparison["same_tree"] and comparison["agreed"] == comparison["decided"] - 1
    run = session.runs[model_id]
    table = run.table
    rows = [{name: table.column(name)[i] for name in table.columns} for i in run.splits["test"]]
    mine = [walk(reply["tree"], row) for row in rows]
    theirs = [walk(comparison["id3_tree"], row) for row in rows]
    truth = [str(row["PlayTennis"]) for row in rows]
    assert comparison["student"]["correct"] == sum(m == t for m, t in zip(mine, truth))
    assert comparison["id3"]["correct"] == sum(m == t for m, t in zip(theirs, truth))
    differ = [i for i, (m, t) in enumerate(zip(mine, theirs)) if m != t]
    assert comparison["n_differ"] == len(differ)
    assert [d["row"] for d in comparison["differences"]] == [int(run.splits["test"][i]) + 1 for i in differ]


def test_leaves_follow_the_notes_stops():
    model_id = trained("restaurant", "WillWait")
    reply = grown(model_id, {"root": "Pat"})
    assert node(reply, "root/Pat=Some")["reason"] == "pure" and node(reply, "root/Pat=Some")["prediction"] == "Yes"
    assert node(reply, "root/Pat=None")["kind"] == "leaf" and reply["current"] == "root/Pat=Full"
    reply = grown(model_id, {"root": "Pat", "root/Pat=Full": "Hun", "root/Pat=Full/Hun=Yes": "Type"})
    french = node(reply, "root/Pat=Full/Hun=Yes/Type=French")  # no example: PLURALITY-VALUE of the parent's
    assert french["samples"] == 0 and french["reason"] == "empty branch: plurality of parent"
    assert node(reply, "root/Pat=Full/Hun=Yes")["counts"] == {"No": 2, "Yes": 2} and french["prediction"] == "No"
    assert reply["open"] == ["root/Pat=Full/Hun=Yes/Type=Thai"]


@pytest.mark.parametrize("choices, words", [
    ({"root": "Nope"}, "'Nope' is not one of the features"),
    ({"root": "Pat", "root/Pat=Full": "Pat"}, "'Pat' is already tested on the way to 'root/Pat=Full'"),
    ({"root": "Pat", "root/Pat=Some": "Hun"}, "'root/Pat=Some' is a leaf (pure)"),
    ({"root/Pat=Full": "Hun"}, "There is no node 'root/Pat=Full'"),
    ([{"node": "root", "attribute": "Pat"}, {"node": "root", "attribute": "Hun"}], "'root' is chosen twice"),
    ({"root": 3}, "as text"),
    ("Pat", "choices must be"),
])
def test_bad_choices_are_data_errors_naming_them(choices, words):
    model_id = trained("restaurant", "WillWait")
    reply = session.handle("grow_yourself", {"model_id": model_id, "choices": choices})
    assert not reply["ok"] and reply["error"]["code"] == "data_error"
    assert words in reply["error"]["message"]


def test_numeric_features_other_learners_and_large_tables_are_refused():
    run = session.runs[trained("iris", "species")]
    with pytest.raises(DataError, match="categorical features") as caught:
        grow.grow_yourself(run)
    assert caught.value.field.startswith("feature:")
    with pytest.raises(DataError, match="decision tree classifier") as caught:
        grow.grow_yourself(session.runs[trained("restaurant", "WillWait", model="CategoricalNB")])
    assert caught.value.field == "model"
    run = session.runs[trained("restaurant", "WillWait")]
    limit = grow.MAX_ROWS
    try:
        grow.MAX_ROWS = 11
        with pytest.raises(DataError, match="at most 11 rows; this one has 12"):
            grow.grow_yourself(run)
    finally:
        grow.MAX_ROWS = limit


def test_finish_lets_id3_choose_at_every_node_left_open():
    model_id = trained("restaurant", "WillWait", SPLIT)
    reply = grown(model_id, {"root": "Type"})
    finished = session.handle("grow_yourself", {"model_id": model_id, "choices": {"root": "Type"},
                                                "finish": True})["result"]
    by_hand, _ = grow_as(model_id, lambda n: "Type" if n["path"] == "root" else n["id3"])
    assert finished["done"] and shape(finished["tree"]) == shape(by_hand["tree"])
    assert [n["by"] for n in finished["nodes"] if n["kind"] == "split"][0] == "student"
    comparison = finished["comparison"]
    assert comparison["decided"] == 1 and comparison["agreed"] == 0
    assert comparison["by_id3"] == sum(n["kind"] == "split" for n in finished["nodes"]) - 1 > 0
    assert comparison["student"] == by_hand["comparison"]["student"]
    assert not reply["done"]
