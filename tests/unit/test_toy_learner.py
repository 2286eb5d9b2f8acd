"""Adding a learner is one module and one descriptor: a nearest-centroid classifier written here, registered,
is offered, trained, evaluated, exported (predictions, JSON round trip, a Python script) and drawn in the
views its descriptor claims, through the bridge as the page calls it, with no other file touched."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pellucid import bridge
from pellucid.core.base import ClassifierMixin, Estimator
from pellucid.core.descriptor import Learner, Task
from pellucid.core.params import Flag, Number
from pellucid.learners import registry
from pellucid.tabular.csvio import read_csv
from pellucid.tabular.datasets import load_iris
from pellucid.tabular.features import fit_numeric, numeric

SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "stratify": True, "seed": 1}
PY_DIR = str(Path(__file__).resolve().parents[2] / "py")
TESTS_DIR = str(Path(__file__).resolve().parent)


# --- the learner: one module's worth ----------------------------------------------------------------------

class NearestCentroid(ClassifierMixin, Estimator):
    """Predicts the class whose mean training row is nearest; P(class | x) is the softmax of minus the
    squared distances divided by `temperature`."""

    _param_rules = {"temperature": Number(0, None, low_open=True, help="Softness of the probabilities"),
                    "trace": Flag(help="Unused: nothing to replay")}

    def __init__(self, temperature=1.0, trace=False):
        self.temperature = temperature
        self.trace = trace

    def fit(self, X, y, feature_names=None):
        self._check_params()
        M, y = fit_numeric(self, X, y, feature_names, task="classification")  # (n, d), (n,)
        self.classes_ = np.unique(y)
        self.centroids_ = np.stack([M[y == c].mean(axis=0) for c in self.classes_])  # (C, d)
        return self

    def _distances(self, X):
        M = numeric(self, X)  # (n, d)
        return ((M[:, None, :] - self.centroids_[None, :, :]) ** 2).sum(axis=2)  # (n, C)

    def predict_proba(self, X):
        z = -self._distances(X) / self.temperature  # (n, C)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def predict(self, X):
        return self.classes_[np.argmin(self._distances(X), axis=1)]


DESCRIPTOR = Learner(NearestCentroid, "Nearest centroid", "Toys", Task.CLASSIFICATION,
                     {"probabilities", "boundary"}, predict_is_argmax_proba=True, scale_sensitive=True)


# --- through the bridge ------------------------------------------------------------------------------------

class Page:
    """A page's session, called as its worker calls it: JSON text in and out."""

    def __init__(self):
        self.session = bridge.Session()

    def reply(self, cmd, **args):
        return json.loads(self.session.handle_json(cmd, json.dumps(args)))

    def __call__(self, cmd, **args):
        """The result of a command that must succeed."""
        reply = self.reply(cmd, **args)
        assert reply["ok"], reply
        return reply["result"]


@pytest.fixture
def page():
    """A fresh page with the toy learner registered for the test, and gone after it."""
    with registry.registered(DESCRIPTOR):
        yield Page()
    assert DESCRIPTOR.name not in registry.names()


def trained(call, preprocessing=None, **params):
    table_id = call("load_example", name="iris")["table_id"]
    return call("train", table_id=table_id, target="species", features=None, model="NearestCentroid",
                params=params, evaluation=SPLIT, preprocessing=preprocessing)


def test_the_menu_offers_it_with_its_controls_and_capabilities(page):
    entry = next(m for m in page("models") if m["name"] == "NearestCentroid")
    assert entry["label"] == "Nearest centroid" and entry["group"] == "Toys"
    assert entry["task"] == "classification" and entry["capabilities"] == ["boundary", "probabilities"]
    assert entry["scale_sensitive"] is True and entry["needs"] == "numbers"
    assert [p["name"] for p in entry["params"]] == ["temperature"]


