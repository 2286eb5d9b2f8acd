"""axe-core on every state the page can be in: start, an error, data loaded with its column profile,
each model view, the steps and the exercises, light and dark, each on a wide screen and a phone. Any
violation fails the test, naming the state, the size, the rule and the elements."""

import pytest
from playwright.sync_api import expect

from a11ykit import assert_accessible
from pagekit import compare_naive_bayes_and_tree, open_example, train, wait_until_ready

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)


def check_every_view(page, model):
    """Each view the model enables, shown in turn and checked."""
    for tab in page.locator("#view-tabs [role=tab]:enabled").all():
        name = tab.inner_text()
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
        page.wait_for_timeout(300)  # views draw after their renderer loads
        assert_accessible(page, f"{model}, {name} view")


def test_start_error_and_data_states(page, site_url, tmp_path):
    page.goto(site_url)
    wait_until_ready(page)
    assert_accessible(page, "at start")

    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b,c\n1,2,3\n4,5\n")
    page.get_by_label("Upload CSV").set_input_files(str(ragged))
    expect(page.get_by_role("alert")).to_contain_text("Line 3")
    assert_accessible(page, "after a CSV that cannot be read")

    page.get_by_label("Dataset").select_option("iris")
    expect(page.locator("#data-summary")).to_contain_text("150 rows")
    page.locator("#profile-details > summary").click()
    assert_accessible(page, "data loaded, column profile open")


def test_classifier_views_steps_and_exercises(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "DecisionTreeClassifier", "species")
    check_every_view(page, "decision tree")

    page.get_by_role("button", name="Show the steps").click()
    expect(page.locator(".learn-counter")).to_contain_text("step 1 / ")
    assert_accessible(page, "the steps of the tree")
    page.get_by_role("button", name="Step forward").click()
    assert_accessible(page, "the tree's second step")

    page.get_by_role("tab", name="Check your work").click()
    page.get_by_role("button", name="New exercise").click()
    expect(page.get_by_label("Your answer")).to_be_visible()
    assert_accessible(page, "an exercise")
    page.get_by_label("Your answer").fill("0")
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".learn-verdict-head")).to_be_visible()
    assert_accessible(page, "an exercise's verdict")


def test_linear_classifier_views_and_steps(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "LogisticRegression", "species")
    check_every_view(page, "logistic regression")
    page.get_by_role("button", name="Show the steps").click()
    expect(page.locator(".learn-counter")).to_contain_text("step 1 / ")
    assert_accessible(page, "the steps of logistic regression")


def test_tuning_curve_and_heatmap(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("DecisionTreeClassifier")
    page.get_by_label("Hyperparameter", exact=True).select_option("max_depth")
    page.get_by_label("Values to try").fill("1..4")
    page.get_by_role("button", name="Tune", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=90_000)
    page.locator("#tune-result summary").click()
    assert_accessible(page, "a validation curve of the tree's max depth")
    page.get_by_label("Second hyperparameter").select_option("min_samples_leaf")
    page.get_by_label("Its values").fill("1, 5")
    page.get_by_role("button", name="Tune", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=90_000)
    expect(page.locator("#tune-text tbody tr")).to_have_count(4)
    assert_accessible(page, "a heatmap of max depth and min samples leaf")


def test_compared_learners(page, site_url):
    compare_naive_bayes_and_tree(page, site_url)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    assert_accessible(page, "two learners compared")


@pytest.mark.parametrize("model", ["KMeans", "AgglomerativeClustering", "PCA", "LinearRegression",
                                   "KNeighborsClassifier"])
def test_each_model_view(page, site_url, model):
    open_example(page, site_url, "iris", "150 rows")
    train(page, model, "petal width (cm)" if model == "LinearRegression" else None)
    check_every_view(page, model)


def test_run_history(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    for model in ("DecisionTreeClassifier", "KNeighborsClassifier"):
        page.get_by_label("Model", exact=True).select_option(model)
        page.get_by_role("button", name="Train", exact=True).click()
        expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.locator("#history-list > li")).to_have_count(2)
    assert_accessible(page, "two runs in the history")
    page.get_by_label("Dataset", exact=True).select_option("wine")
    expect(page.locator("#history-list .history-why")).to_have_count(2)
    assert_accessible(page, "the history's runs of other data")


def test_dark_colour_scheme(browser, site_url):
    context = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        open_example(page, site_url, "iris", "150 rows")
        assert_accessible(page, "dark scheme, data loaded")
        train(page, "KNeighborsClassifier")
        check_every_view(page, "k-NN, dark scheme")
    finally:
        context.close()


def test_predictions_for_new_data(page, site_url, tmp_path):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "GaussianNB", "species")
    rows = tmp_path / "new.csv"
    rows.write_text("petal width (cm),petal length (cm),sepal width (cm),sepal length (cm),note\n"
                    "0.2,1.4,3.5,5.1,first\n1.8,5.1,3.0,5.9,second\n")
    page.locator("#apply-file").set_input_files(str(rows))
    expect(page.locator("#apply-caption")).to_contain_text("2 of 2 rows predicted", timeout=60_000)
    assert_accessible(page, "predictions for new data")


def scroll_box_state(box):
    """Whether a box is a tab stop and named as a region, and how far it can scroll sideways."""
    return box.evaluate("""(b) => ({stop: b.tabIndex === 0, role: b.getAttribute("role"),
                                     label: b.getAttribute("aria-label"), room: b.scrollWidth - b.clientWidth})""")


def test_scrolling_boxes_are_reached_and_scrolled_by_keyboard(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "LogisticRegression", "species")
    page.get_by_role("tab", name="Curves").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    roc = page.locator(".canvas-box").filter(has=page.locator("#roc-canvas"))
    wide = scroll_box_state(roc)
    assert wide["room"] <= 0 and not wide["stop"] and wide["role"] is None  # it fits: no tab stop of its own

    # A phone: the drawing keeps its width, its box scrolls, and the keyboard reaches it and scrolls it.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(roc).to_have_attribute("tabindex", "0")
    narrow = scroll_box_state(roc)
    assert narrow["room"] > 0 and narrow["role"] == "region"
    assert narrow["label"] == "ROC curve: true positive rate against false positive rate (scrollable)"
    page.get_by_role("tab", name="Curves").focus()
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.contains(document.getElementById('roc-canvas'))"):
            break
    else:
        pytest.fail("Tab never reached the ROC curve's box")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"  # the ring shows
    page.keyboard.press("ArrowRight")
    for _ in range(40):  # the arrow may scroll smoothly: wait for it to move
        if roc.evaluate("(b) => b.scrollLeft") > 0:
            break
        page.wait_for_timeout(50)
    assert roc.evaluate("(b) => b.scrollLeft") > 0, "the arrow key did not scroll the drawing's box"

    # The tables of scores sit in scrolling boxes made by the page's script: each is a named tab stop.
    page.get_by_role("tab", name="Metrics").click()
    scores = page.get_by_role("region", name="Scores (scrollable)")
    expect(scores).to_have_attribute("tabindex", "0")
    assert scroll_box_state(scores)["room"] > 0
