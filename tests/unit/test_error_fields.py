"""A refused setting says which one it is (DataError.field, sent as the reply's error field), from the
fixed vocabulary of core.settings.ERROR_FIELDS, so the page points at its control without reading the
message; an error about no one setting has none."""

import pytest

from bridgekit import session_with_csv
from pellucid import bridge
from pellucid.core.errors import DataError
from pellucid.core.settings import ERROR_FIELDS, SEED_MAX, is_error_field


def csv():
    lines = ["x,z,empty,label,one,amount,odd,even"]  # odd and even: each missing where the other is not
    for i in range(40):
        lines.append(f"{i},{(i * 7) % 5},,{'a' if i % 2 else 'b'},same,{i * 1.5},"
                     f"{i if i % 2 else ''},{'' if i % 2 else i}")
    return "\n".join(lines) + "\n"


@pytest.fixture()
def session(tmp_path):
    return session_with_csv(tmp_path, csv(), "t.csv")


def field_of(session, cmd, **args):
    reply = session.handle(cmd, {"table_id": session.table_id, **args})
    assert not reply["ok"], reply
    assert reply["error"]["code"] == "data_error", reply
    return reply["error"]["field"]


BASE = {"target": "label", "features": ["x", "z"], "model": "DecisionTreeClassifier"}


