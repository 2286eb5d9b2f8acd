// The model menu and the chosen model's hyperparameters, wired to the store: choosing a model or
// editing a parameter writes the store; the menu and the parameter controls are drawn from it.
import { byId } from "./dom.js";
import { store } from "./store.js";
import { fillModels, findModel, showParams, SUPERVISED } from "./model-panel.js";
import { readParams, checkParams, paramValues, sameValue } from "./params-form.js";

const els = { model: byId("model"), params: byId("params"), limit: byId("row-limit"), limitNote: byId("row-limit-note"),
  sample: byId("row-limit-sample"), sampleLabel: byId("row-limit-sample-label") };
const count = (n) => n.toLocaleString("en-US");

export function chosenModel(s = store.get()) {
  return findModel(s.models, s.model);
}

// Whether the chosen model learns to predict a column (and so needs a target).
export function needsTarget(s = store.get()) {
  return SUPERVISED.includes(chosenModel(s)?.task);
}

// Chooses a model, its parameters starting from `values` where they name them. `byUser`: the user chose it
// (the menu, a link, a run reopened); a model the page chose follows the target (learner-follow.js).
export function chooseModel(name, values = {}, { byUser = true } = {}) {
  const model = findModel(store.get().models, name);
  store.set({ model: name, params: paramValues(model?.params || [], values), modelByUser: byUser });
}

// Sets a model and every parameter back (a run from the history): the controls are drawn again even when
// the model stays the same, since its parameters changed.
export function restoreModel(name, values) {
  chooseModel(name, values);
  const s = store.get();
  showParams(els.params, chosenModel(s), s.params);
  checkChosenParams();
}

// Marks the parameters that break their rules; returns the problems (empty when all fit).
export function checkChosenParams() {
  const s = store.get();
  return checkParams(els.params, chosenModel(s)?.params || [], s.params);
}

// {limit, rows} when the chosen model trains on at most `limit` rows (its work grows as their square) and
// the table has more; else null. Training it then needs the store's `sample`: a seeded sample of `limit` rows.
export function rowLimit(s = store.get()) {
  const limit = chosenModel(s)?.max_rows;
  const rows = s.table?.n_rows;
  return limit && rows > limit ? { limit, rows } : null;
}

// Says the limit up front, beside the model menu and in it, and offers the sample.
function showRowLimit(s) {
  const over = rowLimit(s);
  els.limit.hidden = !over;
  els.sample.checked = Boolean(s.sample);
  if (over) {
    els.limitNote.textContent = `${chosenModel(s).label} works on up to ${count(over.limit)} rows; this table has ${count(over.rows)}.`;
    els.sampleLabel.textContent = `Train on a random sample of ${count(over.limit)} rows (drawn with the split seed)`;
  }
  for (const option of els.model.options) {
    const model = findModel(s.models, option.value);
    const limited = model?.max_rows && s.table?.n_rows > model.max_rows;
    option.textContent = limited ? `${model.label} (up to ${count(model.max_rows)} rows)` : model?.label ?? option.textContent;
  }
}

// Only the parameters that differ from the defaults, so links stay short.
export function changedParams(s = store.get()) {
  const changed = {};
  for (const p of chosenModel(s)?.params || []) {
    const values = s.params || {};
    if (p.name in values && !sameValue(values[p.name], p.default)) changed[p.name] = values[p.name];
  }
  return changed;
}

export function mountModelControls() {
  // A change event that names the model already chosen (a script can send one) keeps its parameters.
  els.model.addEventListener("change", () => {
    if (els.model.value !== store.get().model) chooseModel(els.model.value);
  });
  els.params.addEventListener("input", () => store.set({ params: readParams(els.params) }));
  els.params.addEventListener("change", () => {
    store.set({ params: readParams(els.params) });
    checkChosenParams();
  });
  store.subscribe(["models"], (s) => fillModels(els.model, s.models, s.model));
  els.sample.addEventListener("change", () => store.set({ sample: els.sample.checked }));
  let tableId = null;  // a new table (not the same one re-described) is asked again
  store.subscribe(["table"], (s) => {
    if (s.table?.table_id !== tableId) store.set({ sample: false });
    tableId = s.table?.table_id;
  });
  store.subscribe(["models", "model", "table", "sample"], showRowLimit);
  // The controls are drawn when the model changes, not on every edit, so typing is never interrupted.
  store.subscribe(["model"], (s) => {
    els.model.value = s.model;
    showParams(els.params, chosenModel(s), s.params);
  });
}
