"""The "Compare with scikit-learn" command: the same rows, matching settings, the same scores where the
two models solve the same problem, and a clear message where there is no equivalent."""

import csv
import sys

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier

from pellucid import bridge

IRIS_FEATURES = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"]
SPLIT = {"method": "split", "train": 60, "validation": 20, "test": 20, "stratify": True, "seed": 3}
session = bridge.Session()


def ok(reply):
    assert reply["ok"], reply
    return reply["result"]


@pytest.fixture
def iris():
    table = ok(session.handle("load_example", {"name": "iris"}))
    X = np.array([table_row[:4] for table_row in _rows(table["table_id"])], dtype=float)
    y = np.array([table_row[4] for table_row in _rows(table["table_id"])], dtype=object)
    return table["table_id"], X, y


def load_untied_iris(iris, folder):
    """(table id, X, y) of iris with every value moved by less than 0.005 (seeded), loaded as a user's
    CSV (which replaces the loaded table). Raw iris repeats values, so k-NN meets rows at equal distance,
    and which of them counts among the k nearest is resolved differently by the two libraries, and by
    scikit-learn from one version to the next; here no distance ties (each k-NN test checks it)."""
    _, X, y = iris
    moved = X + np.random.default_rng(0).uniform(-0.005, 0.005, size=X.shape)  # (150, 4)
    path = folder / "iris-untied.csv"
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(IRIS_FEATURES + ["species"])
        writer.writerows([*map(repr, row), label] for row, label in zip(moved.tolist(), y))
    table = ok(session.handle("load_csv", {"path": str(path), "name": path.name}))
    return table["table_id"], moved, y


def assert_no_tie_at_the_kth_neighbour(X, splits, k, standardize=False):
    """For every scored row, the k-th nearest training row is nearer than the (k+1)-th by far more than
    rounding can move a distance: any exact search finds the same k neighbours."""
    train = np.asarray(splits["train"]) - 1
    space = (X - X[train].mean(axis=0)) / X[train].std(axis=0) if standardize else X  # (n, d)
    scored = np.concatenate([np.asarray(rows, dtype=int) - 1 for rows in splits.values()])
    D = np.sqrt(((space[scored, None, :] - space[None, train, :]) ** 2).sum(axis=2))  # (n scored, n train)
    D.sort(axis=1)
    assert np.min(D[:, k] - D[:, k - 1]) > 1e-9 * D.max()


def _rows(table_id):
    table = session.tables[table_id]
    return list(zip(*[table.column(c).tolist() for c in table.columns]))


def train(table_id, model, params=None, evaluation=SPLIT, target="species"):
    features = IRIS_FEATURES
    return ok(session.handle("train", {"table_id": table_id, "target": target, "features": features,
                                      "model": model, "params": params or {}, "evaluation": evaluation}))


def compare(result):
    return ok(session.handle("check_twin", {"model_id": result["model_id"]}))


def scores(c):
    return {s["split"]: (s["pellucid"], s["sklearn"]) for s in c["scores"]}


@pytest.mark.parametrize("model, params, target", [
    ("DecisionTreeClassifier", {}, "species"), ("LogisticRegression", {"l2": 0.01}, "species"),
    ("GaussianNB", {}, "species"), ("KNeighborsClassifier", {"n_neighbors": 5}, "species"),
    ("KMeans", {"n_clusters": 3}, None), ("PCA", {"n_components": 2}, None)])
def test_sklearn_is_fitted_and_scored_on_the_runs_rows(iris, model, params, target):
    result = train(iris[0], model, params, target=target)
    c = compare(result)
    assert c["equivalent"] and c["evaluation"] == "split"
    assert c["rows"] == result["splits"]  # the same 1-based train/validation/test rows
    assert sorted(c["rows"]["train"] + c["rows"]["validation"] + c["rows"]["test"]) == list(range(1, 151))
    assert [s["split"] for s in c["scores"]] == ["train", "validation", "test"]
    assert [s["n"] for s in c["scores"]] == [90, 30, 30]
    assert c["fit_seconds"]["rows"] == 90 and c["fit_seconds"]["pellucid"] > 0 and c["fit_seconds"]["sklearn"] > 0
    assert c["notes"]
    for split, (ours, _) in scores(c).items():  # our side is the run itself, refitted identically
        if model in ("DecisionTreeClassifier", "LogisticRegression", "GaussianNB", "KNeighborsClassifier"):
            assert ours == pytest.approx(result["metrics"][split]["accuracy"])
        elif model == "PCA":
            assert ours == pytest.approx(result["metrics"][split]["variance_kept"])
        else:
            assert ours == pytest.approx(result["metrics"][split]["silhouette"])


