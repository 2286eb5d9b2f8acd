// The Tune panel: the user picks one or two of the chosen model's hyperparameters and the values to try;
// Python scores every cell of that grid by k-fold cross-validation (the evaluation's k and seed) and the
// panel draws a validation curve (one parameter) or a heatmap (two), with a table twin and the best cell
// marked. "Use the best" writes the best values into the model's settings and trains with them.
import { byId, option, setDisabled } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run, showMessage, showProgress } from "./work.js";
import { chosenModel, needsTarget } from "./model-controls.js";
import { showParams } from "./model-panel.js";
import { paramLabel, paramProblem, readSizes, sizesText } from "./params-form.js";
import { train, trainingArgs } from "./training.js";
import { renderer, sizeFor } from "./view-draw.js";
import { rankMetrics, isPercent } from "./leaderboard.js";
import { workerCount } from "./workers-box.js";
import { pool, mapOnPageData } from "./pool.js";

const e = byId;
const MAX_RANGE = 100;  // a range a..b lists at most this many values (the grid's own limit)

const tunable = (model) => (model?.params || []).filter((p) => p.kind !== "vector");
// What the page calls the parameter named `name` of the chosen model (the notes' symbol where it has one).
const labelOf = (name) => paramLabel((chosenModel()?.params || []).find((p) => p.name === name) || { name });
const label = (value) => (value === null ? "none" : Array.isArray(value) ? `(${sizesText(value)})` : String(value));
// Layer sizes hold commas themselves, so their values are separated by semicolons: "8; 32; 32, 16".
const SEPARATOR = { sizes: ";" };
const separatorOf = (param) => SEPARATOR[param.kind] || ",";
const round = (v) => Number(v.toPrecision(6));

// Values to start from: around the default for a number, every option for a choice.
export function suggestedValues(param) {
  if (param.kind === "choice") return [...(param.none_ok ? ["none"] : []), ...param.options].join(", ");
  if (param.kind === "bool") return "true, false";
  if (param.kind === "sizes") return "8; 32; 100; 32, 16";
  const fits = (v) => !paramProblem(param, v);
  if (param.kind === "int") {
    const low = param.low === null || param.low === undefined ? 1 : param.low + (param.low_open ? 1 : 0);
    const start = Math.max(low, (param.default ?? low) - 2);
    const values = Array.from({ length: 5 }, (_, i) => start + i).filter(fits);
    return values.length === 5 ? `${values[0]}..${values[4]}` : values.join(", ");
  }
  const base = param.default || 0;
  const values = base ? [0.01, 0.1, 1, 10, 100].map((f) => round(base * f)) : [0, 0.001, 0.01, 0.1, 1];
  return values.filter(fits).join(", ");
}

// The text of a values box read as the parameter's values: {values} or {problem}.
export function parseValues(param, text) {
  const name = paramLabel(param);
  const values = [];
  const sep = separatorOf(param);
  for (const raw of text.split(sep).map((t) => t.trim()).filter(Boolean)) {
    const range = /^(-?\d+)\s*\.\.\s*(-?\d+)$/.exec(raw);
    if (range && param.kind === "int") {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (b < a || b - a >= MAX_RANGE) return { problem: `${name}: the range ${raw} must go up, over at most ${MAX_RANGE} values.` };
      for (let v = a; v <= b; v++) values.push(v);
      continue;
    }
    const value = readOne(param, raw);
    if (value === undefined) return { problem: `${name}: ${JSON.stringify(raw)} is not one of its values.` };
    const problem = paramProblem(param, value);
    if (problem) return { problem: `${name} ${label(value)}: ${problem}` };
    values.push(value);
  }
  if (!values.length) {
    const how = sep === ";" ? "separated by semicolons (e.g. 8; 32; 32, 16)" : "separated by commas";
    return { problem: `List the values of ${name} to try, ${how}.` };
  }
  return { values };
}

