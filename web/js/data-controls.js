// The data side wired to the store: the dataset menu, the generator settings, an uploaded file, the
// target, the header switch of an uploaded file, and the preview's roles and kinds. Loading sets the table and its roles;
// the summary, the target menu and the preview are drawn from them.
import { byId, el } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run, setStatus, showMessage } from "./work.js";
import { fillDatasets, renderGenerator, generatorValues, describeTable, renderReading, renderMissingNote } from "./data-panel.js";
import { renderPreview } from "./preview.js";
import { describeRoles, renderProfile } from "./profile-view.js";
import { attachDropZone, fileProblem } from "./drop-zone.js";
import { exampleSource, fileSource, loadSource, pastedSource } from "./data-source.js";
import { closePasteBox, mountPasteBox, showPasteBox } from "./paste-box.js";
import { clearResults } from "./results.js";
import { saveSession } from "./session-store.js";

const els = {
  dataset: byId("dataset"), generator: byId("generator"), file: byId("csv-file"), summary: byId("data-summary"),
  targetAsk: byId("target-ask"), reading: byId("read-box"), missing: byId("missing-note"), impute: byId("pre-impute"), target: byId("target"), preview: byId("preview"), previewBox: byId("preview-box"),
  dropZone: byId("drop-zone"), profile: byId("profile"), profileBox: byId("profile-box"),
  profileDetails: byId("profile-details"), profileSummary: byId("profile-summary"),
};

export function chosenDataset(s = store.get()) {
  return s.datasets.find((d) => d.name === s.dataset);
}

export function chooseDataset(name, generator = {}) {
  const dataset = store.get().datasets.find((d) => d.name === name);
  store.set({ dataset: name, generator: generatorValues(dataset, generator) });
}

const sameColumns = (a, b) => a.length === b.length && a.every((c) => b.includes(c));

// The roles a new table starts with: the link's, else the profile's (IDs, free text, constant columns and
// columns of very many categories left out), with Python's suggested target, or none when no column is
// clearly one (the target menu then asks); a link that names its target names every column it leaves out
// too. `wanted.columns`: the wanted target holds only for a table of exactly those columns.
function defaultRoles(info, wanted = {}) {
  if (wanted.columns && !sameColumns(wanted.columns, info.columns)) wanted = {};
  const target = info.columns.includes(wanted.target) ? wanted.target
    : wanted.target === "" && wanted.explicit ? "" : info.suggested_target || "";
  const profiled = wanted.explicit ? [] : (info.profile || []).filter((c) => c.role === "ignore").map((c) => c.name);
  const ignore = new Set([...(wanted.ignore || []), ...profiled]);
  return Object.fromEntries(info.columns.map((c) => [c, c === target ? "target" : ignore.has(c) ? "ignore" : "feature"]));
}

export function showTable(table, roles) {
  store.set({ table, roles, message: null });
}

// The session kept across reloads: where the data came from (an upload's bytes included), its roles,
// and whether a model was trained (retraining with the same settings and seed gives the same model).
export function rememberSession() {
  const { source, roles, trained } = store.get();
  if (!source) return Promise.resolve();
  return saveSession({ source, roles, trained: Boolean(trained) });
}

// A file chosen while the opening dataset is still loading wins: only the latest load is shown.
let latestLoad = 0;  // a counter that drops stale loads, not state

export async function loadData(source, wanted = {}) {
  const load = ++latestLoad;
  const info = await run(source.type === "file" ? `Reading ${source.name}…` : "Loading the data…",
    () => loadSource(python, source, store.get().shared.limits, (step) => setStatus("busy", step)), { cancellable: true });
  if (!info || load !== latestLoad) return false;
  store.set({ source, trained: false, noTarget: false });
  clearResults();
  showTable(info, defaultRoles(info, wanted));
  rememberSession();
  return true;
}

// A new file with the same columns keeps the target the user has (the rest of its roles come from its profile).
function chosenTarget() {
  const { table, roles } = store.get();
  const target = table?.columns.find((c) => roles[c] === "target");
  return target ? { target, columns: table.columns } : {};
}

async function loadFile(file) {
  const problem = fileProblem(file, store.get().shared.limits);
  if (problem) return showMessage(problem);
  return loadUpload(fileSource(file.name, await file.arrayBuffer()));
}

