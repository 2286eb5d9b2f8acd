"""Small helpers the browser tests share: waiting on visible state and reading what a canvas shows."""

import pathlib

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect


class StartupTimeout(Exception):
    """The page was still starting (Python, numpy, pellucid loading) when the wait ran out. On a loaded
    machine Pyodide can start slowly, so this, and only this, failure is tried once more
    (build.py test: --only-rerun StartupTimeout); the rerun shows in the summary."""


def wait_until_ready(page, timeout=90_000):
    """Wait until the page's status line says Python, numpy and pellucid are loaded (by its id: the learn
    panel has a status line of its own)."""
    status = page.locator("#status")
    try:
        expect(status).to_have_text("Ready", timeout=timeout)
    except AssertionError:
        if status.get_attribute("data-state") != "loading":
            raise  # it started and then failed, or showed an error: not slowness, never retried
        raise StartupTimeout(f"the page was still starting after {timeout / 1000:.0f} s: "
                             f"{status.text_content()!r}") from None


PAINTED = """(selector) => {
    const canvas = document.querySelector(selector);
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
    return painted;
}"""


def painted_pixels(page, selector, wait_ms=15_000):
    """How many pixels of a canvas are not transparent, once any is (0 if nothing was drawn within wait_ms):
    a view's renderer is imported when first needed, so it may draw after the status says Ready."""
    try:
        page.wait_for_function(f"(selector) => ({PAINTED})(selector) > 0", arg=selector, timeout=wait_ms)
    except PlaywrightTimeout:  # nothing drawn: report the count, 0, for the caller to assert
        pass
    return page.evaluate(PAINTED, selector)


def compare_naive_bayes_and_tree(page, site_url):
    """Iris with Gaussian naive Bayes chosen and the tree ticked beside it, compared on the page's split:
    the ranking's two rows shown."""
    open_example(page, site_url, "iris", "150 rows")
    page.get_by_label("Model", exact=True).select_option("GaussianNB")
    box = page.locator("#leaderboard-box")
    box.get_by_label("Decision tree", exact=True).check()
    box.get_by_role("button", name="Compare", exact=True).click()
    expect(page.locator("#leaderboard-table tbody tr:not(.baseline)")).to_have_count(2, timeout=90_000)


def open_example(page, site_url, name, rows):
    """Open the page and load the built-in data set `name`; waits until the summary says `rows` (text)."""
    page.goto(site_url)
    wait_until_ready(page)
    page.get_by_label("Dataset").select_option(name)
    expect(page.locator("#data-summary")).to_contain_text(rows)


def upload_csv(page, name, text, timeout=60_000):
    """Upload `text` as the CSV file `name` and wait until the data summary names it."""
    page.get_by_label("Upload CSV").set_input_files({"name": name, "mimeType": "text/csv", "buffer": text.encode()})
    expect(page.locator("#data-summary")).to_contain_text(name, timeout=timeout)


def train(page, model, target=None, timeout=60_000):
    """Choose `model` (and `target`), press Train, and wait until the page is Ready with no error shown."""
    page.get_by_label("Model", exact=True).select_option(model)
    if target is not None:
        page.get_by_label("Target").select_option(target)
    page.get_by_role("button", name="Train").click()
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=timeout)
    expect(page.get_by_role("alert")).to_be_hidden()


def show(page, tab, timeout=60_000):
    """Switch to the view tab named `tab` and wait until whatever it computes is done."""
    page.get_by_role("tab", name=tab).click()
    expect(page.get_by_role("tab", name=tab)).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=timeout)


def press_tune(page, first, values, second=None, second_values=None):
    """Fill Tune's grid (one hyperparameter and its values, or two) and press Tune, without waiting."""
    page.get_by_label("Hyperparameter", exact=True).select_option(first)
    page.get_by_label("Values to try").fill(values)
    page.get_by_label("Second hyperparameter").select_option(second or "")
    if second:
        page.get_by_label("Its values").fill(second_values)
    page.get_by_role("button", name="Tune", exact=True).click()


def open_learn_test_page(page, site_url):
    """The "See it learn" test page (tests/e2e/fixtures/learn.html, served as <site>/learn.html beside
    index.html so its relative imports resolve), Python started."""
    fixture = (pathlib.Path(__file__).resolve().parent / "fixtures" / "learn.html").read_text()
    page.route(site_url + "learn.html", lambda route: route.fulfill(body=fixture, content_type="text/html"))
    page.goto(site_url + "learn.html")
    expect(page.locator("#python-status")).to_have_text("Ready", timeout=90_000)
    return page


def mount_learn_panel(page):
    """A new learn panel mounted on the test page, no model chosen."""
    page.evaluate("() => window.mountLearn()")
    expect(page.locator(".learn-panel")).to_have_count(1)
    return page


def metrics_text(page):
    """The Metrics view's text once it is drawn whole: its scores, and the confusion matrix when the view has
    one (drawn after the scores by a renderer loaded on first use, so read too soon the text lacks it)."""
    page.wait_for_function("""() => {
      const body = document.getElementById('metrics-body'), box = document.getElementById('confusion-box');
      return body.textContent.trim() !== '' && (box.hidden || box.querySelector('table') !== null);
    }""")
    return page.locator("#view-metrics").inner_text()
