"""The run history restores a run trained on a sample as one (the sample switch is ticked again after it
was turned off), and describes a regression's split as Python made it: never "stratified", which only a
classification target can be."""

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import upload_csv, wait_until_ready

pytestmark = pytest.mark.e2e


def large_regression_csv(n=2_500, seed=0):
    """More rows than kernel regression takes (2,000), a smooth target of two features."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, (n, 2))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] + rng.normal(0, 0.1, n)
    return "a,b,y\n" + "\n".join(f"{a:.3f},{b:.3f},{t:.3f}" for (a, b), t in zip(X, y)) + "\n"


def test_a_sampled_regression_run_is_restored_with_its_sample_and_its_split_in_words(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "large.csv", large_regression_csv())
    expect(page.locator("#data-summary")).to_contain_text("2500 rows")
    page.get_by_label("Target").select_option("y")
    page.get_by_label("Model", exact=True).select_option("KernelRegression")
    sample = page.get_by_label("Train on a random sample of 2,000 rows (drawn with the split seed)")
    train = page.get_by_role("button", name="Train", exact=True)
    sample.check()
    train.click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=180_000)
    expect(page.get_by_role("alert")).to_be_hidden()

    entry = page.locator("#history-list > li").filter(has_text="Kernel regression")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("held out 30% test, seed 0")
    expect(entry).not_to_contain_text("stratified")

    sample.uncheck()
    expect(train).to_be_disabled()  # without the sample this table is too large for the model
    entry.get_by_role("button").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=180_000)
    expect(sample).to_be_checked()  # the run was of a sample, and so are the restored choices
    expect(train).to_be_enabled()
    expect(entry.get_by_role("button")).to_have_attribute("aria-current", "true")
