// The runs of this session, newest first: each training's learner, parameters, evaluation, preprocessing,
// headline score and time, kept in this browser with the session so a reload keeps them. One click
// restores a run: its choices go back into the controls and its model is shown in every view, from the
// worker when it still keeps that model (bridge `show_run`; it keeps only a few), else trained again with
// the same arguments and seed, which gives the same model. Runs of other data stay listed, with the reason
// they cannot be restored on the data loaded now.
import { byId, el, setDisabled } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run } from "./work.js";
import { headline } from "./readout.js";
import { showResult } from "./results.js";
import { trainAndRecord } from "./result-actions.js";
import { trainingSettings } from "./result-standing.js";
import { restoreModel } from "./model-controls.js";
import { paramLabel, paramValues, sameValue, sizesText } from "./params-form.js";
import { showTable, rememberSession } from "./data-controls.js";
import { saveHistory, loadHistory } from "./session-store.js";

export const MAX_RUNS = 30;  // the newest runs kept; older ones drop off the end

const els = { list: byId("history-list"), empty: byId("history-empty"), summary: byId("history-summary"),
  clear: byId("clear-history") };

// The entries are the store's `historyEntries` (newest first; plain data, as saved). What stays here is
// not the page's state but what the worker and the browser hold for it: entry id -> {model_id, table},
// the model the worker keeps for it, valid only while that table (the same TableInfo object) is loaded
// (a restarted worker or other data starts its ids again); the loaded table's data identity, worked
// out once per table (an upload's digest takes a moment); and the saved history's loading.
const kept = new Map();
let current = null;  // {table, data}: the loaded table and what identifies its data
let loaded = Promise.resolve();

// --- what identifies the data a run was trained on ---------------------------------------------------------

const digests = new WeakMap();  // an upload's bytes -> its SHA-256, computed once
function digest(bytes) {
  if (!globalThis.crypto?.subtle) return Promise.resolve("");  // not a secure context: name and size alone
  if (!digests.has(bytes)) {
    digests.set(bytes, crypto.subtle.digest("SHA-256", bytes).then((hash) =>
      Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("")));
  }
  return digests.get(bytes);
}

// {key, base, label}: `base` names the data (an example and its generator settings, or a file by name,
// size and content); `key` adds how its columns were read, so a run trained with other column kinds or
// another header is not taken for one of this table.
async function dataOf(source, table, datasets) {
  const columns = table.columns.map((c) => `${c}:${table.kinds[c]}`).join(",");
  if (source.type === "example") {
    const settings = Object.entries(source.generator || {}).sort().map(([k, v]) => `${k} ${v}`).join(", ");
    const name = datasets.find((d) => d.name === source.name)?.label || source.name;
    const base = `example:${source.name}:${settings}`;
    return { key: `${base}|${columns}`, base, label: settings ? `${name} (${settings})` : name };
  }
  // A workbook's sheets are data of their own: the sheet read is part of the name.
  const sheet = table.read_info?.sheet;
  const name = sheet ? `${source.name} (sheet ${sheet})` : source.name;
  const base = `file:${name}:${source.bytes.byteLength}:${await digest(source.bytes)}`;
  return { key: `${base}|${columns}`, base, label: name };
}

// Why `entry` cannot be restored on the data loaded now, or "" when it can.
function notRestorable(entry) {
  if (!current || current.table !== store.get().table) return "Load its data to restore it.";
  if (entry.data.key === current.data.key) return "";
  if (entry.data.base === current.data.base) {
    return `Trained on ${entry.data.label} with its columns read otherwise (another kind or header); read them as then to restore it.`;
  }
  return `Trained on ${entry.data.label}, not on the data loaded now; load ${entry.data.label} to restore it.`;
}

// --- what a run was --------------------------------------------------------------------------------------

const IMPUTED = { mean: "missing cells get the mean", median: "missing cells get the median",
  most_frequent: "missing cells get the most frequent value", drop: "rows missing a value dropped",
  keep: "missing numbers kept for the trees" };

// The words an entry shows: the learner, its parameters that differ from the defaults, the evaluation as
// Python describes the split it made (a regression's is never "stratified") and the preprocessing.
function describeRun(args, model, result) {
  const params = model?.params || [];
  const values = paramValues(params, args.params);  // an entry saved before a rename names the old parameter
  const changed = params.filter((p) => p.name in values && !sameValue(values[p.name], p.default))
    .map((p) => `${paramLabel(p)} ${values[p.name] === null ? "none" : sizesText(values[p.name])}`);
  const { standardize, impute } = args.preprocessing || {};
  const defaults = model?.preprocessing || {};  // the learner's own (the models menu), for a choice left to it
  const standardized = standardize ?? Boolean(defaults.standardize);
  const imputed = impute ?? defaults.impute;
  return { model: model?.label || args.model, params: changed.length ? changed.join(", ") : "default settings",
    evaluation: result.evaluation_text,
    preprocessing: `${standardized ? "standardized" : "not standardized"}, ${IMPUTED[imputed] || imputed}` };
}

// The headline score as the page showed it ("Test accuracy 95.6%"); "in-sample" for a score on the rows the
// model was fitted on, which also keeps the entry's words apart from the Train button's name.
function scoreOf(result) {
  const { label, value } = headline(result);
  return { label: label.replace(/^Training /, "In-sample "), value };
}

// JSON with sorted keys, so two runs' choices compare whatever order their keys were written in.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

const sameChoices = (a, b) => canonical(a) === canonical(b);

// --- recording ---------------------------------------------------------------------------------------------

