"""A new build published while a tab is open. The first tab goes on with the files of the build it opened
with (the views' renderers it imports later, "See it learn", an export, the Python worker a Cancel starts
again) and says that a new version is ready; a second tab opened after the new build runs the new build;
the old build's cache is deleted once no tab uses it; the Reload the first tab offers keeps its session.

Two builds are served at the same URL, one after the other: build A, then build B, a copy of A. In each
the boundary's renderer, a module the page imports only when the view is first shown, says which build
it is when it runs, and the service worker is filled in again (so the two build ids differ). In Chromium
every answer of the server also says which build's folder it came from (a header, which the service
worker's cached answers keep), so each file a tab and its workers received is traced to its build. In
Firefox ESR (driven over WebDriver BiDi, browserkit.py) the same deploy runs with the page's own reports:
the renderer's build, the Python worker's build, and the page's notice.
"""

import functools
import json
import re
import shutil
import threading
import time

import pytest
from playwright.sync_api import expect

import build
from browserkit import FirefoxDriver, TooOld, Unavailable, wait_for
from conftest import ROOT, SUB_PATH, PageWatch, _browser_required
from pagekit import show, train, wait_until_ready
from test_cancel import numeric_csv
from test_smoke_browsers import CHOOSE, CLICK, CONTROLLED, PAINTED, READY
from test_smoke_browsers import train as smoke_train

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # slow: started first on a worker (tests/conftest.py)

HEADER = "x-pellucid-build"
CHANGED_MODULE = "js/render/boundary.js"


class BuildHandler(build.SiteHandler):
    """Serves the folder `site` serves now, and says which build's it is."""

    def __init__(self, *args, site, **kwargs):
        self.label = site.label
        super().__init__(*args, directory=str(site.roots[site.label]), **kwargs)

    def end_headers(self):
        self.send_header(HEADER, self.label)
        super().end_headers()

    def send_head(self):
        # Always the whole file, never "not modified" by date: the two builds' files are written within the
        # same second or two, so B's sw.js could pass for A's (a server that deploys builds uses ETags).
        del self.headers["If-Modified-Since"]
        return super().send_head()


class SwappableSite:
    """One URL, two builds: `label` says which folder is served (a deploy is one assignment)."""

    def __init__(self, roots, label):
        self.roots, self.label = roots, label
        handler = functools.partial(BuildHandler, site=self)
        self._server = build.make_server(ROOT, port=0)
        self._server.RequestHandlerClass = handler
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/{SUB_PATH}/"

    def close(self):
        self._server.shutdown()
        self._server.server_close()


def precached(site):
    text = (site / "sw.js").read_text()
    return json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text).group(1))


def publish(folder, label):
    """Marks `folder`'s boundary renderer with `label` (the module says which build it is when it runs) and
    fills in its service worker again, so the changed files make a build of their own."""
    on_demand = {p.name for p in folder.rglob("*") if p.is_file()} - {f.rsplit("/", 1)[-1] for f in precached(folder)}
    module = folder / CHANGED_MODULE
    module.write_text(module.read_text() + f'\nglobalThis.pellucidBoundaryBuild = "{label}";\n')
    shutil.copy(ROOT / "web" / "sw.js", folder / "sw.js")
    return build.write_service_worker(folder, on_demand - {"sw.js"})


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """{"A": folder, "B": folder} (each holding SUB_PATH/) and their build ids."""
    root = tmp_path_factory.mktemp("deploy")
    a, b = root / "A" / SUB_PATH, root / "B" / SUB_PATH
    build.build(out=a)
    shutil.copytree(a, b)
    ids = {"A": publish(a, "A"), "B": publish(b, "B")}
    assert ids["A"] != ids["B"]
    return {"A": a.parent, "B": b.parent}, ids


class Tab:
    """A page and the build of every answer it (and its workers) received, from the network or the
    service worker."""

    def __init__(self, context, name):
        self.name = name
        self.page = context.new_page()
        self.page.set_default_timeout(30_000)
        self.answers = []
        self.page.on("response", self.record)
        self.page.on("console", lambda m: print(f"[{name} console.{m.type}] {m.text}"))
        self.page.on("pageerror", lambda e: context.watch.errors.append(f"{name}: {e}"))

    def record(self, response):
        self.answers.append((response.url, response.headers.get(HEADER), response.from_service_worker))

    def builds_since(self, start=0):
        return {label for _, label, _ in self.answers[start:] if label}

    def python_build(self):
        return self.page.evaluate("""async () => {
            const { store } = await import(new URL("js/store.js", location.href).href);
            return store.get().python.build;
        }""")

    def caches(self):
        return self.page.evaluate("() => caches.keys()")


