// "Compare learners": several learners trained on the current data, target, features, preprocessing and
// evaluation (the same split or the same folds, one seed), ranked by a metric. A row opens its model in
// every view: the bridge trains that learner again with the same settings, which makes the very same model.
import { byId, el, option, setDisabled, formatValue, scrollingTable } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run, showMessage, showProgress } from "./work.js";
import { chooseModel, chosenModel } from "./model-controls.js";
import { trainingArgs } from "./training.js";
import { comparisonEvaluation } from "./eval-panel.js";
import { csvColumns, foldsPhrase, significanceNote, versusCell } from "./leaderboard-significance.js";
import { trainAndRecord } from "./result-actions.js";
import { downloadText } from "./export-panel.js";
import { pool, mapOnPageData, defaultPoolSize, largestPool } from "./pool.js";
import { workerCount } from "./workers-box.js";

const els = { box: byId("leaderboard-box"), learners: byId("leaderboard-learners"), all: byId("leaderboard-all"),
  metric: byId("leaderboard-metric"), compare: byId("leaderboard-run"), export: byId("leaderboard-export"),
  result: byId("leaderboard-result"), note: byId("leaderboard-note"), limit: byId("leaderboard-limit"),
  sample: byId("leaderboard-sample"), sampleLabel: byId("leaderboard-sample-label"), workers: byId("leaderboard-workers") };
const count = (n) => n.toLocaleString("en-US");

// The metrics offered before the first comparison, [{name, label, percent}] per task, from settings.json
// (core.settings RANK_METRICS); a reply names those Python ranks by. Tuning scores by the same ones.
export function rankMetrics(task) {
  return store.get().shared?.metrics?.rank?.[task] || [];
}

// Whether a ranking metric reads as a percentage (accuracy), else as a number (F1, R², the errors).
export function isPercent(name) {
  return Object.values(store.get().shared?.metrics?.rank || {}).some((list) => list.some((m) => m.name === name && m.percent));
}
const SCORED_ON = { test: "test rows", validation: "validation rows", training: "training rows (in-sample: no rows were held out)" };

const BASELINE_NOTE = "The baseline learns nothing: it always predicts the training rows' most frequent class "
  + "(or mean target), scored on the same rows; a learner below it does no better than that.";

function taskOf(s) {
  const task = chosenModel(s)?.task;
  return rankMetrics(task).length ? task : null;
}

// One checkbox per learner of the chosen model's task. The chosen model is ticked for the user, and
// unticked again when another model is chosen, unless the user ticked it themselves (store: rankTicked,
// rankTickedByUser).
function drawLearners(s) {
  const task = taskOf(s);
  const ticked = new Set(s.rankTicked.filter((name) => s.rankTickedByUser.includes(name)));
  if (s.model) ticked.add(s.model);
  if (ticked.size !== s.rankTicked.length || [...ticked].some((name) => !s.rankTicked.includes(name))) {
    store.set({ rankTicked: [...ticked] });
  }
  const models = task ? s.models.filter((m) => m.task === task) : [];
  const rows = s.table?.n_rows;
  els.learners.replaceChildren(...models.map((m) => el("label", { class: "check-row" },
    el("input", { type: "checkbox", value: m.name, checked: ticked.has(m.name) }),
    ` ${m.label}${limited(m, rows) ? ` (up to ${count(m.max_rows)} rows)` : ""}`)));
  els.note.textContent = task ? `Learners that do ${task}, like the model chosen above.`
    : "Comparing ranks learners by how well they predict a target: choose a classifier or a regressor as the model above.";
  const current = els.metric.value;
  els.metric.replaceChildren(...rankMetrics(task).map(({ name, label }) => option(name, label, name === current)));
}

const limited = (model, rows) => Boolean(model.max_rows && rows > model.max_rows);

// The sample switch shows when a learner of the task has a row limit below the table's rows: ticked, such a
// learner ranks on a seeded sample of its limit (marked in its row); unticked, it is left out with the reason.
function drawLimit(s) {
  const task = taskOf(s);
  const over = task ? s.models.filter((m) => m.task === task && limited(m, s.table?.n_rows)) : [];
  els.limit.hidden = !over.length;
  els.sample.checked = Boolean(s.rankSample);
  if (!over.length) return;
  const sizes = [...new Set(over.map((m) => count(m.max_rows)))].join(" or ");
  els.sampleLabel.textContent = `Use a sample of ${sizes} rows for learners with a row limit `
    + `(${over.map((m) => m.label).join(", ")}; this table has ${count(s.table.n_rows)} rows)`;
}

