"""End to end: "Compare learners" on iris ranks three learners trained on the same folds by the chosen
metric, a row opens that learner's model in every view, and the ranking downloads as CSV."""

import csv
import io
import re

import pytest
from playwright.sync_api import expect

from pagekit import open_example
from pellucid.learners.catalog import LEARNERS as CATALOG

pytestmark = pytest.mark.e2e

LEARNERS = {"GaussianNB": "Gaussian naive Bayes", "DecisionTreeClassifier": "Decision tree",
            "KNeighborsClassifier": "k-nearest neighbours"}


def train(page, model, target):
    page.get_by_label("Model", exact=True).select_option(model)
    page.get_by_label("Target", exact=True).select_option(target)
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.locator("#accuracy")).not_to_have_text("—")


def percent(text):
    return float(re.match(r"([\d.]+)%", text.strip()).group(1))


def compare_three(page, site_url):
    """Train Gaussian naive Bayes, then compare it with a tree and k-NN on 5 folds, ranked by macro F1."""
    open_example(page, site_url, "iris", "150 rows")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    train(page, "GaussianNB", "species")
    box = page.locator("#leaderboard-box")
    for label in LEARNERS.values():
        box.get_by_label(label, exact=True).check()
    box.get_by_label("Rank by").select_option("f1_macro")
    box.get_by_role("button", name="Compare", exact=True).click()
    expect(page.locator("#leaderboard-table tbody tr:not(.baseline)")).to_have_count(3, timeout=90_000)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=90_000)
    return box


def test_compare_three_learners_open_the_second_and_export(page, site_url):
    box = compare_three(page, site_url)
    table = page.locator("#leaderboard-table")
    expect(table.locator("caption")).to_contain_text("over 5 folds")
    assert table.locator("thead th").all_inner_texts()[:4] == ["Rank", "Learner", "F1 (macro)", "± std"]
    rows = table.locator("tbody tr:not(.baseline)")
    learners = [row.locator("th").inner_text() for row in rows.all()]
    # The baseline, always the first class on iris's balanced folds (F1 (1/2 + 0 + 0) / 3), is unranked and
    # below every learner; it opens nothing.
    baseline = table.locator("tbody tr.baseline")
    expect(baseline.locator("th")).to_have_text("Baseline: the most frequent class")
    assert baseline.locator("td").first.inner_text() == "—" and baseline.get_by_role("button").count() == 0
    assert float(baseline.locator("td").nth(1).inner_text()) == pytest.approx(1 / 6, abs=1e-3)
    expect(table.locator("tbody tr").last).to_have_class(re.compile("baseline"))
    assert sorted(learners) == sorted(LEARNERS.values())
    scores = [float(row.locator("td").nth(1).inner_text()) for row in rows.all()]
    assert scores == sorted(scores, reverse=True) and all(0.8 < s <= 1 for s in scores)
    assert [row.locator("td").first.inner_text() for row in rows.all()] == ["1", "2", "3"]
    times = table.locator("tbody tr:not(.baseline) td:nth-last-child(-n+2)").all_inner_texts()
    assert all(re.fullmatch(r"[\d.]+ (ms|s)", t) for t in times)

    # Another metric re-ranks the same runs without training again.
    box.get_by_label("Rank by").select_option("accuracy")
    expect(table.locator("thead th").nth(2)).to_have_text("Accuracy")
    accuracies = [percent(row.locator("td").nth(1).inner_text()) for row in rows.all()]
    assert accuracies == sorted(accuracies, reverse=True)

    # The second row opens its model: the headline names it and the model menu shows it.
    second = rows.nth(1).locator("th").inner_text()
    rows.nth(1).get_by_role("button").click()
    expect(page.locator("#accuracy-note")).to_contain_text(second, timeout=60_000)
    expect(page.get_by_role("status")).to_have_text("Ready")
    name = next(key for key, label in LEARNERS.items() if label == second)
    expect(page.get_by_label("Model", exact=True)).to_have_value(name)
    expect(page.locator("#accuracy-label")).to_have_text("Cross-validated accuracy")
    expect(page.locator("#accuracy")).to_have_text(rows.nth(1).locator("td").nth(1).inner_text())
    expect(rows.nth(1)).to_have_class(re.compile("chosen"))

    with page.expect_download() as download:
        box.get_by_role("button", name="Export CSV").click()
    text = open(download.value.path(), encoding="utf-8").read()
    records = list(csv.reader(io.StringIO(text)))
    header = records[0]
    assert header[:5] == ["rank", "learner", "model", "params", "scored_on"]
    assert {"accuracy_mean", "accuracy_std", "f1_macro_mean", "fit_seconds", "predict_seconds"} <= set(header)
    assert [r[1] for r in records[1:]] == [row.locator("th").inner_text() for row in table.locator("tbody tr").all()]
    assert records[-1][:3] == ["", "Baseline: the most frequent class", "baseline"]
    assert download.value.suggested_filename == "learners_compared.csv"


