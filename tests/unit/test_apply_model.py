"""Applying a kept model to a new CSV: columns matched by name, the model's own preprocessing, predictions as
CSV; and large models (a k-NN's stored rows, a deep tree) that export and import back compactly."""

import json

import numpy as np
import pytest

from pellucid.core import serialize
from pellucid import KNeighborsClassifier
from pellucid.learners.tree import DecisionTreeRegressor
from pellucid.preprocessing import Preprocessor
from pellucid.tabular.csvio import read_csv
from pellucid.tabular.datasets import load_iris
from pellucid.tabular.table import Table
from pellucid.workbench import exports, readouts
from pellucid.workbench.runs import Run

from bridgekit import error, ok, session

SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 3}
IRIS = load_iris()
IRIS_TABLE = read_csv(IRIS.csv_text.encode())
CLASSES = ["setosa", "versicolor", "virginica"]
SEPAL_LENGTH, SEPAL_WIDTH, PETAL_LENGTH, PETAL_WIDTH = IRIS.feature_names


def train(model, example="iris", target="species", features=None, **params):
    table_id = ok("load_example", name=example)["table_id"]
    return table_id, ok("train", table_id=table_id, target=target, features=features, model=model, params=params,
                        evaluation=SPLIT, preprocessing={"standardize": True, "impute": "mean"})


def write(tmp_path, table, name="new.csv"):
    path = tmp_path / name
    path.write_text(table.to_csv())
    return str(path)


def iris_reordered(tmp_path, extra=True):
    """The iris rows with the columns in another order, the target left out and a column the model never saw."""
    columns = {name: IRIS_TABLE.column(name) for name in reversed(IRIS.feature_names)}
    if extra:
        columns["note"] = np.array([f"flower {i}" for i in range(IRIS_TABLE.n_rows)], dtype=object)
    return write(tmp_path, Table(columns))


@pytest.mark.parametrize("model", ["KNeighborsClassifier", "LogisticRegression", "DecisionTreeClassifier"])
def test_reordered_and_extra_columns_predict_as_on_the_training_rows(tmp_path, model):
    table_id, result = train(model)
    before = session.tables[table_id]
    applied = ok("apply_model", model_id=result["model_id"], path=iris_reordered(tmp_path), name="new.csv")
    out = read_csv(applied["csv"].encode())
    assert out.columns == list(reversed(IRIS.feature_names)) + ["note", "prediction"] + [f"P({c})" for c in CLASSES]
    assert out.column("prediction").tolist() == result["predictions"]["predicted"]
    run = session.runs[result["model_id"]]
    np.testing.assert_allclose(np.column_stack([out.column(f"P({c})") for c in CLASSES]),
                               run.estimator.predict_proba(run.model_input()), atol=1e-12)
    assert applied["ignored"] == ["note"] and applied["n_rows"] == applied["n_predicted"] == 150
    assert applied["outputs"] == ["prediction"] + [f"P({c})" for c in CLASSES]
    assert applied["preview"][0][:5] == out.head(1)[0][:5] and len(applied["preview"]) == 20
    assert applied["filename"] == f"new_{model}_applied.csv"
    assert session.tables == {table_id: before}  # the loaded table stays, untouched


def test_a_missing_column_is_named(tmp_path):
    _, result = train("GaussianNB")
    table = IRIS_TABLE.select([SEPAL_WIDTH, PETAL_LENGTH])
    message = error("apply_model", model_id=result["model_id"], path=write(tmp_path, table), name="new.csv")
    assert f"'{SEPAL_LENGTH}'" in message and f"'{PETAL_WIDTH}'" in message and "2 columns" in message
    assert f"'{SEPAL_WIDTH}'" not in message


def test_a_column_that_cannot_be_read_as_the_model_reads_it_is_named(tmp_path):
    _, result = train("LinearRegression", target=PETAL_WIDTH, features=IRIS.feature_names[:3])
    columns = {name: IRIS_TABLE.column(name).astype(object) for name in IRIS.feature_names[:3]}
    columns[PETAL_LENGTH][4] = "long"
    message = error("apply_model", model_id=result["model_id"], path=write(tmp_path, Table(columns)))
    assert f"'{PETAL_LENGTH}'" in message and "row 5" in message and "'long'" in message


def test_categories_are_one_hot_encoded_with_the_models_own_fit(tmp_path):
    table_id, result = train("LogisticRegression", example="restaurant", target="WillWait")
    source = session.tables[table_id]
    shuffled = source.select(list(reversed(source.columns))).take(np.arange(source.n_rows)[::-1])
    applied = ok("apply_model", model_id=result["model_id"], path=write(tmp_path, shuffled))
    predicted = read_csv(applied["csv"].encode()).column("prediction").tolist()
    assert predicted == result["predictions"]["predicted"][::-1]


