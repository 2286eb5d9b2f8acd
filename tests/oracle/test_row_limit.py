"""A learner whose work grows as the square of the rows (agglomerative clustering, the kernel methods)
states its row limit in the model menu and refuses a larger table before doing any work, saying the limit
and the table's rows; asked to, it trains on a seeded random sample of that many rows, and the result says
so. The sampled model is the clustering scikit-learn makes of the same rows."""

import json
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

# Its exported scikit-learn script is run, and its sampled clustering compared with scikit-learn's.
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
pytest.importorskip("pandas", reason="an oracle test: the exported scikit-learn script reads the table with pandas")

from pellucid import bridge
from pellucid.learners import registry
from pellucid.learners.agglomerative.agglomerative import AgglomerativeClustering
from pellucid.tabular.table import Table
from pellucid.workbench import menus

LIMIT = registry.get("AgglomerativeClustering").max_rows
PY_DIR = pathlib.Path(__file__).resolve().parents[2] / "py"


def three_blobs(n_rows, seed=0):
    rng = np.random.default_rng(seed)
    centre = rng.integers(0, 3, n_rows)
    X = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]])[centre] + rng.normal(0, 0.5, (n_rows, 2))
    return Table({"x": X[:, 0], "y": X[:, 1], "id": np.arange(n_rows, dtype=float)})


def session_with(table):
    session = bridge.Session()
    table_id = session.keep_table(table, "blobs.csv")["table_id"]
    return session, table_id


def train(session, table_id, **extra):
    args = {"table_id": table_id, "target": None, "features": ["x", "y"], "model": "AgglomerativeClustering",
            "params": {"k": 3}, "evaluation": {"method": "none", "seed": 7}, **extra}
    reply = session.handle("train", args)
    json.dumps(reply, allow_nan=False)
    return reply


SQUARE_OF_THE_ROWS = {"AgglomerativeClustering": 5_000, "KernelPerceptron": 2_000, "KernelRegression": 2_000}


def test_the_model_menu_states_the_row_limit_of_the_learners_whose_work_grows_as_its_square_only():
    menu = {entry["name"]: entry for entry in menus.models()}
    assert menu["AgglomerativeClustering"]["max_rows"] == LIMIT
    assert {name: entry["max_rows"] for name, entry in menu.items() if entry["max_rows"]} == SQUARE_OF_THE_ROWS


