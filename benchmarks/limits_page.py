"""Uploading and training through the page, timed, with the longest gap between animation frames meanwhile."""

import pathlib
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402

SUB_PATH = "pellucid"

# Runs in the page before the upload: notes when the file was chosen, when the summary changed, whether
# the progress bar was shown, and the longest gap between animation frames meanwhile.
WATCH_JS = """(rowsText) => {
  const w = window.__limits = { chosen: null, shown: null, progress: false, maxGap: 0, frames: 0, done: false };
  document.getElementById("csv-file").addEventListener("change", () => { w.chosen = performance.now(); },
                                                     { once: true, capture: true });
  const summary = document.getElementById("data-summary");
  const progress = document.getElementById("progress");
  new MutationObserver(() => { if (!progress.hidden) w.progress = true; }).observe(progress, { attributes: true });
  new MutationObserver(() => {
    if (summary.textContent.includes(rowsText) && w.shown === null) {
      w.shown = performance.now();
      w.done = true;
    }
  }).observe(summary, { childList: true, characterData: true, subtree: true });
  const alert = document.getElementById("message");
  new MutationObserver(() => {
    if (!alert.hidden && alert.textContent) { w.error = alert.textContent; w.done = true; }
  }).observe(alert, { attributes: true, childList: true, subtree: true });
  let last = performance.now();
  const tick = (now) => {
    w.maxGap = Math.max(w.maxGap, now - last); last = now; w.frames++;
    if (!w.done) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

TRAIN_WATCH_JS = """() => {
  const w = window.__train = { started: performance.now(), shown: null, progress: false, busyText: "", maxGap: 0,
                               done: false };
  const score = document.getElementById("accuracy");
  const progress = document.getElementById("progress");
  const status = document.getElementById("status");
  new MutationObserver(() => { if (!progress.hidden) w.progress = true; }).observe(progress, { attributes: true });
  new MutationObserver(() => { if (status.dataset.state === "busy") w.busyText = status.textContent; })
    .observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
  new MutationObserver(() => { if (score.textContent !== "—") { w.shown = performance.now(); w.done = true; } })
    .observe(score, { childList: true, characterData: true, subtree: true });
  let last = performance.now();
  const tick = (now) => {
    w.maxGap = Math.max(w.maxGap, now - last); last = now;
    if (!w.done) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def serve(root):
    server = build.make_server(root, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/{SUB_PATH}/"


def open_page(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(600_000)
    page.goto(url)
    page.wait_for_function("document.getElementById('status').textContent === 'Ready' && "
                           "!document.getElementById('data-summary').hidden", timeout=120_000)
    return context, page


def upload_through_page(browser, url, path, n_rows):
    context, page = open_page(browser, url)
    try:
        page.evaluate(WATCH_JS, f"{n_rows} rows")
        page.locator("#csv-file").set_input_files(str(path))
        page.wait_for_function("window.__limits.done", timeout=900_000, polling=200)
        w = page.evaluate("window.__limits")
        if w.get("error"):
            return {"error": w["error"]}
        return {"parse_s": (w["shown"] - w["chosen"]) / 1000, "progress": w["progress"],
                "max_frame_gap_ms": w["maxGap"], "frames": w["frames"]}
    finally:
        context.close()


def train_through_page(browser, url, path, n_rows):
    context, page = open_page(browser, url)
    try:
        page.locator("#csv-file").set_input_files(str(path))
        page.wait_for_function(f"document.getElementById('data-summary').textContent.includes('{n_rows} rows')",
                               timeout=600_000)
        page.wait_for_function("document.getElementById('status').textContent === 'Ready'")
        page.locator("#model").select_option("DecisionTreeClassifier")
        page.evaluate(TRAIN_WATCH_JS)
        page.locator("#train").click()
        page.wait_for_function("window.__train.done", timeout=900_000, polling=200)
        w = page.evaluate("window.__train")
        return {"train_s": (w["shown"] - w["started"]) / 1000, "progress": w["progress"],
                "status": w["busyText"], "max_frame_gap_ms": w["maxGap"]}
    finally:
        context.close()
