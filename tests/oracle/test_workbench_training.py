"""`train` through the bridge: honest splits, k-fold, metrics per split, clusters, PCA, reply size."""

import json

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.decomposition import PCA as SkPCA
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import silhouette_score as sk_silhouette

from pellucid import cluster_metrics, model_selection
from pellucid.tabular.datasets import load_iris
from pellucid.tabular.table import Table
from pellucid.learners.tree import DecisionTreeClassifier

from bridgekit import error, ok, session

SPLIT = {"method": "split", "train": 60, "validation": 20, "test": 20, "stratify": True, "seed": 0}


@pytest.fixture
def iris():
    return ok("load_example", name="iris")["table_id"]


def train(table_id, model="DecisionTreeClassifier", target="species", evaluation=SPLIT, **extra):
    return ok("train", table_id=table_id, target=target, features=None, model=model, params=extra.pop(
        "params", {}), evaluation=evaluation, **extra)


def test_split_is_stratified_disjoint_and_complete(iris):
    result = train(iris)
    splits = result["splits"]
    rows = sorted(splits["train"] + splits["validation"] + splits["test"])
    assert rows == list(range(1, 151))  # 1-based rows of the loaded table, each in one part
    assert [len(splits[p]) for p in ("train", "validation", "test")] == [90, 30, 30]
    species = load_iris().y
    for part in ("validation", "test"):
        _, counts = np.unique(species[np.array(splits[part]) - 1], return_counts=True)
        assert counts.tolist() == [10, 10, 10]
    # the same rows model_selection draws for the same seed
    expected = model_selection.train_val_test_split(np.arange(150), val_size=0.2, test_size=0.2,
                                                    stratify=species, seed=0)
    for part, rows in zip(("train", "validation", "test"), expected):
        assert [r - 1 for r in splits[part]] == rows.tolist()


def test_metrics_per_split_match_a_model_fitted_on_the_training_rows(iris):
    result = train(iris, params={"max_depth": 2})
    data = load_iris()
    train_rows = np.array(result["splits"]["train"]) - 1
    tree = DecisionTreeClassifier(max_depth=2).fit(data.X[train_rows].astype(float), data.y[train_rows])
    for part in ("train", "validation", "test"):
        rows = np.array(result["splits"][part]) - 1
        expected = tree.score(data.X[rows].astype(float), data.y[rows])
        assert result["metrics"][part]["accuracy"] == pytest.approx(expected)
        assert set(result["metrics"][part]["macro"]) == {"precision", "recall", "f1"}


def test_balanced_accuracy_of_each_split_is_scikit_learns(tmp_path):
    """An imbalanced target (80/15/5): balanced accuracy is shown beside accuracy and equals
    scikit-learn's balanced_accuracy_score on the same rows."""
    from sklearn.metrics import balanced_accuracy_score

    rng = np.random.default_rng(3)
    labels = rng.choice(["common", "rare", "scarce"], size=400, p=[0.8, 0.15, 0.05])
    shift = {"common": 0.0, "rare": 1.0, "scarce": 2.0}
    x = np.array([shift[c] for c in labels]) + rng.normal(0, 0.9, 400)
    path = tmp_path / "imbalanced.csv"
    path.write_text("x,noise,label\n" + "".join(f"{a:.4f},{b:.4f},{c}\n" for a, b, c in
                                                zip(x, rng.normal(size=400), labels)))
    table_id = ok("load_csv", path=str(path))["table_id"]
    result = train(table_id, target="label", params={"max_depth": 2})
    actual = np.array(result["predictions"]["actual"], dtype=object)
    predicted = np.array(result["predictions"]["predicted"], dtype=object)
    for part in ("train", "validation", "test"):
        rows = np.array(result["splits"][part]) - 1
        expected = balanced_accuracy_score(actual[rows], predicted[rows])
        assert result["metrics"][part]["balanced_accuracy"] == pytest.approx(expected, abs=1e-12)
        assert result["metrics"][part]["balanced_accuracy"] != pytest.approx(result["metrics"][part]["accuracy"])


def test_confusion_rows_are_rows_of_the_loaded_table(iris):
    result = train(iris, params={"max_depth": 1})  # a stump: some rows are misclassified
    species = load_iris().y
    predicted = dict(zip(result["predictions"]["rows"], result["predictions"]["predicted"]))
    confusion = result["metrics"]["test"]["confusion"]
    listed = []
    for i, true_label in enumerate(confusion["labels"]):
        for j, predicted_label in enumerate(confusion["labels"]):
            cell = confusion["rows"][i][j]
            assert len(cell) == confusion["matrix"][i][j]
            for row in cell:
                assert species[row - 1] == true_label and predicted[row] == predicted_label
            listed += cell
    assert sorted(listed) == sorted(result["splits"]["test"])
    assert any(confusion["matrix"][i][j] for i in range(3) for j in range(3) if i != j)


