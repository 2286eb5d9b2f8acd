// Export and share: predictions (CSV), the model (JSON), the current view (PNG), a Python script, the
// same run as a scikit-learn script, and importing a model file. Files are made in the page and saved
// with a download link.

import { downloadText as saveText, downloadCanvas } from "./render/exporting.js";

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

// Reads a model file; refuses anything that is not a JSON object before Python sees it.
export async function readModelFile(file) {
  if (file.size > 20 * 1024 * 1024) throw new Error(`${file.name} is larger than 20 MB; a model file is much smaller.`);
  const text = await file.text();
  try {
    const value = JSON.parse(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
  } catch {
    throw new Error(`${file.name} is not a Pellucid model file (it is not a JSON object). Nothing was changed.`);
  }
  return text;
}
