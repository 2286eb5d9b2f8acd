"""Agglomerative clustering under a held-out split: the Metrics tab scores the test rows too (each given
the cluster of its nearest training row, as predict does), the dendrogram's cut numbers its clusters
as the model numbers them (by their first training row), so a cluster has one colour in the dendrogram
and in the clusters plot, and the plot's centres sit at the clusters' means in the features' units. The
two views are kept as docs/screenshots/agglomerative-dendrogram-colours.png and -clusters-colours.png."""

import pathlib

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import show, upload_csv, wait_until_ready

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def blobs_csv(seed=0):
    """Three blobs of unequal sizes, the rows shuffled: the left-to-right order of the dendrogram's
    clusters (23, 58 and 45 training rows) is not the order of their first rows (58, 45, 23)."""
    rng = np.random.default_rng(seed)
    centres, sizes = np.array([[0, 0], [6, 0], [0, 6]]), [90, 60, 30]
    X = np.vstack([c + rng.normal(0, 0.5, (s, 2)) for c, s in zip(centres, sizes)])
    X = X[rng.permutation(len(X))]
    return "a,b\n" + "\n".join(f"{x:.3f},{y:.3f}" for x, y in X) + "\n"


def test_test_rows_are_scored_and_clusters_keep_their_colour(page, site_url):
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "blobs.csv", blobs_csv())
    expect(page.locator("#data-summary")).to_contain_text("180 rows")
    page.get_by_label("Role of b").select_option("feature")  # both columns, no target
    page.get_by_label("Model", exact=True).select_option("AgglomerativeClustering")
    page.locator("#param-n_clusters").fill("3")
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.get_by_role("alert")).to_be_hidden()

    show(page, "Metrics")
    scores = page.locator("#metrics-body table").first
    expect(scores.locator("thead")).to_contain_text("Test (30% of rows, 54 rows)")
    silhouette = scores.locator("tr", has_text="Silhouette").locator("td")
    expect(silhouette).to_have_count(2)  # training and test rows
    assert all(float(v) > 0.7 for v in silhouette.all_inner_texts())  # three well-apart blobs, both parts
    sizes = [int(v) for v in page.locator("#model-summary tr", has_text="size").locator("td").all_text_contents()]

    show(page, "Dendrogram")
    twin = page.locator("#dendrogram-text")
    expect(twin).to_contain_text("3 clusters of sizes")
    text = twin.text_content()
    shown = text.split("3 clusters of sizes ")[1].split(".")[0]
    assert [int(s) for s in shown.split(", ")] == sizes  # cluster i here is the model's cluster i
    page.locator("#view-dendrogram").screenshot(path=str(SHOTS / "agglomerative-dendrogram-colours.png"))
    show(page, "Clusters")
    # Each centre is drawn at its cluster's mean in the features' own units (not in z-scores).
    for row in page.locator("#clusters-text tbody tr").all():
        cells = row.locator("td").all_text_contents()  # points, mean a, mean b, centre
        centre = [float(v) for v in cells[3].strip("()").split(", ")]
        assert centre == pytest.approx([float(cells[1]), float(cells[2])], abs=0.3)
    page.locator("#view-clusters").screenshot(path=str(SHOTS / "agglomerative-clusters-colours.png"))
