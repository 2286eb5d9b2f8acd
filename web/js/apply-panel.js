// Apply to new data: choose the model shown (trained or imported) or one imported here, choose a CSV of new
// rows, and see the model's predictions for them (the first rows as a table) and download them all as CSV
// (the file's columns, then the prediction and P(class), the cluster, or the components). Python matches
// the columns by name and reads them with the model's own preprocessing (bridge `apply_model`); the data
// loaded above is never touched.
import { byId, option, setDisabled, simpleTable, formatValue } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run, showMessage } from "./work.js";
import { fileProblem } from "./drop-zone.js";
import { downloadText, readModelFile } from "./export-panel.js";

const els = {
  model: byId("apply-model"), importButton: byId("apply-import"), modelFile: byId("apply-model-file"),
  choose: byId("apply-choose"), file: byId("apply-file"), empty: byId("apply-empty"),
  result: byId("apply-result"), caption: byId("apply-caption"), preview: byId("apply-preview"),
  download: byId("apply-download"),
};

// Models imported in this panel live in the worker's session (store: applyModels), which lets them go
// with the table they were imported beside: a new table or a restarted worker starts afresh.
function forgetImported({ table, applyModels }) {
  const tableId = table?.table_id ?? null;
  if (applyModels.table_id !== tableId) store.set({ applyModels: { table_id: tableId, models: [] } });
}

// The choices: the model shown in the results, then the ones imported here (newest first).
function choices({ result, applyModels }) {
  const shown = result?.model_id ? [{ model_id: result.model_id, text: `The model shown: ${result.label}` }] : [];
  return [...shown, ...applyModels.models.map((m) => ({ model_id: m.model_id, text: `${m.label} (imported from ${m.file})` }))];
}

function drawChoices(state) {
  const list = choices(state);
  const before = els.model.value;
  els.model.replaceChildren(...list.map((c) => option(c.model_id, c.text, c.model_id === before)));
  els.empty.hidden = list.length > 0;
  enable(state);
}

function enable({ ready, busy, applied }) {
  const idle = ready && !busy;
  setDisabled(els.importButton, !idle);
  setDisabled(els.choose, !idle || !els.model.value);
  setDisabled(els.download, !idle || !applied);
}

async function importHere() {
  const file = els.modelFile.files[0];
  els.modelFile.value = "";
  if (!file) return;
  showMessage("");
  const reply = await run("Reading the model…", async () => {
    const bytes = await readModelFile(file);
    return python.call("import_model", { path: bytes, shown: false }, [bytes]);  // written to a file for Python
  }, { where: { panel: "apply" } });
  if (!reply) return;
  const { applyModels } = store.get();
  store.set({ applyModels: { ...applyModels, models: [{ model_id: reply.model_id, label: reply.label, file: file.name }, ...applyModels.models] } });
  els.model.value = reply.model_id;
  enable(store.get());
}

async function applyTo() {
  const file = els.file.files[0];
  els.file.value = "";
  if (!file) return;
  clearApplied();  // the previous file's rows never stand under this file's name, or under its error
  const { shared } = store.get();
  const problem = fileProblem(file, shared.limits);
  if (problem) return showMessage(problem);
  showMessage("");
  const modelId = els.model.value;
  const label = els.model.selectedOptions[0]?.textContent || "the model";
  const reply = await run("Applying the model…", async () => {
    const bytes = await file.arrayBuffer();
    const args = { model_id: modelId, path: bytes, name: file.name, max_bytes: shared.limits.max_bytes, max_rows: shared.limits.max_rows };
    return python.call("apply_model", args, [bytes]);  // the bytes move to the worker, which writes them to a file
  }, { cancellable: true });
  if (!reply) return;
  store.set({ applied: reply });
  showApplied(reply, file.name, label);
}

function clearApplied() {
  store.set({ applied: null });
  els.result.hidden = true;
  els.caption.textContent = "";
  els.preview.replaceChildren();
}

function showApplied(reply, fileName, label) {
  const rows = reply.n_rows.toLocaleString("en-US");
  const parts = [`${label}, applied to ${fileName}: ${reply.n_predicted.toLocaleString("en-US")} of ${rows} rows predicted.`];
  parts.push(`The first ${Math.min(reply.preview.length, reply.n_rows)} are shown; the download has them all.`);
  if (reply.ignored.length) parts.push(`Not used by the model: ${reply.ignored.join(", ")}.`);
  els.caption.textContent = [...parts, ...reply.notes].join(" ");
  const outputs = new Set(reply.outputs);
  const body = reply.preview.map((row) => row.map((value, i) => (outputs.has(reply.columns[i]) && typeof value === "number" ? formatValue(value) : value)));
  const table = simpleTable(reply.columns, body, { caption: `Predictions for the first rows of ${fileName}` });
  els.preview.replaceWith(table);
  table.id = "apply-preview";
  els.preview = table;
  els.result.hidden = false;
}

export function mountApplyPanel() {
  store.subscribe(["table"], forgetImported);
  store.subscribe(["result", "table", "applyModels"], drawChoices);
  store.subscribe(["ready", "busy", "applied"], enable);
  els.model.addEventListener("change", () => enable(store.get()));
  els.importButton.addEventListener("click", () => els.modelFile.click());
  els.modelFile.addEventListener("change", importHere);
  els.choose.addEventListener("click", () => els.file.click());
  els.file.addEventListener("change", applyTo);
  els.download.addEventListener("click", () => {
    const { applied } = store.get();
    if (applied) downloadText(applied.filename, applied.csv, "text/csv");
  });
  forgetImported(store.get());
  drawChoices(store.get());
}
