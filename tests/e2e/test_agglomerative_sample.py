"""Agglomerative clustering on a table above its row limit: the page says the limit as soon as the model is
chosen (beside the menu and in it), Train waits until a sample is asked for, and the clustering trained on
the sample says it is one, while the loaded table keeps all its rows."""

import numpy as np
from playwright.sync_api import expect

from a11ykit import assert_accessible
from pagekit import show, wait_until_ready


def test_agglomerative_offers_a_seeded_sample_of_a_large_table(page, site_url, tmp_path):
    rng = np.random.default_rng(0)
    X = np.array([[0, 0], [5, 0], [0, 5]])[rng.integers(0, 3, 6_000)] + rng.normal(0, 0.4, (6_000, 2))
    path = tmp_path / "six-thousand.csv"
    path.write_text("a,b\n" + "\n".join(f"{x:.3f},{y:.3f}" for x, y in X) + "\n")
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(str(path))
    expect(page.locator("#data-summary")).to_contain_text("6000 rows")
    expect(page.get_by_role("status")).to_have_text("Ready")

    menu = page.get_by_label("Model", exact=True)
    expect(menu.locator("option[value=AgglomerativeClustering]")).to_have_text(
        "Agglomerative clustering (up to 5,000 rows)")
    menu.select_option("AgglomerativeClustering")
    expect(page.locator("#row-limit-note")).to_have_text(
        "Agglomerative clustering works on up to 5,000 rows; this table has 6,000.")
    train = page.get_by_role("button", name="Train")
    expect(train).to_be_disabled()
    sample = page.get_by_label("Train on a random sample of 5,000 rows (drawn with the split seed)")
    expect(sample).not_to_be_checked()
    assert_accessible(page, "agglomerative chosen on a table above its row limit")

    sample.check()
    expect(train).to_be_enabled()
    train.click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=120_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    show(page, "Metrics")
    expect(page.locator(".warnings")).to_contain_text("random sample of 5,000 of the table's 6,000 rows (seed")
    expect(page.locator("#data-summary")).to_contain_text("6000 rows")  # the table itself is whole

    menu.select_option("KMeans")  # a model without a limit: nothing to say, Train as usual
    expect(page.locator("#row-limit")).to_be_hidden()
    expect(train).to_be_enabled()
