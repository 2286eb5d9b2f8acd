"""End to end: an upload shaped like real data is profiled before training. IDs, names, tickets and free
text are left out with their reasons, "Use anyway" brings one back, dates are learned from as parts, and
the tree trained on the result has a readable number of leaves and is drawn."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import painted_pixels, wait_until_ready

import sys
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from passengers_csv import passengers_csv  # noqa: E402

pytestmark = pytest.mark.e2e

DOCS_SCREENSHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def profile_row(page, column):
    return page.locator(f'#profile tr[data-column="{column}"]')


def leaves(page):
    return page.evaluate("""() => [...document.querySelectorAll('#tree-text li')]
        .filter((item) => !item.querySelector('ul')).length""")


def test_profile_leaves_out_ids_and_text_and_the_tree_learns_from_date_parts(page, site_url, tmp_path):
    text, expected = passengers_csv(2000)
    path = tmp_path / "passengers.csv"
    path.write_text(text)
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(str(path))
    expect(page.locator("#data-summary")).to_contain_text("2000 rows × 14 columns")

    expect(page.locator("#profile-details")).to_have_attribute("open", "")
    left_out = [name for name, (_, role) in expected.items() if role == "ignore"]
    expect(page.locator("#profile-summary")).to_contain_text(f"{len(left_out)} left out, target Survived")
    for name, (kind, role) in expected.items():
        row = profile_row(page, name)
        expect(row.locator("select")).to_have_value(role if role != "target" else "target")
        expect(row.locator("td").first).to_contain_text({"id": "ID"}.get(kind, kind))
    expect(profile_row(page, "PassengerId")).to_contain_text("Left out: looks like an ID")
    expect(profile_row(page, "Name")).to_contain_text("Left out: free text")
    expect(profile_row(page, "Ticket")).to_contain_text("Left out: too many categories")
    expect(profile_row(page, "Born")).to_contain_text("day/month/year")
    expect(profile_row(page, "Booked")).to_contain_text("year, month, day of week, day of year")
    assert painted_pixels(page, '#profile tr[data-column="Fare"] canvas') > 50

    # "Use anyway" makes the numeric ID a feature (numbers split in two, so the tree stays small);
    # the preview's role follows, as the store holds one set of roles.
    page.get_by_role("button", name="Use PassengerId anyway").click()
    expect(profile_row(page, "PassengerId").locator("select")).to_have_value("feature")
    expect(page.locator("#col-0-role")).to_have_value("feature")
    expect(profile_row(page, "PassengerId")).not_to_contain_text("Left out")

    page.fill("#param-max_depth", "3")
    page.get_by_role("button", name="Train").click()
    expect(page.locator("#accuracy")).not_to_have_text("—", timeout=60_000)
    page.get_by_role("tab", name="Tree").click()
    tree_text = page.locator("#tree-text")
    expect(tree_text).to_contain_text("split on")
    assert 2 <= leaves(page) <= 8
    assert "Name =" not in tree_text.text_content() and "Booked =" not in tree_text.text_content()
    assert painted_pixels(page, "#tree-canvas") > 2000

    page.evaluate("document.getElementById('profile').style.maxHeight = 'none'")  # every row in the picture
    page.locator("#profile-box").screenshot(path=str(DOCS_SCREENSHOTS / "profile.png"))


def test_a_date_left_out_with_its_switch_stays_out_of_the_features(page, site_url, tmp_path):
    text, _ = passengers_csv(300)
    path = tmp_path / "passengers.csv"
    path.write_text(text)
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(str(path))
    for date in ("Booked", "Born", "Paid"):
        page.get_by_role("button", name=f"Leave {date} out").click()
        expect(profile_row(page, date).locator("select")).to_have_value("ignore")
    page.fill("#param-max_depth", "2")
    page.get_by_role("button", name="Train").click()
    expect(page.locator("#accuracy")).not_to_have_text("—", timeout=60_000)
    page.get_by_role("tab", name="Tree").click()
    for date in ("Booked", "Born", "Paid"):
        expect(page.locator("#tree-text")).not_to_contain_text(date)