@pytest.mark.parametrize("written_before_kinds", [False, True])
def test_an_imported_model_applies_as_the_trained_one(tmp_path, written_before_kinds):
    _, result = train("LogisticRegression", example="restaurant", target="WillWait")
    model = json.loads(ok("export_model", model_id=result["model_id"])["json"])
    if written_before_kinds:  # the kinds are then read from the one-hot encoder's categories
        del model["workbench"]["kinds"]
    imported = ok("import_model", json=json.dumps(model))
    assert imported["features"] == result["features"]  # the columns before one-hot encoding
    path = write(tmp_path, read_csv(session.tables[next(iter(session.tables))].to_csv().encode()))
    via_import = ok("apply_model", model_id=imported["model_id"], path=path)
    assert via_import["csv"] == ok("apply_model", model_id=result["model_id"], path=path)["csv"]


def test_rows_missing_a_value_get_no_prediction_when_the_model_fills_no_gaps(tmp_path):
    _, result = train("KNeighborsRegressor", target=PETAL_WIDTH, features=IRIS.feature_names[:3])
    columns = {name: IRIS_TABLE.column(name).copy() for name in IRIS.feature_names[:3]}
    columns[SEPAL_WIDTH][[2, 7]] = np.nan
    applied = ok("apply_model", model_id=result["model_id"], path=write(tmp_path, Table(columns)))
    out = read_csv(applied["csv"].encode())
    predicted = out.column("prediction")
    assert np.isnan(predicted[[2, 7]]).all() and not np.isnan(np.delete(predicted, [2, 7])).any()
    np.testing.assert_allclose(np.delete(predicted, [2, 7]), np.delete(result["predictions"]["predicted"], [2, 7]))
    assert applied["n_predicted"] == 148 and "2 of 150 rows" in applied["notes"][0]


def test_a_tree_predicts_rows_missing_a_number_itself(tmp_path):
    """Trained without gaps (nothing to fill), a tree still reads new rows with missing numbers: each goes
    down the side of more training rows at a test on its missing column, as scikit-learn's trees do."""
    from pellucid.workbench.apply import rows_it_can_read
    _, result = train("DecisionTreeRegressor", target=PETAL_WIDTH, features=IRIS.feature_names[:3])
    columns = {name: IRIS_TABLE.column(name).copy() for name in IRIS.feature_names[:3]}
    columns[SEPAL_WIDTH][[2, 7]] = np.nan
    applied = ok("apply_model", model_id=result["model_id"], path=write(tmp_path, Table(columns)))
    predicted = read_csv(applied["csv"].encode()).column("prediction")
    assert applied["n_predicted"] == 150 and not np.isnan(predicted).any()
    run = session.runs[result["model_id"]]
    np.testing.assert_allclose(predicted, run.estimator.predict(run.prepare(Table(columns))), rtol=1e-9)
    assert np.isnan(run.prepare(Table(columns)).column(SEPAL_WIDTH)[[2, 7]]).all()  # read as missing, not filled
    assert rows_it_can_read(run, Table(columns)).all()


def test_clusters_and_components_of_new_rows(tmp_path):
    _, km = train("KMeans", n_clusters=3)
    applied = ok("apply_model", model_id=km["model_id"], path=iris_reordered(tmp_path, extra=False))
    run = session.runs[km["model_id"]]
    clusters = read_csv(applied["csv"].encode()).column("cluster")
    np.testing.assert_array_equal(clusters, run.estimator.predict(run.model_input()))
    _, pca = train("PCA", n_components=2)
    applied = ok("apply_model", model_id=pca["model_id"], path=iris_reordered(tmp_path, extra=False))
    assert applied["outputs"] == ["PC1", "PC2"]


def test_unknown_model_and_unreadable_file_are_data_errors(tmp_path):
    _, result = train("GaussianNB")
    assert "No model is kept" in error("apply_model", model_id="m999", path=iris_reordered(tmp_path))
    assert error("apply_model", model_id=result["model_id"], path=7)


# --- large models: compact files that import back --------------------------------------------------------

def _blobs(n=50_000, d=20, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))  # (n, d)
    y = np.array(["a", "b", "c"])[(X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)]
    return Table({f"x{j}": X[:, j] for j in range(d)}), y, X @ rng.normal(size=d)


def _exported_and_back(estimator, table, target):
    run = Run(estimator=estimator, model=type(estimator).__name__, features=table.columns, target=target,
              table=table, preprocessor=Preprocessor(standardize=True).fit(table))
    text = exports.model_json(run)["json"]
    return text, exports.import_model(text)


def test_a_50000_row_knn_model_exports_compactly_and_predicts_the_same_after_import():
    table, y, _ = _blobs()
    knn = KNeighborsClassifier(n_neighbors=5).fit(Preprocessor(standardize=True).fit(table).transform(table), y)
    text, imported = _exported_and_back(knn, table, "label")
    stored = json.loads(text)["state"]["X_fit_"]
    assert "__packed__" in stored and stored["shape"] == [50_000, 20]
    assert len(text) < 50_000 * 20 * 11 + 1_000_000  # about 10.7 characters per packed float64
    np.testing.assert_array_equal(imported.estimator.X_fit_, knn.X_fit_)
    probe = _blobs(n=500, seed=1)[0]
    original = Run(estimator=knn, model="KNeighborsClassifier", features=table.columns, target="label",
                   preprocessor=Preprocessor(standardize=True).fit(table))
    np.testing.assert_array_equal(imported.estimator.predict(imported.prepare(probe)),
                                  knn.predict(original.prepare(probe)))
    assert imported.setup["kinds"] == {name: "numeric" for name in table.columns}