def regression_table(n_rows, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 3))
    label = np.where(X[:, 0] + X[:, 1] ** 2 > 1, "yes", "no").astype(object)
    return Table({"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "label": label, "value": X[:, 0] - np.sin(X[:, 1])})


@pytest.mark.parametrize("model, target", [("KernelPerceptron", "label"), ("KernelRegression", "value")])
def test_a_kernel_method_refuses_a_table_above_its_limit_and_trains_on_a_split_of_the_sample(model, target):
    """50,000 rows would need a 20 GB kernel matrix: the refusal names the limit and the way out, before
    any fitting; with the sample, the split is made within it."""
    limit = SQUARE_OF_THE_ROWS[model]
    session, table_id = session_with(regression_table(limit + 300))
    args = {"table_id": table_id, "target": target, "features": ["a", "b", "c"], "model": model,
            "params": {"max_iter": 5} if model == "KernelPerceptron" else {"max_iter": 20},
            "evaluation": {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 7}}
    refused = session.handle("train", args)
    assert not refused["ok"] and refused["error"]["code"] == "data_error"
    assert f"works on up to {limit:,} rows; this table has {limit + 300:,}" in refused["error"]["message"]
    result = session.handle("train", {**args, "sample": True})["result"]
    assert result["sample"] == {"rows": limit, "of": limit + 300, "seed": 7}
    assert len(result["splits"]["train"]) + len(result["splits"]["test"]) == limit
    assert len(session.run(result["model_id"]).estimator.X_fit_) == len(result["splits"]["train"])


def test_a_table_above_the_limit_is_refused_before_any_fitting(monkeypatch):
    session, table_id = session_with(three_blobs(LIMIT + 200))
    fitted = []
    monkeypatch.setattr(AgglomerativeClustering, "fit", lambda self, *a, **k: fitted.append(1))
    reply = train(session, table_id)
    assert not reply["ok"] and reply["error"]["code"] == "data_error"
    assert "works on up to 5,000 rows; this table has 5,200" in reply["error"]["message"]
    assert fitted == []


def test_a_table_at_the_limit_trains_whole_and_says_it_is_no_sample():
    session, table_id = session_with(three_blobs(LIMIT))
    reply = train(session, table_id)
    assert reply["ok"], reply
    assert reply["result"]["sample"] is None
    assert len(reply["result"]["splits"]["train"]) == LIMIT


def test_asked_to_it_trains_on_a_seeded_sample_and_says_so():
    big = three_blobs(LIMIT + 1_000)
    session, table_id = session_with(big)
    result = train(session, table_id, sample=True)["result"]
    assert result["sample"] == {"rows": LIMIT, "of": LIMIT + 1_000, "seed": 7}
    run = session.run(result["model_id"])
    ids = run.table.column("id")
    assert len(ids) == len(np.unique(ids)) == LIMIT  # distinct rows of the table, in its order
    assert np.all(np.diff(ids) > 0) and set(ids.astype(int)) <= set(range(LIMIT + 1_000))
    again = session.run(train(session, table_id, sample=True)["result"]["model_id"]).table.column("id")
    np.testing.assert_array_equal(again, ids)  # the same seed, the same sample
    other = train(session, table_id, sample=True, evaluation={"method": "none", "seed": 8})["result"]
    assert not np.array_equal(session.run(other["model_id"]).table.column("id"), ids)


def test_the_sampled_clustering_is_scikit_learns_clustering_of_the_same_rows():
    cluster = pytest.importorskip("sklearn.cluster")
    from sklearn.metrics import adjusted_rand_score
    session, table_id = session_with(three_blobs(LIMIT + 500, seed=1))
    result = train(session, table_id, sample=True)["result"]
    run = session.run(result["model_id"])
    X = np.column_stack([run.table.column("x"), run.table.column("y")])
    theirs = cluster.AgglomerativeClustering(n_clusters=3, linkage="single").fit_predict(X)
    assert adjusted_rand_score(run.estimator.labels_, theirs) == 1.0


def test_the_sampled_result_says_in_words_that_it_is_a_sample():
    session, table_id = session_with(three_blobs(LIMIT + 10))
    result = train(session, table_id, sample=True)["result"]
    said = " ".join(result["warnings"])
    assert "random sample of 5,000 of the table's 5,010 rows (seed 7)" in said


def test_both_exported_scripts_draw_the_same_sample_and_reproduce_the_run(tmp_path):
    """The Python and the scikit-learn scripts of a sampled run take the page's sample of the rows, so they
    print its cluster sizes and silhouette (not those of a clustering of every row, which they could not
    even fit quickly)."""
    rng = np.random.default_rng(3)
    n_rows = LIMIT + 1_500
    centre = rng.integers(0, 3, n_rows)
    X = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]])[centre] + rng.normal(0, 1.5, (n_rows, 2))
    path = tmp_path / "blobs.csv"
    path.write_text("x,y\n" + "\n".join(f"{a:.6f},{b:.6f}" for a, b in X) + "\n")
    session = bridge.Session()
    table_id = session.handle("load_csv", {"path": str(path), "name": "blobs.csv"})["result"]["table_id"]
    reply = train(session, table_id, sample=True)["result"]
    labels = np.asarray(session.runs[reply["model_id"]].estimator.labels_)
    for command, script_name in (("export_python", "pellucid_run.py"), ("export_sklearn", "sklearn_run.py")):
        script = session.handle(command, {"model_id": reply["model_id"]})["result"]["script"]
        assert "default_rng(7).choice" in script
        (tmp_path / script_name).write_text(script)
        done = subprocess.run([sys.executable, script_name], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, env={**os.environ, "PYTHONPATH": str(PY_DIR)})
        assert done.returncode == 0, done.stderr
        if command == "export_python":
            assert f"rows per cluster: {np.bincount(labels).tolist()}" in done.stdout
        else:
            printed = float(re.search(r"silhouette: (\S+)", done.stdout)[1])
            assert printed == pytest.approx(reply["metrics"]["train"]["silhouette"], abs=1e-9)


def test_tuning_a_kernel_method_uses_the_same_sample_or_refuses_a_larger_table():
    limit = SQUARE_OF_THE_ROWS["KernelRegression"]
    session, table_id = session_with(regression_table(limit + 300))
    args = {"table_id": table_id, "target": "value", "features": ["a", "b", "c"], "model": "KernelRegression",
            "params": {"max_iter": 10}, "grid": [{"name": "l2", "values": [0.0, 1.0]}],
            "evaluation": {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 7, "k": 3}}
    refused = session.handle("tune", args)
    assert not refused["ok"] and refused["error"]["code"] == "data_error"
    assert f"works on up to {limit:,} rows" in refused["error"]["message"]
    tuned = session.handle("tune", {**args, "sample": True})
    assert tuned["ok"], tuned
    assert tuned["result"]["n_rows"] + tuned["result"]["test_rows_left_out"] == limit  # the sample, split
