"""The "class weight" hyperparameter in the browser: the learners that allow it offer none or balanced in
a labelled select, and a balanced tree trains in Pyodide and shows its weighted counts in the steps."""

import pytest
from playwright.sync_api import expect

from pagekit import open_example

pytestmark = pytest.mark.e2e


def test_balanced_class_weights_are_a_labelled_choice_and_train(page, site_url):
    open_example(page, site_url, "play_tennis", "14 rows")
    for model in ("LogisticRegression", "Perceptron", "DecisionTreeClassifier"):
        page.get_by_label("Model", exact=True).select_option(model)
        choice = page.get_by_label("class weight", exact=True)
        expect(choice).to_have_value("")  # None by default, shown as "none"
        assert choice.locator("option").all_inner_texts() == ["none", "balanced"], model
    page.get_by_label("Target").select_option("PlayTennis")
    page.locator('input[name="eval-method"][value="none"]').check()
    page.get_by_label("class weight", exact=True).select_option("balanced")
    page.get_by_role("button", name="Train").click()  # the tree stays chosen, with its parameters
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    learn = page.locator("#learn-box")
    learn.get_by_role("button", name="Show the steps").click()
    # 9 Yes and 5 No weigh 7 and 7, so the root's entropy reads B(7/14), where unweighted it is B(9/14)
    expect(learn).to_contain_text("B(7/14) = 1.000", timeout=30_000)
