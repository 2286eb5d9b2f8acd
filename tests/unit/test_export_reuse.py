"""Export predictions writes what training already computed: vectorised number formatting equal to
format_number's, and k-NN's probabilities kept from the training pass instead of a second search."""

import io

import numpy as np
import pytest

from pellucid import bridge
from pellucid.tabular.cells import format_number, format_numbers
from pellucid.tabular.csvio import read_csv


def test_format_numbers_writes_each_value_as_format_number_does():
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.normal(size=200) * 10.0 ** rng.integers(-12, 20, 200),
                             np.round(rng.normal(size=50) * 1e4),
                             [0.0, -0.0, 1e16, -1e16, 9999999999999998.0, 2.0 ** 53, 1e-320, np.inf, -np.inf, np.nan]])
    expected = ["" if v != v else format_number(v) for v in values.tolist()]
    assert format_numbers(values) == expected
    assert format_numbers(values, missing='""')[-1] == '""'


SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "stratify": True, "seed": 0}


def test_knn_export_reuses_the_training_probabilities(monkeypatch):
    session = bridge.Session()
    table_id = session.handle("load_example", {"name": "iris"})["result"]["table_id"]
    reply = session.handle("train", dict(table_id=table_id, target="species", features=None,
                                         model="KNeighborsClassifier", params={"n_neighbors": 7}, evaluation=SPLIT))
    run = session.runs[reply["result"]["model_id"]]
    expected = run.estimator.predict_proba(run.model_input())  # (150, 3)
    assert np.array_equal(run.probabilities, expected)
    assert np.array_equal(run.predicted, run.estimator.predict(run.model_input()))

    def searched_again(*args, **kwargs):
        raise AssertionError("the export searched the neighbours again")

    monkeypatch.setattr(type(run.estimator), "predict_proba", searched_again)
    monkeypatch.setattr(type(run.estimator), "predict", searched_again)
    out = session.handle("export_predictions", {"model_id": reply["result"]["model_id"]})
    assert out["ok"], out
    table = read_csv(io.StringIO(out["result"]["csv"]))
    for j, label in enumerate(run.estimator.classes_):
        assert table.column(f"P({label})") == pytest.approx(expected[:, j], abs=0)
    assert table.column("prediction").tolist() == run.predicted.tolist()


@pytest.mark.parametrize("model, target", [("KNeighborsClassifier", "species"),
                                           ("KNeighborsRegressor", "petal width (cm)")])
def test_rows_predicted_in_chunks_equal_one_whole_prediction(model, target, monkeypatch):
    from pellucid.workbench import readouts
    monkeypatch.setattr(readouts, "PREDICT_CHUNK", 16)  # 150 rows: ten chunks
    session = bridge.Session()
    table_id = session.handle("load_example", {"name": "iris"})["result"]["table_id"]
    reply = session.handle("train", dict(table_id=table_id, target=target, features=None, model=model,
                                         params={}, evaluation=SPLIT))
    run = session.runs[reply["result"]["model_id"]]
    X = run.model_input()
    assert np.array_equal(run.predicted, run.estimator.predict(X))
    if model == "KNeighborsClassifier":
        assert np.array_equal(run.probabilities, run.estimator.predict_proba(X))
