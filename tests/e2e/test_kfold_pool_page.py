"""End to end: Train under k-fold with two workers fits the folds on the page's pool and gives exactly the
result the page's one worker gives (the metrics, the confusion matrix, the out-of-fold predictions export);
Cancel while the pool fits the folds stops every pool worker and keeps the data and the last result."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import metrics_text, open_example
from test_compare_pool_page import cancel_pooled, open_wide_kfold, pool_workers

pytestmark = pytest.mark.e2e


def trained(page, workers, timeout=120_000):
    """Train with `workers` in the Workers box; (the Metrics tab's text, the predictions export's text)."""
    page.locator("#leaderboard-box").get_by_label("Workers").fill(str(workers))
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=timeout)
    expect(page.get_by_role("alert")).to_be_hidden()
    page.get_by_role("tab", name="Metrics").click()
    expect(page.locator("#metrics-body")).to_contain_text("Out-of-fold")
    shown = metrics_text(page)
    with page.expect_download() as download:
        page.locator("#export-predictions").click()
    return shown, pathlib.Path(download.value.path()).read_text(encoding="utf-8-sig")


def test_two_workers_train_the_folds_exactly_as_one(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Folds (k)").fill("5")
    page.get_by_label("Model", exact=True).select_option("LogisticRegression")
    started, _ = pool_workers(page)
    one_metrics, one_export = trained(page, 1)
    assert started == []  # one worker: the page's own
    two_metrics, two_export = trained(page, 2)
    assert len(started) == 2  # the folds went to the pool
    assert "Confusion" in one_metrics or "confusion" in one_metrics
    assert two_metrics == one_metrics
    assert two_export == one_export and len(one_export.splitlines()) == 151

    # A regression too: out-of-fold values are floats, which cross between the workers exactly.
    page.get_by_label("Target").select_option("petal width (cm)")
    page.get_by_label("Model", exact=True).select_option("KNeighborsRegressor")
    one_metrics, one_export = trained(page, 1)
    two_metrics, two_export = trained(page, 2)
    assert len(started) == 2  # the pool's workers are kept for the next job
    assert two_metrics == one_metrics and two_export == one_export


def test_cancel_stops_the_pool_and_keeps_the_data_and_the_last_result(page, site_url):
    open_wide_kfold(page, site_url)
    started, closed = pool_workers(page)
    before, _ = trained(page, 1)

    page.get_by_label("Model", exact=True).select_option("RandomForestClassifier")
    page.locator("#leaderboard-box").get_by_label("Workers").fill("2")
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("folds in 2 workers")
    cancel_pooled(page, started, closed, "Training cancelled")
    page.get_by_role("tab", name="Metrics").click()
    assert metrics_text(page) == before  # the last result is still shown

    # The page trains again, its folds on new pool workers.
    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    again, _ = trained(page, 2)
    assert again == before and len(started) == 4
