// The Python side of the page: Pyodide in a module Web Worker. It loads Python, numpy and pellucid,
// then answers one request at a time: {id, cmd, args} -> {id, ok, result | error}. Unsolicited
// messages are tagged {event: ...} so they are never mistaken for replies.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const siteRoot = new URL("../", import.meta.url);
let pyodide = null;
let bridge = null;
let uploadCount = 0;

function emit(event, fields) {
  self.postMessage({ event, ...fields });
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load ${url.pathname} (HTTP ${response.status}).`);
  return response.arrayBuffer();
}

async function boot() {
  const started = performance.now();
  emit("status", { state: "loading", text: "Loading Python…" });
  const info = await (await fetch(new URL("build-info.json", siteRoot), { cache: "no-cache" })).json();
  // The wheel's hash in its URL means a new build is never served from a stale cache.
  const wheelUrl = new URL(`${info.wheel}?v=${info.wheel_sha256.slice(0, 16)}`, siteRoot);
  const wheel = fetchBytes(wheelUrl);
  pyodide = await loadPyodide({ indexURL: new URL("pyodide/", siteRoot).href, packages: info.packages });
  // Long commands (parsing a big CSV, training) report how far they have got through this module.
  pyodide.registerJsModule("pellucid_host", {
    progress: (fraction, label) => emit("progress", { fraction, label }),
  });
  emit("status", { state: "loading", text: "Loading pellucid…" });
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
  bridge = pyodide.pyimport("pellucid.bridge");
  const seconds = (performance.now() - started) / 1000;
  emit("status", { state: "ready", text: "Ready", seconds, version: info.version });
}

// Byte buffers in args are written to the worker's file system and replaced by their path, so large
// files cross into Python without being copied through a proxy.
function filesToPaths(args) {
  const out = {};
  for (const [key, value] of Object.entries(args || {})) {
    if (value instanceof ArrayBuffer) {
      const path = `/tmp/upload-${++uploadCount}`;
      pyodide.FS.writeFile(path, new Uint8Array(value));
      out[key] = path;
    } else {
      out[key] = value;
    }
  }
  return out;
}

// Arguments and replies cross as JSON text: plain data both ways, None arrives as null (not undefined),
// and no Python object is left behind as a proxy.
function callBridge(cmd, args) {
  return JSON.parse(bridge.handle_json(cmd, JSON.stringify(filesToPaths(args))));
}

// Resolves to null once Python is ready, or to the error that stopped it (shown in the status line).
const booted = boot().then(
  () => null,
  (error) => {
    emit("status", { state: "error", text: `Python could not start: ${error.message}` });
    return error;
  },
);

// Requests are answered strictly in order: one Python call at a time.
let queue = Promise.resolve();
self.onmessage = (message) => {
  const { id, cmd, args } = message.data;
  queue = queue.then(async () => {
    try {
      const bootError = await booted;
      if (bootError) throw bootError;
      const reply = callBridge(cmd, args);
      self.postMessage({ id, ...reply });
    } catch (error) {
      // After a fatal error (out of memory, say) this Python cannot be used again: say so, so the page
      // replaces the worker instead of sending more work to it.
      const type = error.pyodide_fatal_error || error instanceof RangeError ? "WorkerCrashed" : "WorkerError";
      self.postMessage({ id, ok: false, error: { type, message: String(error.message || error) } });
    }
  });
};