function tick(name, on) {
  const { rankTicked, rankTickedByUser } = store.get();
  const toggled = (list) => (on ? [...new Set([...list, name])] : list.filter((n) => n !== name));
  store.set({ rankTicked: toggled(rankTicked), rankTickedByUser: toggled(rankTickedByUser) });
}

function checkedLearners() {
  return [...els.learners.querySelectorAll("input:checked")].map((box) => box.value);
}

function formatSeconds(seconds) {
  return seconds < 1 ? `${(1000 * seconds).toFixed(1)} ms` : `${seconds.toFixed(2)} s`;
}

function metricOf(reply, name) {
  return reply.metrics.find((m) => m.name === name) || reply.metrics[0];
}

// The rows best first by `metric` (lowest first for a loss), the baseline among them where it scores
// (a learner below it learned nothing that helps), failed ones last; ties keep their order, the
// baseline after the learners it ties with.
function ranked(reply, metric) {
  const { greater_is_better: greater } = metricOf(reply, metric);
  const ok = [...reply.rows.filter((r) => r.scores), ...(reply.baseline ? [reply.baseline] : [])];
  const value = (r) => r.scores[metric].mean;
  ok.sort((a, b) => (greater ? value(b) - value(a) : value(a) - value(b)));
  return [...ok, ...reply.rows.filter((r) => r.left_out), ...reply.rows.filter((r) => r.error)];
}

function caption(reply, metric) {
  const { label } = metricOf(reply, metric);
  const where = reply.scored_on === "folds"
    ? `mean ± spread (std) over ${foldsPhrase(reply.evaluation)}, each scored by the model that did not see its rows`
    : `on the ${reply.n_rows} ${SCORED_ON[reply.scored_on]}`;
  const baseline = reply.baseline ? ` ${BASELINE_NOTE}` : "";
  const sampled = reply.rows.some((r) => r.sample) ? " A learner marked “on a sample” was trained and scored on a "
    + "seeded random sample of its row limit, split the same way: its score is of other rows than the rest." : "";
  return `Ranked by ${label.replace(/^[A-Z][a-z]/, (w) => w.toLowerCase())}, ${where}. Choose a learner to open its model.${baseline}${sampled}`;
}

function leaderTable(reply, metric) {
  const { label, name } = metricOf(reply, metric);
  const folds = reply.scored_on === "folds";
  const sample = reply.rows.find((r) => r.scores && !r.sample) || reply.rows.find((r) => r.scores) || {};
  const rows = (n) => ` (${n} ${n === 1 ? "row" : "rows"})`;
  const [fitNote, predictNote] = folds ? [" (per fold)", " (per fold)"] : [rows(sample.fit_rows), rows(sample.predict_rows)];
  const head = el("tr", {}, ...["Rank", "Learner", label, ...(folds ? ["± std", "Versus the best"] : []), `Fit time${fitNote}`,
    `Predict time${predictNote}`].map((h) => el("th", { scope: "col", text: h })));
  const format = isPercent(name) ? "percent" : "number";
  const body = el("tbody");
  let place = 0;
  ranked(reply, metric).forEach((row) => {
    const rank = !row.scores || row.baseline ? "—" : ++place;
    const open = row.baseline || row.left_out ? el("span", { text: row.label, title: row.baseline ? BASELINE_NOTE : "" })
      : el("button", { type: "button", class: "link", text: row.label, onclick: () => openRow(row) });
    const mark = row.sample ? [el("span", { class: "sample-mark", text: ` (on a sample of ${count(row.sample.rows)} rows)` })] : [];
    const cells = row.left_out
      ? [el("td", { colSpan: folds ? 5 : 3, class: "left-out", text: `Left out: ${row.left_out}` })]
      : row.error ? [el("td", { colSpan: folds ? 5 : 3, class: "failed", text: `Failed: ${row.error}` })]
      : [el("td", { class: "num", text: formatValue(row.scores[name].mean, format) }),
        ...(folds ? [el("td", { class: "num", text: formatValue(row.scores[name].std, format) }), versusCell(row, name)] : []),
        el("td", { class: "num", text: row.baseline ? "—" : formatSeconds(row.fit_seconds) }),
        el("td", { class: "num", text: row.baseline ? "—" : formatSeconds(row.predict_seconds) })];
    body.append(el("tr", { class: row.baseline ? "baseline" : "", dataset: { model: row.model || "" } },
      el("td", { class: "num", text: rank }), el("th", { scope: "row" }, open, ...mark), ...cells));
  });
  return el("table", { id: "leaderboard-table" }, el("caption", { text: caption(reply, metric) }), el("thead", {}, head), body);
}

