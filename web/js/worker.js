// The Python side of the page: Pyodide in a module Web Worker. It loads Python, numpy and pellucid,
// then answers one request at a time: {id, cmd, args} -> {id, ok, result | error} (bulk numbers in the
// result as typed arrays), where error is
// {code, type, message, traceback?} and code is "data_error", "not_loaded", "crashed" or "internal"
// (docs/bridge.md). Unsolicited messages are tagged {event: ...} so they are never mistaken for replies.
// Only Pyodide's loader is imported before the worker runs: the start's other modules (the k-NN kernel,
// the bundle reader) are imported once Pyodide's runtime is on its way, so they never hold up its request.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const siteRoot = new URL("../", import.meta.url);
let pyodide = null;
let bridge = null;
let uploadCount = 0;
let onDemandPackages = [];
let workbookWheels = [];

function emit(event, fields) {
  self.postMessage({ event, ...fields });
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load ${url.pathname} (HTTP ${response.status}).`);
  return response.arrayBuffer();
}

// The bytes of a gzip-compressed file, inflated by the browser as they arrive.
async function fetchInflated(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not load ${url.pathname} (HTTP ${response.status}).`);
  return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}

// A Pyodide memory snapshot laid out as Pyodide writes one: its magic number, where the memory starts,
// and whole 64 KiB pages of memory from there. Pyodide checks the rest (that it is of this very build) and
// fails; given something else, its start would hang instead.
const SNAPSHOT_MAGIC = 0x706e7300;
const WASM_PAGE = 65536;

function checkedSnapshot(buffer) {
  const [magic, memoryAt] = new Uint32Array(buffer, 0, Math.min(2, buffer.byteLength >> 2));
  if (magic !== SNAPSHOT_MAGIC || !(memoryAt < buffer.byteLength) || (buffer.byteLength - memoryAt) % WASM_PAGE) {
    throw new Error("This is not a snapshot of Pyodide's memory.");
  }
  return buffer;
}