// An uploaded or pasted source replaces the data set chosen in the menu; refused, the menu shows the example
// still loaded. Resolves to whether it loaded.
async function loadUpload(source) {
  store.set({ dataset: "" });
  const loaded = await loadData(source, store.get().pending || chosenTarget());
  const { source: kept } = store.get();
  if (!loaded && kept?.type === "example") chooseDataset(kept.name, kept.generator);
  store.set({ pending: null });
  return loaded;
}

// Text pasted into the box or onto the page, read as a table. Read, the box closes; refused, it opens with the
// text in it, where the message points.
async function loadPasted(text) {
  const { ready, busy, shared } = store.get();
  if (!ready || busy) return showMessage("Wait until Python is ready, then paste the table again.");
  const source = pastedSource(text);
  if (source.bytes.byteLength > shared.limits.max_bytes) {
    showPasteBox();
    return showMessage(fileProblem({ name: "The pasted table", size: source.bytes.byteLength }, shared.limits));
  }
  if (await loadUpload(source)) closePasteBox();
  else showPasteBox(text);
}

export function loadChosenDataset(wanted = {}) {
  const s = store.get();
  const dataset = chosenDataset(s);
  if (!dataset) return Promise.resolve(false);
  const source = exampleSource(dataset.name, s.generator);
  for (const c of wanted.categorical || []) source.kinds[c] = "categorical";
  return loadData(source, { target: dataset.target, ...wanted });
}

function setRole(column, role) {
  const roles = { ...store.get().roles };
  if (role === "target") for (const c of Object.keys(roles)) if (roles[c] === "target") roles[c] = "feature";
  roles[column] = role;
  showTable(store.get().table, roles);
}

// "No target": the former target is ignored rather than silently becoming a feature (set its role to use it).
function clearTarget() {
  const roles = { ...store.get().roles };
  for (const c of Object.keys(roles)) if (roles[c] === "target") roles[c] = "ignore";
  store.set({ noTarget: true });
  showTable(store.get().table, roles);
}

// The kind overrides and the header switch are kept in the source, so a restart replays them.
function withSource(change) {
  const { source } = store.get();
  store.set({ source: { ...source, ...change(source) } });
}

async function setKind(column, kind) {
  const { table } = store.get();
  const info = await run(`Reading ${column} as ${kind}…`, () => python.call("set_kind", { table_id: table.table_id, column, kind }));
  // Refused: the message stays and the preview's kind select goes back to the column's kind.
  if (!info) return drawPreview(store.get());
  withSource((source) => ({ kinds: { ...source.kinds, [column]: kind } }));
  showTable(info, store.get().roles);
}

// The same bytes read again with the first row as names or as data; the target and the columns left out
// keep their roles where their names survive the re-reading. A refused re-reading leaves the table as it was.
async function setHeader(header) {
  const { source, roles, table } = store.get();
  const target = Object.keys(roles).find((c) => roles[c] === "target");
  const ignore = Object.keys(roles).filter((c) => roles[c] === "ignore");
  const loaded = await loadData({ ...source, header }, { target, ignore });
  if (!loaded) renderReading(els.reading, table, setHeader, setSheet);  // the switch goes back to how the table was read
}

// Another sheet of the same workbook: read afresh (its first row decided again, no kind overrides), the
// target kept if the sheet has a column of that name. Refused, the table stays as it was.
async function setSheet(sheet) {
  const { source, roles, table } = store.get();
  const target = Object.keys(roles).find((c) => roles[c] === "target");
  const loaded = await loadData({ ...source, sheet, header: null, kinds: {} }, { target });
  if (!loaded) renderReading(els.reading, table, setHeader, setSheet);  // the menu goes back to the sheet shown
}

function showImputeChoice() {
  els.impute.scrollIntoView({ block: "center" });
  els.impute.focus();
}

function drawPreview({ table, roles }) {
  renderPreview(els.preview, table, roles, { onRole: setRole, onKind: setKind });
}

