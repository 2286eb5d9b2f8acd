"""Preprocessing as a step between the data and the model, through the bridge: defaults from the learner's
descriptor, fitted on the training rows only (refitted in each fold), shown in the train reply, and
applied alike in predictions, the boundary grid, explain, the model JSON and the Python script."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.decomposition import PCA as SkPCA
from sklearn.preprocessing import StandardScaler as SkScaler

from pellucid import KNeighborsClassifier, cross_validate
from pellucid.preprocessing import Pipeline, Preprocessor
from pellucid.tabular.table import Table
from pellucid.workbench import exports

from bridgekit import error, ok, session

PY_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "py")
SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 4}


def mixed_scale_csv(path, n=3000, seed=0):
    """What people bring: an id, a name, columns from 0.01 to 10,000 in scale, a category, gaps written
    as empty cells, NA and ?, and a class that depends on the small and the large column alike."""
    rng = np.random.default_rng(seed)
    small, large, noise = rng.normal(0, 0.01, n), rng.normal(5_000, 10_000, n), rng.normal(0, 1, n)
    label = np.where(small / 0.01 + (large - 5_000) / 10_000 > 0, "good", "bad")
    gaps = ["", "NA", "?"]
    lines = ["id,name,small,large,noise,shop,label"]
    for i in range(n):
        large_cell = gaps[i % 3] if i % 37 == 0 else f"{large[i]:.2f}"
        lines.append(f"{100000 + i},person {i},{small[i]:.6f},{large_cell},{noise[i]:.4f},"
                     f"{'north' if i % 4 else 'south'},{label[i]}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    return ok("load_csv", path=mixed_scale_csv(tmp_path_factory.mktemp("data") / "mixed.csv"))["table_id"]


FEATURES = ["small", "large", "noise", "shop"]


def train(table_id, model, preprocessing=None, evaluation=SPLIT, **params):
    return ok("train", table_id=table_id, target="label", features=FEATURES, model=model, params=params,
              evaluation=evaluation, preprocessing=preprocessing)


def test_knn_standardised_scores_near_the_tree_and_far_above_raw(mixed):
    tree = train(mixed, "DecisionTreeClassifier")["metrics"]["test"]["accuracy"]
    scaled = train(mixed, "KNeighborsClassifier")
    raw = train(mixed, "KNeighborsClassifier", {"standardize": False})
    assert [s["step"] for s in scaled["preprocessing"]] == ["impute", "standardize", "one_hot"]
    assert [s["step"] for s in raw["preprocessing"]] == ["impute", "one_hot"]
    scaled_score, raw_score = (r["metrics"]["test"]["accuracy"] for r in (scaled, raw))
    assert scaled_score > tree - 0.05 and scaled_score > raw_score + 0.1
    logistic = train(mixed, "LogisticRegression")["metrics"]["test"]["accuracy"]
    assert logistic > tree - 0.05


def test_steps_are_fitted_on_the_training_rows_only(mixed):
    result = train(mixed, "KNeighborsClassifier")
    table = session.tables[mixed]
    train_rows = np.array(result["splits"]["train"]) - 1
    impute, standardize, one_hot = result["preprocessing"]
    large = table.column("large")[train_rows]
    assert impute["strategy"] == "mean" and impute["missing"] == {"large": int(np.isnan(table.column("large")).sum())}
    assert impute["values"]["large"] == pytest.approx(np.nanmean(large))
    filled = np.where(np.isnan(large), np.nanmean(large), large)
    columns = np.column_stack([table.column("small")[train_rows], filled, table.column("noise")[train_rows]])
    sk = SkScaler().fit(columns)
    assert standardize["columns"] == ["small", "large", "noise"]
    np.testing.assert_allclose(standardize["mean"], sk.mean_)
    np.testing.assert_allclose(standardize["scale"], sk.scale_)
    assert one_hot == {"step": "one_hot", "columns": ["shop"], "categories": [["north", "south"]]}
    estimator = session.runs[result["model_id"]].estimator  # reads the one-hot columns, as the steps say
    assert estimator.feature_names_in_ == ["small", "large", "noise", "shop=north", "shop=south"]


def test_trees_are_not_standardised_and_need_no_one_hot(mixed):
    steps = train(mixed, "DecisionTreeClassifier")["preprocessing"]
    assert [s["step"] for s in steps] == ["impute"]


def test_drop_rows_leaves_out_rows_missing_a_feature_before_the_split(mixed):
    result = train(mixed, "KNeighborsClassifier", {"impute": "drop"})
    n_missing = int(np.isnan(session.tables[mixed].column("large")).sum())
    assert result["preprocessing"][0] == {"step": "impute", "strategy": "drop", "columns": ["large"],
                                          "missing": {"large": n_missing}, "values": None,
                                          "rows_dropped": n_missing, "kept": None}
    assert sum(len(rows) for rows in result["splits"].values()) == 3000 - n_missing


def test_bad_choices_are_named(mixed):
    assert "impute must be one of" in error("train", table_id=mixed, target="label", features=FEATURES,
                                            model="KNeighborsClassifier", preprocessing={"impute": "zero"})
    assert "standardize must be true or false" in error(
        "train", table_id=mixed, target="label", features=FEATURES, model="KNeighborsClassifier",
        preprocessing={"standardize": "yes"})


def test_kfold_refits_the_preparation_in_each_fold(mixed):
    evaluation = {"method": "kfold", "k": 4, "seed": 1}
    result = train(mixed, "KNeighborsClassifier", evaluation=evaluation)
    table = session.tables[mixed]
    X, y = table.select(FEATURES), table.column("label")
    expected = cross_validate(Pipeline(Preprocessor(impute="mean", standardize=True), KNeighborsClassifier()),
                              X, y, k=4, seed=1)
    assert result["cv"]["scores"] == pytest.approx(expected["test_scores"])


def test_pca_ratios_equal_scikit_learns_on_standardised_training_rows(mixed):
    result = ok("train", table_id=mixed, target="label", features=["small", "large", "noise"], model="PCA",
                params={"n_components": 3}, evaluation=SPLIT)
    table = session.tables[mixed]
    train_rows = np.array(result["splits"]["train"]) - 1
    M = np.column_stack([table.column(n)[train_rows] for n in ("small", "large", "noise")])
    M[:, 1] = np.where(np.isnan(M[:, 1]), np.nanmean(M[:, 1]), M[:, 1])
    sk = SkPCA(n_components=3).fit(SkScaler().fit_transform(M))
    assert result["pca"]["ratios"] == pytest.approx(sk.explained_variance_ratio_.tolist())
    assert result["pca"]["ratios"][0] < 0.5  # not one column's scale taking all the variance


def test_boundary_grid_stays_in_the_users_units(mixed):
    result = train(mixed, "KNeighborsClassifier")
    run = session.runs[result["model_id"]]
    b = ok("boundary", model_id=result["model_id"], x="small", y="large", resolution=12)
    assert b["x_values"][0] < -0.02 and b["y_values"][-1] > 20_000  # original units, not z-scores
    gx, gy = np.meshgrid(b["x_values"], b["y_values"])
    grid = Table({"small": gx.ravel(), "large": gy.ravel(), "noise": np.full(144, b["held"]["noise"]),
                  "shop": np.full(144, b["held"]["shop"], dtype=object)})
    expected = run.estimator.predict(run.prepare(grid))
    assert np.array(b["classes"])[b["predicted"]].tolist() == expected.tolist()


def test_explain_shows_the_row_in_both_units(mixed):
    result = train(mixed, "LogisticRegression")
    run = session.runs[result["model_id"]]
    out = ok("explain_row", model_id=result["model_id"], row=38)  # row 38 (index 37) misses "large"
    scaler = run.preprocessor.scaler_
    assert out["values"]["large"] is None
    assert out["prepared_values"]["large"] == pytest.approx(
        (run.preprocessor.imputer_.statistics_["large"] - scaler.mean_["large"]) / scaler.scale_["large"])


def test_model_json_keeps_the_preparation_and_predicts_the_same(mixed):
    result = train(mixed, "KNeighborsClassifier")
    text = ok("export_model", model_id=result["model_id"])["json"]
    assert json.loads(text)["workbench"]["preprocessing"]["standardize"] is True
    imported = exports.import_model(text)
    table = session.tables[mixed]
    predicted = imported.estimator.predict(imported.prepare(table.select(FEATURES)))
    assert predicted.tolist() == result["predictions"]["predicted"]


def test_python_script_reproduces_the_standardised_score(mixed, tmp_path):
    result = train(mixed, "KNeighborsClassifier")
    script = ok("export_python", model_id=result["model_id"])["script"]
    assert "Preprocessor(impute='mean', standardize=True)" in script
    mixed_scale_csv(tmp_path / "data.csv")  # the name load_csv gives an unnamed upload
    (tmp_path / "run.py").write_text(script)
    done = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": PY_DIR},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("test accuracy"))
    assert float(line.split(":")[1]) == pytest.approx(result["metrics"]["test"]["accuracy"])


def test_a_text_feature_is_one_hot_encoded_for_naive_bayes_on_numbers(mixed):
    result = train(mixed, "GaussianNB")  # it reads numbers only; it used to ask the user to one-hot encode
    assert [s["step"] for s in result["preprocessing"]] == ["impute", "one_hot"]
    estimator = session.runs[result["model_id"]].estimator
    assert estimator.feature_names_in_[-2:] == ["shop=north", "shop=south"]
    assert result["metrics"]["test"]["accuracy"] > 0.65  # two classes of about equal size: well above chance