function render() {
  const shown = store.get().ranking;
  els.export.hidden = !shown;
  els.result.hidden = !shown;
  if (!shown) return els.result.replaceChildren();
  const { reply } = shown;
  const metric = reply.metrics.some((m) => m.name === els.metric.value) ? els.metric.value : reply.metric;
  // Warnings (one per fold, often) are kept one click away, so the ranking stays in view.
  const warned = reply.rows.filter((r) => r.warnings?.length).map((r) => el("li", { text: `${r.label}: ${r.warnings.join(" ")}` }));
  const details = warned.length ? el("details", {}, el("summary", { text: `Warnings while fitting (${warned.length} ${warned.length === 1 ? "learner" : "learners"})` }),
    el("ul", { class: "warnings" }, ...warned)) : null;
  els.result.replaceChildren(scrollingTable(leaderTable(reply, metric), "Learners ranked"),
    significanceNote(reply, metricOf(reply, metric).label), ...(details ? [details] : []));
}

async function compare() {
  showMessage("");
  const s = store.get();
  // The chosen model's row limit is the comparison's sample switch's business, not Train's.
  const args = trainingArgs({ ...s, sample: true });
  if (args.problem) return showMessage(args.problem, "", args.control);
  const learners = checkedLearners();
  if (!learners.length) return showMessage("Tick at least one learner to compare.", "", "#leaderboard-learners input");
  const { model, params, ...common } = args;
  const evaluation = comparisonEvaluation(s, common.evaluation);
  if (evaluation.problem) return showMessage(evaluation.problem, "", "#cv-repeats");
  // Standardizing and missing cells follow each learner's own default unless the user set them for all.
  const setup = { ...common, preprocessing: { standardize: s.standardize ?? null, impute: s.impute ?? null },
    sample: Boolean(s.rankSample) };
  const workers = workerCount();
  if (workers.problem) return showMessage(workers.problem, "", "#leaderboard-workers");
  // The repeats are the comparison's alone: a row opens with the setup, which Train cross-validates once.
  const request = { ...setup, evaluation, learners, params: { [model]: params }, metric: els.metric.value || null };
  const ranking = workers.count > 1 ? () => pooledRanking(request, workers.count)
    : () => python.call("rank_learners", request);
  const reply = await run(`Comparing ${learners.length} learners…`, ranking, { cancellable: true, where: { panel: "rank" } });
  if (!reply) return;
  els.metric.replaceChildren(...reply.metrics.map((m) => option(m.name, m.label, m.name === reply.metric)));
  store.set({ ranking: { reply, setup } });
}

// The ranking rank_learners makes, made by the pool and merged as rank_learners merges them. Under k-fold a
// piece is one fold of one learner (rank_fold_piece), each in whichever worker is free, then each learner's
// piece is made from its folds, fitting nothing more (rank_piece with `folds`): a slow learner's
// folds are shared out, so the workers keep busy to the end. Under a split a piece is a learner, and the
// slowest bounds the time (benchmarks/pool.py). The bar counts the folds, then the learners, done.
async function pooledRanking(request, size) {
  const { models } = store.get();
  const labelOf = (name) => models.find((m) => m.name === name)?.label || name;
  const folds = request.evaluation.method === "kfold" ? await pooledFolds(request, size, labelOf) : null;
  const pieces = request.learners.map((name, index) => ({ label: labelOf(name), cmd: "rank_piece",
    args: { ...request, index, ...(folds ? { folds: folds[index] } : {}) } }));
  const [start, share] = folds ? [FOLDS_SHARE, 1 - FOLDS_SHARE] : [0, 1];
  const counted = (done, total) => showProgress({ event: "progress", fraction: start + share * done / total,
    label: `Compared ${done} of ${total} learners in ${size} workers…` });
  const done = await mapOnPageData(pieces, size, counted);
  const { learners, evaluation, metric } = request;
  return pool.call("rank_merge", { learners, pieces: done, evaluation, metric }, "the ranking of the learners");
}

// The bar's share of the folds: a learner's piece after them only puts its row together from them.
const FOLDS_SHARE = 0.95;