def wait_until_controlled(page):
    """Until the service worker has precached the build and controls the page."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)")


def test_open_tab_keeps_its_build_while_a_new_one_is_published(browser, builds, tmp_path):
    roots, ids = builds
    site = SwappableSite(roots, "A")
    origin = site.url.split(f"/{SUB_PATH}/")[0]
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    context.watch = PageWatch(origin)
    context.route("**/*", context.watch.on_route)
    try:
        run_deploy(context, site, ids, tmp_path)
    finally:
        context.close()
        site.close()
    assert context.watch.errors == [], f"page errors: {context.watch.errors}"
    assert context.watch.foreign_requests == [], f"requests left the machine: {context.watch.foreign_requests}"


def run_deploy(context, site, ids, tmp_path):
    # Build A, on a first visit: the page and its Python worker load from the network, and the service worker
    # installed meanwhile takes the page over. (Firefox's test below opens it again under the service worker.)
    first = Tab(context, "first")
    first.page.goto(site.url)
    wait_until_ready(first.page)
    wait_until_controlled(first.page)
    assert first.python_build() == ids["A"]
    first.page.get_by_label("Dataset").select_option("breast_cancer")
    expect(first.page.locator("#data-summary")).to_contain_text("569 rows")

    # Build B is published; the browser finds it (as it does when a tab is shown again) and it takes over.
    site.label = "B"
    since_deploy = len(first.answers)
    first.page.evaluate("async () => { await (await navigator.serviceWorker.getRegistration()).update(); }")
    expect(first.page.get_by_text("A new version of Pellucid is ready")).to_be_visible(timeout=120_000)
    assert set(first.caches()) >= {f"pellucid-{ids['A']}", f"pellucid-{ids['B']}"}

    # A second tab opens on build B.
    second = Tab(context, "second")
    second.page.goto(site.url)
    wait_until_ready(second.page)
    assert second.python_build() == ids["B"]
    expect(second.page.get_by_text("A new version of Pellucid is ready")).to_be_hidden()
    print(f"second tab's answers: {len(second.answers)}, builds {second.builds_since()}")
    assert second.builds_since() == {"B"}

    # The first tab uses every part it loads when first needed, then cancels a long job (a new worker).
    page = first.page
    train(page, "DecisionTreeClassifier", target="diagnosis")
    show(page, "Tree")
    show(page, "Decision boundary", timeout=90_000)
    # The renderer is imported when the view first draws, which may end after the status says Ready.
    page.wait_for_function("() => globalThis.pellucidBoundaryBuild !== undefined", timeout=60_000)
    assert page.evaluate("() => globalThis.pellucidBoundaryBuild") == "A"
    show(page, "Curves", timeout=90_000)
    expect(page.locator("#curves-caption")).to_contain_text("test rows")
    page.get_by_role("button", name="Show the steps").click()
    expect(page.locator(".learn-counter")).to_contain_text("step 1 /", timeout=60_000)
    with page.expect_download() as saved:
        page.get_by_role("button", name="Export predictions").click()
    assert saved.value.suggested_filename.endswith(".csv")

    page.get_by_label("Upload CSV").set_input_files(str(numeric_csv(tmp_path / "wide.csv")))
    expect(page.locator("#data-summary")).to_contain_text("wide.csv", timeout=120_000)
    page.get_by_label("Target").select_option("label")
    page.locator('input[name="eval-method"][value="kfold"]').check()
    page.get_by_label("Folds (k)").fill("20")
    page.get_by_label("Model", exact=True).select_option("KNeighborsClassifier")
    page.get_by_role("button", name="Train").click()
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("status")).to_have_text("Training cancelled", timeout=120_000)
    # The new worker runs the page's build (main.js compares the build each worker reports with the first's).
    expect(page.locator("#new-version-text")).to_contain_text("This page goes on with the version it opened with")
    train(page, "GaussianNB")
    show(page, "Decision boundary", timeout=90_000)

    after = first.answers[since_deploy:]
    print(f"first tab's answers after the deploy: {len(after)}, builds {first.builds_since(since_deploy)}")
    for url, label, from_worker in after:
        print(f"  {label} {'sw' if from_worker else 'net'} {url}")
    assert any(url.endswith(CHANGED_MODULE) for url, _, _ in after), "the boundary's renderer loaded after the deploy"
    assert any(url.endswith("js/worker.js") for url, _, _ in after), "the worker started again after the deploy"
    assert first.builds_since() == {"A"}
    assert first.python_build() == ids["A"]

    # Reload, as the first tab offers: the page opens on build B with the session it had.
    page.get_by_role("button", name="Reload").click()
    wait_until_ready(page)
    expect(page.locator("#data-summary")).to_contain_text("wide.csv", timeout=120_000)
    expect(page.get_by_text("A new version of Pellucid is ready")).to_be_hidden()
    assert first.python_build() == ids["B"]

    # No tab uses build A now: its cache goes when the next page opens.
    second.page.reload()
    wait_until_ready(second.page)
    deadline = time.monotonic() + 30
    while f"pellucid-{ids['A']}" in second.caches():
        assert time.monotonic() < deadline, f"build A's cache is still kept: {second.caches()}"
        time.sleep(0.25)


# --- Firefox ESR: the same deploy, each step a JavaScript body run in a tab --------------------------------

NOTICE = "const p = document.querySelector('#new-version'); return !p.hidden && p.textContent.trim();"
PYTHON_BUILD = """
    const { store } = await import(new URL("js/store.js", location.href).href);
    return store.get().python?.build ?? null;
