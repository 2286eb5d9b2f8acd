// Wiring: the one page-state object, the controls that change it and the Python worker that computes.
// The page owns the user's data and settings; the worker only computes, so a cancel loses nothing.
import { PyClient } from "./pyclient.js";
import { byId } from "./dom.js";
import { readHash, writeHash, defaults } from "./state.js";
import { attachDropZone, fileProblem } from "./drop-zone.js";
import { fillDatasets, renderGenerator, readGenerator, describeTable, renderMissing } from "./data-panel.js";
import { renderPreview } from "./preview.js";
import { fillModels, findModel, showParams, changedParams, readParams, checkParams, SUPERVISED } from "./model-panel.js";
import { readEvaluation, writeEvaluation, evaluationArgs, onEvaluationChange } from "./eval-panel.js";
import { exampleSource, fileSource, loadSource } from "./data-source.js";
import { createResults } from "./results.js";
import { registerOffline } from "./offline.js";
import { mountLearnPanel } from "./learn/panel.js";
import { saveSession, loadSession, clearSession } from "./session-store.js";

const els = {
  status: byId("status"), progress: byId("progress"), note: byId("note"), dataset: byId("dataset"),
  generator: byId("generator"), file: byId("csv-file"), summary: byId("data-summary"), missing: byId("missing-box"),
  target: byId("target"), model: byId("model"), params: byId("params"), train: byId("train"), cancel: byId("cancel"),
  message: byId("message"), preview: byId("preview"), previewBox: byId("preview-box"), dropZone: byId("drop-zone"),
  clearSession: byId("clear-session"),
};

// Everything the page knows, in one place.
const app = {
  ready: false, busy: "", cancellable: false, datasets: [], models: [],
  source: null, table: null, roles: {}, pending: null, trained: false, recovering: false, starting: false,
};

const python = new PyClient(new URL("./worker.js", import.meta.url),
  { onStatus: showStatus, onEvent: showProgress, onCrash: recover });
const results = createResults({ python, app, setBusy: run, showMessage, saveHash });

function setStatus(state, text) {
  els.status.dataset.state = state;
  els.status.textContent = text;
}

// The first time Python is ready the page still loads its menus and the opening data; "Ready" is shown
// only after that, so nothing the user (or a test) does races the opening load.
function showStatus({ state, text }) {
  if (state === "ready" && !app.ready) {
    app.ready = true;
    app.starting = true;
    setStatus("loading", "Preparing the workbench…");
    start()
      .catch((error) => showMessage(error.message))
      .finally(() => {
        app.starting = false;
        if (!app.busy) setStatus("ready", "Ready");
        updateControls();
        // Precaching for offline use downloads the whole site once more: only after the start, so it
        // never competes with it.
        registerOffline();
      });
    return;
  }
  if (!app.busy || state === "error") setStatus(state, text);
  updateControls();
}

function showProgress(event) {
  if (event.event !== "progress") return;
  els.progress.hidden = false;
  els.progress.value = Math.max(0, Math.min(1, Number(event.fraction) || 0));
  if (event.label) setStatus("busy", String(event.label));
}

function showMessage(text) {
  els.message.textContent = text || "";
  els.message.hidden = !text;
}

function showNote(text) {
  els.note.textContent = text || "";
  els.note.hidden = !text;
}

function chosenModel() {
  return findModel(app.models, els.model.value);
}

function isSupervised() {
  return SUPERVISED.includes(chosenModel()?.task);
}

function updateControls() {
  const idle = app.ready && !app.busy;
  const needsTarget = isSupervised();
  els.train.disabled = !(idle && app.table && (els.target.value || !needsTarget));
  els.cancel.hidden = !(app.busy && app.cancellable);
  for (const c of [els.file, els.dataset, els.target, els.model]) c.disabled = !idle || (c === els.target && !app.table);
  results.setEnabled(idle);
}

// Runs one piece of work with the page marked busy; errors become a message, a cancel is quiet.
async function run(label, work, { cancellable = false } = {}) {
  app.busy = label;
  app.cancellable = cancellable;
  setStatus("busy", label);
  updateControls();
  try {
    return await work();
  } catch (error) {
    if (error.name !== "Cancelled") showMessage(error.message);
    return null;
  } finally {
    app.busy = "";
    app.cancellable = false;
    els.progress.hidden = true;
    els.progress.removeAttribute("value");
    if (els.status.dataset.state === "busy") {
      if (app.starting) setStatus("loading", "Preparing the workbench…");
      else setStatus("ready", "Ready");
    }
    updateControls();
  }
}

// --- data -------------------------------------------------------------------------------------------

function chosenDataset() {
  return app.datasets.find((d) => d.name === els.dataset.value);
}

function defaultRoles(info, wanted = {}) {
  const target = info.columns.includes(wanted.target) ? wanted.target
    : wanted.target === "" && wanted.explicit ? "" : info.suggested_target || info.columns[info.columns.length - 1];
  const ignore = new Set(wanted.ignore || []);
  return Object.fromEntries(info.columns.map((c) => [c, c === target ? "target" : ignore.has(c) ? "ignore" : "feature"]));
}

