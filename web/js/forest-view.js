// The Forest view of an ensemble of trees: its first trees as small multiples (their shapes, leaves in
// their class's colour), how many trees there are in all, each tree's vote for a chosen row with the
// tally (the share of trees voting each class beside the forest's mean probability, which is what it
// predicts by), and one tree opened large in the tree view's drawing. Python sends the shapes and votes
// (the `forest` and `forest_votes` commands) and one tree when it is opened (`forest_tree`).
import { byId, el } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run } from "./work.js";
import { renderer } from "./view-draw.js";
import { createTreeView } from "./tree-view.js";
import { classColour } from "./render/palette.js";
import { fmt } from "./render/twin.js";

const e = byId;
// Caches, not state, kept by the result object: a restarted worker numbers its models from 1 again.
const forests = new WeakMap();  // the forest reply of each result
const openTrees = new WeakMap();  // each result's opened trees, by index
let treeView = null;  // the open tree's drawn view (canvas, zoom), made once: a drawn object, not state
let shown = null;  // {result, forest, votes, open}: what the drawing shows (its data), not state

async function forestFor(result) {
  if (!forests.has(result)) {
    const reply = await run("Drawing the forest…", () => python.call("forest", { model_id: result.model_id }), { cancellable: true });
    if (!reply) return null;
    forests.set(result, reply);
  }
  return forests.get(result);
}

const percent = (v) => `${Number((100 * v).toPrecision(3))}%`;
const plural = (n, word) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
const leaves = (n) => `${n.toLocaleString("en-US")} ${n === 1 ? "leaf" : "leaves"}`;

// Colours are set through the element's style object: the page's policy refuses inline style attributes.
function painted(node, styles) {
  Object.assign(node.style, styles);
  return node;
}

function swatch(colour) {
  return painted(el("span", { class: "forest-swatch", "aria-hidden": "true" }), { background: colour });
}

