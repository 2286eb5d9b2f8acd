"""Cancel stops any running job (a long training, a long export) and keeps the data, the settings and
the last good result; the page stays usable."""

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)

ROWS = 20_000


def numeric_csv(path, rows=ROWS, columns=20, seed=0):
    """Three classes in `columns` numeric columns on scales from 0.01 to 10,000: work k-NN takes a while on."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, rows)
    X = (rng.normal(0, 1.5, (3, columns))[y] + rng.normal(0, 1, (rows, columns))) * np.logspace(-2, 4, columns)
    header = ",".join([f"x{j + 1}" for j in range(columns)] + ["label"])
    names = np.array(["alpha", "beta", "gamma"])[y]
    lines = [",".join([f"{v:.6g}" for v in row] + [name]) for row, name in zip(X, names)]
    path.write_text(header + "\n" + "\n".join(lines) + "\n")
    return path


def train(page, model):
    page.get_by_label("Model", exact=True).select_option(model)
    page.get_by_role("button", name="Train").click()


def finished(page):
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=300_000)


def test_cancel_a_training_and_an_export_keeps_data_settings_and_result(page, site_url, tmp_path):
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(str(numeric_csv(tmp_path / "wide.csv")))
    expect(page.locator("#data-summary")).to_contain_text(f"{ROWS:,}".replace(",", ""), timeout=120_000)
    page.get_by_label("Target").select_option("label")

    # A good result first, then a long k-NN training (20 folds) stopped halfway.
    train(page, "GaussianNB")
    finished(page)
    score = page.locator("#accuracy").text_content()
    assert score != "—"
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Folds (k)").fill("20")
    train(page, "KNeighborsClassifier")
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("status")).to_have_text("Training cancelled", timeout=120_000)
    expect(page.locator("#accuracy")).to_have_text(score)  # the last good result is still shown
    expect(page.locator("#accuracy-note")).to_contain_text("Gaussian naive Bayes")
    expect(page.get_by_label("Model", exact=True)).to_have_value("KNeighborsClassifier")
    expect(page.get_by_label("Folds (k)")).to_have_value("20")
    expect(page.locator("#data-summary")).to_contain_text("wide.csv")
    expect(page.get_by_label("Target")).to_have_value("label")

    # The kept result lives in the new worker: its model exports.
    with page.expect_download() as model_file:
        page.get_by_role("button", name="Export model").click()
    assert model_file.value.suggested_filename == "GaussianNB.json"
    finished(page)

    # A k-NN result on a hold-out split, then its predictions' export stopped halfway.
    page.locator('input[name="eval-method"][value="split"]').check()
    train(page, "KNeighborsClassifier")
    finished(page)
    knn_score = page.locator("#accuracy").text_content()
    expect(page.locator("#accuracy-note")).to_contain_text("neighbo")
    # Writing 20,000 rows takes Python a fraction of a second: Cancel is pressed in the same task as Export,
    # while the request is with Python and before any reply can come back, however fast the export.
    cancel_was_shown = page.evaluate("""() => {
        document.getElementById("export-predictions").click();
        const cancel = document.getElementById("cancel");
        const shown = !cancel.hidden;
        cancel.click();
        return shown;
    }""")
    assert cancel_was_shown
    expect(page.get_by_role("status")).to_contain_text("cancelled", timeout=120_000)
    finished_or_cancelled = page.get_by_role("status").text_content()
    assert "export" in finished_or_cancelled.lower() or "prediction" in finished_or_cancelled.lower()
    expect(page.locator("#accuracy")).to_have_text(knn_score)
    expect(page.locator("#data-summary")).to_contain_text("wide.csv")

    # The page is usable: another model trains on the restored data.
    train(page, "GaussianNB")
    expect(page.locator("#accuracy-note")).to_contain_text("Gaussian naive Bayes", timeout=120_000)
    finished(page)
