"""Data in from where people keep it, in the page: a table pasted onto the page (the tab-separated text a
spreadsheet or a web page puts on the clipboard) and an Excel workbook of two sheets, the second chosen,
each read and trained on; an empty paste and a single cell say so and point at the paste box. The workbook
reader (openpyxl) is loaded from the site's own files when the workbook is opened. Screenshots of the paste
box and of the sheet menu go to docs/screenshots/."""

import io
import pathlib

import pytest
from playwright.sync_api import expect

from pagekit import train, wait_until_ready
from pellucid.tabular.datasets import load_iris

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)

SHOTS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "screenshots"

PASTE = """(text) => {
  const data = new DataTransfer();
  data.setData("text/plain", text);
  document.body.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
}"""


def iris_rows():
    """The iris flowers as rows of cells: a header row, then 150 rows."""
    return [line.split(",") for line in load_iris().csv_text.strip().splitlines()]


def test_a_table_pasted_onto_the_page_is_read_and_trained_on(page, site_url):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(site_url)
    wait_until_ready(page)

    # Excel and browsers copy tab-separated rows, CRLF at each end.
    tsv = "".join("\t".join(row) + "\r\n" for row in iris_rows())
    box = page.get_by_label("Paste a table", exact=True)
    expect(box).to_be_hidden()
    page.get_by_role("button", name="Paste a table…").click()
    expect(box).to_be_focused()
    box.fill("".join(tsv.splitlines(keepends=True)[:7]))
    box.evaluate("(box) => { box.scrollTop = 0; box.scrollLeft = 0; }")  # its first rows in view
    page.screenshot(path=str(SHOTS / "paste-table.png"))
    page.get_by_role("button", name="Close").click()
    expect(box).to_be_hidden()

    page.evaluate(PASTE, "")  # an empty clipboard: said, and the paste box is where it points
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Nothing was pasted")
    expect(box).to_be_visible()
    alert.get_by_role("button", name="Go to Paste a table").click()
    expect(box).to_be_focused()
    box.fill("42")  # one cell, from the box
    page.get_by_role("button", name="Read the pasted table").click()
    expect(alert).to_contain_text("The pasted text is a single cell, not a table")
    expect(box).to_have_attribute("aria-invalid", "true")

    page.get_by_role("button", name="Close").click()
    page.locator("h1").click()  # the focus out of any text field: the page takes the paste
    page.evaluate(PASTE, tsv)
    expect(page.locator("#data-summary")).to_have_text("pasted table: 150 rows × 5 columns")
    expect(alert).to_be_hidden()
    expect(page.get_by_label("Target")).to_have_value("species")
    train(page, "DecisionTreeClassifier")
    expect(page.locator("#accuracy")).not_to_have_text("—")

    page.get_by_role("button", name="Paste a table…").click()  # pasting into the box is typing, not a load
    box.focus()
    page.evaluate(PASTE, "a\tb\n1\t2\n")
    expect(page.locator("#data-summary")).to_have_text("pasted table: 150 rows × 5 columns")


def test_the_second_sheet_of_a_workbook_is_chosen_and_trained_on(page, site_url):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    notes = book.active
    notes.title = "About"
    for row in (["what", "who"], ["iris flowers", "Fisher"], ["measured in", "cm"]):
        notes.append(row)
    flowers = book.create_sheet("Flowers")
    for i, row in enumerate(iris_rows()):
        flowers.append(row if i == 0 else [float(v) for v in row[:4]] + [row[4]])
    data = io.BytesIO()
    book.save(data)

    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Upload CSV").set_input_files(
        {"name": "flowers.xlsx", "buffer": data.getvalue(),
         "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"})
    summary = page.locator("#data-summary")
    expect(summary).to_have_text("flowers.xlsx: 2 rows × 2 columns", timeout=90_000)  # the first sheet
    sheet = page.get_by_label("Sheet")
    expect(sheet).to_have_value("About")
    expect(page.locator("#read-box")).to_contain_text("the Excel workbook's sheet 'About' (of 2: About, Flowers)")

    sheet.select_option("Flowers")
    expect(summary).to_have_text("flowers.xlsx: 150 rows × 5 columns")
    expect(sheet).to_have_value("Flowers")
    expect(page.get_by_label("Target")).to_have_value("species")
    page.screenshot(path=str(SHOTS / "xlsx-sheet.png"))
    train(page, "GaussianNB")
    expect(page.locator("#accuracy")).not_to_have_text("—")
    assert page.get_by_role("status").text_content() == "Ready"


def test_a_workbook_opens_offline_after_one_visit(page, site_url):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in (["x", "y", "label"], [1, 2, "a"], [2, 1, "b"], [3, 3, "a"], [4, 0, "b"]):
        book.active.append(row)
    data = io.BytesIO()
    book.save(data)

    page.goto(site_url)
    wait_until_ready(page)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")  # this build precached
    page.reload()
    wait_until_ready(page)
    page.context.set_offline(True)
    page.get_by_label("Upload CSV").set_input_files({"name": "small.xlsx", "buffer": data.getvalue(),
                                                     "mimeType": "application/octet-stream"})
    expect(page.locator("#data-summary")).to_have_text("small.xlsx: 4 rows × 3 columns", timeout=90_000)
    expect(page.get_by_role("alert")).to_be_hidden()
