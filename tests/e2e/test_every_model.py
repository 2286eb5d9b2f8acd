"""Every learner trains in the browser (Pyodide's numpy, not the native one) through the page's controls."""

import csv

import pytest
from playwright.sync_api import expect
from sklearn.datasets import load_iris

import pellucid
from pagekit import wait_until_ready

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)

# Iris with text species, plus a text column so categorical handling runs in the browser too.
FEATURES = ["sepal_length", "sepal_width", "petal_length", "petal_width"]


def write_iris(path):
    iris = load_iris()
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(FEATURES + ["species"])
        for row, label in zip(iris.data, iris.target):
            writer.writerow([*row, iris.target_names[label]])


def model_options(page):
    return page.eval_on_selector_all("#model option", "options => options.map(o => [o.value, o.textContent])")


def test_every_model_trains_in_the_browser(page, site_url, tmp_path):
    csv_path = tmp_path / "iris.csv"
    write_iris(csv_path)
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(str(csv_path))
    expect(page.locator("#data-summary")).to_contain_text("150 rows × 5 columns")

    options = model_options(page)
    assert sorted(value for value, _ in options) == sorted(pellucid.all_estimators())  # every learner, once
    for value, label in options:
        page.get_by_label("Model", exact=True).select_option(value)
        task = page.evaluate("(v) => document.querySelector(`#model option[value='${v}']`).parentElement.label", value)
        if task in ("Clustering", "Dimensionality reduction"):
            target = ""
        elif pellucid.all_estimators()[value].task == "regression":
            target = "petal_width"
        else:
            target = "species"
        page.get_by_label("Target").select_option(target)
        page.get_by_role("button", name="Train").click()
        expect(page.locator("#accuracy-note")).to_contain_text(label, timeout=30_000)
        expect(page.get_by_role("alert")).to_be_hidden()
        expect(page.locator("#model-summary tr").first).to_be_visible()
        score = page.locator("#accuracy").text_content()
        assert score not in ("—", "", "NaN", "NaN%"), (value, score)
