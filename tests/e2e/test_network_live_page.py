"""Training you can watch, in the page: while a network trains on the moons, the decision boundary and the
network (each unit's map, its weights as lines) are drawn from Python's frames before the training ends,
each with its text twin; Cancel still keeps the network of the last epoch, and the drawing goes away
when the job ends."""

import re

import pytest
from playwright.sync_api import expect

from pagekit import painted_pixels

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)

EPOCHS = 5000  # far more than it gets through before the test stops it: the frames come while it trains


def test_the_boundary_and_units_are_drawn_while_the_network_trains(page, site_url):
    page.goto(site_url + "#dataset=moons&n=400")
    expect(page.locator("#data-summary")).to_contain_text("400 rows", timeout=90_000)
    expect(page.locator("#status")).to_have_text("Ready", timeout=90_000)
    page.get_by_label("Model", exact=True).select_option("MLPClassifier")
    page.get_by_label("hidden layers", exact=True).fill("8, 4")
    page.get_by_label("max epochs", exact=True).fill(str(EPOCHS))
    page.get_by_label("tol", exact=True).fill("0")  # no early end: it runs until stopped
    page.get_by_label("n iter no change", exact=True).fill(str(EPOCHS))
    page.get_by_role("button", name="Train").click()

    live = page.locator("#live-network")
    expect(live).to_be_visible(timeout=60_000)
    status = page.locator("#status")
    expect(status).to_contain_text(re.compile(rf"epoch \d+ of {EPOCHS}"))  # still training
    assert painted_pixels(page, "#live-boundary-canvas") > 20_000
    assert painted_pixels(page, "#live-network-canvas") > 20_000
    said = page.locator("#live-network-status")
    expect(said).to_contain_text(re.compile(r"Epoch \d+: the network as it is now"))
    expect(said).to_contain_text("output a = g(z) over x1 (across) and x2 (up)")
    first = int(re.search(r"Epoch (\d+)", said.text_content()).group(1))
    # The text twins: the boundary's regions by class, the network's weights into each layer.
    boundary_twin = page.locator("#live-boundary-text")
    expect(boundary_twin.locator("table").first).to_contain_text("share of grid")
    network_twin = page.locator("#live-network-text")
    expect(network_twin.locator("table")).to_have_count(3)  # into hidden 1, hidden 2, the output
    expect(network_twin).to_contain_text(re.compile(r"after epoch \d+"))
    # Redrawn as it learns: a later epoch's frame replaces the first.
    expect(said).not_to_contain_text(f"Epoch {first}:", timeout=30_000)
    expect(status).to_contain_text(re.compile(rf"epoch \d+ of {EPOCHS}"))
    live.screenshot(path="test-results/network-live.png")  # to look at: the page as it trains

    page.get_by_role("button", name="Cancel").click()
    expect(status).to_contain_text("the network shown is the one after epoch", timeout=120_000)
    expect(live).to_be_hidden()  # the job is over: the result's views show the network
    expect(page.locator("#accuracy")).not_to_have_text("—")
