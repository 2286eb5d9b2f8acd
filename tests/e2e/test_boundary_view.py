"""The decision boundary says what it shows: the features held and their values in view, a switch to the
plane of the first two principal components, and the model's score on all features beside the plot."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import painted_pixels, wait_until_ready

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_boundary_names_its_slice_its_plane_and_the_full_score(browser, site_url):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        page.goto(site_url)
        wait_until_ready(page)
        page.get_by_label("Model", exact=True).select_option("LogisticRegression")
        page.get_by_role("button", name="Train").click()
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        page.get_by_role("tab", name="Decision boundary").click()
        slice_note = page.locator("#boundary-slice")
        expect(slice_note).to_contain_text("held at their training mean", timeout=30_000)
        x, y = page.locator("#boundary-x").input_value(), page.locator("#boundary-y").input_value()
        held = {"sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"} - {x, y}
        for name in held:
            expect(slice_note).to_contain_text(f"{name} = ")
        score = page.locator("#boundary-score")
        expect(score).to_contain_text("On all 4 features")
        expect(score).to_contain_text(page.locator("#accuracy").text_content())
        assert slice_note.is_visible() and score.is_visible()
        page.locator("#boundary-canvas").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "boundary-held.png"))

        page.get_by_label("Plane", exact=True).select_option("pca")
        expect(slice_note).to_contain_text("principal components", timeout=30_000)
        expect(page.locator("#boundary-axes")).to_be_hidden()
        expect(page.locator("#boundary-text")).to_contain_text("PC1")
        page.wait_for_timeout(300)
        assert painted_pixels(page, "#boundary-canvas") > 20_000

        page.get_by_label("Plane", exact=True).select_option("features")
        expect(page.locator("#boundary-axes")).to_be_visible()
        expect(slice_note).to_contain_text("A slice through")
    finally:
        context.close()
