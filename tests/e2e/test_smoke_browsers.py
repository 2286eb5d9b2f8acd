"""The same smoke flow in Chromium, Firefox ESR and WebKitGTK (Debian's packages, see browserkit.py):
the site loads under a sub-path and reaches Ready, takes a CSV with IDs, names, dates, free text and
missing values, trains a tree and a learner with a decision boundary and draws both (pixels, not just
elements), exports the predictions, writes numbers as Python does (the page's number writer, in each
browser's engine), and loads again from its service worker with the server gone. Python starts from the
site's snapshot of Pyodide's memory in every browser.

The flow runs inside the page as small JavaScript bodies, so every browser runs exactly the same steps.
The downloads themselves are not made: the page's Blob is read where it is handed to the browser
(URL.createObjectURL) and the <a download> click is recorded, because a headless Firefox and
WebKitGTK's MiniBrowser have no download folder a test could read in the same way.
"""

import random
import threading
import time

import numpy as np
import pytest

import build
from browserkit import ChromiumDriver, FirefoxDriver, TooOld, Unavailable, WebKitDriver, wait_for
from conftest import SUB_PATH, _browser_required
from pellucid.tabular import cells

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)

ROWS = 400


def customers_csv(rows=ROWS, seed=7):
    """A table like the ones people bring: an ID, a name, a date, free text, missing values written
    three ways, numbers on scales from 0.01 to 10,000, and a yes/no target that depends on two of them."""
    rng = random.Random(seed)
    lines = ["customer_id,name,signed_up,comment,age,income,discount,churned"]
    for i in range(rows):
        age = rng.randint(18, 80)
        income = round(rng.uniform(8_000, 12_000), 2)
        churned = "yes" if age + income / 500 > 70 + rng.gauss(0, 4) else "no"
        age_cell = rng.choice(["NA", "", "?"]) if i % 37 == 5 else str(age)
        comment = rng.choice(['"late delivery, again"', "happy", "would recommend", '"price, too high"'])
        lines.append(f"C{i:05d},Person {i},2024-{1 + i % 12:02d}-{1 + i % 28:02d},{comment},{age_cell},"
                     f"{income},{rng.uniform(0.01, 0.3):.3f},{churned}")
    return "\n".join(lines) + "\n"


# --- the steps, each an async function body run in the page ---------------------------------------

READY = "return document.querySelector('#status')?.textContent.trim() === 'Ready';"

UPLOAD = """
    const input = document.querySelector("#csv-file");
    const transfer = new DataTransfer();
    transfer.items.add(new File([arg], "customers.csv", {type: "text/csv"}));
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", {bubbles: true}));
    return true;
"""

TEXT_OF = "return document.querySelector(arg)?.textContent.trim() ?? '';"

CHOOSE = """
    const select = document.querySelector(arg.selector);
    if (![...select.options].some((o) => o.value === arg.value)) return false;
    select.value = arg.value;
    select.dispatchEvent(new Event("input", {bubbles: true}));
    select.dispatchEvent(new Event("change", {bubbles: true}));
    return true;
"""

CLICK = """
    const element = document.querySelector(arg);
    if (!element || element.disabled || element.hidden) return false;
    element.click();
    return true;
"""

# How many pixels of a canvas are painted (not transparent), and how wide it is on screen.
PAINTED = """
    const canvas = document.querySelector(arg);
    if (!canvas || !canvas.width || !canvas.getClientRects().length) return 0;
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
    return painted;
"""

CATCH_DOWNLOADS = """
    window.smokeSaved = [];
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob) => { window.smokeLastBlob = blob; return create(blob); };
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
        if (!this.download) return click.call(this);
        window.smokeSaved.push({name: this.download, blob: window.smokeLastBlob});
    };
    return true;
"""

LAST_DOWNLOAD = """
    const saved = window.smokeSaved.at(-1);
    return saved ? {name: saved.name, text: await saved.blob.text()} : null;
"""

CONTROLLED = "await navigator.serviceWorker?.ready; return Boolean(navigator.serviceWorker?.controller);"

# The page's number writer (what its worker writes an exported CSV's numbers with) in this browser's engine.
NUMBER_TEXT = """
    const { numbersText } = await import(new URL("js/number-text.js", location.href).href);
    return numbersText(new Float64Array(arg), "NA").split("\\n");
"""


