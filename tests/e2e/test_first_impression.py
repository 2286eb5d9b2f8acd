"""A first visit: the page opens on a table large enough for its held-out score to mean something, the
result of Train is in view on a desktop and on a phone, and a failed training takes the previous result
off the screen and points at the control its message is about."""

import re

import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e


def in_viewport(page, selector):
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0


@pytest.mark.parametrize("width,height", [(1440, 900), (390, 844)])
def test_opening_dataset_scores_on_enough_rows_and_the_result_is_in_view(browser, site_url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(site_url)
        wait_until_ready(page)
        expect(page.locator("#data-summary")).to_contain_text("150 rows")
        page.get_by_role("button", name="Train").click()
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        expect(page.locator("#accuracy-label")).to_contain_text("Test")
        rows = int(re.search(r"(\d+) rows", page.locator("#accuracy-note").text_content()).group(1))
        assert rows >= 30, f"the opening score comes from {rows} test rows"
        page.wait_for_timeout(1200)  # a smooth scroll settles
        assert in_viewport(page, "#results-heading"), "the result's heading is off screen after Train"
        assert in_viewport(page, "#accuracy"), "the score is off screen after Train"
    finally:
        context.close()


def test_a_failed_training_clears_the_result_and_points_at_its_control(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.locator("#result-area")).to_be_visible()

    page.locator("#param-n_neighbors").fill("500")  # more neighbours than training rows: Python refuses
    page.get_by_role("button", name="Train").click()
    message = page.locator("#message")
    expect(message).to_contain_text("larger than the training set", timeout=60_000)
    expect(page.locator("#result-area")).to_be_hidden()
    expect(page.locator("#accuracy")).to_have_text("—")
    expect(page.locator("#empty-state")).to_contain_text("training failed")
    expect(page.locator("#param-n_neighbors")).to_have_attribute("aria-invalid", "true")
    message.get_by_role("button", name="Go to k").click()
    expect(page.locator("#param-n_neighbors")).to_be_focused()

    page.locator("#param-n_neighbors").fill("5")
    page.get_by_role("button", name="Train").click()
    expect(page.locator("#result-area")).to_be_visible(timeout=60_000)
    expect(message).to_be_hidden()
    assert page.locator("#param-n_neighbors").get_attribute("aria-invalid") != "true"


def test_too_many_folds_point_at_the_folds(page, site_url):
    page.goto(site_url + "#dataset=restaurant")
    wait_until_ready(page)
    expect(page.locator("#data-summary")).to_contain_text("12 rows")
    page.get_by_label("k-fold").check()
    page.locator("#cv-k").fill("20")
    page.get_by_role("button", name="Train").click()
    expect(page.locator("#message")).to_contain_text("folds", timeout=60_000)
    expect(page.locator("#cv-k")).to_have_attribute("aria-invalid", "true")


def test_one_numeric_feature_draws_the_clusters_against_the_row_number(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Model", exact=True).select_option("AgglomerativeClustering")
    page.evaluate("document.querySelector('#profile-details').open = true")
    for column in ("species", "sepal width (cm)", "petal length (cm)", "petal width (cm)"):
        page.locator(f'#profile tr[data-column="{column}"] select').select_option("ignore")
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    page.get_by_role("tab", name="Clusters").click()
    expect(page.locator("#clusters-text")).to_contain_text("row number", timeout=30_000)
    expect(page.locator("#view-message")).to_be_hidden()
