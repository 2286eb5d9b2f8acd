"""End to end: "Compare with scikit-learn" loads scikit-learn only when pressed, shows both scores side by
side on the same rows, and does not load it again for a second comparison."""

import time

import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e

ON_DEMAND_WHEELS = ("scikit_learn", "scipy", "joblib", "threadpoolctl", "openblas")


def _train(page, model):
    page.get_by_label("Model", exact=True).select_option(model)
    expect(page.get_by_role("button", name="Train")).to_be_enabled(timeout=60_000)
    page.get_by_role("button", name="Train").click()
    expect(page.locator("#accuracy")).not_to_have_text("—", timeout=60_000)
    expect(page.get_by_role("status")).to_have_text("Ready")


def test_compare_loads_sklearn_on_demand(page, site_url):
    requests = []
    page.on("request", lambda r: requests.append(r.url.rsplit("/", 1)[-1]))
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Dataset").select_option("iris")
    expect(page.locator("#data-summary")).to_contain_text("150 rows")
    _train(page, "GaussianNB")
    assert not [u for u in requests if u.startswith(ON_DEMAND_WHEELS)], "on-demand wheels were loaded at start"

    # The status line says what is being loaded; record every text it shows.
    page.evaluate("""() => { window.statusTexts = [];
        new MutationObserver(() => window.statusTexts.push(document.getElementById('status').textContent))
          .observe(document.getElementById('status'), {childList: true, characterData: true, subtree: true}); }""")
    started = time.perf_counter()
    page.get_by_role("button", name="Compare with scikit-learn").click()
    table = page.locator("#compare-table")
    expect(table).to_be_visible(timeout=120_000)
    print(f"first comparison (loading scikit-learn) took {time.perf_counter() - started:.1f} s in the page")
    assert any(u.startswith("scikit_learn") and u.endswith(".whl") for u in requests)
    texts = page.evaluate("window.statusTexts")
    assert any(t.startswith("Loading scikit-learn (about") and "MB, once)" in t for t in texts), texts
    expect(page.locator("#compare-result")).to_contain_text("scikit-learn was loaded in")
    print(page.locator("#compare-result").inner_text())

    test_row = table.locator('tr[data-row="test"]')
    ours = test_row.locator('td[data-lib="pellucid"]').inner_text()
    theirs = test_row.locator('td[data-lib="sklearn"]').inner_text()
    assert ours.endswith("%") and ours == theirs  # GaussianNB: the same model, the same rows
    assert ours == page.locator("#accuracy").inner_text()  # the headline is the test accuracy
    expect(table.locator('tr[data-row="fit"] td[data-lib="sklearn"]')).to_contain_text("s")

    # A second comparison, of another model: no wheel is fetched again.
    before = len(requests)
    _train(page, "KNeighborsClassifier")
    expect(page.locator("#compare-result")).to_be_hidden()
    page.get_by_role("button", name="Compare with scikit-learn").click()
    expect(table).to_be_visible(timeout=60_000)
    assert not [u for u in requests[before:] if u.startswith(ON_DEMAND_WHEELS)]
    expect(page.locator("#compare-result")).not_to_contain_text("scikit-learn was loaded in")
    print(page.locator("#compare-result").inner_text())

    _train(page, "KernelPerceptron")
    page.get_by_role("button", name="Compare with scikit-learn").click()
    expect(page.locator("#compare-result")).to_contain_text("no equivalent in scikit-learn")
