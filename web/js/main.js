// Wiring: connects the controls to the Python worker and the results to the renderers.
// The page owns the user's data and settings; the worker only computes.
import { PyClient } from "./pyclient.js";
import { renderParams, readParams } from "./params-form.js";
import { renderPreview } from "./preview.js";
import { drawTree, treeAsList } from "./render/tree-draw.js";

const $ = (id) => document.getElementById(id);
const page = {
  status: $("status"), file: $("csv-file"), example: $("example-restaurant"), summary: $("data-summary"),
  target: $("target"), model: $("model"), params: $("params"), train: $("train"), message: $("message"),
  accuracy: $("accuracy"), accuracyLabel: $("accuracy-label"), accuracyNote: $("accuracy-note"),
  empty: $("empty-state"), treeScroll: $("tree-scroll"), canvas: $("tree-canvas"),
  treeTextBox: $("tree-text-box"), treeText: $("tree-text"), previewBox: $("preview-box"), preview: $("preview"),
};

const state = { ready: false, busy: false, data: null, models: [] };

const python = new PyClient(new URL("./worker.js", import.meta.url), { onStatus: showStatus });

function showStatus({ state: phase, text, seconds }) {
  page.status.dataset.state = phase;
  page.status.textContent = text;
  if (phase === "ready") {
    page.status.title = `Python, numpy and pellucid loaded in ${seconds.toFixed(1)} s`;
    state.ready = true;
    loadModelMenu();
  }
  updateButtons();
}

function updateButtons() {
  page.train.disabled = !(state.ready && state.data && page.target.value) || state.busy;
  page.file.disabled = state.busy;
  page.example.disabled = !state.ready || state.busy;
}

function showMessage(text) {
  page.message.textContent = text;
  page.message.hidden = !text;
}

async function busy(label, work) {
  state.busy = true;
  const previous = { state: page.status.dataset.state, text: page.status.textContent };
  page.status.dataset.state = "busy";
  page.status.textContent = label;
  updateButtons();
  try {
    return await work();
  } catch (error) {
    showMessage(error.message);
    return null;
  } finally {
    state.busy = false;
    page.status.dataset.state = previous.state;
    page.status.textContent = previous.text;
    updateButtons();
  }
}

async function loadModelMenu() {
  state.models = await python.call("models");
  const chosen = state.models.find((m) => m.name === page.model.value) || state.models[0];
  page.model.replaceChildren(...state.models.map((m) => new Option(m.label, m.name)));
  page.model.value = chosen.name;
  renderParams(page.params, chosen.params);
}

function showData(data) {
  state.data = data;
  showMessage("");
  page.summary.hidden = false;
  page.summary.textContent = `${data.name}: ${data.n_rows} rows × ${data.columns.length} columns`;
  const previous = page.target.value;
  page.target.replaceChildren(...data.columns.map((c) => new Option(c, c)));
  page.target.value = data.columns.includes(previous) ? previous : data.columns[data.columns.length - 1];
  page.target.disabled = false;
  renderPreview(page.preview, data);
  page.previewBox.hidden = false;
}

async function loadFile(file) {
  const bytes = await file.arrayBuffer();
  const data = await busy(`Reading ${file.name}…`, () => python.call("load_csv", { path: bytes, name: file.name }, [bytes]));
  if (data) showData(data);
}

async function loadExample(name) {
  const data = await busy("Loading the example…", () => python.call("load_example", { name }));
  if (data) showData(data);
}

async function train() {
  showMessage("");
  const args = {
    table_id: state.data.table_id, target: page.target.value, features: null,
    model: page.model.value, params: readParams(page.params),
  };
  const result = await busy("Training…", () => python.call("fit", args));
  if (result) showResult(result);
}

function showResult(result) {
  page.accuracyLabel.textContent = result.score_name;
  page.accuracy.textContent = `${(result.train_score * 100).toFixed(1)}%`;
  page.accuracyNote.textContent = `on the ${result.n_train} training rows`;
  const model = result.model;
  if (model.tree) {
    page.empty.hidden = true;
    page.treeScroll.hidden = false;
    drawTree(page.canvas, model.tree, (model.classes || []).map(String));
    page.treeText.replaceChildren(treeAsList(model.tree));
    page.treeTextBox.hidden = false;
  }
}

page.file.addEventListener("change", () => {
  const file = page.file.files[0];
  if (file) loadFile(file);
});
page.example.addEventListener("click", () => loadExample("restaurant"));
page.target.addEventListener("change", updateButtons);
page.model.addEventListener("change", () => {
  const chosen = state.models.find((m) => m.name === page.model.value);
  if (chosen) renderParams(page.params, chosen.params);
});
page.train.addEventListener("click", train);
updateButtons();