def test_it_trains_and_is_judged_on_held_out_rows(page):
    result = trained(page, preprocessing={"standardize": False})  # centroids in iris's own units
    assert result["task"] == "classification" and result["capabilities"] == ["boundary", "probabilities"]
    assert len(result["splits"]["test"]) == 45
    X, y = np.asarray(load_iris().X, dtype=float), np.asarray(load_iris().y, dtype=str)  # (150, 4), (150,)
    classes = np.unique(y)
    train, test = np.asarray(result["splits"]["train"]) - 1, np.asarray(result["splits"]["test"]) - 1
    centroids = np.stack([X[train][y[train] == c].mean(axis=0) for c in classes])  # (3, 4)
    nearest = np.argmin(((X[test][:, None, :] - centroids[None]) ** 2).sum(axis=2), axis=1)  # (45,)
    expected = float(np.mean(classes[nearest] == y[test]))
    assert result["metrics"]["test"]["accuracy"] == pytest.approx(expected)
    assert result["metrics"]["test"]["accuracy"] > 0.8  # iris is nearly separable by its class means


def test_exports_predictions_with_probabilities(page):
    result = trained(page)
    export = page("export_predictions", model_id=result["model_id"])
    table = read_csv(export["csv"].encode())
    classes = ["setosa", "versicolor", "virginica"]
    proba = np.column_stack([table.column(f"P({c})") for c in classes])  # (150, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert table.column("prediction").tolist() == result["predictions"]["predicted"]


def test_model_json_round_trips_and_keeps_its_capabilities(page):
    result = trained(page, temperature=0.5)
    text = page("export_model", model_id=result["model_id"])["json"]
    imported = page("import_model", json=text)
    assert imported["label"] == "Nearest centroid" and imported["capabilities"] == result["capabilities"]
    assert imported["model"]["params"]["temperature"] == 0.5
    again = page("import_model", json=page("export_model", model_id=imported["model_id"])["json"])
    assert again["model"]["state"]["centroids_"] == result["model"]["state"]["centroids_"]


def test_python_script_reproduces_the_test_accuracy(page, tmp_path):
    result = trained(page)
    script = page("export_python", model_id=result["model_id"])["script"]
    assert f"from {__name__} import NearestCentroid" in script
    (tmp_path / "iris.csv").write_text(load_iris().csv_text)
    (tmp_path / "run.py").write_text(script)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([PY_DIR, TESTS_DIR])}
    done = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("test accuracy"))
    assert float(line.split(":")[1]) == pytest.approx(result["metrics"]["test"]["accuracy"])


def test_boundary_is_drawn_with_its_probabilities(page):
    result = trained(page)
    grid = page("boundary", model_id=result["model_id"], x="petal length (cm)", y="petal width (cm)",
                resolution=20)
    assert grid["classes"] == ["setosa", "versicolor", "virginica"]
    assert len(grid["predicted"]) == 400 and set(grid["predicted"]) == {0, 1, 2}
    assert all(1 / 3 - 1e-9 <= p <= 1 + 1e-9 for p in grid["probability"])


def test_views_it_does_not_claim_are_refused(page):
    result = trained(page)
    for cmd in ("timeline", "exercise"):
        reply = page.reply(cmd, model_id=result["model_id"])
        assert reply["error"]["code"] == "data_error" and "Nearest centroid" in reply["error"]["message"]


def test_unregistered_it_is_gone_from_the_menu():
    assert "NearestCentroid" not in [m["name"] for m in Page()("models")]
    assert "Unknown model 'NearestCentroid'" in Page().reply("export_python", setup={"model": "NearestCentroid"})[
        "error"]["message"]


def test_defining_it_does_not_make_it_one_of_pellucids_estimators():
    # Importing this module defined the class; only registering its descriptor offers it, and the
    # lists other tests iterate over (every estimator, every learner) never see it.
    import pellucid
    assert "NearestCentroid" not in pellucid.all_estimators()
    iris = load_iris()
    saved = NearestCentroid().fit(iris.X, iris.y).to_dict()
    with registry.registered(DESCRIPTOR):
        assert "NearestCentroid" in pellucid.all_estimators()
        assert pellucid.from_dict(saved).centroids_.shape == (3, 4)
    assert "NearestCentroid" not in pellucid.all_estimators()
    with pytest.raises(pellucid.DataError, match="Unknown model 'NearestCentroid'"):
        pellucid.from_dict(saved)
