"""Tuning in the page: a tree's max_depth tried over 1..5 by cross-validation draws a validation curve with
a table twin marking the best depth; "Use the best" puts that depth in the model's settings and trains
with it; two parameters draw a heatmap; a bad list of values is explained before anything runs."""

import json
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from pagekit import open_example, painted_pixels, press_tune, train

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)


def summary_depth(page):
    return int(page.locator("#model-summary tr", has_text="depth").locator("td").last.inner_text())


def tune(page, *grid):
    press_tune(page, *grid)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=90_000)
    expect(page.get_by_role("alert")).to_be_hidden()


def test_tune_max_depth_draws_a_curve_and_uses_the_best(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "DecisionTreeClassifier", "species")
    full_depth = summary_depth(page)
    tune(page, "max_depth", "1..5")
    expect(page.locator("#tune-result")).to_be_visible()
    expect(page.locator("#tune-caption")).to_contain_text("fold cross-validation")
    expect(page.locator("#tune-caption")).to_contain_text("test rows were left out")
    assert painted_pixels(page, "#tune-canvas") > 20_000

    rows = page.locator("#tune-text tbody tr")
    expect(rows).to_have_count(5)
    table = [[cell.text_content() for cell in row.locator("th, td").all()] for row in rows.all()]
    assert [row[0] for row in table] == ["1", "2", "3", "4", "5"]
    means = [float(row[1]) for row in table]
    best = [row[0] for row in table if row[-1] == "best"]
    assert len(best) == 1 and float(table[int(best[0]) - 1][1]) == max(means)  # the first highest mean
    assert means[0] < max(means)  # one split cannot tell three species apart

    page.get_by_role("button", name="Use the best").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.get_by_label("max depth", exact=True)).to_have_value(best[0])
    # The tree was trained again with that limit: as deep as the full tree, or stopped at the limit.
    expect(page.locator("#model-summary tr", has_text="depth").locator("td").last).to_have_text(
        str(min(full_depth, int(best[0]))))
    link = parse_qs(urlparse(page.url).fragment)  # the link records the new setting too
    assert json.loads(link["params"][0])["max_depth"] == int(best[0])


