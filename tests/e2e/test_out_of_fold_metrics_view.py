"""End to end: under k-fold the Metrics tab scores the out-of-fold predictions (each row predicted by the
fold model that did not see it) and says so; it never shows the final model's in-sample score."""

import pytest
from playwright.sync_api import expect

from pagekit import open_example

pytestmark = pytest.mark.e2e


def test_kfold_metrics_and_confusion_are_out_of_fold(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Model", exact=True).select_option("DecisionTreeClassifier")
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    page.get_by_role("tab", name="Metrics").click()
    body = page.locator("#metrics-body")
    expect(body).to_contain_text("Out-of-fold (150 rows, each predicted by the fold model that did not see it)")
    expect(body).not_to_contain_text("Training (")
    expect(page.locator("#confusion-caption")).to_contain_text("On the out-of-fold rows (150 rows")
    # A full-depth tree fits iris's rows perfectly; the out-of-fold accuracy of the folds does not.
    accuracy = body.locator("table").first.locator("tbody tr").first.locator("td").first.inner_text()
    assert accuracy.endswith("%") and float(accuracy[:-1]) < 100


def test_kfold_regression_plots_name_their_points_out_of_fold(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Target").select_option("petal width (cm)")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Model", exact=True).select_option("LinearRegression")
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    page.get_by_role("tab", name="Regression").click()
    table = page.locator("#regression-text table").first
    expect(table).to_contain_text("out-of-fold")
    expect(table.locator("tbody")).not_to_contain_text("train")