function showTable(info, roles) {
  app.table = info;
  app.roles = roles;
  showMessage("");
  els.summary.hidden = false;
  els.summary.textContent = describeTable(info);
  renderMissing(els.missing, info, chooseMissing);
  const target = info.columns.find((c) => roles[c] === "target") || "";
  els.target.replaceChildren(...info.columns.map((c) => new Option(c, c)), new Option("none (clustering, PCA)", ""));
  els.target.value = target;
  renderPreview(els.preview, info, roles, { onRole: setRole, onKind: setKind });
  els.previewBox.hidden = false;
  updateControls();
  saveHash();
}

// A file chosen while the opening dataset is still loading wins: only the latest load is shown.
let latestLoad = 0;

async function loadData(source, wanted = {}) {
  const load = ++latestLoad;
  const info = await run(source.type === "file" ? `Reading ${source.name}…` : "Loading the data…",
    () => loadSource(python, source, (step) => setStatus("busy", step)), { cancellable: true });
  if (!info || load !== latestLoad) return false;
  app.source = source;
  app.trained = false;
  results.clear();
  showTable(info, defaultRoles(info, wanted));
  rememberSession();
  return true;
}

// The session kept across reloads: where the data came from (an upload's bytes included), its roles,
// and whether a model was trained (retraining with the same settings and seed gives the same model).
function rememberSession() {
  if (!app.source) return Promise.resolve();
  return saveSession({ source: app.source, roles: app.roles, trained: Boolean(app.trained) });
}

async function loadFile(file) {
  const problem = fileProblem(file);
  if (problem) return showMessage(problem);
  const bytes = await file.arrayBuffer();
  els.dataset.value = "";
  renderGenerator(els.generator, null, {});
  const loaded = await loadData(fileSource(file.name, bytes), app.pending || {});
  if (!loaded) els.dataset.value = app.source?.type === "example" ? app.source.name : "";
  app.pending = null;
}

function loadChosenDataset(wanted = {}) {
  const dataset = chosenDataset();
  if (!dataset) return Promise.resolve(false);
  const generator = readGenerator(els.generator, dataset);
  return loadData(exampleSource(dataset.name, generator), { target: dataset.target, ...wanted });
}

function setRole(column, role) {
  const roles = { ...app.roles };
  if (role === "target") for (const c of Object.keys(roles)) if (roles[c] === "target") roles[c] = "feature";
  roles[column] = role;
  showTable(app.table, roles);
}

async function setKind(column, kind) {
  const info = await run(`Reading ${column} as ${kind}…`, () => python.call("set_kind", { table_id: app.table.table_id, column, kind }));
  // Refused: the message stays and the preview's kind select goes back to the column's kind.
  if (!info) return renderPreview(els.preview, app.table, app.roles, { onRole: setRole, onKind: setKind });
  app.source.kinds[column] = kind;
  showTable(info, app.roles);
}

async function chooseMissing(strategy) {
  const info = await run("Handling missing values…", () => python.call("handle_missing", { table_id: app.table.table_id, strategy, columns: null }));
  if (!info) return;
  app.source.missing = strategy;
  showTable(info, app.roles);
}

// --- training and settings ---------------------------------------------------------------------------

function trainingArgs() {
  const model = chosenModel();
  const problems = checkParams(els.params, model?.params || []);
  if (problems.length) return { problem: `Fix the model's settings first: ${problems.join(" ")}` };
  const evaluation = evaluationArgs(readEvaluation());
  if (evaluation.problem) return { problem: evaluation.problem };
  const target = isSupervised() ? els.target.value || null : null;
  if (isSupervised() && !target) return { problem: `${model.label} learns to predict a column: choose the Target.` };
  const features = app.table.columns.filter((c) => app.roles[c] === "feature");
  if (!features.length) return { problem: "Every column is ignored or the target: set at least one column's role to feature." };
  return { table_id: app.table.table_id, target, features, model: model.name, params: readParams(els.params), evaluation };
}

async function train() {
  showMessage("");
  const args = trainingArgs();
  if (args.problem) return showMessage(args.problem);
  // The session is saved before the new model is shown, so a reload right after it sees the model.
  await results.train(args, () => {
    app.trained = true;
    return rememberSession();
  });
}

function settings() {
  const s = defaults();
  const source = app.source;
  s.dataset = source?.type === "file" ? "upload" : source?.name || els.dataset.value || s.dataset;
  if (source?.type === "example") {
    Object.assign(s, { n: source.generator.n ?? s.n, noise: source.generator.noise ?? s.noise, dataSeed: source.generator.seed ?? s.dataSeed });
  }
  if (app.table) {
    s.target = els.target.value;
    s.ignore = app.table.columns.filter((c) => app.roles[c] === "ignore");
    s.categorical = Object.entries(source?.kinds || {}).filter(([, k]) => k === "categorical").map(([c]) => c);
  }
  s.model = els.model.value || s.model;
  s.params = changedParams(els.params, chosenModel());
  Object.assign(s, readEvaluation(), results.viewSettings());
  return s;
}

function saveHash() {
  if (!app.ready || !app.models.length) return;
  history.replaceState(null, "", `${location.pathname}${location.search}${writeHash(settings())}`);
}

