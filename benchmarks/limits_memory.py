"""What the worker can read: a helper page whose Pyodide reads each file with the limits lifted, and its heap."""

import json
import time


HELPER_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>limits</title></head>
<body><script type="module">
window.limits = { worker: new Worker("worker.mjs", { type: "module" }) };
window.measure = (url) => new Promise((resolve) => {
  const w = window.limits.worker;
  w.onmessage = ({ data }) => resolve(data);
  w.onerror = (e) => { e.preventDefault(); resolve({ ok: false, error: `worker died: ${e.message}` }); };
  w.postMessage({ url });
});
window.restart = () => {
  window.limits.worker.terminate();
  window.limits.worker = new Worker("worker.mjs", { type: "module" });
};
</script></body></html>
"""

HELPER_WORKER = """import { loadPyodide } from "../pyodide/pyodide.mjs";
const root = new URL("../", import.meta.url);
let py = null;
async function boot() {
  const info = await (await fetch(new URL("build-info.json", root))).json();
  py = await loadPyodide({ indexURL: new URL("pyodide/", root).href, packages: info.packages });
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  const wheel = await (await fetch(new URL(info.wheel, root))).arrayBuffer();
  py.unpackArchive(wheel, "wheel", { extractDir: site });
  py.runPython("from pellucid import bridge");
}
const booted = boot();
const heap = () => py._module?.HEAPU8?.length ?? py.runPython("import pyodide_js; pyodide_js._module.HEAPU8.length");
self.onmessage = async ({ data }) => {
  try {
    await booted;
    const bytes = new Uint8Array(await (await fetch(data.url)).arrayBuffer());
    py.FS.writeFile("/tmp/limits.csv", bytes);
    const before = heap();
    const started = performance.now();
    const reply = py.runPython(`
import gc, json
from pellucid import bridge
r = bridge.handle("load_csv", {"path": "/tmp/limits.csv", "name": "limits.csv", "max_bytes": 10**10, "max_rows": 10**9})
bridge.worker_session.forget(); gc.collect()
json.dumps({"ok": r["ok"], "rows": r["result"]["n_rows"] if r["ok"] else None,
            "error": None if r["ok"] else r["error"]["message"]})`);
    const seconds = (performance.now() - started) / 1000;
    py.FS.unlink("/tmp/limits.csv");
    self.postMessage({ ...JSON.parse(reply), seconds, heap_before: before, heap_after: heap(), bytes: bytes.length });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error.message || error).slice(0, 300) });
  }
};
"""


def measure_memory(browser, base, files):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(900_000)
    page.goto(base + "limits/index.html")
    out = []
    for label, name, n_rows, size in files:
        started = time.perf_counter()
        r = page.evaluate("(url) => window.measure(url)", base + "limits/" + name)
        r.update(label=label, n_rows=n_rows, size=size, wall_s=time.perf_counter() - started)
        print(f"memory {label}: {json.dumps(r)[:300]}", flush=True)
        out.append(r)
        if not r.get("ok"):
            page.evaluate("window.restart()")
    context.close()
    return out