@pytest.mark.parametrize("model, params", [
    ("GaussianNB", {}), ("LogisticRegression", {"l2": 0.01}), ("LogisticRegression", {"l2": 0.1, "standardize": True})])
def test_same_objective_gives_the_same_scores(iris, model, params):
    c = compare(train(iris[0], model, params))
    for split, (ours, theirs) in scores(c).items():
        assert ours == pytest.approx(theirs, abs=1e-12), split


@pytest.mark.parametrize("params", [{"n_neighbors": 5}, {"n_neighbors": 7, "standardize": True}])
def test_k_nn_gives_the_same_scores_where_no_distances_tie(iris, tmp_path, params):
    # Tied votes are no exception: both libraries give a tied vote to the smallest label.
    table_id, X, _ = load_untied_iris(iris, tmp_path)
    result = train(table_id, "KNeighborsClassifier", params)
    assert_no_tie_at_the_kth_neighbour(X, result["splits"], params["n_neighbors"], params.get("standardize", False))
    for split, (ours, theirs) in scores(compare(result)).items():
        assert ours == pytest.approx(theirs, abs=1e-12), split


def test_sklearn_score_is_that_of_sklearn_on_those_rows(iris, tmp_path):
    table_id, X, y = iris
    result = train(table_id, "GaussianNB")
    c = compare(result)
    train_rows = np.array(result["splits"]["train"]) - 1
    test_rows = np.array(result["splits"]["test"]) - 1
    oracle = GaussianNB().fit(X[train_rows], y[train_rows])
    assert scores(c)["test"][1] == pytest.approx(oracle.score(X[test_rows], y[test_rows]))
    assert "C=" in compare(train(table_id, "LogisticRegression", {"l2": 0.01}))["sklearn"]["estimator"]
    # k-NN on rows without tied distances, where scikit-learn's own searches (brute force in the
    # comparison, a tree here by default) find the same neighbours.
    untied_id, X, y = load_untied_iris(iris, tmp_path)
    result = train(untied_id, "KNeighborsClassifier", {"n_neighbors": 3})
    assert_no_tie_at_the_kth_neighbour(X, result["splits"], 3)
    train_rows, validation_rows = (np.array(result["splits"][name]) - 1 for name in ("train", "validation"))
    oracle = KNeighborsClassifier(n_neighbors=3).fit(X[train_rows], y[train_rows])
    expected = oracle.score(X[validation_rows], y[validation_rows])
    assert scores(compare(result))["validation"][1] == pytest.approx(expected)


def test_tree_kmeans_and_pca_agree_where_they_should(iris):
    tree = scores(compare(train(iris[0], "DecisionTreeClassifier")))
    assert tree["train"] == (1.0, 1.0)  # both grow until every training row is fitted
    assert abs(tree["test"][0] - tree["test"][1]) <= 0.1
    pca = scores(compare(train(iris[0], "PCA", {"n_components": 2}, target=None)))
    for ours, theirs in pca.values():
        assert ours == pytest.approx(theirs, abs=1e-9)  # the same components
    kmeans = scores(compare(train(iris[0], "KMeans", {"n_clusters": 3}, target=None)))
    for ours, theirs in kmeans.values():
        assert ours == pytest.approx(theirs, abs=0.05)  # greedy k-means++ may start elsewhere