@pytest.mark.parametrize("change, field", [
    ({"target": "nope"}, "target"),
    ({"target": None}, "target"),
    ({"target": "one"}, "target"),
    ({"features": ["label"]}, "features"),
    ({"features": ["x", "ghost"]}, "feature:ghost"),
    ({"features": ["x", "empty"]}, "feature:empty"),
    ({"model": "Nope"}, "model"),
    ({"params": {"max_depth": -1}}, "params.max_depth"),
    ({"params": {"criterion": "best"}}, "params.criterion"),
    ({"params": {"colour": 1}}, "params.colour"),
    ({"model": "KNeighborsClassifier", "params": {"n_neighbors": 500}}, "params.n_neighbors"),
    ({"target": None, "model": "KMeans", "params": {"n_clusters": 500}}, "params.n_clusters"),
    ({"evaluation": {"method": "holdout"}}, "evaluation.method"),
    ({"evaluation": {"method": "split", "train": 50, "validation": 0, "test": 20}}, "evaluation.split"),
    ({"evaluation": {"method": "split", "train": 0, "validation": 0, "test": 100}}, "evaluation.split"),
    ({"evaluation": {"method": "kfold", "k": 1}}, "evaluation.k"),
    ({"evaluation": {"method": "kfold", "repeats": 11}}, "evaluation.repeats"),
    ({"evaluation": {"method": "kfold", "repeats": 2}}, "evaluation.repeats"),  # a trained run is cross-validated once
    ({"evaluation": {"method": "kfold", "seed": SEED_MAX + 1}}, "evaluation.seed"),
    ({"evaluation": {"method": "split", "seed": -1}}, "evaluation.seed"),
    ({"preprocessing": {"standardize": "yes"}}, "preprocessing.standardize"),
    ({"preprocessing": {"impute": "guess"}}, "preprocessing.impute"),
    ({"features": ["odd", "even"], "preprocessing": {"impute": "drop"}}, "preprocessing.impute"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_train_names_the_setting_it_refused(session, change, field):
    assert field_of(session, "train", **{**BASE, **change}) == field


def test_the_row_limit_is_about_the_sample(tmp_path):
    from pellucid.learners import registry
    limit = registry.get("AgglomerativeClustering").max_rows
    path = tmp_path / "tall.csv"
    path.write_text("x,z\n" + "".join(f"{i},{i % 7}\n" for i in range(limit + 1)))
    s = bridge.Session()
    s.table_id = s.handle("load_csv", {"path": str(path)})["result"]["table_id"]
    assert field_of(s, "train", target=None, features=["x", "z"], model="AgglomerativeClustering") == "sample"


def test_a_fold_that_fails_keeps_the_field_of_its_error(session):
    field = field_of(session, "train", **{**BASE, "model": "KNeighborsClassifier"}, params={"n_neighbors": 39},
                     evaluation={"method": "kfold", "k": 5})
    assert field == "params.n_neighbors"


@pytest.mark.parametrize("change, field", [
    ({"grid": []}, "grid"),
    ({"grid": [{"name": "colour", "values": [1]}]}, "grid"),
    ({"grid": [{"name": "max_depth", "values": [1, -2]}]}, "grid.max_depth"),
    ({"grid": [{"name": "max_depth", "values": [1, 1]}]}, "grid.max_depth"),
    ({"grid": [{"name": "max_depth", "values": [1, 2]}], "metric": "loudness"}, "metric"),
    ({"grid": [{"name": "max_depth", "values": [1, 2]}], "evaluation": {"method": "kfold", "k": 99}}, "evaluation.k"),
    ({"grid": [{"name": "max_depth", "values": [1, 2]}], "target": "nope"}, "target"),
    ({"grid": [{"name": "n_neighbors", "values": [1, 39]}], "model": "KNeighborsClassifier"}, "grid.n_neighbors"),
    ({"grid": [{"name": "n_clusters", "values": [2]}], "model": "KMeans", "target": None}, "model"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_tune_names_the_setting_it_refused(session, change, field):
    assert field_of(session, "tune", **{**BASE, **change}) == field


@pytest.mark.parametrize("change, field", [
    ({"learners": []}, "learners"),
    ({"learners": ["GaussianNB", "GaussianNB"]}, "learners"),
    ({"learners": ["GaussianNB", "LinearRegression"]}, "learners"),
    ({"learners": ["GaussianNB"], "metric": "r2"}, "metric"),
    ({"learners": ["GaussianNB"], "params": ["no"]}, "params"),
    ({"learners": ["GaussianNB"], "evaluation": {"method": "kfold", "k": 0}}, "evaluation.k"),
    ({"learners": ["GaussianNB"], "evaluation": {"method": "kfold", "k": 3, "repeats": 0}}, "evaluation.repeats"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_rank_learners_names_the_setting_it_refused(session, change, field):
    args = {"target": "label", "features": ["x", "z"], **change}
    assert field_of(session, "rank_learners", **args) == field


def test_an_error_about_no_one_setting_has_no_field(session):
    assert session.handle("boundary", {"model_id": "m99"})["error"]["field"] is None
    assert session.handle("train", {"table_id": "t99", **BASE})["error"]["field"] is None
    internal = bridge.error_of(RuntimeError("bug"))
    assert "field" not in internal


def test_every_field_sent_is_of_the_vocabulary():
    for field in ("target", "feature:when", "params.max_depth", "evaluation.k", "grid.k", "sample"):
        assert is_error_field(field)
    for field in ("feature:", "params.", "table", "evaluation", None, 3):
        assert not is_error_field(field)
    assert all(isinstance(f, str) for f in ERROR_FIELDS)
    assert DataError("x").field is None and DataError("x", field="target").field == "target"
    assert DataError("x").about("model").field == "model" and DataError("x", "target").about("model").field == "target"


def test_too_many_folds_for_the_rows_or_a_class_is_about_k(tmp_path):
    path = tmp_path / "few.csv"
    path.write_text("x,label\n" + "".join(f"{i},{'a' if i < 5 else 'b'}\n" for i in range(7)))
    s = bridge.Session()
    s.table_id = s.handle("load_csv", {"path": str(path)})["result"]["table_id"]
    stratified = {"method": "kfold", "k": 6}
    assert field_of(s, "train", target="label", features=["x"], model="GaussianNB",
                    evaluation=stratified) == "evaluation.k"
    plain = {"method": "kfold", "k": 20, "stratify": False}
    assert field_of(s, "train", target="label", features=["x"], model="GaussianNB", evaluation=plain) == "evaluation.k"
    tuned = {"method": "kfold", "k": 6}
    assert field_of(s, "tune", target="label", features=["x"], model="DecisionTreeClassifier", evaluation=tuned,
                    grid=[{"name": "max_depth", "values": [1, 2]}]) == "evaluation.k"


def test_a_split_the_rows_cannot_make_is_about_the_split(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("x,label\n1,a\n2,b\n3,a\n")
    s = bridge.Session()
    s.table_id = s.handle("load_csv", {"path": str(path)})["result"]["table_id"]
    split = {"method": "split", "train": 34, "validation": 33, "test": 33}
    # Class b's one row cannot be in all three parts: unticking Stratify by class fixes it.
    assert field_of(s, "train", target="label", features=["x"], model="GaussianNB",
                    evaluation=split) == "evaluation.stratify"
    assert field_of(s, "train", target="label", features=["x"], model="GaussianNB",
                    evaluation={**split, "train": 0, "validation": 50, "test": 50}) == "evaluation.split"
