"""End to end: the Importance view in a pool of Python workers (the Compare panel's Workers box above 1) gives
exactly the permutation importance the page's one worker gives, under k-fold (each fold's model refitted in
the pool) and under a held-out split (the model trained again in each pool worker, a tree's impurity importance
merged in the page's worker): the same text twin and caption. Cancel stops every pool worker and keeps the data
and the model shown, whose importance the page's worker then computes."""

import pytest
from playwright.sync_api import expect

from pagekit import open_example, show, train
from test_compare_pool_page import cancel_pooled, open_wide_kfold, pool_workers

pytestmark = pytest.mark.e2e


def set_workers(page, workers):
    page.locator("#leaderboard-box").get_by_label("Workers").fill(str(workers))


def importance_with(page, workers, model):
    """Train `model` again (a new model, so no importance is kept for it), then open the Importance view with
    `workers` workers: its text twin's tables as text, and its caption."""
    if page.get_by_role("tab", name="Metrics").is_visible():  # a model is shown: leave its Importance view
        show(page, "Metrics")
    set_workers(page, workers)
    train(page, model)
    page.evaluate("() => document.getElementById('importance-text').replaceChildren()")  # the last model's
    show(page, "Importance", timeout=180_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    return shown_importance(page)


def shown_importance(page):
    tables = page.locator("#importance-text table")  # the text twin, read as a screen reader reads it
    expect(tables.first).to_be_attached()  # filled once the bars' renderer, loaded on first use, has drawn
    rows = [[[cell.text_content() for cell in row.locator("th, td").all()] for row in table.locator("tr").all()]
            for table in tables.all()]
    return rows, page.locator("#importance-caption").text_content()


@pytest.mark.parametrize("method, model, tables", [("kfold", "KNeighborsClassifier", 1),
                                                    ("split", "DecisionTreeClassifier", 2)])
def test_two_workers_give_the_importance_of_one(page, site_url, method, model, tables):
    open_example(page, site_url, "wine", "178 rows")
    page.locator(f'input[name="eval-method"][value="{method}"]').check()
    started, _ = pool_workers(page)
    one = importance_with(page, 1, model)
    assert started == []  # one worker: the page's own
    two = importance_with(page, 2, model)
    assert len(started) == 2  # started for the job, both used
    assert two == one
    twins, caption = one
    assert len(twins) == tables  # a tree's impurity importance beside the permutation importance
    assert len(twins[0]) > 13  # every one of wine's 13 features, below the header
    assert "shuffled" in caption


def test_cancel_stops_every_pool_worker_and_keeps_the_data_and_the_model(page, site_url):
    open_wide_kfold(page, site_url, rows=8_000)
    train(page, "KNeighborsClassifier")
    show(page, "Metrics")
    metrics = page.locator("#metrics-body").text_content()
    assert "Fold 5" in metrics
    started, closed = pool_workers(page)
    set_workers(page, 2)
    page.get_by_role("tab", name="Importance").click()
    expect(page.get_by_role("status")).to_contain_text("pieces of the features in 2 workers")
    cancel_pooled(page, started, closed, "Computing feature importance cancelled")

    # The model shown is the one trained before, still kept by the page's worker, which computes its importance.
    page.get_by_role("tab", name="Metrics").click()
    expect(page.locator("#metrics-body")).to_have_text(metrics)
    set_workers(page, 1)
    show(page, "Importance", timeout=180_000)
    twins, caption = shown_importance(page)
    assert len(twins[0]) == 21 and "each fold model's held-out rows" in caption  # 20 features, below the header
