"""Driving the page as a user does, each step timed by the page's own clock from the click to "Ready" on screen."""

import pathlib

SETTLE_MS = 1000  # the page must read "Ready" this long before a step counts as finished

# Installed before the page's scripts run: the clock the steps are timed by.
READY_CLOCK = """
window.__ready = { at: 0, busyAt: 0 };
document.addEventListener("DOMContentLoaded", () => {
  const status = document.getElementById("status");
  new MutationObserver(() => {
    if (status.textContent === "Ready") window.__ready.at = performance.now();
    else window.__ready.busyAt = performance.now();
  }).observe(status, { childList: true, characterData: true, subtree: true, attributes: true });
});
"""


def since_click(page, clicked_at):
    """Seconds from `clicked_at` (performance.now(), ms) to the last "Ready" once it has held SETTLE_MS."""
    page.wait_for_function(
        """([t, settle]) => window.__ready.at > t && window.__ready.at >= window.__ready.busyAt
                            && performance.now() - window.__ready.at > settle""",
        arg=[clicked_at, SETTLE_MS], timeout=900_000, polling=100)
    return (page.evaluate("() => window.__ready.at") - clicked_at) / 1000


def click_and_time(page, selector):
    clicked_at = page.evaluate("() => performance.now()")
    page.click(selector)
    return since_click(page, clicked_at)


def time_download(page, selector):
    """(seconds from the click to the download, its size in bytes, its path)."""
    clicked_at = page.evaluate("() => performance.now()")
    with page.expect_download(timeout=900_000) as info:
        page.click(selector)
    seconds = (page.evaluate("() => performance.now()") - clicked_at) / 1000
    path = pathlib.Path(info.value.path())
    return seconds, path.stat().st_size, path


def time_model_import(page, path):
    """Seconds from choosing a model file in the page's "Import model" to the imported model on screen."""
    chosen_at = page.evaluate("() => performance.now()")
    page.set_input_files("#import-model", str(path))
    return since_click(page, chosen_at)


def worker_call(page, cmd, args):
    """A bridge command through the page's own worker client: (seconds for the round trip, result)."""
    return page.evaluate(
        """async ([cmd, args]) => {
            const { python } = await import(new URL("js/python.js", location.href).href);
            const t = performance.now();
            const result = await python.call(cmd, args);
            return [(performance.now() - t) / 1000, result];
        }""", [cmd, args])


def boundary_predicted_and_drawn(page, args):
    """(seconds for the worker's boundary reply, seconds to draw it with the page's renderer)."""
    return page.evaluate(
        """async (args) => {
            const { python } = await import(new URL("js/python.js", location.href).href);
            const { drawBoundary } = await import(new URL("js/render/boundary.js", location.href).href);
            const started = performance.now();
            const grid = await python.call("boundary", args);
            const replied = performance.now();
            const canvas = document.createElement("canvas");
            document.body.append(canvas);
            drawBoundary(canvas, grid, { width: 620, height: 420 });
            const drawn = performance.now();
            canvas.remove();
            return [(replied - started) / 1000, (drawn - replied) / 1000];
        }""", args)


def model_menu(page):
    return worker_call(page, "models", {})[1]


def open_page(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    context.add_init_script(READY_CLOCK)
    page = context.new_page()
    page.set_default_timeout(900_000)
    page.goto(url)
    page.wait_for_function("() => document.getElementById('status').textContent === 'Ready'", timeout=300_000)
    return context, page


def upload(page, csv_path):
    clicked_at = page.evaluate("() => performance.now()")
    page.set_input_files("#csv-file", str(csv_path))
    return since_click(page, clicked_at)


def best(values):
    values = [v for v in values if v is not None]
    return min(values) if values else None
