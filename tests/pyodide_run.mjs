// Runs a Python file inside Pyodide under Node, with numpy, the pellucid wheel of a built site and the page's
// number writer:
//   node tests/pyodide_run.mjs <site dir> <script.py>
// The browser's Python is wasm32 (32-bit indices), so this catches what native 64-bit numpy lets pass.
import fs from "node:fs";
import path from "node:path";

const [siteDir, scriptPath] = process.argv.slice(2);
const { loadPyodide } = await import(path.resolve(siteDir, "pyodide", "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: path.resolve(siteDir, "pyodide") + path.sep });
await pyodide.loadPackage("numpy", { messageCallback: () => {} });
const info = JSON.parse(fs.readFileSync(path.join(siteDir, "build-info.json"), "utf8"));
const wheel = new Uint8Array(fs.readFileSync(path.join(siteDir, info.wheel)));
pyodide.unpackArchive(wheel, "wheel", { extractDir: pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']") });
// The page's number writer, registered as the page's worker registers it (web/js/worker.js).
const { numberTextKernel } = await import(path.resolve(siteDir, "js", "number-text.js"));
globalThis.pellucidKernels = { numberText: numberTextKernel(() => pyodide._module.HEAPU8.buffer) };
try {
  pyodide.runPython(fs.readFileSync(scriptPath, "utf8"));
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