"""
UPDATE = "await (await navigator.serviceWorker.getRegistration()).update(); return true;"
REGISTRATION = """
    const r = await navigator.serviceWorker.getRegistration();
    return {active: r?.active?.state, waiting: r?.waiting?.state, installing: r?.installing?.state,
            controlled: Boolean(navigator.serviceWorker.controller), caches: await caches.keys()};
"""
SUMMARY_HAS = "return document.querySelector('#data-summary').textContent.includes(arg);"
STATUS_IS = "return document.querySelector('#status').textContent.trim() === arg;"
UPLOAD_AS = """
    const input = document.querySelector("#csv-file");
    const transfer = new DataTransfer();
    transfer.items.add(new File([arg.text], arg.name, {type: "text/csv"}));
    input.files = transfer.files;
    input.dispatchEvent(new Event("change", {bubbles: true}));
    return true;
"""
TWENTY_FOLDS = """
    document.querySelector('input[name="eval-method"][value="kfold"]').click();
    const folds = document.querySelector("#cv-k");
    folds.value = "20";
    folds.dispatchEvent(new Event("input", {bubbles: true}));
    folds.dispatchEvent(new Event("change", {bubbles: true}));
    return folds.value === "20";
"""


class FirefoxTab:
    """One tab of the Firefox driver, with the two calls wait_for and the smoke steps use."""

    name = "firefox"

    def __init__(self, driver, tab):
        self.driver, self.tab = driver, tab

    def goto(self, url):
        self.driver.goto(url, tab=self.tab)

    def run(self, body, arg=None):
        return self.driver.run(body, arg, tab=self.tab)


def test_firefox_tab_keeps_its_build_while_a_new_one_is_published(builds, tmp_path):
    roots, ids = builds
    try:
        driver = FirefoxDriver()
    except Unavailable as missing:
        if _browser_required() and not isinstance(missing, TooOld):
            pytest.fail(str(missing))
        pytest.skip(str(missing))
    site = SwappableSite(roots, "A")
    try:
        print(driver.version)
        run_firefox_deploy(FirefoxTab(driver, "main"), FirefoxTab(driver, "second"), site, ids, tmp_path)
    finally:
        driver.close()
        site.close()


def run_firefox_deploy(first, second, site, ids, tmp_path):
    first.goto(site.url)
    wait_for(first, READY, timeout=180, what="Ready")
    wait_for(first, CONTROLLED, timeout=60, what="the service worker to take control")
    first.goto(site.url)
    wait_for(first, READY, timeout=180, what="Ready again, under the service worker")
    assert first.run(PYTHON_BUILD) == ids["A"]
    wait_for(first, CHOOSE, {"selector": "#dataset", "value": "breast_cancer"}, what="the data set")
    wait_for(first, SUMMARY_HAS, "569 rows", what="the data summary")

    site.label = "B"
    first.run(UPDATE)
    try:
        notice = wait_for(first, NOTICE, timeout=120, what="the new version's notice")
    except AssertionError as error:
        raise AssertionError(f"{error}; the service worker's registration: {first.run(REGISTRATION)}") from None
    assert "goes on with the version it opened with" in notice, notice

    second.goto(site.url)
    wait_for(second, READY, timeout=180, what="Ready in the second tab")
    assert second.run(PYTHON_BUILD) == ids["B"]
    assert not second.run(NOTICE)

    wait_for(first, CHOOSE, {"selector": "#target", "value": "diagnosis"}, what="the target")
    smoke_train(first, "DecisionTreeClassifier")
    wait_for(first, CLICK, "#tab-boundary", what="the Decision boundary tab")
    assert wait_for(first, PAINTED, "#boundary-canvas", timeout=90, what="the boundary drawn") > 20_000
    assert first.run("return globalThis.pellucidBoundaryBuild;") == "A"

    wait_for(first, UPLOAD_AS, {"name": "wide.csv", "text": numeric_csv(tmp_path / "wide.csv").read_text()},
             what="the upload")
    wait_for(first, SUMMARY_HAS, "wide.csv", timeout=120, what="the uploaded data")
    wait_for(first, CHOOSE, {"selector": "#target", "value": "label"}, what="the target")
    wait_for(first, TWENTY_FOLDS, what="20 folds")
    wait_for(first, CHOOSE, {"selector": "#model", "value": "KNeighborsClassifier"}, what="k-NN")
    wait_for(first, CLICK, "#train", what="Train")
    wait_for(first, CLICK, "#cancel", what="Cancel")
    wait_for(first, STATUS_IS, "Training cancelled", timeout=120, what="the cancel")
    # The new worker runs the page's build (main.js compares the build each worker reports with the first's).
    assert "goes on with the version it opened with" in first.run(NOTICE)
    assert first.run("return globalThis.pellucidBoundaryBuild;") == "A"

    # No tab uses build A now: its cache goes when the next page opens.
    first.driver.close_tab(first.tab)
    second.goto(site.url)
    wait_for(second, READY, timeout=180, what="Ready in the second tab, opened again")
    wait_for(second, "return !(await caches.keys()).includes(arg);", f"pellucid-{ids['A']}", timeout=30,
             what="build A's cache to be deleted")
