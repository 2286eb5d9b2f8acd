"""A date among the features is learned from as its parts, and the decision boundary offers those parts
as axes because the run's reply says so (plot_features): the page does not filter the loaded table's
numeric columns. Choosing "when month" draws the boundary over it, on the canvas and in its text twin."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import painted_pixels, wait_until_ready

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def dated_csv(n=80):
    lines = ["when,size,colour,label"]
    for i in range(n):
        month = i % 12 + 1
        lines.append(f"2024-{month:02d}-{i % 27 + 1:02d},{(i * 37) % 50 / 10},{'red' if i % 3 else 'blue'},"
                     f"{'summer' if 4 <= month <= 9 else 'winter'}")
    return ("\n".join(lines) + "\n").encode()


def test_a_date_part_is_a_boundary_axis(browser, site_url):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        page.goto(site_url)
        wait_until_ready(page)
        expect(page.locator("#data-summary")).to_be_visible(timeout=60_000)
        page.get_by_label("Upload CSV").set_input_files({"name": "dated.csv", "mimeType": "text/csv",
                                                        "buffer": dated_csv()})
        expect(page.locator("#data-summary")).to_contain_text("dated.csv: 80 rows", timeout=60_000)
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        page.get_by_label("Target").select_option("label")
        for column in ("when", "size", "colour"):
            expect(page.get_by_label(f"Role of {column}")).to_have_value("feature")
        page.get_by_label("Model", exact=True).select_option("DecisionTreeClassifier")
        page.get_by_role("button", name="Train").click()
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        expect(page.get_by_role("alert")).to_be_hidden()

        tab = page.get_by_role("tab", name="Decision boundary")
        expect(tab).to_be_enabled()
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        axis = page.locator("#boundary-x")
        offered = axis.locator("option").all_text_contents()
        assert "when month" in offered, offered
        assert "colour" not in offered and "when" not in offered, offered  # a category and the raw date are not axes

        page.locator("#boundary-y").select_option("size")
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        axis.select_option("when month")
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        expect(page.locator("#boundary-slice")).to_contain_text("A slice through when month and size", timeout=30_000)
        expect(page.locator("#boundary-text")).to_contain_text("when month")
        expect(page.locator("#view-message")).to_be_hidden()
        assert painted_pixels(page, "#boundary-canvas") > 20_000
        page.locator("#boundary-canvas").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "boundary-date-part.png"))
    finally:
        context.close()
