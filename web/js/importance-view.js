// The Importance view: which features the model relies on. Permutation importance (the drop in the score
// when one feature's values are shuffled, on rows the model did not see, with its spread over repeats)
// for any supervised model, and beside it a tree's impurity importance (from its training rows). Asked of
// Python when the tab is opened; kept per model. With Workers above 1 the pool's workers compute it in
// pieces side by side, and the page's worker, which keeps the model, merges them.
import { byId, el } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run, showProgress } from "./work.js";
import { renderer, sizeFor } from "./view-draw.js";
import { workerCount } from "./workers-box.js";
import { mapOnPageData } from "./pool.js";
import { changedParts, trainingSettings } from "./result-standing.js";

const e = byId;
const replies = new Map();  // importance by model id: a cache, not state
const SCORE_NAMES = { accuracy: "accuracy", r2: "R²" };

// What the numbers are and which rows they come from, in words.
export function importanceCaption(reply) {
  const p = reply.permutation;
  const score = SCORE_NAMES[p.scoring] || p.scoring;
  const n = reply.n_rows.toLocaleString("en-US");
  const where = reply.rows === "out_of_fold" ? `each fold model's held-out rows (${n} rows in all)`
    : reply.in_sample ? `the ${n} training rows (this run kept no rows out, so it also rewards what the model memorised)`
      : `${n} ${reply.rows} rows`;
  const sampled = reply.sampled ? ` A sample of ${n} of the ${reply.n_held_out.toLocaleString("en-US")} held-out rows, drawn with the run's seed, keeps it quick.` : "";
  return `How much the ${score} drops when one feature's values are shuffled, on ${where}; the bar is the mean of `
    + `${p.n_repeats} shuffles per ${reply.rows === "out_of_fold" ? "fold" : "feature"} (seed ${p.seed}), the whisker ± one standard deviation.${sampled}`;
}

// The `train` arguments a pool worker plans the shown model's run from (bridge importance_piece), or null
// when the page's worker must do it all: the page's last training made this model (not an imported one) on
// the data as it is now (no column kind changed since, so the pool's copy of the data is the model's), and,
// under a split or with no rows held out, where each pool worker trains the model again
// (workbench/rebuilt_run.py), it has a seed: a learner whose seed is none would train another model there.
const TRAIN_KEYS = ["target", "features", "model", "params", "evaluation", "preprocessing", "sample"];

function trainedWith(s) {
  const { result, lastTrain } = s;
  if (!lastTrain || result.imported) return null;
  const dataChanged = changedParts(s.trainedSettings, trainingSettings(s)).some((part) => ["column kinds", "data"].includes(part));
  const unseeded = lastTrain.evaluation?.method !== "kfold" && lastTrain.params?.random_state === null;
  if (dataChanged || unseeded) return null;
  return Object.fromEntries(TRAIN_KEYS.filter((key) => key in lastTrain).map((key) => [key, lastTrain[key]]));
}

// How many blocks the features are cut into (bridge importance_piece: a piece is a fold, or the fitted model,
// with one block shuffled). Under k-fold enough for the folds' pieces to come out a multiple of the workers,
// so none waits idle at the end (5 folds in 2 workers: 10 pieces); else two a worker, as each piece trains
// the model again first: few pieces, yet the bar moves and a slower worker takes fewer.
function blocksFor(evaluation, size) {
  if (evaluation?.method === "kfold") return evaluation.k % size === 0 ? 1 : size;
  return Math.min(2 * size, MAX_BLOCKS);
}
const MAX_BLOCKS = 64;  // judging.MAX_BLOCKS

// The reply `importance` makes, made by the pool: every piece in whichever worker is free, the bar counting
// the pieces done, then merged by the page's worker, where the model is (a tree's impurity importance).
async function pooledImportance(modelId, args, size) {
  const blocks = blocksFor(args.evaluation, size);
  const count = (args.evaluation?.method === "kfold" ? args.evaluation.k : 1) * blocks;
  const pieces = Array.from({ length: count }, (_, index) => ({ label: `piece ${index + 1} of ${count} of the importance`,
    cmd: "importance_piece", args: { ...args, index, blocks } }));
  const counted = (done, total) => showProgress({ event: "progress", fraction: done / total,
    label: `Shuffled ${done} of ${total} pieces of the features in ${size} workers…` });
  const done = await mapOnPageData(pieces, size, counted);
  return python.call("importance_merge", { model_id: modelId, pieces: done });
}

// Asked of the page's worker alone, or of the pool when Workers (the Compare panel's box, one setting for
// every pooled job) is above 1 and the pool can make this model's run.
function importanceOf(modelId) {
  const workers = workerCount();
  const args = workers.count > 1 ? trainedWith(store.get()) : null;
  return args ? pooledImportance(modelId, args, workers.count) : python.call("importance", { model_id: modelId });
}

async function importanceFor(modelId) {
  if (!replies.has(modelId)) {
    const reply = await run("Computing feature importance…", () => importanceOf(modelId), { cancellable: true });
    if (!reply) return null;
    replies.set(modelId, reply);
  }
  return replies.get(modelId);
}

// The impurity importances in the permutation bars' order, so the two charts read row by row.
function impurityBars(reply) {
  const { features, importances } = reply.impurity;
  const value = Object.fromEntries(features.map((f, i) => [f, importances[i]]));
  const labels = reply.permutation.features.filter((f) => f in value);
  return { labels, values: labels.map((f) => value[f]) };
}

async function draw({ result, view }) {
  if (view !== "importance" || !result?.model_id) return;
  const reply = await importanceFor(result.model_id);
  if (!reply || store.get().result !== result || store.get().view !== "importance") return;
  const mod = await renderer("bars");
  const p = reply.permutation;
  const permutation = { labels: p.features, values: p.mean, errors: p.std };
  const score = SCORE_NAMES[p.scoring] || p.scoring;
  e("importance-caption").textContent = importanceCaption(reply);
  const tree = Boolean(reply.impurity);
  e("impurity-figure").hidden = !tree;
  const width = sizeFor(e("permutation-canvas"), 0.8).width;
  mod.drawBars(e("permutation-canvas"), permutation, { width, title: "Permutation importance (held out)", xLabel: `drop in ${score} when shuffled` });
  const twins = [mod.describeBars(permutation, { caption: "Permutation importance", valueName: `drop in ${score}` })];
  if (tree) {
    const impurity = impurityBars(reply);
    mod.drawBars(e("impurity-canvas"), impurity, { width, title: "Impurity importance (training rows)",
      xLabel: "share of the impurity decrease", colour: "#2f9e5b" });
    twins.push(mod.describeBars(impurity, { caption: "The tree's impurity importance", valueName: "share of impurity decrease" }));
  }
  e("importance-text").replaceChildren(...twins);
}

export function mountImportanceView() {
  store.subscribe(["result", "view"], (state) => {
    draw(state).catch((error) => {
      e("importance-caption").replaceChildren(el("strong", { text: `The importance could not be drawn: ${error.message}` }));
    });
  });
}
