"""End to end: Train of a forest or a bagging ensemble with two workers grows its trees on the page's pool and
gives exactly the model the page's one worker gives (the metrics, the predictions export, the model file);
Cancel while the pool grows the trees stops every pool worker and keeps the data and the last result (how
fast, benchmarks/pool.py measures: no test asserts a time)."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import metrics_text, open_example
from test_compare_pool_page import cancel_pooled, open_wide_kfold, pool_workers

pytestmark = pytest.mark.e2e


def trained(page, workers, timeout=120_000):
    """Train with `workers` in the Workers box; (the Metrics tab's text, the predictions export's text, the
    model file's text)."""
    page.locator("#leaderboard-box").get_by_label("Workers").fill(str(workers))
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=timeout)
    expect(page.get_by_role("alert")).to_be_hidden()
    page.get_by_role("tab", name="Metrics").click()
    shown = metrics_text(page)
    exported = []
    for button in ("#export-predictions", "#export-model"):
        with page.expect_download() as download:
            page.locator(button).click()
        exported.append(pathlib.Path(download.value.path()).read_text(encoding="utf-8-sig"))
    return shown, *exported


def test_two_workers_grow_the_trees_exactly_as_one(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.locator('input[name="eval-method"][value="split"]').check()
    page.get_by_label("Model", exact=True).select_option("RandomForestClassifier")
    page.locator("#param-n_estimators").fill("20")
    page.locator("#param-oob_score").check()
    started, _ = pool_workers(page)
    one = trained(page, 1)
    assert started == []  # one worker: the page's own
    two = trained(page, 2)
    assert len(started) == 2  # the trees grew in the pool
    assert "oob_score" in one[2] and len(one[1].splitlines()) == 151
    assert two == one

    # Bagged regression trees under k-fold: the folds and the final model's trees all go to the pool.
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Target").select_option("petal width (cm)")
    page.get_by_label("Model", exact=True).select_option("BaggingRegressor")
    one = trained(page, 1)
    two = trained(page, 2)
    assert len(started) == 2  # the pool's workers are kept for the next job
    assert "Out-of-fold" in one[0] and two == one


def test_cancel_stops_the_pooled_forest_and_keeps_the_last_result(page, site_url):
    open_wide_kfold(page, site_url, rows=3_000)
    page.locator('input[name="eval-method"][value="split"]').check()
    started, closed = pool_workers(page)
    before, _, _ = trained(page, 1)

    page.get_by_label("Model", exact=True).select_option("RandomForestClassifier")
    page.locator("#leaderboard-box").get_by_label("Workers").fill("2")
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("trees in 2 workers")
    page.wait_for_timeout(1_500)  # the pool well into the trees
    cancel_pooled(page, started, closed, "Training cancelled")  # how fast: benchmarks/pool.py measures it
    page.get_by_role("tab", name="Metrics").click()
    assert metrics_text(page) == before  # the last result is still shown
