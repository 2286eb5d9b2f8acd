// "See it learn": a step-through timeline of the latest trained model with the notes' formulas beside
// every step, a row's decision path, the estimation lab and seeded exercises. Self-contained: the page
// mounts it with mountLearnPanel(container, {python, getContext, run}); Python computes every number.
// Every job goes through `run`, the page's job runner (work.js: the page shows it busy, and Cancel stops a
// long one); mounted alone (a test page) it runs them as they come. The estimation lab is not a job: it
// redraws as its sliders move, as a plot does, and drew once at mount, so it calls Python directly and
// never marks the page busy (which would disable the data and model controls under the user's focus).
import { el, simpleTable } from "../dom.js";
import { VIEWS } from "./views.js";
import { renderMath, loadTemml } from "./math.js";
import { labPane } from "./lab.js";
import { growPane } from "./grow.js";

let styled = false;
function addStyles() {
  if (styled) return;
  styled = true;
  document.head.append(el("link", { rel: "stylesheet", href: new URL("../../learn.css", import.meta.url).href }));
}

const fmt = (v) => (typeof v === "number" ? String(Number(v.toFixed(4))) : String(v));

// What the page's status line says while each request runs; the ones that can take long can be cancelled.
const JOBS = { timeline: ["Replaying the learner's steps…", true], explain_row: ["Explaining the row…", true],
  exercise: ["Making an exercise…", false], check_exercise: ["Checking the answer…", false],
  grow_yourself: ["Growing the tree…", false] };
const runAlone = (label, work, { onError }) => work().catch((error) => { onError(error); return null; });

export function mountLearnPanel(container, { python, getContext, run = runAlone }) {
  addStyles();
  loadTemml();
  const status = el("p", { class: "learn-status", role: "status", "aria-live": "polite" });
  const tabs = {};
  const panes = {};
  const bar = el("div", { class: "learn-tabs", role: "tablist" });
  const root = el("section", { class: "learn-panel", "aria-label": "See it learn" },
    el("h2", { text: "See it learn" }), bar, status);
  for (const [key, label] of [["steps", "Steps"], ["row", "One row"], ["grow", "Grow it yourself"], ["lab", "Estimation lab"], ["exercise", "Check your work"]]) {
    tabs[key] = el("button", { type: "button", role: "tab", class: "learn-tab", text: label, onclick: () => select(key) });
    panes[key] = el("div", { class: "learn-pane", role: "tabpanel", hidden: true, dataset: { pane: key } });
    bar.append(tabs[key]);
    root.append(panes[key]);
  }
  container.append(root);
  const say = (text, error = false) => { status.textContent = text; status.classList.toggle("learn-error", error); };
  // A request stopped by Cancel is not the panel's error: the page's own status line says what was
  // cancelled, and the panel's work is asked for again (the lab redraws when its tab is chosen).
  const report = (error) => say(error.code === "cancelled" ? "" : error.message, error.code !== "cancelled");
  const call = async (cmd, args) => {
    const [label, cancellable] = JOBS[cmd] || ["Working…", false];
    let failed = null;
    const reply = await run(label, () => python.call(cmd, args), { cancellable, onError: (error) => {
      failed = error;
      report(error);
    } });
    if (failed || reply === null) throw failed || new Error(`${cmd} gave no reply`);
    return reply;
  };
  const steps = stepsPane(panes.steps, { call, getContext, say });
  const row = rowPane(panes.row, { call, getContext, say });
  const draw = (cmd, args) => python.call(cmd, args).catch((error) => {
    report(error);
    throw error;
  });
  labPane(panes.lab, { call: draw, getContext, say });
  const exercise = exercisePane(panes.exercise, { call, getContext, say });
  const grow = growPane(panes.grow, { call, getContext, say });
  function select(key) {
    for (const k of Object.keys(tabs)) {
      tabs[k].setAttribute("aria-selected", String(k === key));
      panes[k].hidden = k !== key;
    }
    if (key === "lab") panes.lab.dispatchEvent(new Event("lab-run"));
  }
  select("steps");
  return { select, loadSteps: steps.load, explain: row.explain, newExercise: exercise.make, startGrowing: grow.start, element: root };
}

// --- the timeline -----------------------------------------------------------------------------------------

