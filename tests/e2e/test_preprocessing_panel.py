"""The preprocessing step in the page: after training k-NN on a table whose columns range from 0.01 to
10,000 in scale, the panel shows what was fitted on the training rows (filled cells, means and scales,
one-hot categories); switching standardize off changes the score; the boundary stays in the user's units."""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e


def mixed_scale_csv(n=600, seed=0):
    rng = np.random.default_rng(seed)
    small, large, noise = rng.normal(0, 0.01, n), rng.normal(5_000, 10_000, n), rng.normal(0, 1, n)
    label = np.where(small / 0.01 + (large - 5_000) / 10_000 > 0, "good", "bad")
    lines = ["small,large,noise,shop,label"]
    for i in range(n):
        large_cell = ["", "NA", "?"][i % 3] if i % 37 == 0 else f"{large[i]:.2f}"
        lines.append(f"{small[i]:.6f},{large_cell},{noise[i]:.4f},{'north' if i % 4 else 'south'},{label[i]}")
    return ("\n".join(lines) + "\n").encode()


def train(page):
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.get_by_role("alert")).to_be_hidden()


def test_knn_on_mixed_scales_shows_its_steps_and_standardize_matters(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files({"name": "mixed.csv", "mimeType": "text/csv",
                                                      "buffer": mixed_scale_csv()})
    expect(page.locator("#data-summary")).to_contain_text("600 rows")
    page.get_by_label("Target").select_option("label")
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    expect(page.locator("#pre-standardize")).to_be_checked()  # k-NN is scale-sensitive: on by default
    train(page)
    steps = page.locator("#pre-steps")
    expect(steps).to_be_visible()
    expect(steps.locator("[data-step=impute]")).to_contain_text("large (")
    expect(steps.locator("[data-step=standardize]")).to_contain_text("large: z = (x − ")
    expect(steps.locator("[data-step=one_hot]")).to_contain_text("shop=north, shop=south")
    scaled = page.locator("#accuracy").text_content()

    page.get_by_label("Standardize numeric columns").uncheck()
    train(page)
    expect(steps.locator("[data-step=standardize]")).to_have_count(0)
    raw = page.locator("#accuracy").text_content()
    assert float(scaled.rstrip("%")) > float(raw.rstrip("%")) + 5

    page.get_by_label("Standardize numeric columns").check()
    train(page)
    page.get_by_role("tab", name="Boundary").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    page.locator("#boundary-x").select_option("small")
    page.locator("#boundary-y").select_option("large")
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    page.locator("#view-boundary details summary").click()
    text = page.locator("#boundary-text").text_content()
    expect(page.locator("#boundary-text")).to_contain_text("over small")
    text = page.locator("#boundary-text").text_content()
    high = re.search(r"and large \(([-\d.,e+]+) to ([-\d.,e+]+)\)", text)
    assert high, text
    assert float(high.group(2).replace(",", "")) > 10_000  # the user's units, not z-scores
