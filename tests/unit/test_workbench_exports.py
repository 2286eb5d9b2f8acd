"""Exports: predictions CSV, model JSON (and importing it back), and a Python script that reproduces a run."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pellucid.tabular.csvio import read_csv
from pellucid.tabular.datasets import load_iris

from bridgekit import error, ok, session

SPLIT = {"method": "split", "train": 60, "validation": 20, "test": 20, "stratify": True, "seed": 4}
PY_DIR = str(Path(__file__).resolve().parents[2] / "py")


def train(model, example="iris", target="species", evaluation=SPLIT, **params):
    table_id = ok("load_example", name=example)["table_id"]
    return ok("train", table_id=table_id, target=target, features=None, model=model, params=params,
              evaluation=evaluation)


def test_predictions_csv_has_rows_split_prediction_and_probabilities():
    result = train("LogisticRegression")
    export = ok("export_predictions", model_id=result["model_id"])
    assert export["filename"] == "iris_LogisticRegression_predictions.csv"
    table = read_csv(export["csv"].encode())
    classes = ["setosa", "versicolor", "virginica"]
    assert table.columns == load_iris().feature_names + ["species", "split", "prediction"] + \
        [f"P({c})" for c in classes]
    assert table.column("prediction").tolist() == result["predictions"]["predicted"]
    proba = np.column_stack([table.column(f"P({c})") for c in classes])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.array(classes)[proba.argmax(axis=1)].tolist() == table.column("prediction").tolist()
    assert [table.column("split")[r - 1] for r in result["splits"]["test"]] == ["test"] * 30


def test_cluster_and_pca_exports():
    km = train("KMeans", evaluation={"method": "none"}, n_clusters=3)
    table = read_csv(ok("export_predictions", model_id=km["model_id"])["csv"].encode())
    assert table.column("cluster").tolist() == km["clusters"]["labels"]
    pca = train("PCA", evaluation={"method": "none"}, n_components=3)
    table = read_csv(ok("export_predictions", model_id=pca["model_id"])["csv"].encode())
    assert table.columns[-3:] == ["PC1", "PC2", "PC3"]
    np.testing.assert_allclose(np.column_stack([table.column("PC1"), table.column("PC2")]),
                               pca["pca"]["projection"])


@pytest.mark.parametrize("model", ["DecisionTreeClassifier", "KNeighborsClassifier", "GaussianNB"])
def test_model_export_and_import_round_trip(model):
    result = train(model)
    export = ok("export_model", model_id=result["model_id"])
    assert export["filename"] == f"{model}.json" and "\n  " in export["json"]  # pretty-printed
    imported = ok("import_model", json=export["json"])
    assert imported["features"] == load_iris().feature_names and imported["target"] == "species"
    assert imported["task"] == "classification" and imported["model_id"] != result["model_id"]
    original, copy = session.runs[result["model_id"]].estimator, session.runs[imported["model_id"]].estimator
    X = load_iris().X.astype(float)
    assert copy.predict(X).tolist() == original.predict(X).tolist()
    assert "imported without its data" in error("boundary", model_id=imported["model_id"],
                                                x="petal length (cm)", y="petal width (cm)")


@pytest.mark.parametrize("text, fragment", [
    ("{not json", "not JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"format": "other"}', "not a pellucid model"),
    ('{"format": "pellucid-model", "model": "Forest"}', "Unknown model"),
])
def test_malformed_model_json_changes_nothing(text, fragment):
    before = dict(session.runs)
    assert fragment in error("import_model", json=text)
    assert session.runs == before


def test_damaged_model_json_is_a_data_error():
    export = json.loads(ok("export_model", model_id=train("GaussianNB")["model_id"])["json"])
    del export["state"]
    before = dict(session.runs)
    error("import_model", json=json.dumps(export))
    assert session.runs == before


def _run_script(script, tmp_path, data_name, csv_text):
    (tmp_path / data_name).write_text(csv_text)
    (tmp_path / "run.py").write_text(script)
    env = {**os.environ, "PYTHONPATH": PY_DIR}
    done = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _printed(stdout, label):
    line = next(line for line in stdout.splitlines() if line.startswith(label))
    return float(line.split(":")[1])


def test_python_script_reproduces_the_split_and_test_accuracy(tmp_path):
    result = train("DecisionTreeClassifier", max_depth=2)
    export = ok("export_python", model_id=result["model_id"])
    assert export["filename"] == "iris_DecisionTreeClassifier.py"
    out = _run_script(export["script"], tmp_path, "iris.csv", load_iris().csv_text)
    for part in ("train", "validation", "test"):
        assert _printed(out, f"{part} accuracy") == result["metrics"][part]["accuracy"]


def test_python_script_from_the_pages_setup_reproduces_kfold(tmp_path):
    table_id = ok("load_example", name="iris")["table_id"]
    evaluation = {"method": "kfold", "k": 4, "stratify": True, "seed": 2}
    result = ok("train", table_id=table_id, target="species", features=["petal length (cm)", "sepal width (cm)"],
                model="KNeighborsClassifier", params={"n_neighbors": 7}, evaluation=evaluation)
    setup = {"file": "iris.csv", "target": "species", "features": ["petal length (cm)", "sepal width (cm)"],
             "model": "KNeighborsClassifier", "params": {"n_neighbors": 7}, "evaluation": evaluation}
    script = ok("export_python", setup=setup)["script"]
    out = _run_script(script, tmp_path, "iris.csv", load_iris().csv_text)
    line = next(line for line in out.splitlines() if line.startswith("mean"))
    assert float(line.split()[1].rstrip(",")) == result["cv"]["mean"]


def test_python_script_replays_kinds_and_missing_value_steps(tmp_path):
    text = "x,code,y\n" + "".join(f"{i},{i % 3},{'' if i == 5 else 2 * i + (i % 3)}\n" for i in range(40))
    path = tmp_path / "gaps.csv"
    path.write_text(text)
    table_id = ok("load_csv", path=str(path), name="gaps.csv")["table_id"]
    ok("set_kind", table_id=table_id, column="code", kind="categorical")
    ok("handle_missing", table_id=table_id, strategy="drop", columns=["y"])
    result = ok("train", table_id=table_id, target="y", features=None, model="LinearRegression", params={},
                evaluation={"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 5})
    script = ok("export_python", model_id=result["model_id"])["script"]
    assert "with_kind('code', 'categorical')" in script and "drop_missing(['y'])" in script
    out = _run_script(script, tmp_path, "gaps.csv", text)
    assert _printed(out, "test R^2") == result["metrics"]["test"]["r2"]


@pytest.mark.parametrize("model", ["DecisionTreeClassifier", "RandomForestClassifier"])
def test_python_script_of_a_tree_keeps_the_missing_numbers_as_the_page_did(tmp_path, model):
    rng = np.random.default_rng(6)
    rows = []
    for _ in range(120):
        a, b = rng.normal(), rng.normal()
        rows.append(f"{'NA' if rng.random() < 0.2 else f'{a:.3f}'},{'' if b > 0.5 else f'{b:.3f}'},"
                    f"{rng.choice(['x', 'y', 'NA'])},{'p' if a + min(b, 0.5) > 0 else 'q'}\n")
    text = "a,b,c,label\n" + "".join(rows)
    path = tmp_path / "gaps.csv"
    path.write_text(text)
    table_id = ok("load_csv", path=str(path), name="gaps.csv")["table_id"]
    params = {"n_estimators": 5} if model == "RandomForestClassifier" else {}
    result = ok("train", table_id=table_id, target="label", features=None, model=model, params=params,
                evaluation={"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 5})
    assert result["preprocessing_choices"]["impute"] == "keep"
    script = ok("export_python", model_id=result["model_id"])["script"]
    assert "impute='keep'" in script
    out = _run_script(script, tmp_path, "gaps.csv", text)
    assert _printed(out, "test accuracy") == result["metrics"]["test"]["accuracy"]


def test_python_script_errors_are_named():
    assert "Unknown model" in error("export_python", setup={"model": "Forest"})
    assert "needs a target" in error("export_python", setup={"model": "LogisticRegression", "file": "a.csv"})
    assert "max_depth" in error("export_python", setup={"model": "DecisionTreeClassifier", "target": "y",
                                                        "params": {"max_depth": 0}})


def test_a_model_file_imports_from_the_bytes_the_page_writes(tmp_path):
    """The page sends a model file's bytes, written to a file for Python (no string on the way): the same
    model as from its text, a UTF-8 byte order mark allowed; bad bytes change nothing."""
    result = train("DecisionTreeClassifier")
    text = ok("export_model", model_id=result["model_id"])["json"]
    path = tmp_path / "model.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    imported = ok("import_model", path=str(path))
    X = load_iris().X.astype(float)
    assert session.runs[imported["model_id"]].estimator.predict(X).tolist() == \
        session.runs[result["model_id"]].estimator.predict(X).tolist()
    before = dict(session.runs)
    path.write_bytes(b'{"format": "pellucid-model", \xff}')
    assert "not JSON" in error("import_model", path=str(path))
    assert "exactly one of json" in error("import_model", json=text, path=str(path))
    assert session.runs == before