async function boot() {
  const started = performance.now();
  emit("status", { state: "loading", text: "Loading Python…" });
  // Everything loads side by side: Python's runtime starts at once, and while it starts the build's
  // description, pellucid's files and the start packages' wheels (numpy) are fetched, so loading numpy
  // after the runtime finds its wheel already downloaded.
  // The runtime starts from a snapshot of its memory just started (build.py, pyodide_snapshot), which
  // skips the interpreter's own start (about a second of CPU); without one, or if it cannot be used, as
  // usual. (Pyodide asks for its WebAssembly once the snapshot is in; asking for it sooner, beside the
  // snapshot, was measured and made no difference, on this machine or over a 50 Mbit/s link.)
  const indexURL = new URL("pyodide/", siteRoot).href;
  let fromSnapshot = true;
  const snapshot = fetchInflated(new URL("pyodide/snapshot.bin.gz", siteRoot)).then(checkedSnapshot);
  snapshot.catch(() => {});  // a missing snapshot is no error: loadPyodide below says so, and Python starts as usual
  const runtime = loadPyodide({ indexURL, _loadSnapshot: snapshot }).catch(() => {
    fromSnapshot = false;
    return loadPyodide({ indexURL });
  });
  // k-NN's WebAssembly kernel (web/wasm/knn.wat) compiles alongside and is registered for Python when
  // ready, never holding up "Ready"; until then, or if it cannot load, numpy does its work.
  const knn = import("../wasm/knn.mjs").then(async ({ instantiateKnn, knnKernel }) => {
    const kernel = await instantiateKnn(await fetch(new URL("wasm/knn.wasm", siteRoot)));
    return (pythonMemory) => knnKernel(kernel, pythonMemory);
  }).catch(() => null);
  const bundleReader = import("./bundle.js");
  const info = await (await fetch(new URL("build-info.json", siteRoot), { cache: "no-cache" })).json();
  onDemandPackages = info.on_demand_packages || [];
  workbookWheels = info.workbook_wheels || [];
  // pellucid's files, one archive (build.py, wheel_as_bundle); its hash in the URL means a new build is
  // never served from a stale cache.
  const bundle = fetchBytes(new URL(`${info.bundle}?v=${info.bundle_sha256.slice(0, 16)}`, siteRoot));
  const bundleFiles = Promise.all([bundle, bundleReader])  // inflated while the runtime starts
    .then(([bytes, { readBundle }]) => readBundle(bytes)).catch(() => null);
  const prefetched = (info.package_files || []).map((file) =>
    fetch(new URL(`pyodide/${file}`, siteRoot)).then((r) => r.arrayBuffer()).catch(() => null));
  pyodide = await runtime;
  // Python's random module was seeded when the snapshot was made: seeded again, so no two visits share it.
  if (fromSnapshot) pyodide.runPython("import random; random.seed()");
  const numberText = import("./number-text.js");  // asked for once the runtime is in: nothing waits on it
  const pythonMemory = () => pyodide._module.HEAPU8.buffer;
  globalThis.pellucidKernels = {};
  knn.then((kernelFor) => {
    if (kernelFor) globalThis.pellucidKernels.knn = kernelFor(pythonMemory);
  });
  // Writing many numbers as text (exported CSVs): the browser's number-to-text, laid out as Python's repr.
  numberText.then(({ numberTextKernel }) => {
    globalThis.pellucidKernels.numberText = numberTextKernel(pythonMemory);
  }).catch(() => {});
  await Promise.all(prefetched);
  const numpy = pyodide.loadPackage(info.packages, { messageCallback: () => {} });
  // pellucid's files (sources and compiled bytecode) are written in while numpy's libraries compile;
  // Pyodide unpacks the archive only if this browser could not read it (bundle.js).
  // site-packages from sys.path: asking sysconfig would import it only for this (tens of ms at start).
  const sitePackages = pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('/site-packages'))");
  const files = await bundleFiles;
  if (files) (await bundleReader).writeFiles(pyodide.FS, sitePackages, files);
  else pyodide.unpackArchive(await bundle, "gztar", { extractDir: sitePackages });
  // Long commands (parsing a big CSV, training) report how far they have got through this module.
  pyodide.registerJsModule("pellucid_host", {
    // `detail`, when given, is JSON text: what else the step reports (a network's epoch and loss)
    progress: (fraction, label, detail) => emit("progress", { fraction, label, detail: detail ? JSON.parse(detail) : null }),
  });
  await numpy;
  emit("status", { state: "loading", text: "Loading pellucid…" });
  bridge = pyodide.pyimport("pellucid.bridge");
  const seconds = (performance.now() - started) / 1000;
  emit("status", { state: "ready", text: "Ready", seconds, version: info.version, build: info.build,
    snapshot: fromSnapshot });
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

function forgetFiles(args, withPaths) {
  for (const [key, value] of Object.entries(args || {})) {
    if (value instanceof ArrayBuffer) pyodide.FS.unlink(withPaths[key]);
  }
}

// Arguments and replies cross as JSON text: plain data both ways, None arrives as null (not undefined),
// and no Python object is left behind as a proxy. A reply's bulk numbers (predictions for every row, the
// boundary grid) come apart from the text as numpy arrays (pellucid/host/wire.py): each is copied
// out of Python's memory once and its marker in the text revived as that typed array, or, for text
// labels sent as codes, as the array of labels; a long text (an exported file) stays its UTF-8 bytes, a
// Uint8Array the page saves as it is. Returns [reply, the ArrayBuffers to transfer].
function callBridge(cmd, args) {
  const withPaths = filesToPaths(args);
  let answer;
  try {
    answer = bridge.handle_binary(cmd, JSON.stringify(withPaths));
  } finally {
    forgetFiles(args, withPaths);  // every command reads its file whole: its bytes need not stay in memory
  }
  const arrays = [];
  try {
    const bulk = answer.get(1);
    for (let i = 0; i < bulk.length; i++) {
      const array = bulk.get(i);
      const view = array.getBuffer();
      arrays.push(view.data.slice());  // a copy that owns its memory, free to transfer
      view.release();
      array.destroy();
    }
    bulk.destroy();
    return [JSON.parse(answer.get(0), (key, value) => revive(value, arrays)), arrays.map((a) => a.buffer)];
  } finally {
    answer.destroy();
  }
}

