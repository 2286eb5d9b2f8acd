"""Bad input anywhere gives a message saying what is wrong and what to do, and changes nothing else:
the data summary, the last good model's score and the controls stay as they were.

Every test starts from a small good CSV loaded and a decision tree trained on it, then does one bad
thing. The tests share one page, so Python starts once: each loads the CSV again and trains the tree
with the default settings again. The page fails a test on any page error or request that leaves the
machine."""

import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready
from pellucid.core.settings import MAX_ROWS as DEFAULT_MAX_ROWS

pytestmark = pytest.mark.e2e

# Six rows; `site` is one text value in every row, `notes` is missing in every row.
GOOD_CSV = (
    "x,y,site,notes,label\n"
    "1,10,north,,a\n2,21,north,,b\n3,29,north,,a\n4,42,north,,b\n5,48,north,,a\n6,61,north,,b\n"
)
LIMIT_BYTES = 50 * 1024 * 1024


def ready(page):
    expect(page.get_by_role("status")).to_have_text("Ready", timeout=60_000)


@pytest.fixture(scope="module")
def started(module_page, site_url):
    """The module's page, Python started once (every test brings it back to the same start: `trained`), and
    the Missing values choice it opens with."""
    page = module_page
    page.goto(site_url)
    wait_until_ready(page)
    expect(page.locator("#data-summary")).to_be_visible(timeout=60_000)  # the opening dataset is in
    ready(page)
    upload(page, "good.csv", GOOD_CSV.encode())
    expect(page.locator("#data-summary")).to_contain_text("good.csv: 6 rows × 5 columns")
    expect(page.get_by_label("Target")).to_have_value("label")  # the page suggests it
    return page, page.get_by_label("Missing values").input_value()


@pytest.fixture
def page(started, shared_page):
    """The started page, checked after each test for page errors and requests to elsewhere."""
    return shared_page


@pytest.fixture
def trained(started):
    """The page with good.csv loaded (notes ignored, label the target) and a tree trained on it, whatever
    the test before chose; returns what must not change: the data summary, the score readout and its note."""
    page, opening_impute = started
    upload(page, "good.csv", GOOD_CSV.encode())
    expect(page.locator("#data-summary")).to_contain_text("good.csv: 6 rows × 5 columns")
    expect(page.get_by_role("alert")).to_be_hidden()  # no message left from the test before
    page.get_by_label("Role of notes").select_option("ignore")
    page.get_by_label("Target").select_option("label")  # a target chosen before is kept for the same file
    # Another model and back: the tree's parameters start from their defaults again.
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    page.get_by_label("Model", exact=True).select_option("DecisionTreeClassifier")
    page.get_by_label("Missing values").select_option(opening_impute)
    page.get_by_role("button", name="Train").click()
    expect(page.locator("#accuracy")).not_to_have_text("—", timeout=60_000)
    ready(page)
    expect(page.get_by_role("alert")).to_be_hidden()
    return snapshot(page)


def upload(page, name, data, mime="text/csv"):
    page.get_by_label("Upload CSV").set_input_files({"name": name, "mimeType": mime, "buffer": data})


def snapshot(page):
    return {"summary": page.locator("#data-summary").text_content(),
            "score": page.locator("#accuracy").text_content(),
            "note": page.locator("#accuracy-note").text_content(),
            "rows": page.locator("#preview tbody tr").count()}


def assert_alert(page, *words):
    alert = page.get_by_role("alert")
    expect(alert).to_be_visible(timeout=60_000)
    for word in words:
        expect(alert).to_contain_text(word)
    ready(page)
    return alert.text_content()


def assert_data_kept(page, before):
    """The data the user loaded is still there, and the page can train again."""
    expect(page.locator("#data-summary")).to_have_text(before["summary"])
    assert page.locator("#preview tbody tr").count() == before["rows"]
    expect(page.get_by_role("button", name="Train")).to_be_enabled()


def assert_unchanged(page, before):
    """A refused file or setting: the data and the last good model are still on screen."""
    assert_data_kept(page, before)
    expect(page.locator("#accuracy")).to_have_text(before["score"])
    expect(page.locator("#accuracy-note")).to_have_text(before["note"])
    expect(page.locator("#result-area")).to_be_visible()


def assert_training_failed(page, before):
    """A training that failed: the data stays, and the previous result leaves the screen, so nothing
    shown claims to be the model of the settings that failed."""
    assert_data_kept(page, before)
    expect(page.locator("#result-area")).to_be_hidden()
    expect(page.locator("#accuracy")).to_have_text("—")
    expect(page.locator("#empty-state")).to_contain_text("training failed")


