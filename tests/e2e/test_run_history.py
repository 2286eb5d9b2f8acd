"""The run history in the page: every training is listed with its learner, parameters and score; one
click sets the controls back to a run's choices and shows its model again (kept by the worker, or trained
again after a reload, with the same result); the history survives a reload, runs of other data say why
they cannot be restored, and clearing empties it for good."""

import pytest
from playwright.sync_api import expect

from pagekit import open_example, wait_until_ready

pytestmark = pytest.mark.e2e


def train(page, model, **params):
    """Choose `model`, set `params` in its form and press Train (the model is chosen once: choosing it
    again would start its parameters afresh)."""
    page.get_by_label("Model", exact=True).select_option(model)
    for name, value in params.items():
        page.locator(f"#param-{name}").fill(str(value))
    page.get_by_role("button", name="Train", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.get_by_role("alert")).to_be_hidden()


def headline(page):
    return page.locator("#accuracy-label").text_content(), page.locator("#accuracy").text_content()


def runs(page):
    return page.locator("#history-list > li")


def run_of(page, text):
    """The listed run whose text holds `text` (its learner, a parameter...)."""
    return runs(page).filter(has_text=text)


def restore(page, text):
    run_of(page, text).get_by_role("button").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(run_of(page, text).get_by_role("button")).to_have_attribute("aria-current", "true")


def test_runs_are_listed_restored_kept_across_a_reload_and_cleared(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "DecisionTreeClassifier", max_depth=2)
    tree_score = headline(page)

    page.get_by_label("Split seed").fill("3")
    train(page, "KNeighborsClassifier", n_neighbors=15)
    knn_score = headline(page)

    # Newest first, each with its parameters and its headline score.
    expect(runs(page)).to_have_count(2)
    expect(runs(page).nth(0).locator(".history-model")).to_have_text("k-nearest neighbours")
    expect(runs(page).nth(1).locator(".history-model")).to_have_text("Decision tree")
    expect(run_of(page, "Decision tree")).to_contain_text("max depth 2")
    expect(run_of(page, "Decision tree")).to_contain_text(" ".join(tree_score))
    expect(run_of(page, "k-nearest neighbours")).to_contain_text("k 15")
    expect(run_of(page, "k-nearest neighbours")).to_contain_text("seed 3")
    expect(run_of(page, "k-nearest neighbours")).to_contain_text(" ".join(knn_score))
    expect(page.locator("#history-summary")).to_have_text("2 runs")

    # One click: the tree's choices in the form, its model in the views, its score in the headline.
    restore(page, "Decision tree")
    expect(page.get_by_label("Model", exact=True)).to_have_value("DecisionTreeClassifier")
    expect(page.locator("#param-max_depth")).to_have_value("2")
    expect(page.get_by_label("Split seed")).to_have_value("0")
    assert headline(page) == tree_score
    expect(page.get_by_role("tab", name="Tree")).to_be_enabled()
    expect(runs(page)).to_have_count(2)  # showing a run again adds none

    # After a reload the worker keeps no model: the history trains the run again, with the same result.
    page.reload()
    wait_until_ready(page)
    expect(runs(page)).to_have_count(2)
    restore(page, "k-nearest neighbours")
    expect(page.get_by_label("Model", exact=True)).to_have_value("KNeighborsClassifier")
    expect(page.locator("#param-n_neighbors")).to_have_value("15")
    expect(page.get_by_label("Split seed")).to_have_value("3")
    assert headline(page) == knn_score
    restore(page, "Decision tree")
    assert headline(page) == tree_score
    expect(runs(page)).to_have_count(2)

    # Other data: the runs stay listed, say why they cannot be restored here, and offer no button.
    page.get_by_label("Dataset", exact=True).select_option("wine")
    expect(page.locator("#data-summary")).to_contain_text("178 rows")
    expect(runs(page)).to_have_count(2)
    expect(run_of(page, "Decision tree").locator(".history-why")).to_contain_text("Trained on Iris flowers")
    expect(page.locator("#history-list button")).to_have_count(0)

    page.get_by_role("button", name="Clear history").click()
    expect(runs(page)).to_have_count(0)
    expect(page.locator("#history-empty")).to_be_visible()
    expect(page.locator("#history-list")).not_to_have_attribute("aria-busy", "true")  # stored
    page.reload()  # the page's link trains its settings again on wine: that run alone is listed
    wait_until_ready(page)
    expect(runs(page)).to_have_count(1)
    expect(runs(page).nth(0)).to_contain_text("Wine")


def test_a_run_the_worker_let_go_of_is_trained_again(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "DecisionTreeClassifier", max_depth=1)
    first_score = headline(page)
    for depth in range(2, 8):  # more runs than the worker keeps (bridge.Session.KEPT_RUNS)
        train(page, "DecisionTreeClassifier", max_depth=depth)
    expect(runs(page)).to_have_count(7)
    restore(page, "max depth 1")
    expect(page.locator("#param-max_depth")).to_have_value("1")
    assert headline(page) == first_score
    expect(runs(page)).to_have_count(7)
