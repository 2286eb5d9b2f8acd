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
  modelSummaryBox: $("summary-box"), modelSummary: $("model-summary"), treeTextBox: $("tree-text-box"),
  treeText: $("tree-text"), previewBox: $("preview-box"), preview: $("preview"),
};

const state = { ready: false, busy: false, data: null, models: [] };
page.noTarget = new Option("none", "");

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
  const chosen = chosenModel();
  const needsTarget = !chosen || chosen.task === "classifier" || chosen.task === "regressor";
  page.train.disabled = !(state.ready && state.data && (page.target.value || !needsTarget)) || state.busy;
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
  const groups = new Map();
  for (const m of state.models) {
    if (!groups.has(m.group)) {
      const group = document.createElement("optgroup");
      group.label = m.group;
      groups.set(m.group, group);
    }
    groups.get(m.group).append(new Option(m.label, m.name));
  }
  page.model.replaceChildren(...groups.values());
  page.model.value = chosen.name;
  showModelControls();
}

function chosenModel() {
  return state.models.find((m) => m.name === page.model.value);
}

// Clustering and PCA learn from the features alone: the target select then offers "none".
function showModelControls() {
  const chosen = chosenModel();
  if (!chosen) return;
  renderParams(page.params, chosen.params);
  const supervised = chosen.task === "classifier" || chosen.task === "regressor";
  page.noTarget.disabled = supervised;
  if (supervised && page.target.value === "") page.target.value = defaultTarget();
  updateButtons();
}

function defaultTarget() {
  const columns = state.data ? state.data.columns : [];
  return columns.length ? columns[columns.length - 1] : "";
}

function showData(data) {
  state.data = data;
  showMessage("");
  page.summary.hidden = false;
  page.summary.textContent = `${data.name}: ${data.n_rows} rows × ${data.columns.length} columns`;
  const previous = page.target.value;
  page.noTarget = new Option("none (clustering, PCA)", "");
  page.target.replaceChildren(...data.columns.map((c) => new Option(c, c)), page.noTarget);
  page.target.value = data.columns.includes(previous) ? previous : defaultTarget();
  showModelControls();
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
    table_id: state.data.table_id, target: page.target.value || null, features: null,
    model: page.model.value, params: readParams(page.params),
  };
  const result = await busy("Training…", () => python.call("fit", args));
  if (result) showResult(result);
}

function renderSummary(rows) {
  const body = document.createElement("tbody");
  for (const [label, value] of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    const td = document.createElement("td");
    td.textContent = value;
    tr.append(th, td);
    body.append(tr);
  }
  page.modelSummary.replaceChildren(body);
  page.modelSummaryBox.hidden = rows.length === 0;
}

function formatScore(value, format) {
  return format === "percent" ? `${(value * 100).toFixed(1)}%` : value.toFixed(3);
}

function showResult(result) {
  page.accuracyLabel.textContent = result.score_name;
  page.accuracy.textContent = formatScore(result.train_score, result.score_format);
  page.accuracyNote.textContent = `${result.label}, on the ${result.n_train} training rows`;
  const model = result.model;
  const hasTree = Boolean(model.tree);
  page.empty.hidden = true;
  page.treeScroll.hidden = !hasTree;
  page.treeTextBox.hidden = !hasTree;
  renderSummary(result.summary);
  if (hasTree) {
    const layout = drawTree(page.canvas, model.tree, (model.classes || []).map(String));
    // Start with the root in view: a wide tree scrolls sideways from there.
    page.treeScroll.scrollLeft = Math.max(0, layout.rootX - page.treeScroll.clientWidth / 2);
    page.treeText.replaceChildren(treeAsList(model.tree));
  }
}

page.file.addEventListener("change", () => {
  const file = page.file.files[0];
  if (file) loadFile(file);
});
page.example.addEventListener("click", () => loadExample("restaurant"));
page.target.addEventListener("change", updateButtons);
page.model.addEventListener("change", showModelControls);
page.train.addEventListener("click", train);
updateButtons();
