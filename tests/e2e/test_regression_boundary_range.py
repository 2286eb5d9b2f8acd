"""A regressor's decision boundary is coloured over the target's range: predictions beyond it (a linear
model far from its data) take the end colours, a visible note says how many cells and how far, the
colour bar shows the target's range and the text twin says the same. The view is kept as
docs/screenshots/regression-boundary-clipped.png."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import show, train, upload_csv, wait_until_ready
from regression_slice_table import slice_csv

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_the_boundary_follows_the_target_range_and_says_what_is_clipped(page, site_url):
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "slice.csv", slice_csv())
    expect(page.locator("#data-summary")).to_contain_text("slice.csv")
    train(page, "LinearRegression", target="y")
    show(page, "Decision boundary")
    note = page.locator("#boundary-range")
    expect(note).to_be_visible(timeout=30_000)
    expect(note).to_contain_text("The colours follow the target's range, 0 to 50.")
    expect(note).to_contain_text("grid cells predict outside it")
    expect(note).to_contain_text("drawn at the end colours")
    twin = page.locator("#boundary-text")
    expect(twin).to_contain_text("The colours follow the target's range, 0 to 50.")
    page.locator("#boundary-canvas").scroll_into_view_if_needed()
    page.locator("#view-boundary").screenshot(path=str(SHOTS / "regression-boundary-clipped.png"))
    # The twin keeps the grid's own predictions, far beyond the colours' range: nothing is hidden.
    grid_row = twin.locator("tr", has_text="grid predictions").locator("td").all_text_contents()
    assert float(grid_row[1]) < -100 and float(grid_row[3]) > 150  # min and max of the predictions
