// The preprocessing step between the data and the model: the choices (standardize, how missing cells are
// handled) written to the store, and after training the steps Python fitted on the training rows, with
// what it fitted: the values it filled in, the means and scales ("z = (x − 13.0) / 0.81"), the categories
// one-hot encoded, and how many rows were dropped.
import { byId, el } from "./dom.js";
import { store } from "./store.js";
import { chosenModel } from "./model-controls.js";

export const PREPROCESS_KEYS = ["standardize", "impute"];

const els = { standardize: byId("pre-standardize"), why: byId("pre-standardize-help"), impute: byId("pre-impute"),
  steps: byId("pre-steps"), caption: byId("pre-steps-caption") };

// Standardize is the model's default until the user sets it: Python's rule, sent with each learner in the
// models menu (`preprocessing`: on for a learner sensitive to feature scale).
function standardizing(s) {
  return s.standardize ?? Boolean(chosenModel(s)?.preprocessing?.standardize);
}

// How missing cells are handled: the user's choice, else the model's default (the same rule: a tree keeps
// missing numbers, which it sends down the side that gains more; other learners get the column's mean).
export function imputing(s) {
  return s.impute ?? chosenModel(s)?.preprocessing?.impute ?? s.shared?.impute?.default ?? "mean";
}

// Whether the chosen model reads missing numbers itself: its default is to keep them.
const takesMissing = (s) => chosenModel(s)?.preprocessing?.impute === "keep";

// The bridge's `preprocessing` argument of `train`.
export function preprocessArgs(s = store.get()) {
  return { standardize: standardizing(s), impute: imputing(s) };
}

// A number as the page shows a fitted value: three significant digits, no exponent for everyday sizes.
function short(value) {
  if (typeof value !== "number") return String(value);
  return String(Number(value.toPrecision(3)) + 0);  // + 0: never "-0"
}

function plural(n, word) {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

const IMPUTED_WITH = { mean: "mean", median: "median", most_frequent: "most frequent value" };

function keptItem(step) {
  const kept = Object.entries(step.kept).map(([c, n]) => `${c} (${plural(n, "cell")})`).join(", ");
  const filled = Object.entries(step.values || {}).map(([c, v]) => `${c} ← ${short(v)}`);
  return [`Missing numbers kept: at each split the tree sends them down the side that gains more (${kept})`
    + (filled.length ? "; missing text filled with the training rows' most frequent value" : "") + ".",
  filled.length ? filled : null];
}

function imputeItem(step) {
  if (step.kept) return keptItem(step);
  if (step.from_file) {  // an imported model's: the values its file fills in, wherever a cell is missing
    const filled = Object.entries(step.values || {}).map(([c, v]) => `${c} ← ${short(v)}`);
    return [`Missing cells filled with the training rows' ${IMPUTED_WITH[step.strategy]} (text: most frequent), as the file records`, filled];
  }
  const counts = Object.entries(step.missing || {}).map(([c, n]) => `${c} (${plural(n, "cell")})`).join(", ");
  if (step.strategy === "drop") {
    return [`Dropped ${plural(step.rows_dropped, "row")} missing a value` + (counts ? `: ${counts}` : ""), null];
  }
  const filled = Object.entries(step.values || {}).map(([c, v]) => `${c} ← ${short(v)}`);
  const head = filled.length
    ? `Missing cells filled with the training rows' ${IMPUTED_WITH[step.strategy]} (text: most frequent): ${counts}`
    : "No missing cells in the features";
  const dropped = step.rows_dropped ? ` ${plural(step.rows_dropped, "row")} without a target value left out.` : "";
  return [head + "." + dropped, filled.length ? filled : null];
}

// A column name before a formula: quoted when it could be read as one of the formula's symbols (x, z).
export function columnLabel(name) {
  return /^\p{L}([_\d]\d*)?$/u.test(String(name)) ? `“${name}”` : String(name);
}

function standardizeItem(step) {
  const shift = (mean) => (mean < 0 ? `x + ${short(-mean)}` : `x − ${short(mean)}`);
  // A column with one value on the training rows has no spread to divide by: it becomes 0.
  const line = (c, i) => (step.constant?.[i]
    ? `${columnLabel(c)}: constant (${short(step.mean[i])} on every training row), so z = 0`
    : `${columnLabel(c)}: z = (${shift(step.mean[i])}) / ${short(step.scale[i])}`);
  const lines = step.columns.map(line);
  return ["Standardized on the training rows (mean 0, standard deviation 1)", lines];
}

function oneHotItem(step) {
  const lines = step.columns.map((c, i) => `${c} → ${step.categories[i].map((k) => `${c}=${k}`).join(", ")}`);
  return ["One-hot encoded (a 0/1 column per category; the model needs numbers)", lines];
}

const ITEMS = { impute: imputeItem, standardize: standardizeItem, one_hot: oneHotItem };

function renderSteps(result) {
  els.steps.replaceChildren();
  els.steps.hidden = !result;
  els.caption.hidden = !result?.imported;
  els.caption.textContent = result?.imported ? `The imported model's own preprocessing, as its file (${result.file}) holds it: `
    + "what it and Apply to new data use. The choices above set up the next Train, not this model." : "";
  if (!result) return;
  const steps = result.preprocessing || [];
  if (!steps.length) {
    els.steps.append(el("li", { text: "Nothing: the model read the columns as they are." }));
    return;
  }
  for (const step of steps) {
    const [head, lines] = ITEMS[step.step](step);
    const item = el("li", { dataset: { step: step.step } }, el("span", { text: head }));
    if (lines) item.append(el("ul", {}, ...lines.map((line) => el("li", { class: "mono", text: line }))));
    els.steps.append(item);
  }
}

function renderChoices(s) {
  const model = chosenModel(s);
  els.standardize.checked = standardizing(s);
  els.why.textContent = model
    ? `${model.label} ${model.preprocessing?.standardize ? "is" : "is not"} sensitive to feature scale` +
      (s.standardize === null ? ", so this is its default." : ".")
    : "";
  els.impute.value = imputing(s);
  els.impute.querySelector('option[value="keep"]').disabled = !takesMissing(s);
}

export function mountPreprocessPanel() {
  els.standardize.addEventListener("change", () => store.set({ standardize: els.standardize.checked }));
  els.impute.addEventListener("change", () => store.set({ impute: els.impute.value }));
  store.subscribe(["standardize", "impute", "model", "models"], renderChoices);
  // "Keep" is for the trees: another model goes back to its own default rather than fail to train.
  store.subscribe(["model"], (s) => { if (s.impute === "keep" && !takesMissing(s)) store.set({ impute: null }); });
  store.subscribe(["result"], (s) => renderSteps(s.result));
  renderChoices(store.get());
}
