// The "Staged score" view: the model's score on the held-out rows and on its training rows after each
// number of trees (each stage of its staged_predict), and the out-of-bag score beside the held-out one.
// Asked of Python (`staged`) when the tab is opened; kept per model.
import { byId, el, formatValue } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run } from "./work.js";
import { renderer, sizeFor } from "./view-draw.js";

const e = byId;
// The staged scores of each result: a cache, not state, kept by the result object (a restarted worker
// numbers its models from 1 again).
const replies = new WeakMap();

async function stagedFor(result) {
  if (!replies.has(result)) {
    const reply = await run("Scoring the model after each tree…", () => python.call("staged", { model_id: result.model_id }), { cancellable: true });
    if (!reply) return null;
    replies.set(result, reply);
  }
  return replies.get(result);
}

// The last stage's scores in words, written as the headline writes its score: the held-out score first,
// the out-of-bag score beside it.
export function stagedFacts(reply) {
  const n = reply.n_stages;
  const name = reply.scoring === "accuracy" ? "accuracy" : "R²";
  const score = (v) => formatValue(v, reply.scoring === "accuracy" ? "percent" : "number");
  const last = (split) => score(reply.scores[split][n - 1]);
  const parts = [];
  if (reply.held_out) parts.push(`${reply.held_out} ${name} ${last(reply.held_out)}`);
  if (reply.oob_score !== null) parts.push(`out-of-bag ${name} ${score(reply.oob_score)}`);
  parts.push(`training ${name} ${last("train")}`);
  return `With all ${n} trees: ${parts.join(" · ")}.`;
}

// What the lines are, and what the out-of-bag score is (or how to get it).
export function stagedCaption(reply) {
  const rows = reply.held_out ? `the ${reply.held_out} rows, which no tree saw,`
    : reply.method === "kfold" ? "no held-out rows (under k-fold the model shown was fitted on every row)"
      : "no held-out rows (this run kept none out)";
  const oob = reply.oob_score !== null
    ? " The out-of-bag score (dashed) scores each training row with only the trees whose bootstrap sample left it out: a held-out score without holding rows out."
    : reply.oob ? "" : " Train with oob_score on to see the out-of-bag score beside it.";
  return `The score after each number of trees, on ${rows} and on the training rows, from the model's own staged predictions.${oob}`;
}

async function draw({ result, view }) {
  if (view !== "staged" || !result?.model_id || !(result.views || []).includes("staged")) return;
  const reply = await stagedFor(result);
  if (!reply || store.get().result !== result || store.get().view !== "staged") return;
  const mod = await renderer("staged-curve");
  e("staged-facts").textContent = stagedFacts(reply);
  e("staged-caption").textContent = stagedCaption(reply);
  const canvas = e("staged-canvas");
  mod.drawStaged(canvas, reply, { ...sizeFor(canvas, 0.55, 420), title: "Score against the number of trees" });
  e("staged-text").replaceChildren(mod.describeStaged(reply));
}

export function mountStagedView() {
  store.subscribe(["result", "view"], (state) => {
    draw(state).catch((error) => {
      e("staged-caption").replaceChildren(el("strong", { text: `The staged score could not be drawn: ${error.message}` }));
    });
  });
}
