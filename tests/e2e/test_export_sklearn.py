"""End to end: "Export scikit-learn" saves a script that runs natively (numpy, pandas, scikit-learn) on the
same CSV and prints the test accuracy the page shows; a learner without a scikit-learn twin says why."""

import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready
from pellucid.tabular import datasets

pytestmark = pytest.mark.e2e


def _train(page, model):
    page.get_by_label("Model", exact=True).select_option(model)
    expect(page.get_by_role("button", name="Train")).to_be_enabled(timeout=60_000)
    page.get_by_role("button", name="Train").click()
    expect(page.locator("#accuracy")).not_to_have_text("—", timeout=60_000)
    expect(page.get_by_role("status")).to_have_text("Ready")


def test_the_exported_script_prints_the_pages_test_accuracy(page, site_url, tmp_path):
    pytest.importorskip("sklearn")
    pytest.importorskip("pandas")
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Dataset").select_option("wine")
    expect(page.locator("#data-summary")).to_contain_text("178 rows")
    _train(page, "LogisticRegression")
    with page.expect_download() as info:
        page.get_by_role("button", name="Export scikit-learn").click()
    download = info.value
    assert download.suggested_filename == "wine_LogisticRegression_sklearn.py"
    script = tmp_path / download.suggested_filename
    download.save_as(script)
    (tmp_path / "wine.csv").write_text(datasets.EXAMPLES["wine"].loader().csv_text)

    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    test_accuracy = float(re.search(r"^test accuracy: (\S+)$", done.stdout, re.M)[1])
    shown = page.locator("#accuracy").inner_text()  # the headline is the test accuracy, in percent
    assert shown.endswith("%")
    assert abs(test_accuracy * 100 - float(shown.rstrip("%"))) <= 0.05 + 1e-9, (done.stdout, shown)


def test_a_learner_without_a_twin_says_why(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Dataset").select_option("iris")
    expect(page.locator("#data-summary")).to_contain_text("150 rows")
    _train(page, "KernelPerceptron")
    page.get_by_role("button", name="Export scikit-learn").click()
    alert = page.get_by_role("alert")
    expect(alert).to_be_visible(timeout=60_000)
    expect(alert).to_contain_text("no kernel perceptron")