def awkward_numbers(n=3000, seed=5):
    """Finite float64 values of every magnitude, and those where Python or JavaScript change layout."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2 ** 62, size=n, dtype=np.uint64) + rng.integers(0, 2, size=n, dtype=np.uint64) * 2 ** 63
    values = bits.view(np.float64)
    values = values[np.isfinite(values)]
    edges = [sign * x for x in (1e-4, 1e-5, 1e-6, 1e-7, 1e16, 1e17, 1e21, 1e22, 0.1, 5e-324) for sign in (1, -1)]
    edges += [np.nextafter(x, 0.0) for x in edges]
    return [float(v) for v in np.concatenate([values, np.round(rng.normal(scale=1e4, size=500), 3), edges])]


class OfflineSwitch:
    """The site served on 127.0.0.1 until go_offline() shuts the server: then nothing listens."""

    def __init__(self, root):
        self._server = build.make_server(root, port=0)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/{SUB_PATH}/"
        self.online = True

    def go_offline(self):
        if self.online:
            self._server.shutdown()
            self._server.server_close()
            self.online = False


@pytest.fixture(scope="module")
def site_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("smoke-site")
    build.build(out=root / SUB_PATH)
    return root


def open_driver(name, request):
    if name == "chromium":  # the session's browser fixture launches Debian's Chromium (or says why not)
        return ChromiumDriver(request.getfixturevalue("browser"))
    return {"firefox": FirefoxDriver, "webkit": WebKitDriver}[name]()


@pytest.mark.parametrize("browser_name", ["chromium", "firefox", "webkit"])
def test_smoke_flow(browser_name, site_root, record_property, request):
    try:
        driver = open_driver(browser_name, request)
    except Unavailable as missing:
        if _browser_required() and not isinstance(missing, TooOld):
            pytest.fail(str(missing))
        pytest.skip(str(missing))
    site = OfflineSwitch(site_root)
    started = time.monotonic()
    try:
        print(f"{browser_name}: {driver.version}")
        record_property("browser_version", driver.version)
        run_flow(driver, site)
    finally:
        site.go_offline()
        driver.close()
    print(f"{browser_name}: smoke flow took {time.monotonic() - started:.0f} s")


STARTED = """
    const { store } = await import(new URL("js/store.js", location.href).href);
    return store.get().python;
"""


def run_flow(driver, site):
    driver.goto(site.url)
    wait_for(driver, READY, timeout=180, what="Ready")
    assert driver.run(STARTED)["snapshot"] is True  # Python started from the site's snapshot of Pyodide

    wait_for(driver, UPLOAD, customers_csv(), what="the upload")
    summary = wait_for(driver, "const t = document.querySelector('#data-summary').textContent;"
                               "return t.includes('customers.csv') && t;", what="the data summary")
    assert f"{ROWS} rows" in summary, summary
    wait_for(driver, CHOOSE, {"selector": "#target", "value": "churned"}, what="the target")

    train(driver, "DecisionTreeClassifier")
    wait_for(driver, CLICK, "#tab-tree", what="the Tree tab")
    assert wait_for(driver, PAINTED, "#tree-canvas", what="the tree drawn") > 5000
    assert "split on" in driver.run(TEXT_OF, "#tree-text")

    train(driver, "KNeighborsClassifier")
    wait_for(driver, CLICK, "#tab-boundary", what="the Decision boundary tab")
    assert wait_for(driver, PAINTED, "#boundary-canvas", timeout=90, what="the boundary drawn") > 20_000

    driver.run(CATCH_DOWNLOADS)
    wait_for(driver, CLICK, "#export-predictions", what="Export predictions")
    saved = wait_for(driver, LAST_DOWNLOAD, what="the predictions file")
    lines = saved["text"].strip().splitlines()
    assert saved["name"].endswith(".csv") and "customer_id" in lines[0], (saved["name"], lines[:2])
    assert len(lines) > ROWS * 0.2, f"{len(lines)} lines of predictions"

    numbers = awkward_numbers()
    assert driver.run(NUMBER_TEXT, numbers) == cells.format_numbers(np.array(numbers), "NA")  # as Python writes

    # Offline: once the service worker controls the page, the server goes away and the page reloads.
    wait_for(driver, CONTROLLED, timeout=60, what="the service worker to take control")
    site.go_offline()
    driver.goto(site.url)
    wait_for(driver, READY, timeout=180, what="Ready again, offline")


def train(driver, model):
    """Chooses `model`, presses Train and waits until its score is shown."""
    wait_for(driver, CHOOSE, {"selector": "#model", "value": model}, what=f"the model {model}")
    driver.run("document.querySelector('#accuracy').textContent = '';")
    wait_for(driver, CLICK, "#train", what="Train")
    score = wait_for(driver, "const t = document.querySelector('#accuracy').textContent.trim();"
                             "return t && t !== '—' && t;", timeout=120, what=f"{model}'s score")
    assert "%" in score or score.replace(".", "").isdigit(), score
