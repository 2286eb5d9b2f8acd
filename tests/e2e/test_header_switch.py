"""Reading an uploaded CSV in the page: a file without a header row keeps every row and the "First row is
a header" switch is off; turning it on re-reads the same bytes with the first row as names; the reader's
notes (a repeated header renamed) are shown; missing cells written NA, #N/A, ? or left empty are counted
per column and filled by the preprocessing step's default mean, fitted on the training rows."""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e


def upload(page, name, text):
    page.get_by_label("Upload CSV").set_input_files({"name": name, "mimeType": "text/csv", "buffer": text.encode()})


def headerless_csv(n=40, seed=1):
    """Measurements and a species, with no names row: the first row is data like every other."""
    rng = np.random.default_rng(seed)
    rows = [f"{rng.normal(5, 1):.1f},{rng.normal(3, 0.5):.1f},{rng.choice(['setosa', 'virginica'])}" for _ in range(n)]
    return "\n".join(rows) + "\n"


def gappy_csv(n=300, seed=2):
    """Prices on a scale of thousands with gaps written four ways, a small-scale rate, and a label."""
    rng = np.random.default_rng(seed)
    markers = ["NA", "#N/A", "?", ""]
    lines = ["id,price,rate,label"]
    for i in range(n):
        price = markers[i % 4] if i % 10 == 0 else f"{rng.normal(5_000, 2_000):.2f}"
        rate = f"{rng.normal(0.05, 0.01):.4f}"
        lines.append(f"R{i:04d},{price},{rate},{'high' if i % 3 else 'low'}")
    return "\n".join(lines) + "\n"


def test_a_headerless_file_reads_every_row_and_the_switch_names_the_columns(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    text = headerless_csv()
    first = text.splitlines()[0].split(",")
    upload(page, "measures.csv", text)
    summary = page.locator("#data-summary")
    expect(summary).to_contain_text("measures.csv: 40 rows × 3 columns")
    switch = page.get_by_label("First row is a header")
    expect(switch).not_to_be_checked()
    expect(page.locator("#header-how")).to_contain_text("decided from the file")
    expect(page.locator(".read-notes")).to_contain_text("read as data")
    expect(page.get_by_label("Target")).to_have_value("column_3")

    switch.check()
    expect(summary).to_contain_text("measures.csv: 39 rows × 3 columns")
    expect(page.get_by_label("First row is a header")).to_be_checked()
    expect(page.locator("#header-how")).to_contain_text("as you set it")
    expect(page.locator("#preview thead")).to_contain_text(first[0])
    expect(page.locator("#preview thead")).to_contain_text(first[2])

    page.get_by_label("First row is a header").uncheck()
    expect(summary).to_contain_text("measures.csv: 40 rows × 3 columns")
    expect(page.get_by_label("Target")).to_have_value("column_3")  # the target's name survived both readings


def test_a_repeated_header_shows_the_renamed_note(page, site_url):
    page.goto(site_url)
    wait_until_ready(page)
    upload(page, "twice.csv", "id,score,score,label\n1,2,3,a\n2,5,6,b\n3,1,2,a\n4,7,7,b\n")
    expect(page.locator("#data-summary")).to_contain_text("twice.csv: 4 rows × 4 columns")
    expect(page.get_by_label("First row is a header")).to_be_checked()
    expect(page.locator(".read-notes")).to_contain_text("column 3 is renamed 'score (2)'")


def test_missing_cells_are_counted_and_kept_by_a_tree_or_filled_with_the_training_mean(page, site_url):
    """The opening model, a tree, keeps missing numbers (it sends them down the side that gains more); a
    learner that cannot read them fills them with the training rows' mean, and cannot be given "keep"."""
    page.goto(site_url)
    wait_until_ready(page)
    upload(page, "gappy.csv", gappy_csv())
    expect(page.locator("#data-summary")).to_contain_text("gappy.csv: 300 rows × 4 columns")
    note = page.locator("#missing-note")
    expect(note).to_contain_text("price (30)")  # NA, #N/A, ? and empty alike
    expect(page.get_by_role("button", name="Drop rows with missing values")).to_have_count(0)
    note.get_by_role("button", name="Missing values choice").click()
    missing = page.get_by_label("Missing values")
    expect(missing).to_be_focused()
    expect(page.get_by_label("Model", exact=True)).to_have_value("DecisionTreeClassifier")
    expect(missing).to_have_value("keep")

    page.get_by_label("Target").select_option("label")
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    impute = page.locator("#pre-steps [data-step=impute]")
    expect(impute).to_contain_text("Missing numbers kept")
    expect(impute).to_contain_text("price (30 cells)")
    # The tree says where a missing price goes, at the tests whose rows had gaps only.
    page.get_by_text("The tree as text").click()
    twin = page.locator("#tree-text")
    expect(twin).to_contain_text(re.compile(r"price (≤|>) [\d.]+ or missing|price (is present|is missing)"))
    expect(twin).not_to_contain_text(re.compile(r"rate (≤|>) [\d.]+ or missing"))

    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    expect(missing).to_have_value("mean")
    expect(missing.locator('option[value="keep"]')).to_be_disabled()
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(impute).to_contain_text("filled with the training rows' mean")
    expect(impute).to_contain_text("price (")
