"""End to end: Compare learners in a pool of Python workers ranks exactly as the page's one worker does (the
table and the exported CSV, the measured times aside); Cancel stops every pool worker and keeps the ranking
shown before; a pool worker that dies is replaced and its learner compared again, and one that dies twice on
the same learner is reported by that learner's name; one the browser refuses memory is not replaced: the pool
shrinks and the others take its work."""

import csv
import io

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import open_example, upload_csv, wait_until_ready

pytestmark = pytest.mark.e2e

TIMES = ("fit_seconds", "predict_seconds")
QUICK = ("Gaussian naive Bayes", "Decision tree", "k-nearest neighbours", "Logistic regression")


def wide_csv(rows=5_000, columns=20, seed=0):
    """Three classes in `columns` numeric columns: enough work that a comparison takes seconds."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, rows)
    X = rng.normal(0, 1.5, (3, columns))[y] + rng.normal(0, 1, (rows, columns))
    header = ",".join([f"x{j + 1}" for j in range(columns)] + ["label"])
    lines = [",".join([f"{v:.5g}" for v in row] + [f"c{label}"]) for row, label in zip(X, y)]
    return header + "\n" + "\n".join(lines) + "\n"


def open_wide_kfold(page, site_url, model="GaussianNB", rows=5_000):
    """The page on wide_csv(rows) uploaded, its label the target, k-fold chosen and `model` in the menu."""
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "wide.csv", wide_csv(rows=rows))
    page.get_by_label("Target").select_option("label")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Model", exact=True).select_option(model)


def cancel_pooled(page, started, closed, cancelled):
    """Cancel pressed while 2 pool workers work: the status says `cancelled`, every pool worker is
    terminated, and the data stays loaded with no error shown."""
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("status")).to_have_text(cancelled)
    assert len(started) == 2 and all_closed(page, closed, started)  # every pool worker terminated
    expect(page.locator("#data-summary")).to_contain_text("wide.csv")
    expect(page.get_by_role("alert")).to_be_hidden()


def start_compare(page, learners, workers):
    box = page.locator("#leaderboard-box")
    for label in learners:
        box.get_by_label(label, exact=True).check()
    box.get_by_label("Workers").fill(str(workers))
    box.get_by_role("button", name="Compare", exact=True).click()
    return box


def compare(page, learners, workers):
    """Compare `learners` with `workers` workers; the ranking's rows as text (the measured times left out)
    and its exported CSV's records (the same)."""
    box = start_compare(page, learners, workers)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=180_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    with page.expect_download() as download:
        box.get_by_role("button", name="Export CSV").click()
    records = list(csv.reader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    kept = [i for i, name in enumerate(records[0]) if name not in TIMES]
    return shown_ranking(page), [[record[i] for i in kept] for record in records]


def shown_ranking(page):
    rows = page.locator("#leaderboard-table tbody tr")
    return [[row.locator("th").inner_text()] + row.locator("td").all_inner_texts()[:-2] for row in rows.all()]


def pool_workers(page):
    """The workers the page starts from now on (the pool's, once the page's own is running), as they start,
    and those of them that have closed since."""
    started, closed = [], []

    def on_start(worker):
        started.append(worker)
        worker.on("close", lambda gone: closed.append(gone))

    page.on("worker", on_start)
    return started, closed


def all_closed(page, closed, workers, turns=100):
    """Whether every one of `workers` has said it closed, waiting a turn of the page at a time for them."""
    for _ in range(turns):
        if all(worker in closed for worker in workers):
            return True
        page.wait_for_timeout(50)
    return False


def killer(worker):
    """Makes `worker` fail as a worker whose Python died does: an error nothing in it catches."""
    worker.evaluate("setTimeout(() => { throw new Error('a pool worker killed by the test'); })")


def refuse_memory(worker):
    """Makes `worker` fail as one the browser refuses memory does: WebAssembly's error, uncaught."""
    worker.evaluate("setTimeout(() => { throw new RangeError('WebAssembly.Memory(): could not allocate memory'); })")


def test_two_workers_rank_and_export_exactly_as_one(page, site_url):
    open_example(page, site_url, "wine", "178 rows")
    started, _ = pool_workers(page)
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Folds (k)").fill("5")
    page.get_by_label("Repeats").fill("2")
    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    one_table, one_csv = compare(page, QUICK, 1)
    assert started == []  # one worker: the page's own
    two_table, two_csv = compare(page, QUICK, 2)
    assert len(started) == 2  # started for the job, both used
    assert two_table == one_table and len(one_table) == len(QUICK) + 1  # the learners and the baseline
    assert two_csv == one_csv
    assert any(mark in "".join(sum(one_table, [])) for mark in ("worse", "≈ best"))  # marks were compared
    # The workers are kept for the next comparison: no new ones start.
    for label in QUICK[2:]:
        page.locator("#leaderboard-box").get_by_label(label, exact=True).uncheck()
    again_table, _ = compare(page, (), 2)
    assert len(started) == 2 and len(again_table) == 3


def test_cancel_stops_every_pool_worker_and_keeps_the_last_ranking(page, site_url):
    open_wide_kfold(page, site_url)
    started, closed = pool_workers(page)
    before, _ = compare(page, (), 2)
    start_compare(page, ("k-nearest neighbours", "Random forest", "Neural network (MLP)"), 2)
    expect(page.get_by_role("status")).to_contain_text("folds of 4 learners in 2 workers")
    cancel_pooled(page, started, closed, "Comparing 4 learners cancelled")
    expect(page.locator("#leaderboard-table tbody tr")).to_have_count(len(before))
    assert shown_ranking(page) == before  # the last ranking is still shown
    expect(page.get_by_label("Workers")).to_have_value("2")

    # A number of workers the page cannot start is refused, pointing at the box; the ranking stays.
    start_compare(page, (), 0)
    expect(page.get_by_role("alert")).to_contain_text("Workers must be a whole number from 1 to")
    expect(page.get_by_role("button", name="Go to Workers")).to_be_visible()
    assert shown_ranking(page) == before


def test_a_dead_pool_worker_is_replaced_and_a_second_death_is_named(page, site_url):
    open_example(page, site_url, "wine", "178 rows")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    expected, _ = compare(page, QUICK, 1)
    box = page.locator("#leaderboard-box")

    # One learner on a split, so one piece and one pool worker (under k-fold each fold is a piece): it dies
    # while it starts, and so does the worker that replaces it.
    for label in QUICK[1:]:
        box.get_by_label(label, exact=True).uncheck()
    page.locator('input[name="eval-method"][value="split"]').check()
    with page.expect_event("worker") as first:
        start_compare(page, (), 2)
    with page.expect_event("worker") as second:
        killer(first.value)
    killer(second.value)
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("stopped while working on Gaussian naive Bayes")
    expect(alert).to_contain_text("It stopped twice on it")
    expect(page.get_by_role("status")).to_have_text("Ready")
    assert shown_ranking(page) == expected  # the ranking shown before stays

    # Every learner's folds in two workers: one dies while it starts, is replaced, and its fold fitted again.
    page.locator('input[name="eval-method"][value="kfold"]').check()
    started, _ = pool_workers(page)
    with page.expect_event("worker") as first:
        start_compare(page, QUICK[1:], 2)
    killer(first.value)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=180_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    assert shown_ranking(page) == expected
    assert len(started) == 3  # the dead worker's slot and the other (new), and the dead one's replacement


def test_a_worker_refused_memory_shrinks_the_pool_and_the_others_finish(page, site_url):
    open_example(page, site_url, "wine", "178 rows")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    expected, _ = compare(page, QUICK, 1)
    started, closed = pool_workers(page)
    # Two workers start for the learners' folds; the browser refuses the first memory as it starts.
    with page.expect_event("worker") as first:
        start_compare(page, (), 2)
    refuse_memory(first.value)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=180_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    assert shown_ranking(page) == expected  # every fold fitted, by the worker left
    assert len(started) == 2 and all_closed(page, closed, [first.value])  # stopped, and not replaced
    expect(page.locator("#note")).to_contain_text("refused memory for another Python worker")
    expect(page.get_by_label("Workers")).to_have_value("1")  # the pool's size now


def test_a_lone_worker_refused_memory_stops_the_comparison_and_says_why(page, site_url):
    """One learner on a split is one piece for one worker: refused memory with no other worker to take it
    over, the comparison stops, says why, and the ranking shown stays."""
    open_example(page, site_url, "wine", "178 rows")
    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    expected, _ = compare(page, QUICK[:1], 1)
    with page.expect_event("worker") as lone:
        start_compare(page, (), 2)
    refuse_memory(lone.value)
    expect(page.get_by_role("alert")).to_contain_text("stopped while working on Gaussian naive Bayes")
    expect(page.get_by_role("alert")).to_contain_text("The browser refused it memory")
    expect(page.get_by_role("status")).to_have_text("Ready")
    assert shown_ranking(page) == expected
