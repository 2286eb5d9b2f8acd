"""End to end: a random forest trained on iris in the page opens on its trees: the first 24 of its 100
trees as small multiples, any one opened large by a click or the keyboard, every tree's vote for a chosen
row adding up to the 100 trees with the majority and the mean probabilities the page's own predictions
(its exported predictions file); the score by trees is drawn with a point per tree and the out-of-bag
score beside the held-out one. The two views are kept as docs/screenshots/forest-view.png and
staged-curve.png."""

import csv
import io
import pathlib

import pytest
from playwright.sync_api import expect

from a11ykit import assert_accessible
from pagekit import open_example, painted_pixels

pytestmark = pytest.mark.e2e
SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ROW = 120  # a virginica the trees of this forest do not all agree on


def _tally(page):
    """{class: (trees voting, mean probability)} as the tally's table shows them."""
    cells = page.eval_on_selector_all("#forest-tally tbody tr", """rows => rows.map(r =>
        [r.querySelector("th").textContent.trim(), ...[...r.querySelectorAll("td")].map(td => td.textContent)])""")
    return {name: (int(votes), float(mean)) for name, votes, _, mean in cells}


def _exported_row(page, row):
    """The page's own prediction of `row` and its probabilities, from its "Export predictions" file."""
    with page.expect_download() as info:
        page.locator("#export-predictions").click()
    text = pathlib.Path(info.value.path()).read_text(encoding="utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))[row - 1]


def test_a_forest_shows_its_trees_their_votes_and_its_score_by_trees(browser, site_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    try:
        open_example(page, site_url, "iris", "150 rows")
        page.get_by_label("Model", exact=True).select_option("RandomForestClassifier")
        page.locator("#param-oob_score").check()
        page.get_by_role("button", name="Train").click()
        expect(page.locator("#accuracy-note")).to_contain_text("Random forest", timeout=90_000)
        expect(page.get_by_role("tab", name="Forest")).to_have_attribute("aria-selected", "true")  # it opens here
        cards = page.locator("#forest-grid .forest-card")
        expect(cards).to_have_count(24, timeout=60_000)
        expect(page.locator("#forest-count")).to_contain_text("100 trees in all; the first 24 are drawn")
        assert painted_pixels(page, "#forest-grid .forest-card:nth-child(5) canvas") > 200

        # one tree opened large by a click, another by the keyboard
        cards.nth(2).click()
        expect(page.locator("#forest-open-title")).to_contain_text("Tree 3 of 100")
        expect(page.locator("#forest-tree-text")).to_contain_text("split on")
        assert painted_pixels(page, "#forest-tree-canvas") > 5_000
        expect(cards.nth(2)).to_have_attribute("aria-pressed", "true")
        cards.nth(2).focus()
        page.keyboard.press("ArrowRight")
        expect(cards.nth(3)).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#forest-open-title")).to_contain_text("Tree 4 of 100")
        expect(cards.nth(3)).to_have_attribute("aria-pressed", "true")
        expect(cards.nth(2)).to_have_attribute("aria-pressed", "false")

        # a chosen row: the votes add up to the trees, the majority and the mean are the page's prediction
        page.locator("#forest-row").fill(str(ROW))
        page.locator("#forest-row").press("Enter")
        expect(page.locator("#forest-tally")).to_contain_text(f"Row {ROW}", timeout=30_000)
        tally = _tally(page)
        assert sum(votes for votes, _ in tally.values()) == 100
        majority = max(tally, key=lambda name: tally[name][0])
        exported = _exported_row(page, ROW)
        assert majority == exported["prediction"]
        for name, (_, mean) in tally.items():
            assert mean == pytest.approx(float(exported[f"P({name})"]), abs=5e-4)
        expect(page.locator("#forest-tally")).to_contain_text(f"The forest predicts {exported['prediction']}")
        vote = cards.nth(3).locator(".forest-vote").text_content().removeprefix("votes ")
        expect(page.locator("#forest-tree-path")).to_contain_text(f"Row {ROW} in this tree: ")  # the open tree's
        expect(page.locator("#forest-tree-path")).to_contain_text(f"→ predict {vote}.")  # path to its vote
        assert cards.first.locator(".forest-vote").text_content().startswith("votes ")
        expect(page.locator("#forest-text")).to_contain_text(f"vote for row {ROW}")
        page.locator("#result-area").scroll_into_view_if_needed()
        page.locator(".results").screenshot(path=str(SHOTS / "forest-view.png"))
        assert_accessible(page, "random forest, Forest view with a tree open")

        # the score by trees: a point per tree, the out-of-bag score beside the held-out one
        page.get_by_role("tab", name="Staged score").click()
        facts = page.locator("#staged-facts")
        expect(facts).to_contain_text("With all 100 trees: test accuracy", timeout=60_000)
        expect(facts).to_contain_text("out-of-bag accuracy")
        held_out = facts.text_content().split("test accuracy ")[1].split(" ")[0]
        assert held_out == page.locator("#accuracy").text_content()  # the headline's held-out score
        expect(page.locator("#staged-text tbody tr")).to_have_count(100)
        assert painted_pixels(page, "#staged-canvas") > 20_000
        page.locator("#view-staged").scroll_into_view_if_needed()
        page.locator(".results").screenshot(path=str(SHOTS / "staged-curve.png"))
        assert_accessible(page, "random forest, Staged score view")
    finally:
        context.close()


def test_a_regression_forest_shows_each_trees_prediction_and_r2_by_trees(browser, site_url, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        open_example(page, site_url, "iris", "150 rows")
        page.get_by_label("Target").select_option("petal width (cm)")
        page.get_by_label("Model", exact=True).select_option("RandomForestRegressor")
        page.locator("#param-n_estimators").fill("10")
        page.get_by_role("button", name="Train").click()
        expect(page.locator("#accuracy-note")).to_contain_text("Random forest (regression)", timeout=90_000)
        cards = page.locator("#forest-grid .forest-card")
        expect(cards).to_have_count(10, timeout=60_000)
        expect(page.locator("#forest-count")).to_contain_text("10 trees in all.")
        expect(page.locator("#forest-legend")).to_contain_text("Leaves from")
        expect(page.locator("#forest-tally")).to_contain_text("the forest predicts their mean")
        assert cards.first.locator(".forest-vote").text_content().startswith("predicts ")
        page.locator("#forest-grid").screenshot(path=str(tmp_path / "regression-forest.png"))
        page.get_by_role("tab", name="Staged score").click()
        expect(page.locator("#staged-facts")).to_contain_text("With all 10 trees: test R²", timeout=60_000)
        expect(page.locator("#staged-facts")).not_to_contain_text("out-of-bag")
        expect(page.locator("#staged-caption")).to_contain_text("Train with oob_score on")
        expect(page.locator("#staged-text tbody tr")).to_have_count(10)
    finally:
        context.close()


def test_the_renderers_check_their_data_and_lay_a_tree_out(page, site_url):
    """forest-draw.js refuses a shape whose nodes do not make one tree and lays leaves out left to right
    with each parent over its children; staged-curve.js refuses scores that do not match the stages."""
    page.goto(site_url)
    found = page.evaluate("""async () => {
        const forest = await import(new URL("js/render/forest-draw.js", location.href));
        const staged = await import(new URL("js/render/staged-curve.js", location.href));
        const refused = (f) => { try { f(); return ""; } catch (error) { return error.message; } };
        // root with two children; its right child has two leaves: preorder kids 2, 0, 2, 0, 0
        const shape = {kids: [2, 0, 2, 0, 0], value: [1, 0, 1, 1, 2], depth: 2, nodes: 5, leaves: 3};
        const layout = forest.layoutShape(shape);
        const canvas = document.createElement("canvas");
        forest.drawShape(canvas, shape, {width: 120, height: 80, task: "classification"});
        return {
            xs: layout.nodes.map((n) => n.x), depths: layout.nodes.map((n) => n.depth),
            columns: layout.columns, levels: layout.levels, width: canvas.style.width,
            open: refused(() => forest.checkShape({kids: [2, 0], value: [0, 0]})),
            extra: refused(() => forest.checkShape({kids: [0, 0], value: [0, 0]})),
            values: refused(() => forest.checkShape({kids: [0], value: []})),
            stages: refused(() => staged.checkStaged({n_stages: 3, scores: {train: [1, 1]}})),
            none: refused(() => staged.checkStaged({n_stages: 2, scores: {}})),
            fine: refused(() => staged.checkStaged({n_stages: 2, scores: {train: [0.5, 1], test: [0.4, 0.5]}})),
        };
    }""")
    assert found["xs"] == [0.75, 0, 1.5, 1, 2] and found["depths"] == [0, 1, 1, 2, 2]
    assert found["columns"] == 3 and found["levels"] == 3 and found["width"] == "120px"
    assert "places left open" in found["open"]
    assert "do not make one tree" in found["extra"]
    assert "as many predictions as nodes" in found["values"]
    assert "3 stages need as many train scores; got 2" in found["stages"]
    assert "at least one split" in found["none"]
    assert found["fine"] == ""
