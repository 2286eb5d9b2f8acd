"""Browser fixtures: build the site once, serve it under a sub-path on 127.0.0.1, drive Chromium.

Every page a test opens forwards its console to the test output, records page errors (a test fails
if any occurred) and refuses any request that does not go to the local server, recording it too.
"""

import os
import pathlib
import sys
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from prebuilt import site_folder  # noqa: E402 (tests/prebuilt.py)

SUB_PATH = "pellucid"
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


def _browser_required():
    return os.environ.get("PELLUCID_E2E") == "required"


@pytest.fixture(scope="session")
def site_url(tmp_path_factory):
    """The built site, served at http://127.0.0.1:<port>/pellucid/."""
    root = tmp_path_factory.mktemp("site")
    site = site_folder(tmp_path_factory, "built")
    (root / SUB_PATH).symlink_to(site, target_is_directory=True)
    server = build.make_server(root, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{SUB_PATH}/"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        if _browser_required():
            raise
        pytest.skip("playwright is not installed (python3 build.py test installs it)")
    chromium = build.find_chromium()
    if chromium is None:
        if _browser_required():
            pytest.fail("Chromium is not installed")
        pytest.skip("Chromium is not installed (python3 build.py test installs it)")
    # Two test workers share two cores with their browsers and Pyodide: a view that draws in a second alone
    # can take several under that load, more than expect's own 5 s.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


class PageWatch:
    """What a page did that a test must know about: errors, console lines, requests to elsewhere."""

    def __init__(self, origin):
        self.origin = origin
        self.errors = []
        self.console = []
        self.foreign_requests = []

    def on_route(self, route):
        url = route.request.url
        if url.startswith(self.origin) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.foreign_requests.append(url)
            route.abort()


def open_page(browser, site_url, width=1280, height=800):
    """A new context (empty cache and storage) and its page, with the watch attached."""
    origin = site_url.split(f"/{SUB_PATH}/")[0]
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    watch = PageWatch(origin)
    context.route("**/*", watch.on_route)
    page = context.new_page()
    page.on("console", lambda m: (watch.console.append(m.text), print(f"[console.{m.type}] {m.text}")))
    page.on("pageerror", lambda e: watch.errors.append(str(e)))
    page.watch = watch
    page.set_default_timeout(30_000)
    return context, page


def check_watch(watch):
    """Fails on any page error or request to elsewhere recorded since the last check."""
    errors, foreign = list(watch.errors), list(watch.foreign_requests)
    watch.errors.clear()
    watch.foreign_requests.clear()
    assert errors == [], f"page errors: {errors}"
    assert foreign == [], f"requests left the machine: {foreign}"


@pytest.fixture
def page(browser, site_url):
    """A fresh page (new context: empty cache and storage) with the watch attached; checked at the end."""
    context, page = open_page(browser, site_url)
    yield page
    context.close()
    check_watch(page.watch)


@pytest.fixture(scope="module")
def module_page(browser, site_url):
    """One page for all of a module's tests, so Python starts once: for modules whose tests each bring the
    page to the state they start from without a new start (they use `shared_page`)."""
    context, page = open_page(browser, site_url)
    yield page
    context.close()
    check_watch(page.watch)


@pytest.fixture
def shared_page(module_page):
    """The module's page; each test is checked for page errors and requests to elsewhere, as with `page`."""
    yield module_page
    check_watch(module_page.watch)


@pytest.fixture(scope="module")
def module_pages(browser, site_url):
    """A function (width, height) -> a page of that window size for all of a module's tests, opened and
    started (Python ready) the first time it is asked for, so Python starts once a size."""
    from pagekit import wait_until_ready

    contexts, pages = [], {}

    def page_at(width, height):
        if (width, height) not in pages:
            context, page = open_page(browser, site_url, width, height)
            contexts.append(context)
            pages[width, height] = page
            page.goto(site_url)
            wait_until_ready(page)
        return pages[width, height]
    page_at.pages = pages
    yield page_at
    for context in contexts:
        context.close()
    for page in pages.values():
        check_watch(page.watch)


@pytest.fixture
def shared_pages(module_pages):
    """The module's pages by size; each test is checked for page errors and requests to elsewhere."""
    yield module_pages
    for page in module_pages.pages.values():
        check_watch(page.watch)


@pytest.fixture
def screenshots_dir():
    path = ROOT / "test-results"
    path.mkdir(exist_ok=True)
    return path