function stepsPane(pane, { call, getContext, say }) {
  const load = el("button", { type: "button", class: "learn-primary", text: "Show the steps" });
  const rowInput = el("input", { type: "number", min: 1, value: 1, class: "learn-row", "aria-label": "Row to explain (k-NN, naive Bayes, ensembles, networks)" });
  const prev = el("button", { type: "button", text: "◀ Back", "aria-label": "Step back" });
  const play = el("button", { type: "button", text: "▶ Play", "aria-label": "Play" });
  const next = el("button", { type: "button", text: "Forward ▶", "aria-label": "Step forward" });
  const scrub = el("input", { type: "range", min: 0, max: 0, value: 0, "aria-label": "Step" });
  const counter = el("span", { class: "learn-counter" });
  const controls = el("div", { class: "learn-controls", tabindex: 0, "aria-label": "Timeline controls (left and right arrows step)" },
    prev, play, next, scrub, counter);
  const title = el("h3", { class: "learn-title" });
  const view = el("div", { class: "learn-view" });
  const math = el("div", { class: "learn-math", role: "group", "aria-label": "The notes' formulas for this step" });
  pane.append(el("div", { class: "learn-toolbar" }, load, el("label", {}, "row to explain (k-NN, naive Bayes, ensembles, networks) ", rowInput)), title, controls,
    el("div", { class: "learn-body" }, view, el("aside", { class: "learn-notes" }, el("h3", { text: "The math" }), math)));
  const state = { tl: null, i: 0, show: null, timer: null };

  function go(i) {
    if (!state.tl) return;
    state.i = Math.max(0, Math.min(state.tl.frames.length - 1, i));
    scrub.value = String(state.i);
    counter.textContent = `step ${state.i + 1} / ${state.tl.frames.length}`;
    state.show(state.i);
    renderMath(math, state.tl.frames[state.i].math);
    pane.dataset.step = String(state.i);
  }
  function stop() { clearInterval(state.timer); state.timer = null; play.textContent = "▶ Play"; }
  play.addEventListener("click", () => {
    if (state.timer) return stop();
    if (state.i >= state.tl.frames.length - 1) go(0);
    play.textContent = "❚❚ Pause";
    state.timer = setInterval(() => (state.i >= state.tl.frames.length - 1 ? stop() : go(state.i + 1)), 700);
  });
  prev.addEventListener("click", () => { stop(); go(state.i - 1); });
  next.addEventListener("click", () => { stop(); go(state.i + 1); });
  scrub.addEventListener("input", () => { stop(); go(Number(scrub.value)); });
  pane.addEventListener("keydown", (event) => {
    if (!state.tl || event.target.matches("input[type=number], input[type=text]")) return;
    if (event.key === "ArrowRight") { event.preventDefault(); stop(); go(state.i + 1); }
    if (event.key === "ArrowLeft") { event.preventDefault(); stop(); go(state.i - 1); }
  });

  async function loadSteps() {
    const ctx = getContext();
    if (!ctx) return say("Train a model first; its steps then appear here.", true);
    stop();
    say(`Replaying ${ctx.model_name || ctx.model_id}…`);
    const tl = await call("timeline", { model_id: ctx.model_id, row: Number(rowInput.value) || 1 });
    if (!tl.frames.length) return say("This model recorded no steps.", true);
    state.tl = tl;
    view.replaceChildren();
    pane.dataset.family = tl.family;
    state.show = VIEWS[tl.family](view, tl);
    title.textContent = `${tl.label}: ${tl.frames.length} steps on ${tl.n_train} training rows`;
    scrub.max = String(tl.frames.length - 1);
    say(tl.truncated || tl.omitted ? "Only the first steps are shown." : "");
    go(0);
    controls.focus();
  }
  load.addEventListener("click", loadSteps);
  return { load: loadSteps, go };
}

// --- one row's decision --------------------------------------------------------------------------------

function rowPane(pane, { call, getContext, say }) {
  const input = el("input", { type: "number", min: 1, value: 1, "aria-label": "Row number" });
  const go = el("button", { type: "button", class: "learn-primary", text: "Explain this row" });
  const out = el("div", { class: "learn-explain" });
  pane.append(el("div", { class: "learn-toolbar" }, el("label", {}, "Row ", input), go), out);
  async function explain(row = Number(input.value)) {
    const ctx = getContext();
    if (!ctx) return say("Train a model first.", true);
    input.value = String(row);
    const ex = await call("explain_row", { model_id: ctx.model_id, row });
    say("");
    const values = Object.entries(ex.values).map(([k, v]) => `${k} = ${v}`).join(", ");
    const parts = [el("p", { class: "learn-muted", text: `Row ${ex.row}: ${values}${ex.actual !== undefined ? ` (actual: ${ex.actual})` : ""}` })];
    if (ex.kind === "path") {
      parts.push(el("ol", { class: "learn-path" }, ...ex.steps.map((s) => el("li", { text: s.test })), el("li", { class: "learn-leaf", text: `predict ${ex.prediction}` })),
        el("p", { class: "learn-path-text", text: ex.text }));
    } else if (ex.kind === "neighbours") {
      parts.push(simpleTable(["row", "distance", "label", "vote weight"], ex.neighbors.map((n) => [n.row, Number(n.distance.toFixed(4)), String(n.label), Number(n.weight.toFixed(3))]), { caption: `The ${ex.k} nearest training rows` }),
        simpleTable(["class", "votes", "share"], ex.classes.map((c, j) => [String(c), Number(ex.votes[j].toFixed(3)), Number(ex.proba[j].toFixed(3))]), { caption: `Vote → ${ex.prediction}` }));
    } else if (ex.kind === "naive_bayes") {
      const lp = (v) => (typeof v === "number" ? Number(v.toFixed(4)) : v);
      parts.push(simpleTable(["term", ...ex.classes.map(String)], [...ex.terms.map((t) => [t.term, ...t.log_prob.map(lp)]), ["sum", ...ex.total.map(lp)], ["P(y | x)", ...ex.proba.map(lp)]],
        { caption: `log P(y) + Σ log P(x_j | y) per class → ${ex.prediction}`, rowHeaders: true }));
    } else if (ex.kind === "scores") {
      parts.push(simpleTable(["term", "f(x)", ...ex.labels.map(String)], [...ex.terms.map((t) => [t.name, Number(t.value.toFixed(4)), ...t.weights.map((w) => Number((w * t.value).toFixed(4)))]),
        ["score", "", ...ex.scores.map((s) => Number(s.toFixed(4)))], ...(ex.proba ? [["P(y | x)", "", ...ex.proba.map((p) => Number(p.toFixed(4)))]] : [])],
      { caption: `w_j · f_j(x) per class → ${ex.prediction}`, rowHeaders: true }));
    } else if (ex.kind === "centres") {
      parts.push(simpleTable(["cluster", "distance to centre"], ex.distances.map((d, j) => [j, Number(d.toFixed(4))]), { caption: `Nearest centre → cluster ${ex.prediction}` }));
    } else parts.push(el("p", { text: `Prediction: ${ex.prediction}` }));
    out.replaceChildren(...parts);
    pane.dataset.kind = ex.kind;
  }
  go.addEventListener("click", () => explain());
  return { explain };
}