// The tally of a classifier's votes: per class, the trees voting it and their share, and the forest's mean
// probability (predict_proba), then the majority of votes and the forest's prediction, in words.
function classTally(forest, votes) {
  const rows = forest.classes.map((c, i) => el("tr", {},
    el("th", { scope: "row" }, swatch(classColour(i)), ` ${c}`),
    el("td", { text: String(votes.counts[i]) }),
    el("td", {}, painted(el("span", { class: "forest-bar" }),
      { width: `${Math.round(60 * votes.vote_share[i])}px`, background: classColour(i) }),
      percent(votes.vote_share[i])),
    el("td", { text: fmt(votes.mean_proba[i], 3) })));
  const table = el("table", {}, el("caption", { class: "visually-hidden", text: `The votes for row ${votes.row}` }),
    el("thead", {}, el("tr", {}, ...["class", "trees voting", "share of trees", "mean probability"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows));
  const top = Math.max(...votes.counts);
  const words = `Majority of the votes: ${votes.majority} (${top} of ${plural(votes.n_trees, "tree")}). The forest predicts ` +
    `${votes.predicted}, the class of highest mean probability: it averages its trees' probabilities rather than counting their votes` +
    (String(votes.majority) === String(votes.predicted) ? ", and here both agree." : "; here the two differ, as trees whose leaves are not pure can make them.");
  return [table, el("p", { class: "help", text: words })];
}

// A regressor's: the spread of its trees' predictions and their mean, which is what it predicts.
function valueTally(votes) {
  const values = votes.tree_values;
  const low = Math.min(...values);
  const high = Math.max(...values);
  return [el("p", { text: `The ${plural(votes.n_trees, "tree")} predict from ${fmt(low, 4)} to ${fmt(high, 4)}; the forest predicts their mean, ${fmt(votes.predicted, 4)}.` })];
}

function drawTally(forest, votes) {
  const box = e("forest-tally");
  if (!votes) {
    box.replaceChildren(el("p", { class: "help", text: "This model was imported without its data, so there is no row to vote on." }));
    return;
  }
  const actual = votes.actual === undefined ? "" : ` (its actual value: ${typeof votes.actual === "number" ? fmt(votes.actual, 4) : votes.actual})`;
  box.className = "forest-tally";
  box.replaceChildren(el("p", { text: `Row ${votes.row}${actual}:` }),
    ...(forest.task === "regression" ? valueTally(votes) : classTally(forest, votes)));
}

// One small multiple: a button with the tree's shape, its size and its vote for the row.
function card(mod, forest, votes, i, open) {
  const t = forest.trees[i];
  const canvas = el("canvas", { "aria-hidden": "true" });
  const vote = votes ? mod.voteText(forest, votes, i) : "";
  const colour = votes && forest.task !== "regression" ? classColour(votes.tree_votes[i]) : null;
  const button = el("button", { type: "button", class: "forest-card", dataset: { tree: String(i) }, "aria-pressed": String(open === i),
    tabindex: i === (open ?? 0) ? "0" : "-1" },
  // The visible text is the button's name (the drawing is hidden from screen readers); the spaces between
  // the parts keep its words apart when read.
  canvas, el("span", { class: "forest-name", text: `Tree ${i + 1}` }), " ", el("span", { text: `depth ${t.depth} · ${leaves(t.leaves)}` }),
  vote ? " " : null, vote ? el("span", { class: "forest-vote" }, colour ? swatch(colour) : null, `${forest.task === "regression" ? "predicts" : "votes"} ${vote}`) : null);
  return { button, canvas };
}

// What the leaves' colours mean: a class each, or a regressor's values from low to high.
function drawLegend(forest) {
  const items = forest.task === "regression"
    ? [el("span", { text: `Leaves from ${fmt(forest.value_range[0], 4)} (light) to ${fmt(forest.value_range[1], 4)} (dark)` })]
    : forest.classes.map((c, i) => el("span", {}, swatch(classColour(i)), String(c)));
  e("forest-legend").replaceChildren(el("span", { text: "Leaves:" }), ...items);
}

function drawGrid(mod, forest, votes, open) {
  const grid = e("forest-grid");
  const cards = forest.trees.map((_, i) => card(mod, forest, votes, i, open));
  grid.replaceChildren(...cards.map((c) => c.button));
  for (const [i, { button, canvas }] of cards.entries()) {
    const width = Math.max(120, button.clientWidth - 10 || 150);
    mod.drawShape(canvas, forest.trees[i], { width, height: Math.round(width * 0.6), task: forest.task, valueRange: forest.value_range });
  }
}

function drawText(mod, forest, votes) {
  e("forest-text").replaceChildren(mod.describeForest(forest, votes));
}

async function draw({ result, view }) {
  if (view !== "forest" || !result?.model_id || !(result.views || []).includes("forest")) return;
  const forest = await forestFor(result);
  if (!forest || store.get().result !== result || store.get().view !== "forest") return;
  if (shown?.result === result) return;  // already drawn: the row and the open tree stay as they are
  const mod = await renderer("forest-draw");
  shown = { result, forest, votes: forest.votes, open: null, mod };
  const more = forest.n_trees - forest.shown;
  e("forest-count").textContent = `${plural(forest.n_trees, "tree")} in all` + (more > 0 ? `; the first ${forest.shown} are drawn, and all ${forest.n_trees} vote.` : ".") +
    ` Each is drawn down to ${forest.thumb_depth} levels (a ring marks a deeper subtree); its leaves are coloured by what they predict.`;
  e("forest-row-bar").hidden = forest.votes === null;
  if (forest.n_rows) {
    e("forest-row").max = String(forest.n_rows);
    e("forest-row").value = String(forest.votes.row);
  }
  e("forest-open").hidden = true;
  drawTally(forest, forest.votes);
  drawLegend(forest);
  drawGrid(mod, forest, forest.votes, null);
  drawText(mod, forest, forest.votes);
}

async function chooseRow(value) {
  if (!shown) return;
  const row = Number(value);
  const { result, forest } = shown;
  const votes = await run("Counting the trees' votes…", () => python.call("forest_votes", { model_id: result.model_id, row }), { cancellable: true });
  if (!votes || shown?.result !== result) return;
  shown.votes = votes;
  drawTally(forest, votes);
  drawGrid(shown.mod, forest, votes, shown.open);
  drawText(shown.mod, forest, votes);
  if (shown.open !== null) await openTree(shown.open);  // the open tree shows the new row's path
}

async function openTree(index) {
  if (!shown) return;
  const { result, forest } = shown;
  const row = shown.votes?.row ?? null;  // the path of the row whose votes are shown
  if (!openTrees.has(result)) openTrees.set(result, new Map());
  const opened = openTrees.get(result);
  const key = `${index}|${row}`;
  if (!opened.has(key)) {
    const reply = await run(`Opening tree ${index + 1}…`, () => python.call("forest_tree", { model_id: result.model_id, index, row }), { cancellable: true });
    if (!reply) return;
    opened.set(key, reply);
  }
  if (shown?.result !== result) return;
  const t = opened.get(key);
  shown.open = index;
  for (const button of e("forest-grid").querySelectorAll(".forest-card")) {
    const on = Number(button.dataset.tree) === index;
    button.setAttribute("aria-pressed", String(on));
    button.tabIndex = on ? 0 : -1;
  }
  e("forest-open").hidden = false;
  e("forest-open-title").textContent = `Tree ${index + 1} of ${forest.n_trees}: depth ${t.depth}, ${leaves(t.leaves)}`;
  e("forest-tree-path").hidden = !t.path;
  e("forest-tree-path").textContent = t.path ? `Row ${t.path.row} in this tree: ${t.path.text}.` : "";
  e("forest-tree-note").textContent = t.tree_nodes_omitted
    ? `${t.tree_nodes_omitted.toLocaleString("en-US")} of its nodes are not drawn (dashed boxes say where); the exported model has them all.` : "";
  treeView.draw(t.tree, (t.classes || []).map(String));
}

// Arrow keys move between the trees (a roving tab stop: Tab enters the grid once), Home and End to the
// first and last; Enter and Space open one, as a button does.
function moveAmongTrees(event) {
  const cards = [...e("forest-grid").querySelectorAll(".forest-card")];
  const at = cards.indexOf(document.activeElement);
  if (at < 0) return;
  const columns = Math.max(1, Math.round(e("forest-grid").clientWidth / Math.max(1, cards[0].offsetWidth)));
  const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: at + columns, ArrowUp: at - columns, Home: 0, End: cards.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const next = cards[Math.min(cards.length - 1, Math.max(0, moves[event.key]))];
  for (const c of cards) c.tabIndex = c === next ? 0 : -1;
  next.focus();
}

export function mountForestView() {
  treeView = createTreeView({ scroll: e("forest-tree-scroll"), canvas: e("forest-tree-canvas"), text: e("forest-tree-text"),
    buttons: { zoomIn: e("forest-zoom-in"), zoomOut: e("forest-zoom-out"), fit: e("forest-zoom-fit"), reset: e("forest-zoom-reset") } });
  const failed = (error) => e("forest-count").replaceChildren(el("strong", { text: `The forest could not be drawn: ${error.message}` }));
  store.subscribe(["result", "view"], (state) => {
    if (state.result !== shown?.result) shown = null;
    draw(state).catch(failed);
  });
  e("forest-row").addEventListener("change", (event) => chooseRow(event.target.value).catch(failed));
  e("forest-grid").addEventListener("click", (event) => {
    const button = event.target.closest(".forest-card");
    if (button) openTree(Number(button.dataset.tree)).catch(failed);
  });
  e("forest-grid").addEventListener("keydown", moveAmongTrees);
}
