"""Agglomerative clustering as the page shows it: the dendrogram reply lets the page number a cut's
clusters as the model numbers labels_ (by each cluster's first training row), so a cluster has one colour
in the dendrogram and the clusters plot (a truncated reply carries the first row of every earlier cluster
its merges join); and held-out rows are scored in the cluster predict gives them, or told why not."""

import numpy as np
import pytest

from pellucid.evaluation.cluster_metrics import silhouette_score
from pellucid.learners.agglomerative.agglomerative import AgglomerativeClustering
from pellucid.workbench.readouts import DENDROGRAM_FULL, dendrogram, encoded

from bridgekit import session_with_csv


def rows_under(model, node):
    n, out, stack = model.n_leaves_, [], [node]
    while stack:
        j = stack.pop()
        if j < n:
            out.append(j)
        else:
            stack.extend(model.children_[j - n])
    return out


def numbered_by_first_row(model, roots):
    """The page's rule (render/dendrogram.js clustersAtCut): clusters numbered by their first row."""
    labels = np.empty(model.n_leaves_, dtype=int)
    for c, root in enumerate(sorted(roots, key=lambda r: min(rows_under(model, r)))):
        labels[rows_under(model, root)] = c
    return labels


def test_a_cut_numbered_by_first_rows_is_the_models_labels():
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(c, 0.4, (s, 2)) for c, s in zip([0, 5, 10], [40, 25, 15])])
    model = AgglomerativeClustering(n_clusters=3, linkage="average").fit(X[rng.permutation(len(X))])
    n = model.n_leaves_
    kept = n - model.n_clusters  # the merges made before stopping at k clusters: the roots are the others' children
    roots = {int(c) for c in model.children_[kept:].ravel()} - set(range(n + kept, 2 * n - 1))
    assert len(roots) == 3
    np.testing.assert_array_equal(numbered_by_first_row(model, roots), model.labels_)


def test_a_truncated_reply_names_the_first_row_of_each_collapsed_cluster():
    rng = np.random.default_rng(3)
    X = rng.normal(0, 1, (DENDROGRAM_FULL + 50, 2))
    model = AgglomerativeClustering(n_clusters=4).fit(X)
    reply = dendrogram(model)
    n, first = reply["n_leaves"], reply["first_merge"]
    assert reply["truncated"] and first > 0
    collapsed = {c for m in reply["merges"] for c in (m["a"], m["b"]) if n <= c < n + first}
    assert {int(c) for c in reply["first_row"]} == collapsed
    for c, row in reply["first_row"].items():
        assert row == min(rows_under(model, int(c)))


def test_test_rows_are_scored_by_the_cluster_predict_gives_them_or_told_why_not(tmp_path):
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(c, 0.4, (30, 2)) for c in (0, 6)])
    session = session_with_csv(tmp_path, "a,b\n" + "\n".join(f"{p:.3f},{q:.3f}" for p, q in X) + "\n")
    split = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 0}
    reply = session.handle("train", {"table_id": session.table_id, "target": None, "features": ["a", "b"],
                                     "model": "AgglomerativeClustering", "evaluation": split})["result"]
    run = session.run(reply["model_id"])
    test = np.asarray(run.splits["test"], dtype=np.intp)
    X_test = run.model_input(test)
    assigned = run.estimator.predict(X_test)  # the cluster of the nearest training row
    expected = silhouette_score(encoded(run.estimator, X_test), assigned)
    assert reply["metrics"]["test"]["n"] == len(test) == 18
    assert reply["metrics"]["test"]["n_clusters"] == 2
    assert reply["metrics"]["test"]["silhouette"] == pytest.approx(expected)
    assert reply["metrics"]["test"]["silhouette"] > 0.8

    one = session.handle("train", {"table_id": session.table_id, "target": None, "features": ["a", "b"],
                                   "model": "AgglomerativeClustering", "params": {"n_clusters": 1},
                                   "evaluation": split})["result"]
    assert one["metrics"]["test"]["silhouette"] is None
    assert any("of the test rows need at least two clusters" in w for w in one["warnings"])


def test_centres_are_drawn_at_each_clusters_mean_in_the_features_own_units(tmp_path):
    rng = np.random.default_rng(6)
    X = np.vstack([rng.normal(c, 0.4, (30, 2)) for c in ((0, 100), (6, 300))])
    session = session_with_csv(tmp_path, "a,b\n" + "\n".join(f"{p:.3f},{q:.3f}" for p, q in X) + "\n")
    split = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 0}
    for model in ("AgglomerativeClustering", "KMeans"):
        reply = session.handle("train", {"table_id": session.table_id, "target": None, "features": ["a", "b"],
                                         "model": model, "params": {"k": 2}, "evaluation": split})["result"]
        run = session.run(reply["model_id"])
        train, labels = run.train_rows(), np.asarray(reply["clusters"]["labels"])
        means = reply["clusters"]["feature_means"]
        for f in ("a", "b"):
            values = run.table.column(f)[train]
            expected = [values[labels[train] == c].mean() for c in range(2)]
            assert means[f] == pytest.approx(expected)
        assert sorted(round(m) for m in means["b"]) == [100, 300]  # raw units, not z-scores
