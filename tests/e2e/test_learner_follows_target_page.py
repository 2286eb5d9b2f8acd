"""End to end: the learner follows the target. A numeric target of many values switches the page's own
default learner to the regression default, which trains; a text target with a regressor the user chose
keeps it and offers a classifier with one click; a target of a few whole numbers says it can be either;
and a wrong-kind learner's error leads, through "Go to", to the Model menu, focused."""

import pathlib

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import upload_csv, wait_until_ready

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def houses_csv(n=200, seed=0):
    """area and rooms (features), rating (1-5), kind (text), price (numbers with fractions, last)."""
    rng = np.random.default_rng(seed)
    lines = ["area,rooms,rating,kind,price"]
    for i in range(n):
        area = rng.uniform(40, 200)
        lines.append(f"{area:.1f},{int(area // 30)},{1 + i % 5},{'house' if area > 120 else 'flat'},"
                     f"{area * 1700 + rng.normal(0, 5000):.2f}")
    return "\n".join(lines) + "\n"


def open_houses(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "houses.csv", houses_csv())
    expect(page.locator("#data-summary")).to_contain_text("houses.csv")


def controls(page):
    """The Model menu, the Target menu and the note beside the model."""
    return page.get_by_label("Model", exact=True), page.get_by_label("Target"), page.locator("#learner-note")


def press_train(page):
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)


def test_a_continuous_target_switches_the_default_learner_to_regression_and_it_trains(page, site_url):
    open_houses(page, site_url)
    model, target, note = controls(page)
    expect(target).to_have_value("price")  # the last column
    expect(model).to_have_value("DecisionTreeRegressor")  # not the page's opening classifier
    expect(note).to_contain_text("Switched from Decision tree to Regression tree: price holds numbers with "
                                 "fractions, a quantity to predict (regression).")
    target.select_option("kind")  # text: back to the classification default
    expect(model).to_have_value("DecisionTreeClassifier")
    expect(note).to_contain_text("Switched from Regression tree to Decision tree: kind holds text labels")
    target.select_option("price")
    expect(model).to_have_value("DecisionTreeRegressor")
    press_train(page)
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(page.locator("#accuracy-label")).to_contain_text("R²")
    expect(page.locator("#accuracy")).not_to_have_text("—")


def test_a_text_target_with_a_chosen_regressor_offers_a_classifier(page, site_url):
    open_houses(page, site_url)
    model, target, note = controls(page)
    model.select_option("LinearRegression")  # the user's choice: kept
    expect(note).to_be_hidden()
    target.select_option("kind")
    expect(model).to_have_value("LinearRegression")
    expect(note).to_contain_text("Linear regression does regression, but kind holds text labels (2 classes), "
                                 "classes to tell apart (classification).")
    offer = note.get_by_role("button", name="Use Decision tree (classification)")
    expect(offer).to_be_visible()
    page.locator("#model-heading").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "learner-note.png"))

    # Training anyway: the error is the Model's, and "Go to" focuses the Model menu.
    press_train(page)
    message = page.locator("#message")
    expect(message).to_contain_text("Linear regression is a regressor, but kind holds text labels")
    expect(model).to_have_attribute("aria-invalid", "true")
    message.get_by_role("button", name="Go to Model").click()
    expect(model).to_be_focused()

    offer.click()
    expect(model).to_have_value("DecisionTreeClassifier")
    expect(note).to_be_hidden()
    press_train(page)
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(page.locator("#accuracy-label")).to_contain_text("ccuracy")

    # A few whole numbers can be either: said, with the other task's default one click away.
    target.select_option("rating")
    expect(model).to_have_value("DecisionTreeClassifier")
    expect(note).to_contain_text("Rating holds 5 whole numbers (1 to 5): they can be classes to tell apart "
                                 "(classification) or a quantity to predict (regression); Decision tree treats "
                                 "them as classes.")
    note.get_by_role("button", name="Use Regression tree (regression)").click()
    expect(model).to_have_value("DecisionTreeRegressor")
    expect(note).to_contain_text("Regression tree treats them as a quantity.")


def test_a_wrong_kind_learner_under_k_fold_points_at_the_model_not_the_folds(page, site_url):
    open_houses(page, site_url)
    page.locator('input[name="eval-method"][value="kfold"]').check()
    model = page.get_by_label("Model", exact=True)
    model.select_option("LogisticRegression")  # a classifier, chosen by the user, on the price
    expect(page.locator("#learner-note")).to_contain_text("Logistic regression does classification, but price")
    press_train(page)
    message = page.locator("#message")
    expect(message).to_contain_text("Logistic regression is a classifier, but price holds numbers with fractions")
    expect(message.get_by_role("button", name="Go to Folds (k)")).to_have_count(0)
    message.get_by_role("button", name="Go to Model").click()
    expect(model).to_be_focused()
