"""End to end: the results tell the truth about what is shown. A model exported with filling, standardizing
and one-hot encoding, imported after a reload, shows its file's preprocessing (not the page's settings),
a headline that names the rows it is scored on (the loaded table, or no score with the reason, never "0
rows"), only the views it has, and the exports that need its training rows disabled with why. A trained
result is marked out of date when its target, features, hyperparameters, preprocessing or split change,
and the mark goes when they are set back or Train runs again."""

import json
import pathlib
import re

import pytest
from playwright.sync_api import expect

from pagekit import train, upload_csv, wait_until_ready

pytestmark = pytest.mark.e2e

SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shapes_csv(n=60):
    """size has missing cells (filled), colour is categorical (one-hot), label and grade are two targets."""
    lines = ["size,colour,weight,grade,label"]
    for i in range(n):
        size = "" if i % 7 == 3 else f"{(i * 13) % 17 + 0.5}"
        colour = ("red", "green", "blue")[i % 3]
        label = "big" if ((i * 13) % 17 > 8) != (colour == "blue") else "small"
        lines.append(f"{size},{colour},{(i * 5) % 9 + 1.25},{'AB'[i % 2]},{label}")
    return "\n".join(lines) + "\n"



def import_file(page, path):
    page.locator("#import-model").set_input_files(str(path))
    expect(page.locator("#result-standing")).to_contain_text("Imported model", timeout=60_000)
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)


def why(page, button_id):
    """The text a disabled button is described by (aria-describedby)."""
    return page.evaluate("(id) => document.getElementById(document.getElementById(id)"
                         ".getAttribute('aria-describedby'))?.textContent || ''", button_id)


def train_on_shapes(page, site_url):
    """Logistic regression on shapes.csv (filled, standardized, one-hot), trained in a wide page."""
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(site_url)
    wait_until_ready(page)
    upload_csv(page, "shapes.csv", shapes_csv())
    page.get_by_label("Target").select_option("label")
    train(page, "LogisticRegression")