BAD_FILES = [
    ("empty.csv", b"", ["empty.csv is empty", "choose a CSV file"]),
    ("photo.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8, ["binary file", "not a CSV"]),
    ("ragged.csv", b"a,b,c\n1,2,3\n4,5\n6,7,8\n", ["Line 3 has 2 fields", "header (line 1) has 3"]),
]


@pytest.mark.parametrize("name,data,words", BAD_FILES, ids=["empty", "binary", "ragged"])
def test_a_bad_file_is_refused_and_the_data_stays(page, trained, name, data, words):
    upload(page, name, data)
    assert_alert(page, *words)
    assert_unchanged(page, trained)
    expect(page.get_by_label("Target")).to_have_value("label")
    expect(page.get_by_label("Model", exact=True)).to_have_value("DecisionTreeClassifier")


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(page, trained, tmp_path):
    huge = tmp_path / "huge.csv"
    with open(huge, "wb") as handle:  # sparse: 51 MB on paper, nothing on disk
        handle.truncate(LIMIT_BYTES + 1024 * 1024)
    # Count every read of a file's bytes from now on: a refused file must not be read at all.
    page.evaluate("""() => {
        window.__reads = 0;
        window.__blobReads = {};
        for (const name of ["arrayBuffer", "text", "stream"]) {
            const original = window.__blobReads[name] = Blob.prototype[name];
            Blob.prototype[name] = function (...args) { window.__reads++; return original.apply(this, args); };
        }
    }""")
    try:
        page.get_by_label("Upload CSV").set_input_files(str(huge))
        assert_alert(page, "huge.csv is 51.0 MB", "the limit is 50 MB", "sample")
        assert page.evaluate("() => window.__reads") == 0
        assert page.evaluate("() => new Blob(['x']).arrayBuffer().then(() => window.__reads)") == 1  # it counts
        assert_unchanged(page, trained)
    finally:  # the next test on this page reads files as the page does
        page.evaluate("() => Object.assign(Blob.prototype, window.__blobReads)")


def test_a_file_over_the_row_limit_is_refused(page, trained):
    n_rows = DEFAULT_MAX_ROWS + DEFAULT_MAX_ROWS // 5
    upload(page, "tall.csv", b"x,y\n" + b"1,2\n" * n_rows)
    assert_alert(page, f"about {n_rows:,} rows", f"the limit here is {DEFAULT_MAX_ROWS:,} rows", "sample")
    assert_unchanged(page, trained)


def test_an_all_missing_column_chosen_as_a_feature(page, trained):
    page.get_by_label("Role of notes").select_option("feature")
    page.get_by_role("button", name="Train").click()
    assert_alert(page, "'notes'", "no values at all", "ignore")
    assert_training_failed(page, trained)
    expect(page.get_by_label("Role of notes")).to_have_value("feature")
    # Another way to fill missing cells cannot help either, and says so.
    page.get_by_label("Missing values").select_option("most_frequent")
    page.get_by_role("button", name="Train").click()
    assert_alert(page, "'notes'", "no values at all")
    expect(page.locator("#data-summary")).to_have_text(trained["summary"])  # a new choice clears the old score
    expect(page.get_by_role("button", name="Train")).to_be_enabled()


def test_a_target_with_one_class(page, trained):
    page.get_by_label("Target").select_option("site")
    page.get_by_role("button", name="Train").click()
    assert_alert(page, "'site'", "only the class 'north'", "at least two classes", "Choose another Target")
    assert_training_failed(page, trained)
    expect(page.get_by_label("Target")).to_have_value("site")


def test_a_text_column_set_to_numeric(page, trained):
    page.get_by_label("Kind of site").select_option("numeric")
    assert_alert(page, "'site' cannot be read as numeric", "'north'", "stays categorical")
    assert_unchanged(page, trained)
    expect(page.get_by_label("Kind of site")).to_have_value("categorical")
    # The table in Python is untouched too: training the same model again gives the same score.
    page.get_by_role("button", name="Train").click()
    ready(page)
    expect(page.locator("#accuracy")).to_have_text(trained["score"])


@pytest.mark.parametrize("model,words", [
    ("KMeans", ["'n_clusters' (k)", "at most the number of rows (n_samples=4)", "got 50"]),
    ("KNeighborsClassifier", ["k = 50 (n_neighbors) is larger than the training set", "4 rows", "choose k <= 4"]),
], ids=["kmeans", "knn"])
def test_k_larger_than_the_data(page, trained, model, words):
    page.get_by_label("Model", exact=True).select_option(model)
    page.get_by_label("k", exact=True).fill("50")
    page.get_by_role("button", name="Train").click()
    assert_alert(page, *words)
    assert_training_failed(page, trained)
    expect(page.get_by_label("Model", exact=True)).to_have_value(model)
    expect(page.get_by_label("k", exact=True)).to_have_value("50")


def test_gradient_descent_that_diverges_is_stopped(page, trained):
    page.get_by_label("Target").select_option("y")
    page.get_by_label("Model", exact=True).select_option("LinearRegression")
    page.get_by_label("solver").select_option("gd")
    page.get_by_label("learning rate").fill("10")
    page.get_by_role("button", name="Train").click()
    assert_alert(page, "diverged", "learning rate 10 is too large", "smaller learning_rate")
    assert_training_failed(page, trained)
    expect(page.get_by_label("solver")).to_have_value("gd")
    expect(page.get_by_label("learning rate")).to_have_value("10")
    expect(page.get_by_label("Target")).to_have_value("y")


def test_a_parameter_out_of_range(page, trained):
    page.get_by_label("max depth").fill("-1")
    page.get_by_role("button", name="Train").click()
    assert_alert(page, "Fix the model's settings first", "max depth", "at least 1")
    expect(page.locator("#param-max_depth-error")).to_have_text("Must be at least 1.")
    assert_data_kept(page, trained)  # the page's own check: nothing was sent to Python
    expect(page.get_by_label("max depth")).to_have_value("-1")
