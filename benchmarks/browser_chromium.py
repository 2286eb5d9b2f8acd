"""Chromium for the browser benchmarks: offline but for the local server, watched, its contexts alike."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
for folder in (ROOT, ROOT / "tests"):  # the e2e tests' Chromium flags, and the helpers their module imports
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from tests.e2e.conftest import CHROMIUM_FLAGS  # noqa: E402

# Notes when #status first reads "Ready" (performance.now(): ms since navigation started), and when it
# first read each text before (the phases of the start: "Loading Python…", "Loading pellucid…", ...).
READY_OBSERVER = """(() => {
  window.__phases = {};
  document.addEventListener("DOMContentLoaded", () => {
    const el = document.getElementById("status");
    if (!el) return;
    const check = () => {
      const text = el.textContent.trim();
      if (window.__readyAt === undefined && !(text in window.__phases)) window.__phases[text] = performance.now();
      if (window.__readyAt === undefined && text === "Ready") window.__readyAt = performance.now();
    };
    check();
    new MutationObserver(check).observe(el, { childList: true, characterData: true, subtree: true });
  });
})();
"""

# Every host name but the local server's fails to resolve, so nothing leaves the machine. (Not by
# Playwright's request routing: routing turns the HTTP cache off, and a file asked for twice, such as
# numpy's wheel, fetched early by the worker and again by Pyodide's loadPackage, would download twice.)
OFFLINE_FLAGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


class Guard:
    """Remembers every request that leaves the local server (OFFLINE_FLAGS makes them fail); collects
    page errors."""

    def __init__(self, origin):
        self.origin, self.foreign, self.errors = origin, [], []

    def attach(self, context):
        context.on("request", self.on_request)

    def on_request(self, request):
        url = request.url
        if not url.startswith(self.origin) and not url.startswith(("data:", "blob:")):
            self.foreign.append(url)

    def watch(self, page, echo=False):
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        if echo:
            page.on("console", lambda m: m.text.startswith("bench: ") and print("  " + m.text[7:], flush=True))


VIEWPORT = {"width": 1280, "height": 800}


def _prepared(context, guard):
    guard.attach(context)
    context.add_init_script(READY_OBSERVER)
    return context


def new_context(browser, guard, service_workers="allow"):
    return _prepared(browser.new_context(viewport=VIEWPORT, service_workers=service_workers), guard)


def first_visit_context(playwright, chromium, guard, profile):
    """A browser with an empty profile of its own, as on a first visit: its HTTP cache is on disk, as a
    browser's normally is. (A new_context is a private window's, whose cache is in memory and small: a
    page that asked for Pyodide's 10 MB WebAssembly twice downloaded it twice in every such load, and in
    1 of 4 first visits.) Closing the context closes that browser."""
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=chromium, args=CHROMIUM_FLAGS + OFFLINE_FLAGS, viewport=VIEWPORT,
        service_workers="block")
    return _prepared(context, guard)