def test_an_imported_model_shows_its_own_file(page, site_url, tmp_path):
    train_on_shapes(page, site_url)
    steps = page.locator("#pre-steps > li")
    expect(steps).to_have_count(3)
    with page.expect_download() as info:
        page.get_by_role("button", name="Export model").click()
    model_path = tmp_path / "shapes-model.json"
    model_path.write_text(open(info.value.path()).read())
    saved = json.loads(model_path.read_text())["workbench"]
    assert saved["preprocessing"]["standardize"] and saved["preprocessing"]["one_hot"]
    assert saved["preprocessing"]["impute"] == "mean" and saved["trained_rows"] == 42

    # After a reload (the session brings the table back), the page's settings are changed before importing:
    # what is shown must be the file's, not these.
    page.reload()
    wait_until_ready(page)
    expect(page.locator("#data-summary")).to_contain_text("shapes.csv")
    page.get_by_label("Standardize").uncheck()
    page.get_by_label("Missing values").select_option("median")
    import_file(page, model_path)

    expect(page.locator("#accuracy-label")).to_have_text("Accuracy on the loaded table")
    expect(page.locator("#accuracy-note")).to_contain_text("shapes.csv, 60 rows")
    expect(page.locator("#accuracy-note")).to_contain_text("Logistic regression, imported")
    expect(page.locator(".results-head")).not_to_contain_text(re.compile(r"\b0 rows"))
    caption = page.locator("#pre-steps-caption")
    expect(caption).to_be_visible()
    expect(caption).to_contain_text("shapes-model.json")
    expect(steps).to_have_count(3)
    expect(steps.nth(0)).to_contain_text("training rows' mean")
    mean = float(f"{saved['preprocessing']['mean']['weight']:.3g}")  # as the page writes it: 3 digits
    expect(steps.nth(1)).to_contain_text(f"weight: z = (x − {mean:g})")
    expect(steps.nth(2)).to_contain_text("colour → colour=blue, colour=green, colour=red")
    summary = page.locator("#model-summary")
    expect(summary).to_contain_text("Trained on42 rows")
    expect(summary).to_contain_text("Features4: size, colour, weight, grade")
    expect(page.locator("#tab-metrics")).to_be_enabled()
    for tab in ("boundary", "curves", "importance", "tree"):
        expect(page.locator(f"#tab-{tab}")).to_be_disabled()
    for button in ("export-predictions", "export-python", "export-sklearn", "compare-sklearn"):
        expect(page.locator(f"#{button}")).to_be_disabled()
        assert "imported" in why(page, button) or "file does not hold" in why(page, button), button
    expect(page.locator("#export-model")).to_be_enabled()
    expect(page.locator("#unavailable-notes")).to_contain_text("Export predictions: The predictions are of the rows")
    expect(summary).to_contain_text("weight of colour=blue")  # the fitted weights, read from the file
    page.locator(".panel.results").screenshot(path=str(SHOTS / "imported-model.png"))
    page.locator("#pre-steps").locator("xpath=..").screenshot(path=str(SHOTS / "imported-model-preprocessing.png"))

    # On a table without the model's columns there is no score, and the headline says why.
    page.get_by_label("Dataset").select_option("iris")
    expect(page.locator("#data-summary")).to_contain_text("150 rows")
    import_file(page, model_path)
    expect(page.locator("#accuracy-label")).to_have_text("Imported model, not scored")
    expect(page.locator("#accuracy")).to_have_text("—")
    expect(page.locator("#accuracy-note")).to_contain_text("has no column 'label'")
    expect(page.locator(".results-head")).not_to_contain_text(re.compile(r"\b0 rows"))
    expect(page.locator("#metrics-body")).to_contain_text("No score")

    # Training again gives the controls back.
    train(page, "DecisionTreeClassifier")
    for button in ("export-predictions", "export-python", "export-sklearn", "compare-sklearn"):
        expect(page.locator(f"#{button}")).to_be_enabled()
        assert page.locator(f"#{button}").get_attribute("aria-describedby") is None
    expect(page.locator("#unavailable-notes")).to_be_hidden()
    expect(page.locator("#result-standing")).to_be_empty()
    expect(page.locator("#pre-steps-caption")).to_be_hidden()


def test_a_result_is_marked_out_of_date_until_trained_again(page, site_url):
    train_on_shapes(page, site_url)
    standing = page.locator("#result-standing")
    expect(standing).to_be_empty()
    expect(standing).to_have_attribute("aria-live", "polite")

    def changed(what, change, undo):
        change()
        expect(standing).to_contain_text("Out of date")
        expect(standing).to_contain_text(f"the {what} changed")
        expect(page.locator(".panel.results")).to_have_class("panel results result-stale")
        undo()
        expect(standing).to_be_empty()

    l2 = page.get_by_label("l2", exact=True)
    before = l2.input_value()
    changed("hyperparameters", lambda: l2.fill("0.5"), lambda: l2.fill(before))
    standardize = page.get_by_label("Standardize")
    changed("preprocessing", standardize.uncheck, standardize.check)
    test = page.locator("#split-test")
    share = test.input_value()
    changed("evaluation", lambda: test.fill("40"), lambda: test.fill(share))
    page.locator("#profile-details > summary").click()
    role = page.locator('#profile tr[data-column="weight"] select')
    changed("features", lambda: role.select_option("ignore"), lambda: role.select_option("feature"))
    target = page.get_by_label("Target")
    changed("target", lambda: target.select_option("grade"), lambda: target.select_option("label"))

    test.fill("40")
    expect(standing).to_contain_text("the evaluation changed")
    page.locator(".panel.results").screenshot(path=str(SHOTS / "out-of-date.png"))
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(standing).to_be_empty()
    expect(page.locator("#accuracy-note")).to_contain_text("40% of rows")
