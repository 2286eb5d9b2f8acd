"""A run's reply says what the page may show (workbench.showing): the views in order, the features each
plane's axes may be (a date's parts among them, a categorical column not), the projections offered and
the axes each plane starts on; and what the boundary command accepts is exactly what the reply offers."""

import json

import pytest

from bridgekit import session_with_csv
from pellucid.workbench import menus

DECIDED = ("views", "default_view", "plot_features", "projections", "default_axes", "preprocessing_choices")


def rows(n=60):
    lines = ["when,x,z,colour,label,amount"]
    for i in range(n):
        month = i % 12 + 1
        lines.append(f"2024-{month:02d}-{i % 27 + 1:02d},{i * 0.5},{(i * 7) % 11},{'red' if i % 3 else 'blue'},"
                     f"{'yes' if month > 6 else 'no'},{month * 2.0 + i * 0.1}")
    return "\n".join(lines) + "\n"


@pytest.fixture()
def session(tmp_path):
    return session_with_csv(tmp_path, rows(), "dated.csv")


def train(session, model, target="label", features=("when", "x", "colour"), **more):
    reply = session.handle("train", {"table_id": session.table_id, "target": target, "features": list(features),
                                     "model": model, **more})
    assert reply["ok"], reply
    return reply["result"]


@pytest.mark.parametrize("model, target, features, views, opens", [
    ("DecisionTreeClassifier", "label", ("x", "z"), ["metrics", "tree", "boundary", "curves", "importance"], "tree"),
    ("Perceptron", "label", ("x", "z"), ["metrics", "boundary", "importance"], "boundary"),
    ("LogisticRegression", "label", ("x",), ["metrics", "curves", "importance"], "metrics"),
    ("LinearRegression", "amount", ("x", "z"), ["metrics", "boundary", "regression", "importance"], "boundary"),
    ("KMeans", None, ("x", "z"), ["metrics", "clusters"], "clusters"),
    ("AgglomerativeClustering", None, ("x", "z"), ["metrics", "clusters", "dendrogram"], "clusters"),
    ("PCA", None, ("x", "z", "amount"), ["metrics", "pca"], "pca"),
], ids=["tree", "perceptron", "one-feature", "linear", "kmeans", "agglomerative", "pca"])
def test_each_learner_kind_has_its_views_in_order(session, model, target, features, views, opens):
    result = train(session, model, target, features)
    assert result["views"] == views
    assert result["default_view"] == opens
    assert json.loads(json.dumps({k: result[k] for k in DECIDED})) == {k: result[k] for k in DECIDED}


def test_a_date_gives_its_parts_as_axes_and_a_categorical_column_is_not_one(session):
    result = train(session, "DecisionTreeClassifier")
    parts = ["when year", "when month", "when day of week", "when day of year"]
    assert result["plot_features"] == {"boundary": [*parts, "x"], "clusters": [*parts, "x"]}
    assert "colour" in result["features"] and "colour" not in result["plot_features"]["boundary"]
    assert "boundary" in result["views"]
    # "when year" is 2024 in every row: never an axis; the tree splits on the month (label: month > 6)
    assert result["default_axes"]["boundary"] == {"x": "when month", "y": "when day of year", "projection": None}
    assert result["projections"]["boundary"] == ["pca"]


def test_a_one_hot_learner_offers_the_same_axes_and_the_boundary_takes_every_one(session):
    result = train(session, "LogisticRegression")  # colour is one-hot encoded for it
    offered = result["plot_features"]["boundary"]
    assert "colour" not in offered and not any("=" in f for f in offered)
    for x in offered:
        y = next(f for f in offered if f != x)
        drawn = session.handle("boundary", {"model_id": result["model_id"], "x": x, "y": y, "resolution": 5})
        assert drawn["ok"], drawn
        assert drawn["result"]["x_name"] == x
    refused = session.handle("boundary", {"model_id": result["model_id"], "x": "colour", "y": "x", "resolution": 5})
    assert not refused["ok"] and "colour" in refused["error"]["message"]
    assert session.handle("boundary", {"model_id": result["model_id"], "projection": "pca", "resolution": 5})["ok"]


def test_the_clusters_of_more_than_two_features_start_in_pcas_plane(session):
    result = train(session, "KMeans", None, ("x", "z", "amount"))
    assert result["default_axes"]["clusters"] == {"x": None, "y": None, "projection": "pca"}
    assert result["projections"]["clusters"] == ["pca"]
    two = train(session, "KMeans", None, ("x", "z"))
    assert two["default_axes"]["clusters"] == {"x": "x", "y": "z", "projection": None}


def test_one_feature_has_no_pca_plane_and_no_boundary(session):
    result = train(session, "KMeans", None, ("x",))
    assert result["projections"] == {"boundary": [], "clusters": []}
    assert result["default_axes"]["clusters"] == {"x": "x", "y": None, "projection": None}
    assert "clusters" in result["views"]


@pytest.mark.parametrize("model, standardize, impute", [("KNeighborsClassifier", True, "mean"),
                                                        ("DecisionTreeClassifier", False, "keep")])
def test_the_resolved_preprocessing_is_the_menus_default(session, model, standardize, impute):
    """A tree keeps missing numbers (it sends them down the side that gains more); others fill them."""
    menu = {m["name"]: m for m in menus.models()}
    assert menu[model]["preprocessing"] == {"standardize": standardize, "impute": impute}
    assert train(session, model, features=("x", "z"))["preprocessing_choices"] == menu[model]["preprocessing"]
    chosen = train(session, model, features=("x", "z"),
                   preprocessing={"standardize": not standardize, "impute": "median"})
    assert chosen["preprocessing_choices"] == {"standardize": not standardize, "impute": "median"}


def test_show_run_and_import_model_reply_the_decisions(session):
    result = train(session, "DecisionTreeClassifier")
    shown = session.handle("show_run", {"model_id": result["model_id"]})["result"]
    assert {k: shown[k] for k in DECIDED} == {k: result[k] for k in DECIDED}
    text = session.handle("export_model", {"model_id": result["model_id"]})["result"]["json"]
    imported = session.handle("import_model", {"json": text})
    assert imported["ok"], imported
    imported = imported["result"]
    assert imported["views"] == ["metrics", "tree"]  # no data: no plane, nothing judged on its rows
    assert imported["plot_features"] == {"boundary": [], "clusters": []}
    assert imported["preprocessing_choices"]["standardize"] is False
