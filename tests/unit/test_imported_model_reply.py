"""An imported model's reply tells what its file holds, not what the page is set to: the preprocessing the
file carries (the values it fills in, its means and scales, its categories), the learner, target, features
and training rows; the commands that need the training rows, each of which does fail; and a score only on
a loaded table that has the model's columns and target, named as such, never one over no rows."""

import json

import numpy as np
import pytest

from bridgekit import session_with_csv
from pellucid import bridge

FEATURES = ["size", "colour", "weight"]


def rows(n=40):
    """size has missing cells (filled), colour is categorical (one-hot), label depends on both."""
    lines = ["size,colour,weight,label"]
    for i in range(n):
        size = "" if i % 7 == 3 else f"{(i * 13) % 17 + 0.5}"
        colour = ("red", "green", "blue")[i % 3]
        label = "big" if ((i * 13) % 17 > 8) != (colour == "blue") else "small"
        lines.append(f"{size},{colour},{(i * 5) % 9 + 1.25},{label}")
    return "\n".join(lines) + "\n"


def ok(session, cmd, **args):
    reply = json.loads(session.handle_json(cmd, json.dumps(args)))
    assert reply["ok"], reply
    return reply["result"]


@pytest.fixture()
def trained(tmp_path):
    """(session with the table, its training reply, the exported model's text): logistic regression with
    standardizing, mean filling and one-hot encoding, on a 70/30 split."""
    session = session_with_csv(tmp_path, rows(), "shapes.csv")
    result = ok(session, "train", table_id=session.table_id, target="label", features=FEATURES,
                model="LogisticRegression", preprocessing={"standardize": True, "impute": "mean"},
                evaluation={"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 3})
    assert [step["step"] for step in result["preprocessing"]] == ["impute", "standardize", "one_hot"]
    text = ok(session, "export_model", model_id=result["model_id"])["json"]
    return session, result, text


def test_the_file_preprocessing_is_shown_not_the_page_settings(trained):
    _, result, text = trained
    imported = ok(bridge.Session(), "import_model", json=text)
    shown = {step["step"]: step for step in imported["preprocessing"]}
    fitted = {step["step"]: step for step in result["preprocessing"]}
    assert list(shown) == ["impute", "standardize", "one_hot"]
    # The file fills every column it reads (Apply may meet gaps anywhere); training showed those with gaps.
    assert set(shown["impute"]["values"]) == set(FEATURES)
    assert shown["impute"]["values"]["size"] == pytest.approx(fitted["impute"]["values"]["size"])
    session = trained[0]
    colours = session.tables[session.table_id].column("colour")[np.asarray(result["splits"]["train"]) - 1]
    names, counts = np.unique(colours.astype(str), return_counts=True)
    assert shown["impute"]["values"]["colour"] in names[counts == counts.max()]  # the training rows' most frequent
    assert shown["impute"]["strategy"] == "mean" and shown["impute"]["missing"] is None
    assert shown["standardize"]["columns"] == fitted["standardize"]["columns"]
    assert shown["standardize"]["mean"] == pytest.approx(fitted["standardize"]["mean"])
    assert shown["standardize"]["scale"] == pytest.approx(fitted["standardize"]["scale"])
    assert shown["one_hot"]["columns"] == ["colour"]
    assert sorted(shown["one_hot"]["categories"][0]) == ["blue", "green", "red"]
    assert imported["preprocessing_choices"] == {"standardize": True, "impute": "mean"}


def test_without_a_table_it_says_what_the_file_is_and_scores_nothing(trained):
    _, result, text = trained
    imported = ok(bridge.Session(), "import_model", json=text)
    summary = dict(imported["summary"])
    n_train = len(result["splits"]["train"])
    assert n_train == 28
    assert summary["Learner"] == result["label"] and summary["Target"] == "label"
    assert summary["Features"] == "3: size, colour, weight"
    assert summary["Trained on"] == "28 rows" and imported["trained_rows"] == 28
    assert "metrics" not in imported and "No table is loaded" in imported["not_scored"]
    assert imported["views"] == ["metrics"] and imported["imported"] is True


def test_on_the_loaded_table_it_is_scored_on_every_row_and_named_so(trained):
    session, result, text = trained
    imported = ok(session, "import_model", json=text, table_id=session.table_id)
    assert imported["scored_on"] == {"table": "shapes.csv", "rows": 40, "of": 40}
    run = session.runs[result["model_id"]]
    expected = np.mean(run.predicted == run.table.column("label"))  # the trained model on every row
    loaded = imported["metrics"]["loaded"]
    assert loaded["accuracy"] == pytest.approx(expected)
    assert sum(map(sum, loaded["confusion"]["matrix"])) == 40
    assert "not_scored" not in imported


def test_a_table_without_the_model_columns_or_target_is_not_scored(trained, tmp_path):
    _, _, text = trained
    other = session_with_csv(tmp_path, "size,colour,label\n1,red,big\n2,blue,small\n", "short.csv")
    imported = ok(other, "import_model", json=text, table_id=other.table_id)
    assert "metrics" not in imported and "'weight'" in imported["not_scored"]
    assert "short.csv" in imported["not_scored"]
    untargeted = session_with_csv(tmp_path, "size,colour,weight\n1,red,2\n", "no_label.csv")
    imported = ok(untargeted, "import_model", json=text, table_id=untargeted.table_id)
    assert "no column 'label'" in imported["not_scored"]


def test_each_command_said_to_need_the_training_rows_fails_for_it(trained):
    _, _, text = trained
    session = bridge.Session()
    imported = ok(session, "import_model", json=text)
    assert set(imported["unavailable"]) == {"export_predictions", "export_python", "export_sklearn", "check_twin",
                                            "timeline"}
    for cmd in imported["unavailable"]:
        reply = session.handle(cmd, {"model_id": imported["model_id"]})
        assert reply["ok"] is False, cmd
        assert reply["error"]["code"] in ("data_error", "not_loaded"), reply
    assert ok(session, "export_model", model_id=imported["model_id"])["json"]  # what it can do still works


def test_a_tree_shows_its_tree_and_a_clustering_has_nothing_to_score(tmp_path):
    session = session_with_csv(tmp_path, rows(), "shapes.csv")
    tree = ok(session, "train", table_id=session.table_id, target="label", features=FEATURES,
              model="DecisionTreeClassifier")
    text = ok(session, "export_model", model_id=tree["model_id"])["json"]
    imported = ok(bridge.Session(), "import_model", json=text)
    assert imported["views"] == ["metrics", "tree"] and imported["default_view"] == "tree"
    kmeans = ok(session, "train", table_id=session.table_id, target=None, features=["size", "weight"],
                model="KMeans")
    text = ok(session, "export_model", model_id=kmeans["model_id"])["json"]
    imported = ok(session, "import_model", json=text, table_id=session.table_id)
    assert "no target" in imported["not_scored"] and "metrics" not in imported


def test_a_file_that_does_not_record_its_rows_says_so(trained):
    _, _, text = trained
    d = json.loads(text)
    del d["workbench"]["trained_rows"]
    imported = ok(bridge.Session(), "import_model", json=json.dumps(d))
    assert dict(imported["summary"])["Trained on"] == "not recorded in the file"
    assert imported["trained_rows"] is None