def test_predictions_carry_split_and_actual(iris):
    result = train(iris)
    p = result["predictions"]
    assert len(p["rows"]) == len(p["split"]) == len(p["predicted"]) == len(p["actual"]) == 150
    assert p["actual"] == load_iris().y.tolist()
    assert {p["split"][r - 1] for r in result["splits"]["test"]} == {"test"}


def test_kfold_equals_model_selection(iris):
    evaluation = {"method": "kfold", "k": 5, "stratify": True, "seed": 3}
    result = train(iris, evaluation=evaluation)
    data = load_iris()
    X = Table({name: data.X[:, j].astype(float) for j, name in enumerate(data.feature_names)})
    expected = model_selection.cross_validate(DecisionTreeClassifier(), X, data.y, k=5, stratified=True,
                                              shuffle=True, seed=3, return_indices=True)
    assert result["cv"]["scores"] == pytest.approx(expected["test_scores"])
    assert result["cv"]["mean"] == pytest.approx(expected["mean"])
    assert result["cv"]["std"] == pytest.approx(expected["std"])
    assert [[r - 1 for r in fold] for fold in result["cv"]["folds"]] == expected["test_rows"]
    assert result["final_model"] == "trained on all rows"
    # the metrics are out-of-fold (the final model's in-sample 100% is never shown as a score)
    assert len(result["splits"]["train"]) == 150 and set(result["metrics"]) == {"out_of_fold"}
    sizes = [len(fold) for fold in result["cv"]["folds"]]
    assert result["metrics"]["out_of_fold"]["accuracy"] == pytest.approx(np.average(expected["test_scores"],
                                                                                    weights=sizes))


def test_regression_split_without_validation():
    table_id = ok("load_example", name="line", n=200, noise=0.1, seed=2)["table_id"]
    result = ok("train", table_id=table_id, target="y", features=None, model="LinearRegression", params={},
                evaluation={"method": "split", "train": 75, "validation": 0, "test": 25, "seed": 1})
    assert set(result["metrics"]) == {"train", "test"} and result["splits"]["validation"] == []
    assert len(result["splits"]["test"]) == 50
    assert result["metrics"]["test"]["r2"] > 0.95
    weights = result["model"]["state"]["coef_"]["__ndarray__"]
    assert weights[0] == pytest.approx(1.5, abs=0.05)
    curve = result["fit_curve"]
    assert curve["feature"] == "x" and len(curve["x"]) == 200 and curve["others"] == []
    np.testing.assert_allclose(curve["predicted"], weights[0] * np.array(curve["x"]) +
                               result["model"]["state"]["intercept_"], atol=1e-9)


def test_clustering_metrics_match_the_measures(iris):
    # the target is kept out of the features (it only colours the points)
    result = train(iris, model="KMeans", evaluation={"method": "none"}, params={"k": 3})
    assert result["features"] == load_iris().feature_names
    labels = np.array(result["clusters"]["labels"])
    M = StandardScaler().fit_transform(load_iris().X.astype(float))  # k-means reads standardised columns
    metrics = result["metrics"]["train"]
    assert metrics["silhouette"] == pytest.approx(sk_silhouette(M, labels))
    assert metrics["dunn"] == pytest.approx(cluster_metrics.dunn_index(M, labels))
    assert metrics["inertia"] == pytest.approx(cluster_metrics.inertia(M, labels))
    assert sum(result["clusters"]["sizes"]) == 150 and len(result["clusters"]["centres"]) == 3


def test_kfold_on_a_clustering_says_it_used_all_rows(iris):
    result = train(iris, model="KMeans", target=None, evaluation={"method": "kfold", "k": 5})
    assert "cv" not in result and any("all rows" in w for w in result["warnings"])


def test_dendrogram_is_whole_for_small_data_and_the_top_for_large():
    small = ok("load_example", name="blobs", n=100, noise=0.3, seed=0)["table_id"]
    result = ok("train", table_id=small, target="class", features=["x1", "x2"], model="AgglomerativeClustering",
                params={"k": 3}, evaluation={"method": "none"})
    d = result["dendrogram"]
    assert not d["truncated"] and len(d["merges"]) == 99 and d["merges"][-1]["size"] == 100
    large = ok("load_example", name="blobs", n=2500, noise=0.3, seed=0)["table_id"]
    result = ok("train", table_id=large, target="class", features=["x1", "x2"], model="AgglomerativeClustering",
                params={"k": 3}, evaluation={"method": "none"})
    d = result["dendrogram"]
    assert d["truncated"] and len(d["merges"]) == 200 and d["first_merge"] == 2499 - 200
    assert d["merges"][-1]["size"] == 2500 and d["n_leaves"] == 2500
    assert "X_fit_" not in result["model"]["state"] and result["model"]["stores_training_rows"]