function chooseModel(name, params = {}) {
  fillModels(els.model, app.models, name);
  showParams(els.params, chosenModel(), params);
  updateControls();
}

// Opens the page as a link describes it: data, roles, model, parameters, evaluation; then trains.
async function start() {
  const [datasets, models] = await Promise.all([python.call("datasets"), python.call("models")]);
  app.datasets = datasets;
  app.models = models;
  const hash = location.hash;
  const { settings: s, rejected } = readHash(hash);
  const known = datasets.some((d) => d.name === s.dataset);
  if (!known && s.dataset !== "upload") rejected.push("dataset");
  if (!findModel(models, s.model)) rejected.push("model");
  if (rejected.length) showNote(`Some settings in the link were not understood and were left at their defaults: ${[...new Set(rejected)].join(", ")}.`);
  chooseModel(findModel(models, s.model) ? s.model : models[0].name, s.params);
  writeEvaluation(s);
  results.want({ view: s.view, x: s.x, y: s.y });
  fillDatasets(els.dataset, datasets, known ? s.dataset : "");
  const wanted = { target: s.target, ignore: s.ignore, explicit: hash.includes("target=") };
  const saved = await loadSession();
  if (saved && (s.dataset === "upload" || hash.length <= 1)) return restoreSession(saved, s);
  if (s.dataset === "upload") {
    app.pending = wanted;
    showNote("This link was made with an uploaded file, which stays on its owner's machine. Upload the same file to use these settings.");
    return;
  }
  const dataset = known ? s.dataset : datasets[0].name;
  els.dataset.value = dataset;
  renderGenerator(els.generator, chosenDataset(), { n: s.n, noise: s.noise, seed: s.dataSeed });
  const source = exampleSource(dataset, readGenerator(els.generator, chosenDataset()));
  for (const c of s.categorical) source.kinds[c] = "categorical";
  const loaded = await loadData(source, { ...wanted, target: hash.includes("target=") ? s.target : chosenDataset().target });
  if (loaded && hash.length > 1 && !rejected.includes("model")) await train();
}

// Reload: the saved data comes back with its roles, and the model is trained again if there was one.
async function restoreSession(saved, s) {
  if (saved.source.type === "example") els.dataset.value = saved.source.name;
  const loaded = await loadData(saved.source, {});
  if (!loaded) return;
  showTable(app.table, { ...app.roles, ...saved.roles });
  if (saved.trained && s.model) await train();
}

// A new worker with the page's data loaded back in: after a cancel, or after Python died.
async function restartAndRestore(reason, doneText) {
  python.restart();
  results.clear(reason);
  setStatus("loading", "Restarting Python…");
  if (!app.source) return;
  const info = await run("Restoring your data…", () => loadSource(python, app.source));
  if (info) showTable(info, app.roles);
  setStatus("ready", doneText);
}

function cancel() {
  return restartAndRestore("Training cancelled. Your data and settings are kept; press Train to start again.",
    "Training cancelled");
}

async function recover(detail) {
  if (app.recovering) return;
  app.recovering = true;
  try {
    showMessage(`Python stopped unexpectedly (${detail}). It has been restarted and your data and settings restored; ` +
      "if it happens again, try fewer rows or a simpler model.");
    await restartAndRestore("", "Ready");
  } finally {
    app.recovering = false;
  }
}

els.dataset.addEventListener("change", () => {
  renderGenerator(els.generator, chosenDataset(), {});
  loadChosenDataset();
});
els.generator.addEventListener("change", () => loadChosenDataset({ target: els.target.value, ignore: settings().ignore }));
els.file.addEventListener("change", () => els.file.files[0] && loadFile(els.file.files[0]));
attachDropZone(document.body, els.dropZone, (file) => (app.ready && !app.busy ? loadFile(file) : showMessage("Wait until Python is ready, then drop the file again.")));
els.target.addEventListener("change", () => (els.target.value ? setRole(els.target.value, "target") : clearTarget()));
els.model.addEventListener("change", () => { showParams(els.params, chosenModel()); updateControls(); saveHash(); });
els.params.addEventListener("change", () => { checkParams(els.params, chosenModel()?.params || []); saveHash(); });
els.train.addEventListener("click", train);
els.cancel.addEventListener("click", cancel);
els.clearSession.addEventListener("click", async () => {
  await clearSession();
  location.replace(location.pathname);
});
mountLearnPanel(byId("learn-root"), { python, getContext: learnContext });

// What the "See it learn" panel works on: the latest trained model and the table it came from.
function learnContext() {
  const result = app.result;
  if (!result || !result.model_id || !app.table) return null;
  return { table_id: app.table.table_id, model_id: result.model_id, model_name: result.model?.model || result.label,
    target: result.target, features: result.features, settings: settings() };
}
onEvaluationChange(saveHash);
updateControls();

// "No target": the former target is ignored rather than silently becoming a feature (set its role to use it).
function clearTarget() {
  const roles = { ...app.roles };
  for (const c of Object.keys(roles)) if (roles[c] === "target") roles[c] = "ignore";
  showTable(app.table, roles);
}
