// Export and share: predictions (CSV), the model (JSON), the current view (PNG), a Python script, the
// same run as a scikit-learn script, and importing a model file. Files are made in the page and saved
// with a download link.

import { downloadText as saveText, downloadCanvas } from "./render/exporting.js";
import { store } from "./store.js";

export { downloadCanvas };

export function downloadText(filename, text, type = "text/plain") {
  return saveText(text, filename, type);
}

export async function exportPredictions(python, modelId) {
  const { filename, csv } = await python.call("export_predictions", { model_id: modelId });
  await downloadText(filename, csv, "text/csv");
  return filename;
}

export async function exportModel(python, modelId) {
  const { filename, json } = await python.call("export_model", { model_id: modelId });
  await downloadText(filename, json, "application/json");
  return filename;
}

export async function exportPython(python, modelId) {
  const { filename, script } = await python.call("export_python", { model_id: modelId });
  await downloadText(filename, script, "text/x-python");
  return filename;
}

// The same run as a standalone scikit-learn script; a learner without a scikit-learn twin is a data_error
// whose message says why, shown like any other.
export async function exportSklearn(python, modelId) {
  const { filename, script } = await python.call("export_sklearn", { model_id: modelId });
  await downloadText(filename, script, "text/x-python");
  return filename;
}

// A model file may hold its training rows, so it may be larger than the data it came from: up to this many
// times the upload limit (pellucid.workbench.exports.MODEL_SIZE_FACTOR, which Python checks again).
export const MODEL_SIZE_FACTOR = 4;

// Reads a model file within the limit, as bytes (they move to the worker, which writes them to a file for
// Python: a model of tens of MB is never turned into a string on the way); refuses anything that does not
// start as a JSON object before Python sees it. Python parses it (once, whatever its size) and says what
// else is wrong.
export async function readModelFile(file) {
  const limit = MODEL_SIZE_FACTOR * store.get().shared.limits.max_bytes;
  if (file.size > limit) {
    throw new Error(`${file.name} is larger than ${Math.round(limit / 2 ** 20)} MB, more than a model of data within the upload limit. Nothing was changed.`);
  }
  const bytes = await file.arrayBuffer();
  if (!startsAsObject(new Uint8Array(bytes))) {
    throw new Error(`${file.name} is not a Pellucid model file (it is not a JSON object). Nothing was changed.`);
  }
  return bytes;
}

const JSON_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

// Whether the bytes begin with "{" after a UTF-8 byte order mark and JSON's white space, if any.
function startsAsObject(bytes) {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (JSON_SPACE.has(bytes[i])) i++;
  return bytes[i] === 0x7b;
}