function readOne(param, raw) {
  if (param.kind === "sizes") return readSizes(raw);
  if (raw.toLowerCase() === "none") return param.none_ok ? null : undefined;
  if (param.kind === "choice") return param.options.map(String).includes(raw) ? param.options.find((o) => String(o) === raw) : undefined;
  if (param.kind === "bool") return { true: true, false: false }[raw.toLowerCase()];
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

// The parameter menus follow the chosen model: the first names a parameter, the second one more or none.
// A model that names a grid to start on (its descriptor's "tune") opens on it; the user's own choice stays
// while the model does.
function fillMenus(s) {
  const model = chosenModel(s);
  const params = tunable(model);
  const [first, second] = [e("tune-param-1"), e("tune-param-2")];
  const sameModel = first.dataset.model === model?.name;
  const start = (model?.tune || []).map((t) => t.name);
  const keep = sameModel ? [first.value, second.value] : [start[0] ?? first.value, start[1] ?? ""];
  first.dataset.model = model?.name ?? "";
  first.replaceChildren(...params.map((p) => option(p.name, paramLabel(p))));
  second.replaceChildren(option("", "none"), ...params.map((p) => option(p.name, paramLabel(p))));
  first.value = params.some((p) => p.name === keep[0]) ? keep[0] : params[0]?.name ?? "";
  second.value = params.some((p) => p.name === keep[1]) && keep[1] !== first.value ? keep[1] : "";
  suggest(1);
  suggest(2);
  const metric = e("tune-metric");
  const current = metric.value;
  const metrics = rankMetrics(model?.task);
  metric.replaceChildren(...metrics.map(({ name, label: text }) => option(name, text, name === current)));
}

function paramNamed(name) {
  return tunable(chosenModel()).find((p) => p.name === name);
}

// The values box: the model's own starting values for this parameter, else values around its default.
function suggest(which) {
  const param = paramNamed(e(`tune-param-${which}`).value);
  const preset = (chosenModel()?.tune || []).find((t) => t.name === param?.name);
  e(`tune-values-${which}`).value = !param ? "" : preset ? presetText(param, preset.values) : suggestedValues(param);
  setDisabled(e(`tune-values-${which}`), !param);
}

// A descriptor's starting values as the box writes them (layer sizes as "8; 32, 16").
function presetText(param, values) {
  if (param.kind === "sizes") return values.map(sizesText).join("; ");
  return values.map(label).join(", ");
}

// The bridge's `tune` arguments, or {problem, control}.
function tuneArgs(s) {
  const args = trainingArgs(s);
  if (args.problem) return args;
  const grid = [];
  for (const which of [1, 2]) {
    const param = paramNamed(e(`tune-param-${which}`).value);
    if (!param) continue;
    if (grid.some((g) => g.name === param.name)) return { problem: "Choose two different hyperparameters.", control: "#tune-param-2" };
    const parsed = parseValues(param, e(`tune-values-${which}`).value);
    if (parsed.problem) return { problem: parsed.problem, control: `#tune-values-${which}` };
    grid.push({ name: param.name, values: parsed.values });
  }
  if (!grid.length) return { problem: "Choose a hyperparameter to tune.", control: "#tune-param-1" };
  const { min, max } = s.shared.cv_folds;
  if (!Number.isInteger(s.k) || s.k < min || s.k > max) {
    return { problem: `Cross-validation needs between ${min} and ${max} folds.`, control: "#tune-k" };
  }
  const evaluation = { ...args.evaluation, k: s.k, seed: s.seed, stratify: s.stratify };
  return { table_id: args.table_id, target: args.target, features: args.features, model: args.model,
    params: args.params, evaluation, preprocessing: args.preprocessing, grid, metric: e("tune-metric").value || null,
    ...(args.sample ? { sample: true } : {}) };
}

async function tune() {
  showMessage("");
  const s = store.get();
  const args = tuneArgs(s);
  if (args.problem) return showMessage(args.problem, "", args.control);
  const workers = workerCount();  // the Compare panel's Workers box: one setting for every pooled job
  if (workers.problem) return showMessage(workers.problem, "", "#leaderboard-workers");
  const tuning = workers.count > 1 ? () => pooledTuning(args, workers.count) : () => python.call("tune", args);
  // A refused setting points at Tune's own box where it has one (a tuned value, the folds, the metric).
  const reply = await run("Tuning…", tuning, { cancellable: true, where: { panel: "tune", grid: args.grid } });
  if (!reply) return;
  store.set({ tuning: { reply, model: args.model } });
  await draw(reply);
}

// The reply `tune` makes, made by the pool: one piece a cell of the grid (all its folds), each in whichever
// worker is free, merged as `tune` merges them; the bar counts the cells done. A piece repeats only the
// table's preparation and the drawing of the folds, 0.04-0.08 s on 50,000 x 20 rows against 2-45 s for a
// cell's 5 fits, so a cell is piece enough, and the pool keeps busy to the last one.
async function pooledTuning(args, size) {
  const cells = cellsOf(args.grid);
  const pieces = cells.map((cell, index) => ({ label: cellWords(cell), cmd: "tune_piece", args: { ...args, index } }));
  const counted = (done, total) => showProgress({ event: "progress", fraction: done / total,
    label: `Tuned ${done} of ${total} cells in ${size} workers…` });
  const done = await mapOnPageData(pieces, size, counted);
  const { model, grid, params, metric } = args;
  return pool.call("tune_merge", { model, grid, params, metric, pieces: done }, "the tuning's merge");
}

// The grid's cells in Python's order (the first hyperparameter's values changing slowest), {name: value} each.
const cellsOf = (grid) => grid.reduce((cells, { name, values }) =>
  cells.flatMap((cell) => values.map((value) => ({ ...cell, [name]: value }))), [{}]);
const cellWords = (cell) => Object.entries(cell).map(([n, v]) => `${labelOf(n)} = ${label(v)}`).join(", ");

function caption(r) {
  const best = r.best;
  const cell = cellWords(best.params);
  const held = r.test_rows_left_out ? `; the ${r.test_rows_left_out} test rows were left out, for the model you train next` : "";
  return `${r.score_name} of ${r.label} by ${r.k}-fold cross-validation (${r.splitter === "StratifiedKFold" ? "stratified, " : ""}`
    + `seed ${r.seed}) on ${r.n_rows} rows, the preprocessing fitted inside each fold${held}. Best: ${cell}, `
    + `mean ${fmtScore(best.validation_mean, r)} ± ${fmtScore(best.validation_std, r)}`
    + `${r.greater_is_better === false ? " (lower is better)" : ""}.`;
}

// Accuracy reads as a percentage, as in the Metrics tab and the ranking; F1, R² and the errors as numbers.
const fmtScore = (v, r) => {
  if (!Number.isFinite(v)) return "—";
  return isPercent(r.scoring) ? `${(100 * v).toFixed(1)}%` : String(Number(v.toPrecision(3)));
};

async function draw(r) {
  e("tune-result").hidden = false;
  e("tune-caption").textContent = caption(r);
  const canvas = e("tune-canvas");
  const width = sizeFor(canvas).width;
  const [rows, columns] = r.params;
  if (!columns) {
    const mod = await renderer("validation-curve");
    const data = { labels: rows.values.map(label), xName: labelOf(rows.name), valueName: r.score_name, best: r.best.index,
      percent: isPercent(r.scoring),
      validation: { mean: r.cells.map((c) => c.validation_mean), std: r.cells.map((c) => c.validation_std) },
      train: { mean: r.cells.map((c) => c.train_mean), std: r.cells.map((c) => c.train_std) } };
    canvas.setAttribute("aria-label", `Validation curve: ${r.score_name} against ${data.xName}`);
    mod.drawCurve(canvas, data, { width, height: sizeFor(canvas, 0.55, 420).height, title: `${r.score_name} against ${data.xName}` });
    e("tune-text").replaceChildren(mod.describeCurve(data, { caption: `${r.score_name} by ${r.k}-fold cross-validation` }));
  } else {
    const mod = await renderer("heatmap");
    const data = { rows: rows.values.map(label), columns: columns.values.map(label), values: r.cells.map((c) => c.validation_mean),
      best: r.best.index, rowName: labelOf(rows.name), columnName: labelOf(columns.name) };
    canvas.setAttribute("aria-label", `Heatmap of the mean validation ${r.score_name} over ${data.rowName} and ${data.columnName}`);
    mod.drawHeatmap(canvas, data, { width, title: `Mean validation ${r.score_name}` });
    e("tune-text").replaceChildren(mod.describeHeatmap(data, { caption: `Mean validation ${r.score_name} by ${r.k}-fold cross-validation` }));
  }
  enable(store.get());
}

// "Use the best": the best cell's values go into the model's settings (and its controls), then it trains.
async function useBest() {
  const shown = store.get().tuning;
  if (!shown || shown.model !== store.get().model) return;
  store.set({ params: { ...store.get().params, ...shown.reply.best.params } });
  showParams(e("params"), chosenModel(), store.get().params);
  await train();
}

// A tuning belongs to the model and data it was made for: choosing others takes it off the screen.
function forget() {
  store.set({ tuning: null });
  e("tune-result").hidden = true;
}

function enable(s) {
  const idle = s.ready && !s.busy;
  const target = s.table?.columns.some((c) => s.roles[c] === "target");
  const supervised = needsTarget(s);
  setDisabled(e("tune"), !(idle && s.table && supervised && target));
  const shown = s.tuning;
  setDisabled(e("tune-use-best"), !(idle && shown && shown.model === s.model));
  e("tune-use-best").hidden = !shown;
  e("tune-needs").hidden = !s.models.length || supervised;
}

export function mountTuning() {
  store.subscribe(["model", "models"], (s) => {
    fillMenus(s);
    if (s.tuning && s.tuning.model !== s.model) forget();
  });
  store.subscribe(["source"], forget);  // other data; a worker restored after a cancel keeps its source
  store.subscribe(["ready", "busy", "table", "roles", "model", "models", "tuning"], enable);
  for (const which of [1, 2]) e(`tune-param-${which}`).addEventListener("change", () => suggest(which));
  // The folds box is the evaluation's k, shown here too: under a held-out split its own box is hidden.
  const writeK = () => store.set({ k: Number(e("tune-k").value) });
  e("tune-k").addEventListener("input", writeK);
  e("tune-k").addEventListener("change", writeK);
  store.subscribe(["k", "shared"], ({ k, shared }) => {
    if (shared) Object.assign(e("tune-k"), { min: String(shared.cv_folds.min), max: String(shared.cv_folds.max) });
    if (Number.isFinite(k) && Number(e("tune-k").value) !== k) e("tune-k").value = String(k);
  });
  e("tune").addEventListener("click", tune);
  e("tune-use-best").addEventListener("click", useBest);
  enable(store.get());
}
