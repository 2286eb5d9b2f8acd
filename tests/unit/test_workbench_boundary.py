"""`boundary`: the grid's shape and range, the held values, predictions equal to the model's, errors."""

import numpy as np
import pytest

from pellucid.tabular.datasets import load_iris
from pellucid.learners.projection.pca import PCA
from pellucid.tabular.table import Table

from bridgekit import error, ok, session

SPLIT = {"method": "split", "train": 60, "validation": 20, "test": 20, "stratify": True, "seed": 0}


def trained(model="LogisticRegression", example="iris", target="species", features=None, **params):
    table_id = ok("load_example", name=example)["table_id"]
    result = ok("train", table_id=table_id, target=target, features=features, model=model, params=params,
                evaluation=SPLIT)
    return result, session.runs[result["model_id"]]


X_NAME, Y_NAME = "petal length (cm)", "petal width (cm)"


def test_grid_shape_range_and_held_training_means():
    result, run = trained()
    b = ok("boundary", model_id=result["model_id"], x=X_NAME, y=Y_NAME, resolution=40)
    assert (b["width"], b["height"]) == (40, 40) and len(b["predicted"]) == len(b["probability"]) == 1600
    data = load_iris()
    x = data.X[:, 2].astype(float)
    margin = 0.05 * (x.max() - x.min())
    assert b["x_values"][0] == pytest.approx(x.min() - margin)
    assert b["x_values"][-1] == pytest.approx(x.max() + margin)
    train_rows = np.array(result["splits"]["train"]) - 1
    assert set(b["held"]) == {"sepal length (cm)", "sepal width (cm)"}
    assert b["held"]["sepal length (cm)"] == pytest.approx(data.X[train_rows, 0].astype(float).mean())
    assert b["classes"] == ["setosa", "versicolor", "virginica"]


def test_grid_predictions_are_the_models():
    result, run = trained()
    b = ok("boundary", model_id=result["model_id"], x=X_NAME, y=Y_NAME, resolution=30)
    gx, gy = np.meshgrid(b["x_values"], b["y_values"])  # row-major: height rows of width cells
    grid = Table({"sepal length (cm)": np.full(900, b["held"]["sepal length (cm)"]),
                  "sepal width (cm)": np.full(900, b["held"]["sepal width (cm)"]),
                  X_NAME: gx.ravel(), Y_NAME: gy.ravel()})
    expected = run.estimator.predict(run.prepare(grid))  # the grid is in the user's units
    assert np.array(b["classes"])[b["predicted"]].tolist() == expected.tolist()
    np.testing.assert_allclose(b["probability"], run.estimator.predict_proba(run.prepare(grid)).max(axis=1))
    assert len(set(b["predicted"])) == 3


def test_points_carry_label_and_split():
    result, _ = trained()
    b = ok("boundary", model_id=result["model_id"], x=X_NAME, y=Y_NAME, resolution=10)
    points = b["points"]
    assert len(points["x"]) == 150 and points["x"] == load_iris().X[:, 2].astype(float).tolist()
    assert sorted(set(points["label"])) == [0, 1, 2]
    test_rows = result["splits"]["test"]
    assert [points["split"][r - 1] for r in test_rows] == ["test"] * len(test_rows)


def test_categorical_axes_are_refused():
    result, run = trained("DecisionTreeClassifier", "restaurant", "WillWait")
    message = error("boundary", model_id=result["model_id"], x="Pat", y="Hun", resolution=10)
    assert "'Pat' is categorical" in message


def test_mixed_features_hold_the_mode(tmp_path):
    rng = np.random.default_rng(0)
    n = 60
    colour = np.where(rng.random(n) < 0.7, "red", "blue").astype(object)
    x1, x2 = rng.normal(size=n), rng.normal(size=n)
    label = np.where(x1 + (colour == "red") > 0.5, "yes", "no").astype(object)
    path = tmp_path / "mixed.csv"
    path.write_text(Table({"x1": x1, "x2": x2, "colour": colour, "label": label}).to_csv())
    table_id = ok("load_csv", path=str(path))["table_id"]
    result = ok("train", table_id=table_id, target="label", features=None, model="LogisticRegression", params={},
                evaluation={"method": "none"})
    b = ok("boundary", model_id=result["model_id"], x="x1", y="x2", resolution=20)
    assert b["held"] == {"colour": "red"} and (colour == "red").sum() > n / 2
    gx, gy = np.meshgrid(b["x_values"], b["y_values"])
    grid = Table({"x1": gx.ravel(), "x2": gy.ravel(), "colour": np.full(400, "red", dtype=object)})
    run = session.runs[result["model_id"]]
    expected = run.estimator.predict(run.prepare(grid))  # standardised as the training rows were
    assert np.array(b["classes"])[b["predicted"]].tolist() == expected.tolist()


def test_pca_projection_grid_maps_back_through_inverse_transform():
    result, run = trained("GaussianNB")
    b = ok("boundary", model_id=result["model_id"], x=None, y=None, projection="pca", resolution=25)
    assert (b["x_name"], b["y_name"]) == ("PC1", "PC2") and b["held"] == {}
    data = load_iris()
    train_rows = np.array(result["splits"]["train"]) - 1
    X = data.X.astype(float)
    mean, scale = X[train_rows].mean(axis=0), X[train_rows].std(axis=0)  # the plane is fitted in z-scores
    pca = PCA(n_components=2).fit((X[train_rows] - mean) / scale)
    Z = pca.transform((X - mean) / scale)
    np.testing.assert_allclose(b["points"]["x"], Z[:, 0])
    gx, gy = np.meshgrid(b["x_values"], b["y_values"])
    back = pca.inverse_transform(np.column_stack([gx.ravel(), gy.ravel()])) * scale + mean
    expected = run.estimator.predict(back)
    assert np.array(b["classes"])[b["predicted"]].tolist() == expected.tolist()


