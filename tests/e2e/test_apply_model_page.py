"""Apply to new data in the page: a model exported and imported back predicts the rows of another CSV (its
columns in another order, with one the model never saw), the predictions are shown and download as CSV,
a missing column is named, and the table loaded for training stays loaded."""

import json

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import open_example, train
from pellucid.tabular.csvio import read_csv
from pellucid.tabular.datasets import load_iris
from pellucid.tabular.table import Table
from pellucid.workbench import exports

pytestmark = pytest.mark.e2e


def new_rows(tmp_path, columns, name="new_flowers.csv"):
    """Twelve iris rows (every thirteenth flower from the fourth) with `columns` in that order, and a note column."""
    iris = read_csv(load_iris().csv_text.encode())
    rows = np.arange(3, 150, 13)
    data = {c: iris.column(c)[rows] for c in columns}
    data["note"] = np.array([f"flower {r}" for r in rows], dtype=object)
    path = tmp_path / name
    path.write_text(Table(data).to_csv())
    return path, iris.take(rows)


def test_an_imported_model_predicts_an_uploaded_csv(page, site_url, tmp_path):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "KNeighborsClassifier")
    score = page.locator("#accuracy").text_content()
    with page.expect_download() as info:
        page.get_by_role("button", name="Export model").click()
    model_path = tmp_path / "flowers-model.json"
    model_path.write_text(open(info.value.path()).read())

    page.locator("#apply-model-file").set_input_files(str(model_path))
    expect(page.get_by_label("Predict with")).to_contain_text("imported from flowers-model.json")
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    features = load_iris().feature_names
    csv_path, expected_rows = new_rows(tmp_path, list(reversed(features)))
    page.locator("#apply-file").set_input_files(str(csv_path))
    expect(page.locator("#apply-caption")).to_contain_text("12 of 12 rows predicted", timeout=60_000)
    expect(page.locator("#apply-caption")).to_contain_text("Not used by the model: note")
    preview = page.locator("#apply-preview")
    expect(preview.locator("thead")).to_contain_text("P(virginica)")
    expect(preview.locator("tbody tr")).to_have_count(12)

    with page.expect_download() as info:
        page.get_by_role("button", name="Download the predictions (CSV)").click()
    assert info.value.suggested_filename == "new_flowers_KNeighborsClassifier_applied.csv"
    out = read_csv(open(info.value.path(), "rb").read())
    assert out.columns[:5] == list(reversed(features)) + ["note"]
    run = exports.import_model(model_path.read_text())  # the same file, natively
    expected = run.estimator.predict(run.prepare(expected_rows.select(features)))
    assert out.column("prediction").tolist() == expected.tolist()
    shown = [row.split("\t")[5] for row in preview.locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.cells].map((c) => c.textContent).join('\\t'))")]
    assert shown == expected.tolist()

    # The training table and its result are where they were.
    expect(page.locator("#data-summary")).to_contain_text("150 rows")
    expect(page.locator("#accuracy")).to_have_text(score)
    assert json.loads(model_path.read_text())["workbench"]["kinds"] == {f: "numeric" for f in features}


def test_a_missing_column_is_named_and_nothing_changes(page, site_url, tmp_path):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "GaussianNB")
    features = load_iris().feature_names
    csv_path, _ = new_rows(tmp_path, features[1:], name="short.csv")
    expect(page.get_by_label("Predict with")).to_contain_text("The model shown: Gaussian naive Bayes")
    page.locator("#apply-file").set_input_files(str(csv_path))
    expect(page.get_by_role("alert")).to_contain_text(f"'{features[0]}'", timeout=60_000)
    expect(page.locator("#apply-result")).to_be_hidden()
    expect(page.locator("#data-summary")).to_contain_text("150 rows")


def test_a_failed_apply_clears_the_previous_files_predictions(page, site_url, tmp_path):
    open_example(page, site_url, "iris", "150 rows")
    train(page, "GaussianNB")
    features = load_iris().feature_names
    good, _ = new_rows(tmp_path, features, name="good.csv")
    page.locator("#apply-file").set_input_files(str(good))
    caption = page.locator("#apply-caption")
    expect(caption).to_contain_text("applied to good.csv: 12 of 12 rows predicted", timeout=60_000)
    expect(page.locator("#apply-preview tbody tr")).to_have_count(12)
    download = page.locator("#apply-download")
    expect(download).to_be_enabled()

    short, _ = new_rows(tmp_path, features[1:], name="short.csv")
    page.locator("#apply-file").set_input_files(str(short))
    expect(page.get_by_role("alert")).to_contain_text(f"'{features[0]}'", timeout=60_000)
    # good.csv's rows are gone: nothing is shown under short.csv's error, and nothing of it downloads.
    expect(page.locator("#apply-result")).to_be_hidden()
    expect(page.locator("#apply-preview tbody tr")).to_have_count(0)
    expect(caption).to_have_text("")
    expect(download).to_be_disabled()
