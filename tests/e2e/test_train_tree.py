"""End to end: the built site reaches Ready, takes a CSV through its labelled input, trains a tree and draws it."""

import pytest
from playwright.sync_api import expect

from pagekit import painted_pixels, wait_until_ready

pytestmark = pytest.mark.e2e

RESTAURANT_CSV = """Alt,Bar,Fri,Hun,Pat,Price,Rain,Res,Type,Est,WillWait
Yes,No,No,Yes,Some,$$$,No,Yes,French,0-10,Yes
Yes,No,No,Yes,Full,$,No,No,Thai,30-60,No
No,Yes,No,No,Some,$,No,No,Burger,0-10,Yes
Yes,No,Yes,Yes,Full,$,Yes,No,Thai,10-30,Yes
Yes,No,Yes,No,Full,$$$,No,Yes,French,>60,No
No,Yes,No,Yes,Some,$$,Yes,Yes,Italian,0-10,Yes
No,Yes,No,No,None,$,Yes,No,Burger,0-10,No
No,No,No,Yes,Some,$$,Yes,Yes,Thai,0-10,Yes
No,Yes,Yes,No,Full,$,Yes,No,Burger,>60,No
Yes,Yes,Yes,Yes,Full,$$$,No,Yes,Italian,10-30,No
No,No,No,No,None,$,No,No,Thai,0-10,No
Yes,Yes,Yes,Yes,Full,$,No,No,Burger,30-60,Yes
"""


def test_upload_train_and_draw(page, site_url, tmp_path, screenshots_dir):
    csv_path = tmp_path / "restaurant.csv"
    csv_path.write_text(RESTAURANT_CSV)
    page.goto(site_url)
    wait_until_ready(page)

    page.get_by_label("Upload CSV").set_input_files(str(csv_path))
    expect(page.locator("#data-summary")).to_contain_text("12 rows × 11 columns")
    page.get_by_label("Target").select_option("WillWait")
    expect(page.get_by_label("Model", exact=True)).to_have_value("DecisionTreeClassifier")
    # Judge on the training rows themselves: the notes' tree fits all 12 examples.
    page.locator('input[name="eval-method"][value="none"]').check()
    page.get_by_role("button", name="Train").click()

    expect(page.locator("#accuracy")).to_have_text("100.0%", timeout=20_000)
    assert painted_pixels(page, "#tree-canvas") > 5000
    tree_text = page.locator("#tree-text")
    expect(tree_text).to_contain_text("split on Pat, gain 0.541")
    expect(tree_text).to_contain_text("Pat = Full: split on Hun")
    page.screenshot(path=str(screenshots_dir / "tree-restaurant.png"), full_page=True)


def test_bad_csv_gives_a_message_and_keeps_the_page(page, site_url, tmp_path):
    good = tmp_path / "restaurant.csv"
    good.write_text(RESTAURANT_CSV)
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b,c\n1,2,3\n4,5\n")
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(str(good))
    expect(page.locator("#data-summary")).to_contain_text("12 rows")

    page.get_by_label("Upload CSV").set_input_files(str(ragged))
    expect(page.get_by_role("alert")).to_contain_text("Line 3")
    # The data that was loaded before is still there and still trains.
    expect(page.locator("#data-summary")).to_contain_text("12 rows")
    page.get_by_label("Target").select_option("WillWait")
    page.locator('input[name="eval-method"][value="none"]').check()
    page.get_by_role("button", name="Train").click()
    expect(page.locator("#accuracy")).to_have_text("100.0%")