def test_pca_plane_with_missing_values_and_columns_on_far_apart_scales(tmp_path):
    rng = np.random.default_rng(0)
    n = 400
    small = rng.normal(0.05, 0.01, n)  # hundredths
    large = 5000 + 2000 * (small - 0.05) / 0.01 + rng.normal(0, 300, n)  # thousands, tied to `small`
    noise = rng.normal(0, 1, n)
    label = np.where(small + rng.normal(0, 0.005, n) > 0.05, "high", "low")
    lines = ["id,small,large,noise,label"]
    for i in range(n):
        cells = [str(i), f"{small[i]:.5f}", f"{large[i]:.1f}", f"{noise[i]:.3f}", label[i]]
        if i % 17 == 0:
            cells[1 + i % 3] = ["NA", "", "?"][i % 3]
        lines.append(",".join(cells))
    path = tmp_path / "scales.csv"
    path.write_text("\n".join(lines) + "\n")
    table_id = ok("load_csv", path=str(path), name="scales.csv")["table_id"]
    result = ok("train", table_id=table_id, target="label", features=["small", "large", "noise"],
                model="LogisticRegression", params={}, evaluation=SPLIT)
    b = ok("boundary", model_id=result["model_id"], x=None, y=None, projection="pca", resolution=20)
    assert np.isfinite(b["points"]["x"]).all() and np.isfinite(b["points"]["y"]).all()
    # In z-scores the two tied columns make the first component; in raw units `large` alone would.
    assert len(set(b["predicted"])) == 2


def test_one_feature_is_drawn_against_the_row_number():
    table_id = ok("load_example", name="blobs", n=120, noise=0.1, seed=0)["table_id"]
    model = ok("train", table_id=table_id, target=None, features=["x1"], model="AgglomerativeClustering",
               params={"k": 3}, evaluation={"method": "none"})
    b = ok("boundary", model_id=model["model_id"], x="x1", y=None, resolution=12)
    assert (b["x_name"], b["y_name"]) == ("x1", "row number")
    assert b["points"]["y"] == list(range(1, 121)) and len(b["predicted"]) == 144
    rows = np.array(b["predicted"]).reshape(12, 12)
    assert (rows == rows[0]).all()  # the prediction depends on x alone
    assert sorted(set(b["points"]["label"])) == [0, 1, 2]


def test_regressor_and_clusterer_grids():
    table_id = ok("load_example", name="moons", n=200, noise=0.1, seed=0)["table_id"]
    reg = ok("train", table_id=table_id, target="x2", features=["x1"], model="LinearRegression", params={},
             evaluation={"method": "none"})
    assert "one of the model's features" in error("boundary", model_id=reg["model_id"], x="x1", y="x2")
    km = ok("train", table_id=table_id, target="class", features=["x1", "x2"], model="KMeans",
            params={"k": 4}, evaluation={"method": "none"})
    b = ok("boundary", model_id=km["model_id"], x="x1", y="x2", resolution=20)
    assert b["classes"] == [0, 1, 2, 3] and b["probability"] is None
    assert b["points"]["label"] == km["clusters"]["labels"]
    line = ok("load_example", name="blobs", n=200, noise=0.1, seed=0)["table_id"]
    tree = ok("train", table_id=line, target="x2", features=["x1", "class"], model="DecisionTreeRegressor",
              params={"max_depth": 3}, evaluation={"method": "none"})
    assert "'class' is categorical" in error("boundary", model_id=tree["model_id"], x="x1", y="class")


@pytest.mark.parametrize("args, fragment", [
    ({"x": X_NAME, "y": Y_NAME, "resolution": 301}, "resolution must be"),
    ({"x": X_NAME, "y": X_NAME}, "two different features"),
    ({"x": "petal", "y": Y_NAME}, "'petal' is not one of"),
    ({"projection": "tsne"}, "projection must be"),
])
def test_bad_boundary_requests_are_named(args, fragment):
    result, _ = trained()
    assert fragment in error("boundary", model_id=result["model_id"], **args)


def test_pca_models_and_unknown_ids_have_no_boundary():
    result, _ = trained("PCA")
    assert "no decision boundary" in error("boundary", model_id=result["model_id"], x=X_NAME, y=Y_NAME)
    assert "No model is kept under id 'm0'" in error("boundary", model_id="m0", x=X_NAME, y=Y_NAME)


# How fast a 200 x 200 grid is predicted belongs to benchmarks/ ("grid predict 200x200"), not to a test.
@pytest.mark.parametrize("model", ["DecisionTreeClassifier", "LogisticRegression", "GaussianNB",
                                   "KNeighborsClassifier"])
def test_a_200_by_200_grid_has_a_class_in_every_cell(model):
    table_id = ok("load_example", name="moons", n=500, noise=0.2, seed=0)["table_id"]
    result = ok("train", table_id=table_id, target="class", features=None, model=model, params={},
                evaluation=SPLIT)
    b = ok("boundary", model_id=result["model_id"], x="x1", y="x2", resolution=200)
    assert (b["width"], b["height"]) == (200, 200) and len(b["predicted"]) == 40_000
    assert set(b["predicted"]) == {0, 1}  # both moons show