def test_pca_readout_matches_scikit_learn(iris):
    result = train(iris, model="PCA", evaluation={"method": "none"}, params={"n_components": 2})
    Z = StandardScaler().fit_transform(load_iris().X.astype(float))  # PCA is standardised by default
    sk = SkPCA(n_components=2).fit(Z)
    assert result["pca"]["ratios"] == pytest.approx(sk.explained_variance_ratio_.tolist())
    assert result["pca"]["cumulative"][-1] == pytest.approx(sum(sk.explained_variance_ratio_))
    projection = np.array(result["pca"]["projection"])
    assert projection.shape == (150, 2)
    np.testing.assert_allclose(np.abs(projection), np.abs(sk.transform(Z)), atol=1e-9)
    assert result["pca"]["target_values"] == load_iris().y.tolist()


def test_trace_only_when_asked(iris):
    assert "trace" not in train(iris)
    traced = train(iris, include_trace=True)
    assert isinstance(traced["trace"], list) and traced["trace"]


def test_knn_reply_leaves_the_stored_rows_out(iris):
    result = train(iris, model="KNeighborsClassifier")
    assert result["model"]["stores_training_rows"] is True
    assert "X_fit_" not in result["model"]["state"] and "X_fit_" in result["model"]["omitted_state"]
    full = json.loads(ok("export_model", model_id=result["model_id"])["json"])
    assert full["state"]["X_fit_"]["shape"] == [90, 4]


@pytest.mark.parametrize("evaluation, fragment", [
    ({"method": "split", "train": 60, "validation": 30, "test": 20}, "add up to 100"),
    ({"method": "split", "train": 0, "validation": 50, "test": 50}, "training part"),
    ({"method": "bootstrap"}, "evaluation method"),
    ({"method": "kfold", "k": 1}, "k must be"),
    ({"method": "kfold", "k": 200}, "k must be"),
])
def test_bad_evaluation_is_named(iris, evaluation, fragment):
    assert fragment in error("train", table_id=iris, target="species", features=None,
                             model="DecisionTreeClassifier", params={}, evaluation=evaluation)


def test_missing_values_are_imputed_from_training_rows_or_their_rows_dropped(tmp_path):
    path = tmp_path / "gaps.csv"
    path.write_text("a,b,c,y\n1,,x,yes\n2,3,,no\n,4,z,yes\n4,5,x,no\n5,6,v,yes\n")
    table_id = ok("load_csv", path=str(path))["table_id"]
    result = ok("train", table_id=table_id, target="y", features=None, model="DecisionTreeClassifier",
                params={}, evaluation={"method": "none"})
    impute = result["preprocessing"][0]  # a tree keeps the missing numbers, and fills the missing text
    assert impute["step"] == "impute" and impute["missing"] == {"a": 1, "b": 1, "c": 1}
    assert impute["strategy"] == "keep" and impute["kept"] == {"a": 1, "b": 1}
    assert impute["values"] == {"c": "x"} and impute["rows_dropped"] == 0
    assert result["metrics"]["train"]["n"] == 5
    result = ok("train", table_id=table_id, target="y", features=None, model="DecisionTreeClassifier",
                params={}, evaluation={"method": "none"}, preprocessing={"impute": "mean"})
    impute = result["preprocessing"][0]
    assert impute["values"] == {"a": 3.0, "b": 4.5, "c": "x"} and impute["kept"] is None
    dropped = ok("train", table_id=table_id, target="y", features=None, model="DecisionTreeClassifier",
                 params={}, evaluation={"method": "none"}, preprocessing={"impute": "drop"})
    assert dropped["preprocessing"][0]["rows_dropped"] == 3 and dropped["metrics"]["train"]["n"] == 2


def test_unknown_parameter_and_model_are_named(iris):
    assert "'depth'" in error("train", table_id=iris, target="species", features=None,
                              model="DecisionTreeClassifier", params={"depth": 3}, evaluation=SPLIT)
    assert "Unknown model 'Forest'" in error("train", table_id=iris, target="species", features=None,
                                             model="Forest", params={}, evaluation=SPLIT)
    assert "'petal'" in error("train", table_id=iris, target="species", features=["petal"],
                              model="DecisionTreeClassifier", params={}, evaluation=SPLIT)


def test_a_10000_by_10_reply_stays_small(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(10_000, 10))
    columns = {f"f{j}": X[:, j] for j in range(10)}
    columns["label"] = np.where(X[:, 0] + X[:, 1] > 0, "yes", "no").astype(object)
    path = tmp_path / "big.csv"
    path.write_text(Table(columns).to_csv())
    table_id = ok("load_csv", path=str(path))["table_id"]
    for model in ("DecisionTreeClassifier", "KMeans", "PCA"):
        text = session.handle_json("train", json.dumps({"table_id": table_id, "target": "label", "features": None,
                                                       "model": model, "params": {}, "evaluation": SPLIT}))
        reply = json.loads(text)
        assert reply["ok"], reply
        assert len(text) < 2_000_000, (model, len(text))
    assert any("silhouette" in w for w in reply_warnings(table_id))


def reply_warnings(table_id):
    return ok("train", table_id=table_id, target=None, features=None, model="KMeans", params={},
              evaluation={"method": "none"})["warnings"]