def test_two_parameters_draw_a_heatmap_with_the_values_in_cells(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    tune(page, "k", "1, 5, 15", "weights", "uniform, distance")
    assert painted_pixels(page, "#tune-canvas") > 20_000
    twin = page.locator("#tune-text table")
    expect(twin.locator("thead th")).to_have_count(3)  # the corner, then uniform and distance
    expect(twin.locator("tbody tr")).to_have_count(3)
    expect(twin.locator("tbody td", has_text="(best)")).to_have_count(1)
    expect(page.get_by_label("Heatmap of the mean validation Accuracy over k and weights")).to_be_visible()


def test_scored_by_a_loss_the_lowest_mean_is_the_best(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    metric = page.get_by_label("Score by")
    assert "Balanced accuracy" in metric.locator("option").all_inner_texts()
    page.get_by_label("Model", exact=True).select_option("KNeighborsRegressor")
    expect(metric.locator("option")).to_have_text(["R²", "MSE", "MAE"])  # the regressors' metrics
    page.get_by_label("Target").select_option("petal width (cm)")
    metric.select_option("mean_absolute_error")
    tune(page, "k", "1, 3, 10, 40")
    expect(page.locator("#tune-caption")).to_contain_text("MAE of")
    expect(page.locator("#tune-caption")).to_contain_text("(lower is better)")
    rows = page.locator("#tune-text tbody tr")
    expect(rows).to_have_count(4)
    table = [[cell.text_content() for cell in row.locator("th, td").all()] for row in rows.all()]
    means = [float(row[1]) for row in table]
    best = [float(row[1]) for row in table if row[-1] == "best"]
    assert best == [min(means)] and min(means) < max(means)


def test_values_outside_the_rule_are_explained_at_the_box(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("DecisionTreeClassifier")
    page.get_by_label("Hyperparameter", exact=True).select_option("max_depth")
    page.get_by_label("Values to try").fill("0, 1, 2")
    page.get_by_role("button", name="Tune", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("max depth 0")
    expect(page.get_by_label("Values to try")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#tune-result")).to_be_hidden()


def test_the_heatmap_checks_its_size_and_colours_cells_by_value(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    drawn = page.evaluate("""async () => {
        const m = await import("./js/render/heatmap.js");
        let refused = "";
        try { m.checkHeatmap({ rows: [1, 2], columns: ["a", "b", "c"], values: [1, 2, 3, 4, 5] }); }
        catch (error) { refused = error.message; }
        const canvas = document.createElement("canvas");
        document.body.append(canvas);
        const data = { rows: [1, 2], columns: ["a", "b", "c"], values: [0.5, 0.9, 0.6, 0.7, 0.8, 0.55], best: 1,
          rowName: "depth", columnName: "criterion" };
        const { cell } = m.drawHeatmap(canvas, data, { width: 420 });
        const ratio = canvas.width / 420;
        const pixel = (x, y) => Array.from(canvas.getContext("2d")
          .getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data);
        // clear of text and outline
        const corner = (i, j) => { const b = cell(i, j); return pixel(b.x + 8, b.y + b.h - 8); };
        const edge = (i, j) => { const b = cell(i, j); return pixel(b.x + 3, b.y + b.h / 2); };
        canvas.remove();
        return { refused, lowest: corner(0, 0), highest: corner(0, 1), bestEdge: edge(0, 1), otherEdge: edge(1, 1) };
    }""")
    assert "2 rows x 3 columns need 6 values, got 5" in drawn["refused"]
    brightness = lambda rgba: sum(rgba[:3])  # noqa: E731
    assert brightness(drawn["highest"]) < brightness(drawn["lowest"])  # the ramp runs light to dark
    assert drawn["bestEdge"][:3] != drawn["otherEdge"][:3]  # the best cell is outlined


def test_a_long_tuning_reports_progress_and_can_be_cancelled(page, site_url):
    open_example(page, site_url, "breast_cancer", "569 rows")
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Folds (k)").fill("20")
    page.get_by_label("Hyperparameter", exact=True).select_option("k")
    page.get_by_label("Values to try").fill("1..50")
    page.get_by_label("Second hyperparameter").select_option("weights")
    page.get_by_role("button", name="Tune", exact=True).click()  # 100 cells x 20 folds: a long job
    expect(page.get_by_role("status")).to_contain_text("fold", timeout=60_000)  # progress after each fit
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("status")).to_have_text("Tuning cancelled", timeout=120_000)
    expect(page.locator("#tune-result")).to_be_hidden()
    expect(page.get_by_role("button", name="Tune", exact=True)).to_be_enabled()
    expect(page.get_by_label("Values to try")).to_have_value("1..50")  # the grid is still there to narrow


def test_the_folds_are_the_evaluations_k_and_a_refusal_points_at_its_box(page, site_url):
    open_example(page, site_url, "play_tennis", "14 rows")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Folds (k)").fill("10")
    expect(page.get_by_label("Cross-validation folds")).to_have_value("10")  # one k, shown in both panels
    page.locator('input[name="eval-method"][value="split"]').check()  # the evaluation's own box is hidden now
    page.get_by_label("Model", exact=True).select_option("DecisionTreeClassifier")
    page.get_by_label("Hyperparameter", exact=True).select_option("max_depth")
    page.get_by_label("Values to try").fill("1, 2")
    page.get_by_role("button", name="Tune", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("k=10 folds", timeout=60_000)  # from the 9 rows left for tuning
    expect(page.get_by_label("Cross-validation folds")).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Cross-validation folds").fill("3")
    page.get_by_role("button", name="Tune", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.locator("#tune-caption")).to_contain_text("3-fold cross-validation")


def test_a_forest_starts_on_trees_against_depth_and_draws_that_heatmap(page, site_url):
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("RandomForestClassifier")
    # The grid the forest's descriptor names: how many trees against how deep.
    expect(page.get_by_label("Hyperparameter", exact=True)).to_have_value("n_estimators")
    expect(page.get_by_label("Values to try")).to_have_value("10, 25, 50, 100")
    expect(page.get_by_label("Second hyperparameter")).to_have_value("max_depth")
    expect(page.get_by_label("Its values")).to_have_value("none, 3, 6, 10")
    tune(page, "n_estimators", "3, 6", "max_depth", "none, 2")  # a small grid: the test's time
    twin = page.locator("#tune-text table")
    expect(twin.locator("tbody tr")).to_have_count(2)
    expect(twin.locator("tbody td", has_text="(best)")).to_have_count(1)
    assert painted_pixels(page, "#tune-canvas") > 20_000
