"""The "See it learn" panel works inside the real page, on the model the page just trained."""

import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e


def test_steps_of_the_restaurant_tree_in_the_page(page, site_url):
    page.goto(site_url + "#dataset=restaurant&method=none")
    wait_until_ready(page)
    expect(page.locator("#accuracy")).to_have_text("100.0%", timeout=60_000)
    learn = page.locator("#learn-box")
    learn.get_by_role("button", name="Show the steps").click()
    expect(learn).to_contain_text("Gain(Pat)", timeout=30_000)
    expect(learn).to_contain_text("0.541")
