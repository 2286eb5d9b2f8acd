// Runs a Python file inside Pyodide under Node with k-NN's WebAssembly kernel registered as the page's
// worker registers it (web/js/worker.js), from a built site:
//   node tests/knn_kernel_run.mjs <site dir> <script.py>
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [siteDir, scriptPath] = process.argv.slice(2);
const site = path.resolve(siteDir);
const { loadPyodide } = await import(pathToFileURL(path.join(site, "pyodide", "pyodide.mjs")).href);
const { instantiateKnn, knnKernel } = await import(pathToFileURL(path.join(site, "wasm", "knn.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.join(site, "pyodide") + path.sep });
await pyodide.loadPackage("numpy", { messageCallback: () => {} });
const info = JSON.parse(fs.readFileSync(path.join(site, "build-info.json"), "utf8"));
const wheel = new Uint8Array(fs.readFileSync(path.join(site, info.wheel)));
pyodide.unpackArchive(wheel, "wheel", { extractDir: pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']") });
const kernel = await instantiateKnn(fs.readFileSync(path.join(site, "wasm", "knn.wasm")));
globalThis.pellucidKernels = { knn: knnKernel(kernel, () => pyodide._module.HEAPU8.buffer) };
try {
  pyodide.runPython(fs.readFileSync(scriptPath, "utf8"));
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