// --- exercises -------------------------------------------------------------------------------------------

// One given value of an exercise: a name = value list on one line, a nested list for a table of them.
function givenItem(key, value) {
  const plain = (v) => (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v));
  if (value === null || typeof value !== "object" || Array.isArray(value)) return el("li", { text: `${key}: ${plain(value)}` });
  const entries = Object.entries(value);
  if (entries.every(([, v]) => v === null || typeof v !== "object")) {
    return el("li", { text: `${key}: ${entries.map(([k, v]) => `${k} = ${plain(v)}`).join(", ")}` });
  }
  return el("li", {}, `${key}:`, el("ul", {}, ...entries.map(([k, v]) => givenItem(k, v))));
}

function exercisePane(pane, { call, getContext, say }) {
  const seedInput = el("input", { type: "number", min: 0, value: Number(new URLSearchParams(location.search).get("exercise") ?? 1), "aria-label": "Exercise seed" });
  const make = el("button", { type: "button", class: "learn-primary", text: "New exercise" });
  const question = el("div", { class: "learn-question" });
  const answer = el("input", { type: "text", inputmode: "decimal", "aria-label": "Your answer" });
  const check = el("button", { type: "button", text: "Check" });
  const verdict = el("div", { class: "learn-verdict", "aria-live": "polite" });
  pane.append(el("div", { class: "learn-toolbar" }, el("label", {}, "Exercise seed ", seedInput), make), question,
    el("div", { class: "learn-toolbar" }, el("label", {}, "Your answer ", answer), check), verdict);
  async function makeExercise(seed = Number(seedInput.value)) {
    const ctx = getContext();
    if (!ctx) return say("Train a model first; the exercise is made from its data.", true);
    seedInput.value = String(seed);
    const ex = await call("exercise", { model_id: ctx.model_id, seed });
    say("");
    const given = Object.entries(ex.given).map(([k, v]) => givenItem(k, v));
    question.replaceChildren(el("p", { class: "learn-q", text: ex.question }), el("ul", { class: "learn-given" }, ...given),
      el("p", { class: "learn-muted", text: `Answers within ${ex.tolerance} of the exact value count as right. Seed ${ex.seed}: the same seed gives the same exercise.` }));
    verdict.replaceChildren();
    answer.value = "";
    pane.dataset.kind = ex.kind;
  }
  async function checkAnswer() {
    const ctx = getContext();
    if (!ctx) return;
    const result = await call("check_exercise", { model_id: ctx.model_id, seed: Number(seedInput.value), answer: answer.value.trim() });
    verdict.className = `learn-verdict ${result.correct ? "learn-right" : "learn-wrong"}`;
    verdict.replaceChildren(el("p", { class: "learn-verdict-head", text: result.correct ? `Right: ${fmt(result.expected)}` : `Not quite: the answer is ${fmt(result.expected)}` }),
      el("p", { class: "learn-muted", text: "Worked computation:" }), el("ol", {}, ...result.worked.map((w) => el("li", { text: w }))));
    say("");
  }
  make.addEventListener("click", () => makeExercise());
  check.addEventListener("click", checkAnswer);
  answer.addEventListener("keydown", (e) => { if (e.key === "Enter") checkAnswer(); });
  return { make: makeExercise };
}
