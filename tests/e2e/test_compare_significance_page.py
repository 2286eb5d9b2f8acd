"""End to end: Compare learners on 5 folds repeated twice marks each learner against the best with the
corrected resampled t-test, explains what the test assumes, and exports every fold's score, from which
scipy gives the very p-value the page shows."""

import csv
import io
import re

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import compare_naive_bayes_and_tree, open_example

pytestmark = pytest.mark.e2e
stats = pytest.importorskip("scipy.stats", reason="the test recomputes the page's p-values with scipy")

LEARNERS = ("Gaussian naive Bayes", "Decision tree", "k-nearest neighbours")


def compare_repeated(page, site_url):
    open_example(page, site_url, "wine", "178 rows")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Folds (k)").fill("5")
    page.get_by_label("Repeats").fill("2")
    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    box = page.locator("#leaderboard-box")
    for label in LEARNERS:
        box.get_by_label(label, exact=True).check()
    box.get_by_role("button", name="Compare", exact=True).click()
    expect(page.locator("#leaderboard-table tbody tr:not(.baseline)")).to_have_count(3, timeout=120_000)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=120_000)
    return box


def corrected_p(best, other, ratio):
    """scipy's two-sided p-value of the Nadeau-Bengio corrected t statistic of other - best."""
    d = np.asarray(other) - np.asarray(best)
    n = len(d)
    t = d.mean() / np.sqrt((1 / n + ratio) * d.var(ddof=1))
    return t, 2 * stats.t.sf(abs(t), n - 1)


def test_repeated_folds_mark_each_learner_against_the_best_and_export_the_folds(page, site_url, tmp_path):
    box = compare_repeated(page, site_url)
    table = page.locator("#leaderboard-table")
    expect(table.locator("caption")).to_contain_text("over 10 folds (5-fold cross-validation repeated 2 times)")
    heads = table.locator("thead th").all_inner_texts()
    assert heads[:5] == ["Rank", "Learner", "Accuracy", "± std", "Versus the best"]
    cells = table.locator("tbody tr:not(.baseline) td.versus")
    marks = cells.all_inner_texts()
    assert marks[0] == "best"
    for mark in marks[1:]:
        assert re.fullmatch(r"(≈ best|worse) \(p (=|<) [\d.]+\)", mark), mark
    baseline = table.locator("tbody tr.baseline td.versus")
    expect(baseline).to_have_text(re.compile(r"worse \(p (<|=) [\d.]+\)"))  # the baseline learns nothing
    note = page.locator("#leaderboard-significance-note")
    for words in ("corrected resampled t-test", "Nadeau and Bengio", "n_test/n_train", "same 10 folds",
                  "p < 0.05", "does not mean equal"):
        expect(note).to_contain_text(words)
    box.screenshot(path=str(tmp_path / "compare_significance.png"))

    with page.expect_download() as download:
        box.get_by_role("button", name="Export CSV").click()
    records = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    folds = [f"accuracy_repeat{r}_fold{j}" for r in (1, 2) for j in range(1, 6)]
    assert set(folds) <= set(records[0]) and "accuracy_repeat3_fold1" not in records[0]
    best = next(r for r in records if r["accuracy_versus_best"] == "best")
    scores = {r["learner"]: [float(r[f]) for f in folds] for r in records}
    shown_p = [cell.get_attribute("data-p") for cell in cells.all()[1:]] + [baseline.get_attribute("data-p")]
    others = [r for r in records if r is not best]
    assert [r["learner"] for r in others] == table.locator("tbody tr th").all_inner_texts()[1:]
    for record, on_page in zip(others, shown_p):
        ratio = float(record["n_test_over_n_train"])
        assert ratio == pytest.approx(1 / 4, rel=0.02)  # k = 5: a fold's held-out rows are 1/4 of its training rows
        t, p = corrected_p(scores[best["learner"]], scores[record["learner"]], ratio)
        assert float(record["accuracy_t"]) == pytest.approx(t, rel=1e-9)
        assert float(record["accuracy_p_value"]) == pytest.approx(p, rel=1e-9)
        assert float(on_page) == pytest.approx(p, rel=1e-9)
        assert record["accuracy_versus_best"] == ("worse" if p < 0.05 else "not_significant")


def test_a_hold_out_split_says_no_test_is_possible(page, site_url):
    compare_naive_bayes_and_tree(page, site_url)
    expect(page.locator("#leaderboard-significance-note")).to_contain_text("No significance test")
    expect(page.locator("#leaderboard-table thead")).not_to_contain_text("Versus the best")
