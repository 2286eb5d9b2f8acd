"""End to end: the first view of a table with no clear target. The page asks for the target instead of
picking one (the likely ones first in the menu, with their reasons), the constant column is left out with
its reason, the decision boundary starts on informative axes (not the timestamp's year or month, one
value each), and a second file with the same columns keeps the target the user chose."""

import pytest
from playwright.sync_api import expect

from first_view_table import first_view_csv
from pagekit import show, train, upload_csv, wait_until_ready

pytestmark = pytest.mark.e2e



def test_the_page_asks_for_the_target_and_starts_on_informative_axes(page, site_url, screenshots_dir):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "readings.csv", first_view_csv())
    expect(page.locator("#data-summary")).to_contain_text("readings.csv")

    target = page.get_by_label("Target")
    expect(target).to_have_value("?")
    expect(target.locator("option:checked")).to_have_text("Choose the target…")
    likely = target.locator('optgroup[label="Likely targets"] option')
    expect(likely.first).to_have_text("fault")
    assert "reading_id" not in likely.all_text_contents() and "checked" not in likely.all_text_contents()
    ask = page.locator("#target-ask")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("No column is clearly the target")
    expect(ask).to_contain_text("fault (2 classes, the rarest (yes)")
    expect(ask).not_to_contain_text("coordinates")  # x, y and z are offered, but not as likely targets
    expect(page.locator("#profile-summary")).to_contain_text("no target")
    checked = page.locator('#profile tr[data-column="checked"]')
    expect(checked).to_contain_text("Left out: one value in every row: yes.")
    expect(checked.locator("select")).to_have_value("ignore")
    page.screenshot(path=str(screenshots_dir / "first-view-defaults.png"))

    train(page, "DecisionTreeClassifier", target="fault")
    expect(target).to_have_value("fault")
    expect(ask).to_be_hidden()
    show(page, "Decision boundary")
    expect(page.locator("#boundary-x")).to_have_value("x")  # the fault follows x
    for axis in ("#boundary-x", "#boundary-y"):
        assert page.locator(axis).input_value() not in ("timestamp year", "timestamp month")

    upload_csv(page, "readings-2.csv", first_view_csv(seed=5))
    expect(page.locator("#data-summary")).to_contain_text("readings-2.csv")
    expect(target).to_have_value("fault")
    expect(ask).to_be_hidden()
    expect(page.locator("#profile-summary")).to_contain_text("target fault")
