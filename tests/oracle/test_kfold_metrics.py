"""Under k-fold the Metrics tab's numbers are out-of-fold: every row predicted by the fold model that did
not see it, as scikit-learn's cross_val_predict on the same folds; the export holds the same predictions."""

import io

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.metrics import accuracy_score, confusion_matrix, r2_score
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeClassifier

from pellucid import read_csv

from bridgekit import ok, session

RAW = {"standardize": False}


def kfold(k=5, seed=7):
    return {"method": "kfold", "k": k, "stratify": True, "seed": seed}


def columns(result):
    """(X, y) of the run's table as scikit-learn reads it, and the run's folds as (train, test) pairs."""
    table = session.runs[result["model_id"]].table
    X = np.column_stack([table.column(f).astype(float) for f in result["features"]])
    y = np.asarray(table.column(result["target"]).tolist())
    tests = [np.asarray(rows) - 1 for rows in result["cv"]["folds"]]
    pairs = [(np.setdiff1d(np.arange(len(y)), test), test) for test in tests]
    return X, y, pairs


@pytest.mark.parametrize("model, params, twin", [
    ("GaussianNB", {}, GaussianNB()),
    ("DecisionTreeClassifier", {"max_depth": 1}, DecisionTreeClassifier(max_depth=1)),  # one split: no tie on iris
])
def test_kfold_accuracy_and_confusion_are_scikit_learns_out_of_fold(model, params, twin):
    table_id = ok("load_example", name="iris")["table_id"]
    result = ok("train", table_id=table_id, target="species", features=None, model=model, params=params,
                evaluation=kfold(), preprocessing=RAW)
    X, y, pairs = columns(result)
    expected = cross_val_predict(twin, X, y, cv=pairs)
    shown = result["metrics"]["out_of_fold"]
    assert set(result["metrics"]) == {"out_of_fold"}
    assert shown["accuracy"] == pytest.approx(accuracy_score(y, expected), abs=1e-12)
    labels = shown["confusion"]["labels"]
    assert shown["confusion"]["matrix"] == confusion_matrix(y, expected, labels=labels).tolist()
    assert result["predictions"]["predicted"] == expected.tolist()  # what the views draw
    for (_, test), score in zip(pairs, result["cv"]["scores"]):  # each fold's score is its own rows' accuracy
        assert score == pytest.approx(accuracy_score(y[test], expected[test]))


def test_kfold_export_holds_the_predictions_the_metrics_were_computed_from():
    table_id = ok("load_example", name="iris")["table_id"]
    result = ok("train", table_id=table_id, target="species", features=None, model="GaussianNB", params={},
                evaluation=kfold(k=4, seed=2), preprocessing=RAW)
    exported = read_csv(io.StringIO(ok("export_predictions", model_id=result["model_id"])["csv"]))
    assert exported.column("prediction").tolist() == result["predictions"]["predicted"]
    rows_of_fold = [[r for r, f in enumerate(exported.column("fold").tolist(), 1) if f == i + 1] for i in range(4)]
    assert rows_of_fold == result["cv"]["folds"]
    confusion = result["metrics"]["out_of_fold"]["confusion"]
    assert sum(map(len, (cell for line in confusion["rows"] for cell in line))) == 150  # every row, once


def test_kfold_regression_metrics_are_out_of_fold():
    table_id = ok("load_example", name="line", n=120, noise=0.3, seed=4)["table_id"]
    result = ok("train", table_id=table_id, target="y", features=None, model="LinearRegression", params={},
                evaluation={"method": "kfold", "k": 5, "seed": 1}, preprocessing=RAW)
    X, y, pairs = columns(result)
    expected = cross_val_predict(LinearRegression(), X, y.astype(float), cv=pairs)
    assert result["metrics"]["out_of_fold"]["r2"] == pytest.approx(r2_score(y.astype(float), expected), rel=1e-9)
    assert result["timing"]["per_fold"] and result["timing"]["fit_seconds"] > 0