// The profile opens by itself on a new table when it left a column out or read dates, so the choice is seen.
let profiledTable = null;  // the table the profile was last drawn for (a drawing's memory, not state)
function drawProfile({ table, roles }) {
  const profile = table.profile || [];
  els.profileBox.hidden = profile.length === 0;
  if (profiledTable !== table.table_id) {
    profiledTable = table.table_id;
    els.profileDetails.open = profile.some((c) => c.role === "ignore" || c.kind === "date");
  }
  els.profileSummary.textContent = describeRoles(profile, roles);
  renderProfile(els.profile, profile, roles, { onRole: setRole });
}

// The target menu. When Python found no clear target it asks: "Choose the target…" until one is chosen,
// the likely candidates first (Python's `likely`) with their reasons beside, then the other columns.
function drawTarget({ table, roles, noTarget }) {
  const target = table.columns.find((c) => roles[c] === "target") || "";
  const candidates = table.suggested_target ? [] : (table.target_candidates || []);
  const asking = candidates.length > 0 && !target && !noTarget;
  const likely = candidates.filter((c) => c.likely);
  const names = likely.map((c) => c.name);
  const options = (columns) => columns.map((c) => new Option(c, c));
  els.target.replaceChildren(
    ...(asking ? [el("option", { value: "?", text: "Choose the target…", disabled: true })] : []),
    ...(names.length ? [el("optgroup", { label: "Likely targets" }, ...options(names)),
      el("optgroup", { label: "Other columns" }, ...options(table.columns.filter((c) => !names.includes(c))))]
      : options(table.columns)),
    new Option("none (clustering, PCA)", ""));
  els.target.value = asking ? "?" : target;
  els.targetAsk.hidden = !asking;
  const reasons = likely.slice(0, 3).map((c) => `${c.name} (${c.reason})`).join("; ");
  els.targetAsk.textContent = !asking ? "" : `No column is clearly the target: choose one.${reasons ? ` Likely: ${reasons}.` : ""}`;
}

function drawTable(s) {
  const { table } = s;
  if (!table) return;
  els.summary.hidden = false;
  els.summary.textContent = describeTable(table);
  renderReading(els.reading, table, setHeader, setSheet);
  renderMissingNote(els.missing, table, showImputeChoice);
  drawTarget(s);
  drawPreview(s);
  drawProfile(s);
  els.previewBox.hidden = false;
}

// The generator's inputs are made again when the dataset changes, and otherwise only take new values.
let generatorFor = null;  // the dataset whose inputs are drawn (a drawing's memory, not state)
function drawGenerator(s) {
  const dataset = chosenDataset(s);
  if (dataset !== generatorFor) {
    generatorFor = dataset;
    return renderGenerator(els.generator, dataset, s.generator || {});
  }
  for (const [name, value] of Object.entries(s.generator || {})) {
    const input = els.generator.querySelector(`[data-gen="${name}"]`);
    if (input && Number(input.value) !== value) input.value = String(value);
  }
}

export function mountDataControls() {
  store.subscribe(["table", "roles", "noTarget"], drawTable);
  store.subscribe(["datasets"], (s) => fillDatasets(els.dataset, s.datasets, s.dataset));
  store.subscribe(["dataset"], (s) => { els.dataset.value = chosenDataset(s) ? s.dataset : ""; });
  store.subscribe(["datasets", "dataset", "generator"], drawGenerator);
  els.dataset.addEventListener("change", () => {
    chooseDataset(els.dataset.value);
    loadChosenDataset();
  });
  els.generator.addEventListener("change", (event) => {
    const name = event.target.dataset.gen;
    const s = store.get();
    store.set({ generator: generatorValues(chosenDataset(s), { ...s.generator, [name]: Number(event.target.value) }) });
    const { roles } = store.get();
    const target = Object.keys(roles).find((c) => roles[c] === "target") || "";
    loadChosenDataset({ target, ignore: Object.keys(roles).filter((c) => roles[c] === "ignore") });
  });
  els.file.addEventListener("change", () => els.file.files[0] && loadFile(els.file.files[0]));
  attachDropZone(document.body, els.dropZone, (file) => {
    const { ready, busy } = store.get();
    return ready && !busy ? loadFile(file) : showMessage("Wait until Python is ready, then drop the file again.");
  });
  els.target.addEventListener("change", () => (els.target.value ? setRole(els.target.value, "target") : clearTarget()));
  mountPasteBox(loadPasted);
}
