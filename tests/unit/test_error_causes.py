"""Each known cause of a refused run names the control that fixes it (DataError.field, the page's "Go to"):
a learner of the wrong kind for the target points at the Model, not at the split or the folds where it
would otherwise first break; a class too small to stratify by points at the Stratify switch, or at the
Model when the target is most likely a quantity; too many folds for a class at the folds; a row limit at
the sample switch. Walked through train, tune and rank_learners alike, with the control each field maps
to on the page (web/js/error-fields.js)."""

import re
from pathlib import Path

import numpy as np
import pytest

from pellucid import bridge
from pellucid.core.settings import ERROR_FIELDS, is_error_field

ROOT = Path(__file__).resolve().parents[2]


def table_csv(n=60):
    """price (fractions), dollars (many whole numbers), kind (text), rare (a class of one row), pair (a
    class of two rows), one (one class), x and z features."""
    rng = np.random.default_rng(1)
    lines = ["x,z,price,dollars,kind,rare,pair,one"]
    for i in range(n):
        x = rng.uniform(0, 10)
        lines.append(f"{x:.3f},{i % 7},{2 * x + rng.normal():.2f},{1000 + 37 * i},{'ab'[i % 2]},"
                     f"{'lone' if i == 0 else 'ab'[i % 2]},{'duo' if i < 2 else 'ab'[i % 2]},same")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    path = tmp_path_factory.mktemp("causes") / "causes.csv"
    path.write_text(table_csv())
    s = bridge.Session()
    s.table_id = s.handle("load_csv", {"path": str(path), "name": "causes.csv"})["result"]["table_id"]
    return s


def refused(session, cmd, **args):
    reply = session.handle(cmd, {"table_id": session.table_id, "features": ["x", "z"], **args})
    assert not reply["ok"], reply
    assert reply["error"]["code"] == "data_error", reply
    return reply["error"]


SPLIT = {"method": "split"}
FOLDS = {"method": "kfold", "k": 5}
NONE = {"method": "none"}
UNSTRATIFIED = {"method": "split", "stratify": False}

# (cause, command, args, field): every cause the page can meet, with the field that fixes it.
CAUSES = [
    ("classifier on numbers with fractions, split", "train",
     {"target": "price", "model": "DecisionTreeClassifier", "evaluation": SPLIT}, "model"),
    ("classifier on numbers with fractions, folds", "train",
     {"target": "price", "model": "LogisticRegression", "evaluation": FOLDS}, "model"),
    ("classifier on numbers with fractions, no evaluation", "train",
     {"target": "price", "model": "GaussianNB", "evaluation": NONE}, "model"),
    ("classifier on numbers with fractions, unstratified", "train",
     {"target": "price", "model": "DecisionTreeClassifier", "evaluation": UNSTRATIFIED}, "model"),
    ("regressor on text, split", "train",
     {"target": "kind", "model": "LinearRegression", "evaluation": SPLIT}, "model"),
    ("regressor on text, folds", "train",
     {"target": "kind", "model": "KNeighborsRegressor", "evaluation": FOLDS}, "model"),
    ("classifier on many whole numbers, stratified split", "train",
     {"target": "dollars", "model": "DecisionTreeClassifier", "evaluation": SPLIT}, "model"),
    ("classifier on many whole numbers, stratified folds", "train",
     {"target": "dollars", "model": "DecisionTreeClassifier", "evaluation": FOLDS}, "model"),
    ("a class of one row, stratified split", "train",
     {"target": "rare", "model": "DecisionTreeClassifier", "evaluation": SPLIT}, "evaluation.stratify"),
    ("a class of one row, stratified folds", "train",
     {"target": "rare", "model": "DecisionTreeClassifier", "evaluation": FOLDS}, "evaluation.stratify"),
    ("a class of two rows, five stratified folds", "train",
     {"target": "pair", "model": "DecisionTreeClassifier", "evaluation": FOLDS}, "evaluation.k"),
    ("one class", "train", {"target": "one", "model": "DecisionTreeClassifier", "evaluation": SPLIT}, "target"),
    ("no target for a classifier", "train", {"target": None, "model": "GaussianNB"}, "target"),
    ("tune a classifier on numbers with fractions", "tune",
     {"target": "price", "model": "DecisionTreeClassifier", "evaluation": FOLDS,
      "grid": [{"name": "max_depth", "values": [1, 2]}]}, "model"),
    ("tune a regressor on text", "tune",
     {"target": "kind", "model": "DecisionTreeRegressor", "evaluation": FOLDS,
      "grid": [{"name": "max_depth", "values": [1, 2]}]}, "model"),
    ("tune on a class of one row", "tune",
     {"target": "rare", "model": "DecisionTreeClassifier", "evaluation": FOLDS,
      "grid": [{"name": "max_depth", "values": [1, 2]}]}, "evaluation.stratify"),
    ("tune a classifier on many whole numbers", "tune",
     {"target": "dollars", "model": "DecisionTreeClassifier", "evaluation": FOLDS,
      "grid": [{"name": "max_depth", "values": [1, 2]}]}, "model"),
    ("compare regressors on text", "rank_learners",
     {"target": "kind", "learners": ["LinearRegression", "DecisionTreeRegressor"], "evaluation": SPLIT}, "model"),
    ("compare classifiers on numbers with fractions", "rank_learners",
     {"target": "price", "learners": ["GaussianNB"], "evaluation": FOLDS}, "model"),
]


@pytest.mark.parametrize("cause, cmd, args, field", CAUSES, ids=[c[0] for c in CAUSES])
def test_each_cause_names_the_control_that_fixes_it(session, cause, cmd, args, field):
    error = refused(session, cmd, **args)
    assert error["field"] == field, (cause, error)
    if field == "model":  # the message says what to choose instead
        assert re.search(r"Choose a (regressor|classifier) as the Model", error["message"]), error["message"]


def test_a_wrong_kind_learner_in_a_comparison_is_a_failed_row_saying_so(session):
    reply = session.handle("rank_learners", {"table_id": session.table_id, "target": "price", "features": ["x", "z"],
                                             "learners": ["LinearRegression"], "evaluation": SPLIT})
    assert reply["ok"]  # the right kind ranks; a wrong kind cannot be chosen beside it (one task)
    error = refused(session, "rank_learners", target="price", learners=["DecisionTreeClassifier"], evaluation=SPLIT)
    assert error["message"].startswith("Decision tree is a classifier, but price holds numbers with fractions")


def test_a_comparison_of_learners_all_over_their_row_limit_is_about_the_sample(tmp_path):
    path = tmp_path / "tall.csv"
    path.write_text("x,label\n" + "".join(f"{i},{'ab'[i % 2]}\n" for i in range(2001)))
    s = bridge.Session()
    s.table_id = s.handle("load_csv", {"path": str(path)})["result"]["table_id"]
    error = refused(s, "rank_learners", features=["x"], target="label", learners=["KernelPerceptron"], evaluation=SPLIT)
    assert error["field"] == "sample"


def test_every_field_named_has_a_control_on_the_page():
    fields = {c[3] for c in CAUSES} | {"sample"}
    assert all(is_error_field(f) for f in fields) and fields <= set(ERROR_FIELDS)
    table = (ROOT / "web" / "js" / "error-fields.js").read_text()
    for field in fields:
        assert re.search(rf'^\s*(?:"{re.escape(field)}"|{re.escape(field)}):\s*"#', table, re.M), field
    assert '"evaluation.stratify": "#eval-stratify"' in table
    assert 'id="eval-stratify"' in (ROOT / "web" / "index.html").read_text()