def test_a_deep_regression_tree_exports_without_indentation_and_its_reply_is_bounded():
    table, _, target = _blobs(n=20_000)
    tree = DecisionTreeRegressor().fit(table, target)
    text, imported = _exported_and_back(tree, table, "y")
    assert "\n" not in text  # a large model is written compactly
    probe = _blobs(n=500, seed=1)[0]
    np.testing.assert_array_equal(imported.estimator.predict(probe), tree.predict(probe))
    compact = readouts.compact_model(tree)
    assert exports.compact_of(imported) == json.loads(json.dumps(compact))  # made once, at import
    nodes = _count_nodes(compact["tree"])
    assert nodes <= readouts.MAX_TREE_NODES
    assert nodes + compact["tree_nodes_omitted"] == tree.tree_.node_count
    assert compact["tree"]["samples"] == 20_000 and compact["tree"]["left"]["feature"] == \
        tree.to_dict(max_nodes=3)["tree"]["left"]["feature"]
    assert "nodes" in json.loads(text) and "tree" not in json.loads(text)  # its file: packed node arrays


def _count_nodes(node):
    kids = list(node.get("branches", {}).values()) + [node[k] for k in ("left", "right") if k in node]
    return 1 + sum(_count_nodes(kid) for kid in kids)


def test_bounded_tree_keeps_the_breadth_first_top_and_counts_what_it_cut():
    def full(depth):
        return {"samples": 1} if depth == 0 else {"samples": 1, "left": full(depth - 1), "right": full(depth - 1)}
    root = full(4)  # 31 nodes
    kept, omitted = readouts.bounded_tree(root, 7)  # the root and two full levels below it
    assert _count_nodes(kept) == 7 and omitted == 24
    assert kept["left"]["left"]["omitted_nodes"] == 6 and "left" not in kept["left"]["left"]
    assert _count_nodes(root) == 31  # the model's own description is not changed


def test_packed_arrays_read_back_bit_for_bit_and_small_ones_stay_readable():
    big = np.random.default_rng(2).normal(size=(600, 3))
    big[0, 0], big[1, 1], big[2, 2] = np.nan, np.inf, -np.inf
    state = {"big": big, "ints": np.arange(1200, dtype=np.int32), "flags": np.arange(1500) % 3 == 0,
             "small": np.array([1.5, np.nan])}
    encoded = json.loads(json.dumps(serialize.encode(state), allow_nan=False))
    assert encoded["small"] == {"__ndarray__": [1.5, "nan"], "dtype": "float64", "shape": [2]}
    assert all("__packed__" in encoded[k] for k in ("big", "ints", "flags"))
    back = serialize.decode(encoded)
    np.testing.assert_array_equal(back["big"], big)
    for key in ("ints", "flags"):
        assert back[key].dtype == state[key].dtype
        np.testing.assert_array_equal(back[key], state[key])


def test_a_model_file_written_before_packing_still_imports():
    _, result = train("KNeighborsClassifier")
    d = json.loads(ok("export_model", model_id=result["model_id"])["json"])
    X = serialize.decode(d["state"]["X_fit_"])
    d["state"]["X_fit_"] = {"__ndarray__": X.ravel().tolist(), "dtype": "float64", "shape": list(X.shape)}
    del d["workbench"]["kinds"]
    imported = ok("import_model", json=json.dumps(d))
    np.testing.assert_array_equal(session.runs[imported["model_id"]].estimator.X_fit_, X)


def test_a_damaged_packed_array_is_a_data_error():
    big = Table({f"x{j}": np.arange(400.0) + j for j in range(3)})
    run = Run(estimator=KNeighborsClassifier().fit(big, np.arange(400) % 2), model="KNeighborsClassifier",
              features=big.columns, target="y", table=big)
    d = json.loads(exports.model_json(run)["json"])
    d["state"]["X_fit_"]["__packed__"] = "not base64!"
    assert "damaged" in error("import_model", json=json.dumps(d))


def test_columns_are_read_as_the_kinds_the_model_was_trained_with(tmp_path):
    table_id = ok("load_example", name="iris")["table_id"]
    ok("set_kind", table_id=table_id, column=SEPAL_LENGTH, kind="categorical")  # split on as categories
    result = ok("train", table_id=table_id, target="species", features=None, model="DecisionTreeClassifier",
                params={"max_depth": 3}, evaluation=SPLIT)
    assert session.runs[result["model_id"]].estimator.feature_kinds_[0] == "categorical"
    applied = ok("apply_model", model_id=result["model_id"], path=iris_reordered(tmp_path))  # numbers in the file
    assert read_csv(applied["csv"].encode()).column("prediction").tolist() == result["predictions"]["predicted"]
