"""A category the model never saw in training is counted where the model reads new rows (Apply, and the
held-out rows of the predictions export) and named in a note, not silently absorbed."""

import json

import numpy as np
import pytest

from pellucid.workbench.unseen import count_unseen
from pellucid.tabular.table import Table

from bridgekit import ok, session

SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 3}
ALL = {"method": "split", "train": 100, "validation": 0, "test": 0, "seed": 3}  # every row trains


def train(model, table_id, target, preprocessing=None, evaluation=ALL):
    return ok("train", table_id=table_id, target=target, features=None, model=model, params={},
              evaluation=evaluation, preprocessing=preprocessing or {"standardize": False, "impute": "mean"})


def restaurant_with(tmp_path, values):
    """The restaurant rows with the first rows' Type replaced by `values`, as a new file."""
    table_id = ok("load_example", name="restaurant")["table_id"]
    source = session.tables[table_id]
    types = source.column("Type").copy()
    types[:len(values)] = values
    columns = {name: (types if name == "Type" else source.column(name)) for name in source.columns}
    path = tmp_path / "new.csv"
    path.write_text(Table(columns, kinds=source.kinds).to_csv())
    return table_id, str(path)


@pytest.mark.parametrize("model", ["DecisionTreeClassifier", "CategoricalNB", "LogisticRegression",
                                   "KNeighborsClassifier"])
def test_apply_counts_unseen_categories_per_column(tmp_path, model):
    table_id, path = restaurant_with(tmp_path, ["Korean", "Korean", "Greek"])
    result = train(model, table_id, "WillWait")
    reply = ok("apply_model", model_id=result["model_id"], path=path)
    assert reply["unseen"] == {"Type": 3}
    note = next(n for n in reply["notes"] if "never saw" in n)
    assert "'Type'" in note and "'Korean'" in note and "'Greek'" in note and note.startswith("3 rows")
    assert reply["n_predicted"] == reply["n_rows"]  # still predicted, from the other columns


def test_seen_categories_only_give_no_count(tmp_path):
    table_id, path = restaurant_with(tmp_path, [])
    result = train("DecisionTreeClassifier", table_id, "WillWait")
    reply = ok("apply_model", model_id=result["model_id"], path=path)
    assert reply["unseen"] == {} and not any("never saw" in n for n in reply["notes"])


@pytest.mark.parametrize("model", ["DecisionTreeClassifier", "CategoricalNB", "LogisticRegression"])
def test_an_imported_model_counts_the_same(tmp_path, model):
    table_id, path = restaurant_with(tmp_path, ["Korean"])
    result = train(model, table_id, "WillWait", {"standardize": True, "impute": "mean"}, SPLIT)
    model_json = json.loads(ok("export_model", model_id=result["model_id"])["json"])
    imported = ok("import_model", json=json.dumps(model_json))
    reply = ok("apply_model", model_id=imported["model_id"], path=path)
    # an imported model knows the categories it was fitted on: the training rows' ones, as the run did
    assert reply["unseen"] == ok("apply_model", model_id=result["model_id"], path=path)["unseen"]
    assert reply["unseen"]["Type"] >= 1


def test_the_predictions_export_counts_held_out_rows_with_new_categories(tmp_path):
    rng = np.random.default_rng(0)
    cities = [f"city{i}" for i in rng.integers(0, 30, size=60)]
    text = "city,x,y\n" + "".join(f"{c},{i % 7},{'yes' if i % 3 else 'no'}\n" for i, c in enumerate(cities))
    (tmp_path / "cities.csv").write_text(text)
    table_id = ok("load_csv", path=str(tmp_path / "cities.csv"), name="cities.csv")["table_id"]
    result = train("DecisionTreeClassifier", table_id, "y", evaluation=SPLIT)
    run = session.runs[result["model_id"]]
    train_rows = set(run.train_rows().tolist())
    seen = {cities[i] for i in train_rows}
    expected = sum(1 for i, c in enumerate(cities) if i not in train_rows and c not in seen)
    assert expected > 0  # thirty cities over sixty rows: some appear in the test rows only
    exported = ok("export_predictions", model_id=result["model_id"])
    assert exported["unseen"] == {"city": expected}


def test_count_unseen_leaves_missing_cells_out():
    table = Table({"c": np.array(["a", None, "b", "q", "q"], dtype=object)})
    counts, examples = count_unseen({"c": {"a", "b"}}, table)
    assert counts == {"c": 2} and examples == {"c": ["q"]}
    assert count_unseen({"c": {"a", "b"}}, table, np.array([0, 1, 2])) == ({}, {})
