"""End to end: Tune in a pool of Python workers (the Compare panel's Workers box above 1) scores every cell
exactly as the page's one worker does: the same heatmap's table twin and caption; Cancel stops every pool
worker and keeps the tuning shown before; a cell that fails is named as with one worker."""

import pytest
from playwright.sync_api import expect

from pagekit import open_example, press_tune, upload_csv, wait_until_ready
from test_compare_pool_page import all_closed, pool_workers, wide_csv

pytestmark = pytest.mark.e2e


def start_tune(page, workers, *grid):
    page.locator("#leaderboard-box").get_by_label("Workers").fill(str(workers))
    press_tune(page, *grid)


def tuned(page, workers, *grid):
    """Tune `grid` with `workers` workers: the table twin's rows as text, and the caption."""
    start_tune(page, workers, *grid)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=180_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    return shown_tuning(page)


def shown_tuning(page):
    rows = page.locator("#tune-text tbody tr")  # the table twin, read as a screen reader reads it
    expect(rows.first).to_be_attached()  # filled once the heatmap's renderer, loaded on first use, has drawn
    table = [[cell.text_content() for cell in row.locator("th, td").all()] for row in rows.all()]
    return table, page.locator("#tune-caption").text_content()


def test_two_workers_tune_a_heatmap_exactly_as_one(page, site_url):
    open_example(page, site_url, "wine", "178 rows")
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    started, _ = pool_workers(page)
    grid = ("n_neighbors", "1, 3, 5, 9", "weights", "uniform, distance")
    one = tuned(page, 1, *grid)
    assert started == []  # one worker: the page's own
    two = tuned(page, 2, *grid)
    assert len(started) == 2  # started for the job, both used
    assert two == one
    table, caption = one
    assert len(table) == 4 and sum("(best)" in cell for row in table for cell in row) == 1
    assert "Best:" in caption
    # One hyperparameter draws the curve from the pool's workers, kept from before: none start.
    assert tuned(page, 2, "n_neighbors", "1..6") == tuned(page, 1, "n_neighbors", "1..6")
    assert len(started) == 2


def test_a_failing_cell_is_named_as_with_one_worker(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    messages = []
    for workers in (1, 2):
        start_tune(page, workers, "n_neighbors", "3, 500, 5, 600")
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("n_neighbors = 500", timeout=60_000)  # the first failing cell, in grid order
        messages.append(alert.inner_text())
        expect(page.get_by_role("status")).to_have_text("Ready")
    assert messages[0] == messages[1]


def test_cancel_stops_every_pool_worker_and_keeps_the_last_tuning(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "wide.csv", wide_csv(rows=8_000))
    page.get_by_label("Target").select_option("label")
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    started, closed = pool_workers(page)
    before = tuned(page, 2, "n_neighbors", "1, 3")
    start_tune(page, 2, "n_neighbors", "1..30")
    expect(page.get_by_role("status")).to_contain_text("of 30 cells in 2 workers")
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("status")).to_have_text("Tuning cancelled")
    assert shown_tuning(page) == before  # the last tuning is still shown
    assert len(started) == 2 and all_closed(page, closed, started)  # every pool worker terminated
    expect(page.locator("#data-summary")).to_contain_text("wide.csv")
    expect(page.get_by_role("alert")).to_be_hidden()

    # A number of workers the page cannot start is refused, pointing at the Workers box; the tuning stays.
    start_tune(page, 0, "n_neighbors", "1, 3")
    expect(page.get_by_role("alert")).to_contain_text("Workers must be a whole number from 1 to")
    expect(page.get_by_role("button", name="Go to Workers")).to_be_visible()
    assert shown_tuning(page) == before
