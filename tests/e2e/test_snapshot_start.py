"""Python starts from the site's snapshot of Pyodide's memory (build.py, pyodide_snapshot; web/js/worker.js),
and starts the usual way, with nothing lost, when the snapshot is missing or is not one Pyodide can use."""

import gzip
import urllib.request

import pytest
from playwright.sync_api import expect

from pagekit import wait_until_ready

pytestmark = pytest.mark.e2e

HOW_PYTHON_STARTED = """async () => {
    const { store } = await import(new URL("js/store.js", location.href).href);
    return store.get().python;
}"""


def start_and_train(page, site_url):
    requested = []
    page.on("request", lambda request: requested.append(request.url.rsplit("/", 1)[-1]))
    page.goto(site_url)
    wait_until_ready(page)
    page.click("#train")
    expect(page.locator("#accuracy")).not_to_have_text("—", timeout=60_000)
    return page.evaluate(HOW_PYTHON_STARTED), requested


def test_python_starts_from_the_snapshot(page, site_url):
    started, requested = start_and_train(page, site_url)
    assert started["snapshot"] is True and "snapshot.bin.gz" in requested


def another_builds(snapshot_gz):
    """The site's snapshot as if made by another build of Pyodide: its build id (after the magic number,
    the memory's offset, the text's length and a zero) changed."""
    memory = bytearray(gzip.decompress(snapshot_gz))
    memory[16:20] = bytes(b ^ 0xFF for b in memory[16:20])
    return gzip.compress(bytes(memory))


@pytest.mark.parametrize("answer", ["missing", "not a snapshot", "not gzip", "truncated", "another build"])
def test_without_a_usable_snapshot_python_starts_as_usual(page, site_url, answer):
    with urllib.request.urlopen(site_url + "pyodide/snapshot.bin.gz") as response:
        real = response.read()
    status, body = {"missing": (404, b"not here"), "not a snapshot": (200, gzip.compress(b"\0" * 4096)),
                    "not gzip": (200, b"not even gzip"), "truncated": (200, real[: len(real) // 2]),
                    "another build": (200, another_builds(real))}[answer]
    page.context.route("**/snapshot.bin.gz", lambda route: route.fulfill(
        status=status, body=body, content_type="application/octet-stream"))
    started, _ = start_and_train(page, site_url)
    assert started["snapshot"] is False
