"""One small driver for each browser the smoke test runs in, all with the same three calls:
goto(url), run(body, arg) (an async JavaScript function body run in the page, given `arg`; its value
comes back) and close(). Chromium is driven by Playwright, Firefox ESR by puppeteer-core over WebDriver
BiDi (tests/browsers/firefox-bridge.mjs), WebKitGTK by selenium through Debian's WebKitWebDriver on a
virtual X display (Xvfb). All three browsers are Debian's packages; nothing is downloaded.
"""

import json
import os
import pathlib
import shutil
import subprocess
import time

from site_build.environments import firefox_too_old

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIREFOX_BRIDGE = ROOT / "tests" / "browsers" / "firefox-bridge.mjs"
MINIBROWSER = pathlib.Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")


class Unavailable(Exception):
    """A browser or its driver is not installed; the message says which and how to get it."""


class TooOld(Unavailable):
    """The installed browser is older than its driver needs: the tests skip it, saying so, even where
    browsers are required (the package manager gave that version; the test command tried to upgrade it)."""


class ChromiumDriver:
    """Chromium through the test session's own Playwright browser (one Playwright per process: a second
    sync_playwright() inside the first one's event loop is refused), in a fresh context of its own."""

    name = "chromium"

    def __init__(self, browser):
        self.version = f"Chromium {browser.version}"
        self._context = browser.new_context(viewport={"width": 1280, "height": 800})
        self._page = self._context.new_page()

    def goto(self, url):
        self._page.goto(url)

    def run(self, body, arg=None):
        return self._page.evaluate(f"async (arg) => {{ {body} }}", arg)

    def close(self):
        self._context.close()


class FirefoxDriver:
    name = "firefox"

    def __init__(self):
        firefox, node = shutil.which("firefox-esr"), shutil.which("node")
        if not firefox or not node or not (ROOT / "node_modules" / "puppeteer-core").exists():
            raise Unavailable("Firefox ESR needs the firefox-esr package, Node.js and `npm ci` "
                              "(python3 build.py test installs them)")
        too_old = firefox_too_old()
        if too_old:
            raise TooOld(too_old)
        self._process = subprocess.Popen([node, str(FIREFOX_BRIDGE), firefox], cwd=ROOT, text=True,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.version = self._read().replace("firefox/", "Firefox ESR ")

    def _read(self):
        while True:
            line = self._process.stdout.readline()
            if not line:
                raise RuntimeError(f"Firefox's driver ended (exit code {self._process.wait()})")
            message = json.loads(line)
            if message.get("event") == "pageerror":
                raise AssertionError(f"page error in Firefox: {message['text']}")
            if "error" in message:
                raise RuntimeError(f"in Firefox: {message['error']}")
            return message["ok"]

    def _send(self, command):
        self._process.stdin.write(json.dumps(command) + "\n")
        self._process.stdin.flush()
        return self._read()

    def goto(self, url, tab="main"):
        self._send({"goto": url, "tab": tab})

    def run(self, body, arg=None, tab="main"):
        return self._send({"run": body, "arg": arg, "tab": tab})

    def close_tab(self, tab):
        self._send({"closeTab": True, "tab": tab})

    def close(self):
        try:
            self._send({"close": True})
        finally:
            self._process.wait(timeout=30)


class WebKitDriver:
    name = "webkit"

    def __init__(self):
        if not shutil.which("WebKitWebDriver") or not MINIBROWSER.exists() or not shutil.which("Xvfb"):
            raise Unavailable("WebKitGTK needs the webkit2gtk-driver and xvfb packages "
                              "(python3 build.py test installs them)")
        from selenium import webdriver
        # WebKitGTK has no headless mode in Debian 12's MiniBrowser: it draws on a virtual X display.
        self._xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                      stdout=subprocess.PIPE, text=True)
        display = self._xvfb.stdout.readline().strip()
        self._display_before = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = f":{display}"  # read by the WebKitWebDriver selenium starts
        options = webdriver.WebKitGTKOptions()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        self._driver = webdriver.WebKitGTK(options=options)
        self._driver.set_window_size(1280, 900)
        self._driver.set_script_timeout(120)
        caps = self._driver.capabilities
        self.version = f"WebKitGTK {caps.get('browserVersion', '?')}"

    def goto(self, url):
        self._driver.get(url)

    def run(self, body, arg=None):
        reply = self._driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"(async (arg) => {{ {body} }})(arguments[0])"
            ".then((value) => done({ok: value === undefined ? null : value}), (e) => done({error: String(e)}));", arg)
        if "error" in reply:
            raise RuntimeError(f"in WebKit: {reply['error']}")
        return reply["ok"]

    def close(self):
        try:
            self._driver.quit()
        finally:
            self._xvfb.terminate()
            self._xvfb.wait(timeout=10)
            os.environ.pop("DISPLAY")
            if self._display_before is not None:
                os.environ["DISPLAY"] = self._display_before


def wait_for(driver, body, arg=None, timeout=60, what="the page"):
    """Polls `body` (a JavaScript function body returning a value) until the value is truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.run(body, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{driver.name}: waited {timeout} s for {what}")
        time.sleep(0.25)