// A training finished (`trainedRun`: the arguments and the reply). The same choices on the same data make
// the same model, so a run trained again updates its entry instead of adding another.
async function record({ args, result }) {
  const { source, table, datasets, models } = store.get();
  if (!source || !table || !result?.model_id) return;
  await loaded;
  const data = await dataOf(source, table, datasets);
  const choices = { ...args };
  delete choices.table_id;  // the same choices on another load of the same data
  const entries = store.get().historyEntries;
  let entry = entries.find((e) => e.data.key === data.key && sameChoices(e.args, choices));
  if (!entry) {
    const model = models.find((m) => m.name === args.model);
    entry = { id: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`, time: Date.now(), data, args: choices,
      ...describeRun(choices, model, result), score: scoreOf(result) };
    kept.set(entry.id, { model_id: result.model_id, table });
    store.set({ historyEntries: [entry, ...entries].slice(0, MAX_RUNS) });
    saveHistory(store.get().historyEntries);
    return;
  }
  kept.set(entry.id, { model_id: result.model_id, table });
  render();
}

function keptModel(entry) {
  const model = kept.get(entry.id);
  return model && model.table === store.get().table ? model.model_id : null;
}

// --- restoring ---------------------------------------------------------------------------------------------

// The run's choices back in the controls: model and parameters, evaluation, preprocessing, column roles.
function setChoices(args) {
  const { table, models } = store.get();
  restoreModel(args.model, args.params);
  const { method, ...evaluation } = args.evaluation;
  store.set({ method, ...evaluation, sample: Boolean(args.sample) });  // a run of a sample is restored as one
  const defaults = models.find((m) => m.name === args.model)?.preprocessing || {};  // the learner's own
  const { standardize = null, impute = null } = args.preprocessing || {};
  store.set({ standardize: standardize === defaults.standardize ? null : standardize,  // null: the model's default
    impute: impute === defaults.impute ? null : impute });
  const features = new Set(args.features || []);
  showTable(table, Object.fromEntries(table.columns.map((c) => [c, c === args.target ? "target" : features.has(c) ? "feature" : "ignore"])));
}

// The kept run's reply; false when the worker no longer keeps it; null when the asking failed (shown).
function showKept(model_id) {
  return run("Showing the run…", async () => {
    try {
      return await python.call("show_run", { model_id });
    } catch (error) {
      if (error.code === "data_error") return false;  // let go of to bound the memory: train it again
      throw error;
    }
  });
}

async function restore(entry) {
  if (notRestorable(entry)) return;
  setChoices(entry.args);
  const args = { ...entry.args, table_id: store.get().table.table_id };
  const model_id = keptModel(entry);
  const reply = model_id ? await showKept(model_id) : false;
  if (reply === null) return;
  if (!reply) return trainAndRecord(args);  // let go of by the worker: the same arguments make it again
  store.set({ trained: true, lastTrain: args, trainedSettings: trainingSettings() });  // the choices just restored
  await rememberSession();
  showResult(reply);
}

// --- the list ---------------------------------------------------------------------------------------------

function timeOf(ms) {
  return new Date(ms).toLocaleString("en-GB", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function runItem(entry, { result, ready, busy }) {
  const why = notRestorable(entry);
  const shown = !why && result && keptModel(entry) === result.model_id;
  const score = `${entry.score.label} ${entry.score.value}`;
  const parts = [
    el("span", { class: "history-model", text: entry.model }),
    el("span", { class: "history-score", text: score }),
    el("span", { class: "history-detail", text: [entry.params, entry.evaluation, entry.preprocessing].join(" · ") }),
    el("span", { class: "history-detail", text: `${entry.data.label} · ${timeOf(entry.time)}${shown ? " · shown now" : ""}` }),
  ];
  const item = el("li", { class: shown ? "history-run shown" : "history-run", dataset: { run: entry.id } });
  if (why) {
    item.classList.add("other-data");
    item.append(el("div", { class: "history-card" }, ...parts), el("p", { class: "help history-why", text: why }));
  } else {
    const button = el("button", { type: "button", class: "history-card", "aria-current": shown ? "true" : null,
      title: "Set the controls to this run's choices and show its model", onclick: () => restore(entry) }, ...parts);
    setDisabled(button, !ready || Boolean(busy));
    item.append(button);
  }
  return item;
}

function render(s = store.get()) {
  const entries = s.historyEntries;
  els.list.replaceChildren(...entries.map((entry) => runItem(entry, s)));
  els.empty.hidden = entries.length > 0;
  els.summary.textContent = entries.length ? `${entries.length} run${entries.length === 1 ? "" : "s"}` : "";
  setDisabled(els.clear, !entries.length || !s.ready || Boolean(s.busy));
}

// The loaded table's data identity, worked out once per table (an upload's digest takes a moment).
function followTable({ source, table, datasets }) {
  if (!source || !table) {
    current = null;
    return render();
  }
  dataOf(source, table, datasets).then((data) => {
    if (store.get().table !== table) return;
    current = { table, data };
    render();
  });
}

// The list says it is busy until the browser has stored the empty history, so a reload that follows
// at once does not bring the cleared runs back.
async function clearHistory() {
  kept.clear();
  store.set({ historyEntries: [] });
  els.list.setAttribute("aria-busy", "true");
  try {
    await saveHistory([]);
  } finally {
    els.list.removeAttribute("aria-busy");
  }
}

export function mountHistory() {
  loaded = loadHistory().then((saved) => {
    store.set({ historyEntries: (saved || []).slice(0, MAX_RUNS) });
  });
  store.subscribe(["trainedRun"], (s) => record(s.trainedRun));
  store.subscribe(["table", "datasets"], followTable);
  store.subscribe(["historyEntries", "result", "ready", "busy"], render);
  els.clear.addEventListener("click", clearHistory);
  render();
}
