"""End to end: the first view after uploading each kind of table people bring (table_kinds.py), on a desktop
and on a phone. Each view is kept as a screenshot (docs/screenshots/first-view-<kind>-<width>.png); the test
checks what a person sees first: the target the page chose (or that it asks), the columns it left out and why,
and that the default learner trains on the chosen target. The tests share one started page a window size:
each table is a new upload on it, which the page shows as it shows a first one."""

import pytest
from playwright.sync_api import expect

from pagekit import upload_csv
from table_kinds import TABLE_KINDS

pytestmark = pytest.mark.e2e

# kind -> (the target the page starts with, "?" when it asks; columns left out and words of their reason).
# A timestamp ("when") is not the target but a feature: the model learns from its parts.
FIRST_VIEW = {
    "hourly-weather": ("daily_summary", {"cloud_cover": "one value", "year": "one value"}),
    "priced-items": ("?", {}),
    "loans": ("defaulted", {"loan_id": "ID"}),
    "spectra": ("protein", {"sample": "ID"}),
    "menu": ("protein_g", {"item": "505"}),
    "nine-classes": ("target", {"id": "ID"}),
}
SIZES = [(1440, 900), (390, 844)]


def upload(page, name, text):
    upload_csv(page, name, text)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)


@pytest.mark.parametrize("kind", list(TABLE_KINDS))
def test_the_first_view_of_each_kind_of_table(shared_pages, screenshots_dir, kind):
    target, left_out = FIRST_VIEW[kind]
    text = TABLE_KINDS[kind]()
    for width, height in SIZES:
        page = shared_pages(width, height)
        upload(page, f"{kind}.csv", text)
        expect(page.get_by_label("Target", exact=True)).to_have_value(target)
        for column, words in left_out.items():
            row = page.locator(f'#profile tr[data-column="{column}"]')
            expect(row.locator("select")).to_have_value("ignore")
            expect(row).to_contain_text(words)
        page.screenshot(path=str(screenshots_dir / f"first-view-{kind}-{width}.png"))


@pytest.mark.parametrize("kind", ["hourly-weather", "loans", "spectra", "menu", "nine-classes"])
def test_the_default_learner_trains_on_the_chosen_target(shared_pages, kind):
    page = shared_pages(*SIZES[0])
    upload(page, f"{kind}.csv", TABLE_KINDS[kind]())
    expect(page.locator("#result-area")).to_be_hidden()  # nothing trained on this table yet
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=120_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(page.locator("#result-area")).to_be_visible()
    expect(page.locator("#accuracy")).not_to_have_text("—")


def test_asked_for_the_target_the_page_trains_once_one_is_chosen(shared_pages):
    page = shared_pages(*SIZES[0])
    upload(page, "priced-items.csv", TABLE_KINDS["priced-items"]())
    likely = page.get_by_label("Target", exact=True).locator('optgroup[label="Likely targets"] option')
    expect(likely.first).to_have_text("price")
    page.get_by_label("Target", exact=True).select_option("price")
    expect(page.get_by_label("Model", exact=True)).to_have_value("DecisionTreeRegressor")
    expect(page.locator("#result-area")).to_be_hidden()  # nothing trained on this table yet
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=180_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(page.locator("#accuracy-label")).to_contain_text("R")