def test_kfold_uses_the_runs_folds(iris):
    evaluation = {"method": "kfold", "k": 5, "stratify": True, "seed": 1}
    result = train(iris[0], "GaussianNB", evaluation=evaluation)
    c = compare(result)
    assert c["evaluation"] == "kfold"
    assert c["folds"] == result["cv"]["folds"]
    assert c["fold_scores"]["pellucid"] == pytest.approx(result["cv"]["scores"])
    assert c["fold_scores"]["sklearn"] == pytest.approx(result["cv"]["scores"])
    assert c["scores"][0]["pellucid"] == pytest.approx(result["cv"]["mean"])
    assert c["fit_seconds"]["per_fold"] is True


def test_regression_and_ridge_match(iris):
    c = _regression(iris[0], "LinearRegression", {"l2": 0.05})
    assert c["sklearn"]["estimator"].startswith("Ridge(alpha=")
    for ours, theirs in scores(c).values():
        assert ours == pytest.approx(theirs, abs=1e-9)


def _regression(table_id, model, params):
    features = IRIS_FEATURES[:3] + ["species"]  # a categorical feature: one-hot encoded on both sides
    result = ok(session.handle("train", {"table_id": table_id, "target": IRIS_FEATURES[3], "features": features,
                                        "model": model, "params": params, "evaluation": SPLIT}))
    c = ok(session.handle("check_twin", {"model_id": result["model_id"]}))
    assert "one-hot" in c["sklearn"]["preparation"]
    return c


def test_kernel_perceptron_has_no_equivalent(iris):
    c = compare(train(iris[0], "KernelPerceptron"))
    assert c["equivalent"] is False
    assert "no equivalent in scikit-learn" in c["message"]
    assert "scores" not in c


def test_without_sklearn_it_says_it_is_not_loaded(iris, monkeypatch):
    result = train(iris[0], "GaussianNB")
    monkeypatch.setitem(sys.modules, "sklearn", None)  # import sklearn now raises ImportError
    reply = session.handle("check_twin", {"model_id": result["model_id"]})
    assert reply["ok"] is False and reply["error"]["type"] == "DataError"
    assert reply["error"]["message"].startswith("scikit-learn is not loaded")


def test_unknown_model_id_is_a_data_error():
    reply = session.handle("check_twin", {"model_id": "m-nope"})
    assert reply["error"]["type"] == "DataError" and "train one first" in reply["error"]["message"]


def test_pellucid_imports_sklearn_only_where_it_is_needed():
    # twin_check.py, when a comparison is asked for; core/sklearn_protocols.py, inside the Tags and the
    # metadata routing, which only scikit-learn itself calls. Never at a module's top: pellucid imports
    # without scikit-learn.
    import pathlib
    import re
    import subprocess
    package = pathlib.Path(bridge.__file__).parent
    pattern = re.compile(r"^\s*(import|from) sklearn\b", re.MULTILINE)
    importers = sorted(p.relative_to(package).as_posix() for p in package.rglob("*.py")
                       if pattern.search(p.read_text()))
    assert importers == ["core/sklearn_protocols.py", "workbench/twin_check.py"]
    check = "import sys, pellucid, pellucid.bridge; assert 'sklearn' not in sys.modules, 'scikit-learn was imported'"
    subprocess.run([sys.executable, "-c", check], cwd=package.parent, check=True)


@pytest.mark.parametrize("model", ["DecisionTreeClassifier", "CategoricalNB", "KNeighborsClassifier"])
def test_columns_with_missing_cells_are_compared_too(tmp_path, model):
    """Missing numbers and missing categories (filled, or kept by a tree) are no category of their own."""
    rng = np.random.default_rng(1)
    path = tmp_path / "gaps.csv"
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["size", "colour", "label"])
        for _ in range(120):
            size, colour = rng.normal(), str(rng.choice(["red", "blue", "green"]))
            writer.writerow(["NA" if rng.random() < 0.2 else f"{size:.3f}", "" if rng.random() < 0.2 else colour,
                             "big" if size > 0 else "small"])
    table = ok(session.handle("load_csv", {"path": str(path), "name": path.name}))
    features = ["colour"] if model == "CategoricalNB" else ["size", "colour"]
    result = ok(session.handle("train", {"table_id": table["table_id"], "target": "label", "features": features,
                                         "model": model, "params": {}, "evaluation": SPLIT}))
    checked = compare(result)
    assert set(scores(checked)) == {"train", "validation", "test"}