// Every learner's fold pieces (of every repeat), [learner][fold]; the bar counts the folds done.
async function pooledFolds(request, size, labelOf) {
  const count = request.evaluation.k * (request.evaluation.repeats || 1);
  const pieces = request.learners.flatMap((name, index) => Array.from({ length: count }, (_, fold) => ({
    label: `${labelOf(name)}, fold ${fold + 1} of ${count}`, cmd: "rank_fold_piece", args: { ...request, index, fold } })));
  const counted = (done, total) => showProgress({ event: "progress", fraction: FOLDS_SHARE * done / total,
    label: `Fitted ${done} of ${total} folds of ${request.learners.length} learners in ${size} workers…` });
  const done = await mapOnPageData(pieces, size, counted);
  return request.learners.map((_, index) => done.slice(index * count, (index + 1) * count));
}

// Opens a compared learner's model in every view: trained again with the comparison's settings, it is
// the same model, and the model controls show it, so Train, the link and the exports agree with it.
async function openRow(row) {
  const shown = store.get().ranking;
  if (!shown || row.error) return;
  showMessage("");
  const args = { ...shown.setup, model: row.model, params: row.params };
  chooseModel(row.model, row.params);
  if (row.sample) store.set({ sample: true });  // Train then makes the same model on the same sample
  const opened = await trainAndRecord(args);  // the run history records it, as Train's
  if (opened) {
    for (const tr of els.result.querySelectorAll("tbody tr")) tr.classList.toggle("chosen", tr.dataset.model === row.model);
  }
}

// The table as a CSV file: learner, its parameters, every metric's mean and std, the times, then for the
// metric ranked by the test against the best and every fold's score (leaderboard-significance.js).
function comparisonCsv(reply) {
  const metric = reply.metrics.some((m) => m.name === els.metric.value) ? els.metric.value : reply.metric;
  const names = reply.metrics.map((m) => m.name);
  const folds = csvColumns(reply, metric);
  const header = ["rank", "learner", "model", "params", "scored_on", ...names.flatMap((n) => [`${n}_mean`, `${n}_std`]),
    "fit_seconds", "predict_seconds", "sample_rows", "error", ...folds.header];
  let place = 0;
  const lines = ranked(reply, metric).map((row) => [!row.scores || row.baseline ? "" : ++place, row.label,
    row.baseline ? "baseline" : row.model, row.baseline ? "" : JSON.stringify(row.params),
    reply.scored_on, ...names.flatMap((n) => [row.scores?.[n]?.mean, row.scores?.[n]?.std]),
    row.fit_seconds, row.predict_seconds, row.sample?.rows, row.error ?? (row.left_out && `left out: ${row.left_out}`),
    ...folds.values(row)]);
  return [header, ...lines].map((line) => line.map(csvField).join(",")).join("\n") + "\n";
}

function csvField(value) {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function enable(s) {
  const idle = s.ready && !s.busy;
  setDisabled(els.compare, !(idle && s.table && taskOf(s)));
  setDisabled(els.all, !(idle && taskOf(s)));
  setDisabled(els.export, !idle);
  setDisabled(els.metric, !idle || !taskOf(s));
  setDisabled(els.workers, !idle);
}

export function mountLeaderboard() {
  store.subscribe(["models", "model", "table"], drawLearners);
  store.subscribe(["models", "model", "table", "rankSample"], drawLimit);
  els.sample.addEventListener("change", () => store.set({ rankSample: els.sample.checked }));
  // A new table (another file, or the same data restored into a new worker) makes the ranking stale.
  store.subscribe(["table"], () => store.set({ ranking: null }));
  store.subscribe(["ranking"], render);
  store.subscribe(["ready", "busy", "table", "model", "models"], enable);
  els.learners.addEventListener("change", (event) => tick(event.target.value, event.target.checked));
  els.all.addEventListener("click", () => {
    for (const box of els.learners.querySelectorAll("input")) {
      box.checked = true;
      tick(box.value, true);
    }
  });
  els.metric.addEventListener("change", render);
  els.compare.addEventListener("click", compare);
  els.workers.value = defaultPoolSize();
  els.workers.max = largestPool();
  els.export.addEventListener("click", () => {
    const shown = store.get().ranking;
    if (shown) downloadText("learners_compared.csv", comparisonCsv(shown.reply), "text/csv");
  });
  drawLearners(store.get());
  drawLimit(store.get());
  enable(store.get());
}
