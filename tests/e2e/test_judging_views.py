"""Judging a model in the page: the Curves view (ROC, precision-recall, calibration, and a threshold slider
that redraws the confusion matrix without asking Python) and the Importance view (permutation importance
with its spread, and a tree's impurity importance beside it), each with its text twin; and out-of-fold
curves under k-fold. Screenshots of both views go to docs/screenshots/."""

import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import show, train, wait_until_ready

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def open_cancer(page, site_url):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Dataset").select_option("breast_cancer")
    expect(page.locator("#data-summary")).to_contain_text("569 rows")




def test_curves_view_with_a_threshold_slider(page, site_url):
    open_cancer(page, site_url)
    train(page, "LogisticRegression")
    show(page, "Curves", timeout=90_000)
    expect(page.locator("#curves-caption")).to_contain_text("test rows")
    twin = page.locator("#curves-text")
    expect(twin.locator("table").first).to_contain_text("ROC AUC")
    auc = float(twin.locator("table").first.locator("tbody td").first.text_content())  # the twin is folded away
    assert 0.9 < auc <= 1.0  # logistic regression separates these tumours well
    expect(twin).to_contain_text("Calibration of")

    slider = page.get_by_label("Predict malignant when its probability is")
    expect(slider).to_be_visible()
    metrics = page.locator("#threshold-metrics")
    confusion = page.locator("#threshold-confusion table")
    expect(confusion).to_be_visible()
    at_half = confusion.inner_text()
    page.locator("#view-curves").screenshot(path=str(SHOTS / "curves.png"))  # at the usual threshold
    slider.focus()
    page.keyboard.press("End")  # the lowest threshold: every row is predicted malignant
    recall = metrics.locator("tr", has_text="Recall").locator("td")
    expect(recall).to_have_text("1")
    assert confusion.inner_text() != at_half
    page.keyboard.press("Home")  # the highest: almost nothing is
    expect(recall).not_to_have_text("1")
    page.keyboard.press("End")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(page.locator("#threshold-value")).not_to_be_empty()


def test_importance_view_shows_permutation_and_impurity_for_a_tree(page, site_url):
    open_cancer(page, site_url)
    train(page, "DecisionTreeClassifier")
    show(page, "Importance", timeout=90_000)
    expect(page.locator("#importance-caption")).to_contain_text("drops when one feature's values are shuffled")
    expect(page.locator("#impurity-figure")).to_be_visible()
    tables = page.locator("#importance-text table")
    expect(tables).to_have_count(2)
    expect(tables.nth(0).locator("tbody tr")).to_have_count(30)  # every feature of the table
    assert page.locator("#permutation-canvas").bounding_box()["height"] > 300
    page.locator("#view-importance").screenshot(path=str(SHOTS / "importance.png"))


def test_kfold_curves_are_out_of_fold(page, site_url):
    open_cancer(page, site_url)
    page.locator('input[name="eval-method"][value="kfold"]').check()
    train(page, "GaussianNB")
    show(page, "Curves", timeout=90_000)
    expect(page.locator("#curves-caption")).to_contain_text("Out of fold: each of the 569 rows")
    show(page, "Importance", timeout=90_000)
    expect(page.locator("#importance-caption")).to_contain_text("each fold model's held-out rows")
    expect(page.locator("#impurity-figure")).to_be_hidden()  # not a tree
