"""The workbench end to end on built-in iris: every model family trains through the controls, every view
draws (checked by canvas pixels), and a screenshot of each view is written to docs/screenshots/."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import open_example, painted_pixels, show, train

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def wait_painted(page, selector, minimum):
    """Wait until a canvas has at least `minimum` painted pixels (views draw after their renderer loads)."""
    page.wait_for_function(
        """([selector, minimum]) => {
            const c = document.querySelector(selector);
            if (!c || !c.width) return false;
            const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
            return n > minimum;
        }""", arg=[selector, minimum], timeout=30_000)
    assert painted_pixels(page, selector) > minimum





def shot(page, name, selector=None):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / name), full_page=False)


def test_classifier_views_and_readout(page, site_url):
    open_example(page, site_url, "iris", "150 rows × 5 columns")
    train(page, "DecisionTreeClassifier", "species")
    expect(page.locator("#accuracy-label")).to_have_text("Test accuracy")
    expect(page.locator("#accuracy-note")).to_contain_text("30% of rows, 45 rows")
    expect(page.get_by_role("tab", name="Tree")).to_have_attribute("aria-selected", "true")
    wait_painted(page, "#tree-canvas", 5000)
    expect(page.locator("#tree-text")).to_contain_text("split on petal")
    # Views that do not apply to a classifier are disabled.
    expect(page.get_by_role("tab", name="Clusters")).to_be_disabled()
    expect(page.get_by_role("tab", name="Regression")).to_be_disabled()
    page.get_by_role("button", name="Fit").click()
    shot(page, "tree.png")

    show(page, "Metrics")
    expect(page.locator("#metrics-body")).to_contain_text("Precision, recall and F1")
    expect(page.locator("#metrics-body")).to_contain_text("versicolor")
    expect(page.locator("#confusion table")).to_be_visible()
    shot(page, "metrics.png")

    show(page, "Decision boundary")
    page.get_by_label("Horizontal").first.select_option("petal length (cm)")
    page.get_by_label("Vertical").first.select_option("petal width (cm)")
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    wait_painted(page, "#boundary-canvas", 50_000)
    expect(page.locator("#boundary-text")).to_contain_text("petal length (cm)")
    assert "view=boundary" in page.url and "x=petal" in page.url
    shot(page, "boundary.png")


def test_clustering_pca_and_regression_views(page, site_url):
    open_example(page, site_url, "iris", "150 rows × 5 columns")
    train(page, "KMeans", "")
    expect(page.get_by_role("tab", name="Clusters")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    wait_painted(page, "#clusters-canvas", 20_000)
    expect(page.locator("#accuracy-label")).to_contain_text("Silhouette")
    shot(page, "clusters.png")

    train(page, "AgglomerativeClustering", "")
    show(page, "Dendrogram")
    wait_painted(page, "#dendrogram-canvas", 10_000)
    before = page.locator("#dendrogram-text").text_content()
    page.get_by_label("Clusters after the cut").fill("4")
    expect(page.locator("#cut-k-value")).to_have_text("4")
    assert page.locator("#dendrogram-text").text_content() != before
    # Pressing high on the drawing cuts into few clusters; dragging down cuts into more; the slider follows.
    box = page.locator("#dendrogram-canvas").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 0.08 * box["height"])
    page.mouse.down()
    expect(page.locator("#cut-k-value")).to_have_text("1")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 0.6 * box["height"], steps=8)
    page.mouse.up()
    expect(page.locator("#cut-k-value")).not_to_have_text("1")
    k = int(page.locator("#cut-k-value").text_content())
    assert k > 4 and page.locator("#cut-k").input_value() == str(k)
    expect(page.locator("#dendrogram-text")).to_contain_text(f": {k} clusters of sizes")
    shot(page, "dendrogram.png")

    train(page, "PCA", "")
    expect(page.get_by_role("tab", name="PCA")).to_have_attribute("aria-selected", "true")
    wait_painted(page, "#pca-canvas", 10_000)
    wait_painted(page, "#scree-canvas", 10_000)
    shot(page, "pca.png")

    train(page, "LinearRegression", "petal width (cm)")
    expect(page.locator("#accuracy-label")).to_have_text("Test R²")
    expect(page.get_by_role("tab", name="Regression")).to_be_enabled()
    show(page, "Regression")
    wait_painted(page, "#regression-canvas", 10_000)
    wait_painted(page, "#residual-canvas", 10_000)
    # The fitted line along the first numeric feature, the others held (and named in the caption).
    wait_painted(page, "#fitted-canvas", 10_000)
    expect(page.locator("#fitted-caption")).to_contain_text("as sepal length (cm) varies")
    expect(page.locator("#fitted-caption")).to_contain_text("(sepal width (cm), petal length (cm)")
    shot(page, "regression.png")
    page.locator("#fitted-figure").screenshot(path=str(SHOTS / "regression-fitted-line.png"))

    train(page, "KMeans", "")  # a model with no fitted line hides the figure
    expect(page.locator("#fitted-figure")).to_be_hidden()


def test_phone_width(page, site_url):
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(reduced_motion="reduce")  # the page then scrolls to the result at once: no half-scrolled shot
    open_example(page, site_url, "iris", "150 rows × 5 columns")
    train(page, "DecisionTreeClassifier", "species")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, f"the page scrolls sideways at phone width ({width}px)"
    page.screenshot(path=str(SHOTS / "phone.png"), full_page=False)
