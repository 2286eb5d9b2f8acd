"""A tree grown by gain ratio beside scikit-learn, which has no gain ratio: the twin and the script use
criterion="entropy" and both say it is not the same criterion; the default criterion says nothing of it."""

import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")

from bridgekit import session_with_csv
from menu_table import menu_csv


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    return session_with_csv(tmp_path_factory.mktemp("gain_ratio"), menu_csv(n=300, n_dishes=40, classes=2),
                            "menu.csv")


def _run(session, criterion):
    reply = session.handle("train", {"table_id": session.table_id, "target": "price",
                                     "features": ["a", "b", "c", "kind", "dish"], "model": "DecisionTreeClassifier",
                                     "params": {"criterion": criterion, "max_depth": 4},
                                     "evaluation": {"method": "split", "seed": 0}})
    assert reply["ok"], reply
    return reply["result"]["model_id"]


def _result(session, cmd, model_id):
    reply = session.handle(cmd, {"model_id": model_id})
    assert reply["ok"], reply
    return reply["result"]


def test_the_twin_of_gain_ratio_is_entropy_and_says_it_differs(session):
    model_id = _run(session, "gain_ratio")
    assert session.runs[model_id].estimator.criterion == "gain_ratio"
    twin = _result(session, "check_twin", model_id)
    assert "criterion='entropy'" in twin["sklearn"]["estimator"].replace('"', "'")
    assert any("Not the same criterion" in note and "gain ratio" in note for note in twin["notes"])
    script = _result(session, "export_sklearn", model_id)
    assert "criterion='entropy'" in script["script"].replace('"', "'")
    assert "gain_ratio" not in script["estimator"]
    assert "Not the same criterion" in " ".join(script["script"].split())


def test_the_default_criterion_is_the_twins_own(session):
    model_id = _run(session, "entropy")
    twin = _result(session, "check_twin", model_id)
    assert not any("Not the same criterion" in note for note in twin["notes"])