function revive(value, arrays) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "__bulk__") return arrays[value.__bulk__];
  if (keys.length === 1 && keys[0] === "__utf8__") return arrays[value.__utf8__];  // a long text's bytes
  if (keys.length === 2 && "__labels__" in value && "__codes__" in value) {
    return Array.from(value.__codes__, (code) => value.__labels__[code]);
  }
  return value;
}

// The packages shipped but never loaded at start (scikit-learn): loaded the first time a command needs
// them, with their download size in the status line. Resolves to the seconds it took (0: already loaded).
async function loadOnDemand() {
  const lock = await (await fetch(new URL("pyodide/pyodide-lock.json", siteRoot))).json();
  const needed = new Set();
  const visit = (name) => {
    if (needed.has(name) || name in pyodide.loadedPackages) return;
    needed.add(name);
    for (const dep of lock.packages[name].depends) visit(dep);
  };
  onDemandPackages.forEach(visit);
  if (!needed.size) return 0;
  const sizes = await Promise.all([...needed].map(async (name) => {
    const url = new URL(`pyodide/${lock.packages[name].file_name}`, siteRoot);
    const head = await fetch(url, { method: "HEAD" }).catch(() => null);  // offline: size unknown
    return Number(head?.headers.get("content-length")) || 0;
  }));
  const mb = Math.round(sizes.reduce((a, b) => a + b, 0) / 1e6);
  const started = performance.now();
  emit("progress", { fraction: 0, label: `Loading scikit-learn (${mb ? `about ${mb} MB, ` : ""}once)…` });
  await pyodide.loadPackage([...needed], { messageCallback: () => {} });
  // Importing is part of loading (it takes seconds the first time); a failure shows in the command's reply.
  bridge.import_sklearn();
  emit("progress", { fraction: 1, label: "Comparing with scikit-learn…" });
  return (performance.now() - started) / 1000;
}

// The Excel reader (openpyxl and its dependency, pure-Python wheels from PyPI the build ships beside
// Pyodide's: site_build/vendor.py), loaded the first time a workbook is opened. Pyodide's lock does not
// list them, so they are loaded by their URLs, the dependency first.
let workbookReader = null;
function loadWorkbookReader() {
  workbookReader ??= (async () => {
    const started = performance.now();
    emit("progress", { fraction: 0, label: "Loading the Excel reader (once)…" });
    for (const wheel of workbookWheels) {
      await pyodide.loadPackage(new URL(wheel, siteRoot).href, { messageCallback: () => {} });
    }
    return (performance.now() - started) / 1000;
  })();
  workbookReader.catch(() => { workbookReader = null; });  // a failed load is tried again next time
  return workbookReader;
}

// A command answers with code "not_loaded" until the on-demand package it names is in: load it, then ask
// again (inside the same queued request, so Python still runs one call at a time).
async function callWithPackages(cmd, args) {
  const answer = callBridge(cmd, args);
  if (answer[0].ok || answer[0].error.code !== "not_loaded") return answer;
  const seconds = await (answer[0].error.package === "openpyxl" ? loadWorkbookReader() : loadOnDemand());
  const again = callBridge(cmd, args);
  if (again[0].ok) again[0].result.load_seconds = seconds;
  return again;
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
      const [reply, transfer] = await callWithPackages(cmd, args);
      self.postMessage({ id, ...reply }, transfer);  // the typed arrays move to the page, not copied
    } catch (error) {
      // After a fatal error (out of memory, say) this Python cannot be used again: say so ("crashed"),
      // so the page replaces the worker instead of sending more work to it. Anything else that fails
      // here (Python that could not start, say) is "internal".
      const crashed = error.pyodide_fatal_error || error instanceof RangeError;
      const [code, type] = crashed ? ["crashed", "WorkerCrashed"] : ["internal", "WorkerError"];
      self.postMessage({ id, ok: false, error: { code, type, message: String(error.message || error) } });
    }
  });
};
