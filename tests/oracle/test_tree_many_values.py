"""A category column of hundreds of values, used anyway: the trees test it one value against the rest,
as a tree on its one-hot columns does, so it costs the cross-validated score next to nothing and the
scores stay close to scikit-learn's one-hot tree on the same folds.

The table is a menu's shape: a price from three numbers and a six-value kind, and a 500-value dish
name that carries little signal (the profile leaves it out as "too many categories"); driven through
the bridge as the page drives it after "Use anyway"."""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from bridgekit import session_with_csv
from menu_table import menu_csv

NUMBERS, CATEGORIES = ["a", "b", "c"], ["kind", "dish"]


def _train(session, model, features):
    reply = session.handle("train", {"table_id": session.table_id, "target": "price", "features": features,
                                     "model": model, "evaluation": {"method": "kfold", "k": 5, "seed": 0}})
    assert reply["ok"], reply
    return reply["result"]


def _one_hot_score(session, result, twin):
    """scikit-learn's tree on the numbers and the one-hot categories, scored on the run's own folds."""
    table = session.runs[result["model_id"]].table
    numbers = np.column_stack([table.column(f).astype(float) for f in NUMBERS])
    cats = np.column_stack([np.asarray(table.column(f).tolist(), dtype=object) for f in CATEGORIES])
    y = np.asarray(table.column("price").tolist())
    scores = []
    for rows in result["cv"]["folds"]:
        test = np.asarray(rows) - 1  # 1-based row numbers
        train = np.setdiff1d(np.arange(len(y)), test)
        encoder = OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(cats[train])
        X = np.hstack([numbers, encoder.transform(cats)])
        scores.append(twin.fit(X[train], y[train]).score(X[test], y[test]))
    return float(np.mean(scores))


@pytest.mark.parametrize("model, classes, twin", [
    ("DecisionTreeRegressor", None, DecisionTreeRegressor(random_state=0)),
    ("DecisionTreeClassifier", 2, DecisionTreeClassifier(criterion="entropy", random_state=0)),
    ("DecisionTreeClassifier", 3, DecisionTreeClassifier(criterion="entropy", random_state=0)),
], ids=["regression", "two_classes", "three_classes"])
def test_a_500_value_column_used_anyway_keeps_the_score(tmp_path, model, classes, twin):
    session = session_with_csv(tmp_path, menu_csv(classes=classes), "menu.csv")
    without = _train(session, model, NUMBERS + ["kind"])
    used = _train(session, model, NUMBERS + CATEGORIES)
    tree = session.runs[used["model_id"]].estimator
    assert tree.categorical_splits_ == [None, None, None, "multiway", "one_vs_rest"]
    dish_tests = [node for node in tree.tree_.left_values if tree.tree_.feature[node] == 4]
    assert dish_tests and all(len(tree.tree_.left_values[node]) == 1 for node in dish_tests)
    assert tree.tree_.n_children[0] == 2  # never a 500-way split
    one_hot = _one_hot_score(session, used, twin)
    assert used["cv"]["mean"] == pytest.approx(without["cv"]["mean"], abs=0.03)
    assert used["cv"]["mean"] == pytest.approx(one_hot, abs=0.05)
