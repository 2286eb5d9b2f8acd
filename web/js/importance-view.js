// The Importance view: which features the model relies on. Permutation importance (the drop in the score
// when one feature's values are shuffled, on rows the model did not see, with its spread over repeats)
// for any supervised model, and beside it a tree's impurity importance (from its training rows). Asked of
// Python when the tab is opened; kept per model.
import { byId, el } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run } from "./work.js";
import { renderer, sizeFor } from "./view-draw.js";

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

async function importanceFor(modelId) {
  if (!replies.has(modelId)) {
    const reply = await run("Computing feature importance…", () => python.call("importance", { model_id: modelId }), { cancellable: true });
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