def test_all_that_fit_the_task_then_new_data_clears_the_ranking(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("LinearRegression")
    box = page.locator("#leaderboard-box")
    box.get_by_role("button", name="Every learner of this task").click()
    regressors = sum(learner.task == "regression" for learner in CATALOG)  # like the chosen model
    expect(box.locator("#leaderboard-learners input")).to_have_count(regressors)
    expect(box.locator("#leaderboard-learners input:checked")).to_have_count(regressors)
    page.get_by_label("Model", exact=True).select_option("KMeans")
    expect(box.get_by_role("button", name="Compare", exact=True)).to_be_disabled()
    expect(page.locator("#leaderboard-note")).to_contain_text("choose a classifier or a regressor")

    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    box.get_by_role("button", name="Every learner of this task").click()
    checked = box.locator("#leaderboard-learners input:checked").count()
    assert checked == sum(learner.task == "classification" for learner in CATALOG)
    box.get_by_role("button", name="Compare", exact=True).click()
    expect(page.locator("#leaderboard-table tbody tr:not(.baseline)")).to_have_count(checked, timeout=120_000)
    expect(page.locator("#leaderboard-table caption")).to_contain_text("on the 45 test rows")
    expect(page.locator("#leaderboard-table thead")).to_contain_text("Fit time (105 rows)")
    page.get_by_label("Dataset").select_option("wine")
    expect(page.locator("#data-summary")).to_contain_text("178 rows")
    expect(page.locator("#leaderboard-result")).to_be_hidden()  # its runs were on the other table


def test_a_comparison_reports_each_learner_and_can_be_cancelled(page, site_url):
    page.goto(site_url + "#dataset=moons&n=2000")
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=90_000)
    expect(page.locator("#data-summary")).to_contain_text("2000 rows", timeout=60_000)
    page.evaluate("""() => { window.statusTexts = [];
        new MutationObserver(() => window.statusTexts.push(document.getElementById('status').textContent))
          .observe(document.getElementById('status'), {childList: true, characterData: true, subtree: true}); }""")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Folds (k)").fill("20")
    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    box = page.locator("#leaderboard-box")
    box.get_by_label("Kernel perceptron", exact=True).check()  # slow on its 2,000-row limit and 20 folds
    box.get_by_label("Workers").fill("1")  # the page's own worker, which reports each learner's folds
    box.get_by_role("button", name="Compare", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Kernel perceptron (2 of 2)", timeout=60_000)
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("status")).to_have_text("Comparing 2 learners cancelled", timeout=120_000)
    texts = page.evaluate("window.statusTexts")
    assert any(t.startswith("Gaussian naive Bayes (1 of 2): Cross-validating, fold") for t in texts), texts
    expect(page.locator("#leaderboard-result")).to_be_hidden()
    expect(page.locator("#data-summary")).to_contain_text("2000 rows")  # the data was restored in a new worker

    box.get_by_label("Kernel perceptron", exact=True).uncheck()
    page.get_by_label("Folds (k)").fill("3")
    box.get_by_role("button", name="Compare", exact=True).click()
    expect(page.locator("#leaderboard-table tbody tr:not(.baseline)")).to_have_count(1, timeout=60_000)
