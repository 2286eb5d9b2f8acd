// "Grow it yourself": the student picks the attribute each open node of the notes' tree tests; Python
// (bridge `grow_yourself`) grows the tree with those picks, scores every candidate's gain and names ID3's
// pick, which are revealed only after the student has chosen. When no node is open, both trees are
// compared on the run's held-out rows. The page keeps the choices and draws what Python replies.
import { el, keyboardScrollableWhenScrolling, setDisabled, simpleTable } from "../dom.js";
import { drawTree, treeAsList } from "../render/tree-draw.js";

const bits = (g) => Number(g.toFixed(3));
const countsText = (counts) => Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ");
const branchesText = (branches) => Object.entries(branches).map(([value, c]) => `${value} ${Object.values(c).join("/")}`).join(" · ");
const percent = (x) => (x === null ? "—" : `${(100 * x).toFixed(1)}%`);

// A wide tree scrolls to the node the student is at (the root once grown): drawTree's regions end with
// one box per laid-out node, in the layout's order.
function scrollTo(box, drawn, wanted) {
  const at = drawn.nodes.findIndex((entry) => wanted(entry.node));
  if (at < 0) return;
  const region = drawn.regions[drawn.regions.length - drawn.nodes.length + at];
  box.scrollLeft = Math.max(0, (region.x + region.w / 2) * drawn.scale - box.clientWidth / 2);
}

export function growPane(pane, { call, getContext, say }) {
  const start = el("button", { type: "button", class: "learn-primary", text: "Start growing" });
  const undo = el("button", { type: "button", class: "learn-secondary", text: "Undo last choice", disabled: true });
  const finish = el("button", { type: "button", class: "learn-secondary", text: "Let ID3 choose the rest", hidden: true });
  const intro = el("p", { class: "learn-muted", text: "Train a decision tree on a small categorical table (restaurant, play tennis), then "
    + "choose the attribute each node tests. After each choice you see every candidate's information gain and the one ID3 picks." });
  const node = el("p", { class: "learn-grow-node" });
  const ask = el("div", { class: "learn-grow-ask" });
  // The verdict on each choice is announced where it shows, so the panel's status line stays quiet then.
  const verdictLine = el("p", { class: "learn-verdict", role: "status" });
  const reveal = el("div", { class: "learn-grow-reveal" });
  const next = el("button", { type: "button", class: "learn-primary", text: "Next node ▶", hidden: true });
  const canvas = el("canvas", { class: "learn-canvas", "aria-label": "Your tree so far" });
  const twin = el("details", { class: "learn-twin" }, el("summary", { text: "Your tree as text" }));
  const scroll = el("div", { class: "learn-tree-scroll" }, canvas);
  keyboardScrollableWhenScrolling(scroll, "Your tree");
  const result = el("div", { class: "learn-grow-result" });
  const theirs = el("div", { class: "learn-grow-id3" });
  const work = el("div", { class: "learn-grow-work" }, ask, verdictLine, reveal, next);
  // Side by side while there is a choice to make; a wide tree wraps below it and scrolls rather than shrinks.
  pane.append(el("div", { class: "learn-toolbar" }, start, undo, finish), intro, node, result,
    el("div", { class: "learn-grow-layout" }, work,
      el("div", { class: "learn-grow-tree" }, el("h3", { class: "learn-title", text: "Your tree" }), scroll, twin)),
    theirs);
  const state = { modelId: null, order: [], choices: {}, reply: null, showing: null };

  const record = (path) => state.reply.nodes.find((n) => n.path === path);
  const grow = (rest = false) => call("grow_yourself", { model_id: state.modelId, choices: state.choices, finish: rest });

  function drawGrown() {
    const reply = state.reply;
    const current = (n) => n.path === state.showing;
    const drawn = drawTree(canvas, reply.tree, reply.classes, { current });
    scrollTo(scroll, drawn, (n) => (state.showing === null ? n.path === "root" : current(n)));
    twin.replaceChildren(twin.firstChild, treeAsList(reply.tree, current));
    setDisabled(undo, state.order.length === 0);
    finish.hidden = reply.done;
    pane.dataset.open = String(reply.open.length);
  }

  // The open node: its examples and one button per attribute still open there; the gains stay hidden.
  function showOpen() {
    const reply = state.reply;
    const n = record(reply.current);
    state.showing = n.path;
    drawGrown();
    reveal.replaceChildren();
    verdictLine.textContent = "";
    next.hidden = true;
    result.replaceChildren();
    theirs.replaceChildren();
    work.hidden = false;
    node.textContent = `Node ${n.path}: ${n.samples} examples (${countsText(n.counts)}), entropy ${bits(n.entropy)} bits. `
      + `Which attribute should it test? (${reply.open.length} open ${reply.open.length === 1 ? "node" : "nodes"})`;
    const buttons = n.candidates.map((c) => el("button", { type: "button", class: "learn-grow-pick", text: c.attribute,
      onclick: () => choose(n.path, c.attribute) }));
    const table = simpleTable(["attribute", `branches (${reply.classes.join("/")})`],
      n.candidates.map((c) => [c.attribute, branchesText(c.branches)]), { caption: "What each test would make of these examples", rowHeaders: true });
    ask.replaceChildren(el("div", { class: "learn-toolbar", role: "group", "aria-label": `Attribute to test at ${n.path}` }, ...buttons),
      el("div", { class: "learn-table" }, table));
    pane.dataset.node = n.path;
    buttons[0]?.focus();
  }

  // After a choice: every candidate's gain with ID3's pick (★) and the student's (you) marked.
  function showDecided(path) {
    const n = record(path);
    state.showing = path;
    drawGrown();
    ask.replaceChildren();
    const rows = [...n.candidates].sort((a, b) => b.gain - a.gain).map((c) => [
      `${c.attribute === n.id3 ? "★ " : ""}${c.attribute}`, bits(c.gain), c.attribute === n.chosen ? "you" : "", branchesText(c.branches)]);
    const table = simpleTable(["attribute", "gain (bits)", "your pick", `branches (${state.reply.classes.join("/")})`], rows,
      { caption: `Gain of every candidate at ${path}`, rowHeaders: true });
    table.classList.add("learn-importance");
    table.querySelectorAll("tbody tr").forEach((tr, i) => {
      if (rows[i][0].startsWith("★")) tr.classList.add("learn-winner");
      if (rows[i][2]) tr.classList.add("learn-current");
    });
    const verdict = n.matches_id3 ? `You chose ${n.chosen}, ID3's pick: the largest gain, ${bits(n.gain)} bits.`
      : `You chose ${n.chosen} (gain ${bits(n.gain)} bits); ID3 picks ${n.id3} (gain ${bits(n.candidates.find((c) => c.attribute === n.id3).gain)} bits).`;
    verdictLine.className = `learn-verdict ${n.matches_id3 ? "learn-right" : "learn-wrong"}`;
    verdictLine.textContent = verdict;
    reveal.replaceChildren(el("div", { class: "learn-table" }, table));
    node.textContent = `Node ${path}: ${n.samples} examples (${countsText(n.counts)}), split on ${n.chosen}.`;
    next.textContent = state.reply.done ? "Compare with ID3 ▶" : "Next node ▶";
    next.hidden = false;
    say("");
    next.focus();
  }

  // No node open: both trees on the held-out rows.
  function showComparison() {
    const reply = state.reply;
    const c = reply.comparison;
    state.showing = null;
    work.hidden = true;  // nothing left to choose: the trees take the width
    drawGrown();
    const nodes = (n) => (n === 1 ? "node" : "nodes");
    const rest = c.by_id3 ? `; ID3 chose at ${c.by_id3} more ${nodes(c.by_id3)}` : "";
    const yours = c.decided === 1 ? `your one choice was ${c.agreed ? "" : "not "}ID3's` : `${c.agreed} of your ${c.decided} choices were ID3's`;
    const who = c.decided ? `${yours}${rest}` : `ID3 chose at all ${c.by_id3} ${nodes(c.by_id3)}`;
    node.textContent = `Your tree is grown: ${who}${c.same_tree ? ", so it is ID3's tree." : "."}`;
    const where = c.rows === "test" ? `the ${c.n} test rows` : `the ${c.n} training rows`;
    const scores = simpleTable(["tree", "right", "accuracy"], [["yours", `${c.student.correct} of ${c.n}`, percent(c.student.accuracy)],
      ["ID3's", `${c.id3.correct} of ${c.n}`, percent(c.id3.accuracy)]], { caption: `Both trees on ${where}`, rowHeaders: true });
    const tables = [el("div", { class: "learn-table" }, scores)];
    if (c.differences.length) {
      tables.push(el("div", { class: "learn-table learn-scroll" }, simpleTable(["row", "actual", "yours", "ID3's"],
        c.differences.map((d) => [d.row, d.actual, d.student, d.id3]), { caption: c.n_differ > c.differences.length ? `The first ${c.differences.length} rows where they differ` : "Rows where they differ" })));
    }
    result.replaceChildren(el("h3", { class: "learn-title", text: "Your tree against ID3's" }),
      el("p", { text: c.n_differ ? `The two trees predict differently on ${c.n_differ} of ${where}.` : `The two trees predict the same on all of ${where}.` }),
      ...(c.note ? [el("p", { class: "learn-muted", text: c.note })] : []), el("div", { class: "learn-split" }, ...tables));
    if (!c.same_tree) {  // ID3's own tree under the student's, to compare them node by node
      const id3Canvas = el("canvas", { class: "learn-canvas", "aria-label": "ID3's tree" });
      const id3Scroll = el("div", { class: "learn-tree-scroll" }, id3Canvas);
      theirs.replaceChildren(el("h3", { class: "learn-title", text: "ID3's tree" }), id3Scroll,
        el("details", { class: "learn-twin" }, el("summary", { text: "ID3's tree as text" }), treeAsList(c.id3_tree)));
      drawTree(id3Canvas, c.id3_tree, reply.classes);
      keyboardScrollableWhenScrolling(id3Scroll, "ID3's tree");
    }
    pane.dataset.done = "true";
    say(`Yours: ${percent(c.student.accuracy)}, ID3's: ${percent(c.id3.accuracy)} on ${where}.`);
    result.querySelector("h3").setAttribute("tabindex", "-1");
    result.querySelector("h3").focus();
  }

  async function choose(path, attribute) {
    if (path in state.choices) return;  // a second click while the first choice is being grown
    state.choices[path] = attribute;
    state.order.push(path);
    try {
      state.reply = await grow();
    } catch {  // the status line says why; the node stays open
      delete state.choices[path];
      state.order.pop();
      return;
    }
    showDecided(path);
  }

  async function begin() {
    const ctx = getContext();
    if (!ctx) return say("Train a decision tree first; you then grow its tree here.", true);
    Object.assign(state, { modelId: ctx.model_id, order: [], choices: {}, showing: null });
    intro.hidden = true;
    delete pane.dataset.done;
    state.reply = await grow();
    say("");
    showOpen();
  }

  async function undoLast() {
    const path = state.order.pop();
    if (path === undefined) return;
    delete state.choices[path];
    delete pane.dataset.done;
    state.reply = await grow();
    say(`Took back the choice at ${path}.`);
    showOpen();
  }

  // The nodes left open get ID3's attribute (the student's choices stay; Undo reopens them all).
  async function finishWithId3() {
    state.reply = await grow(true);
    showComparison();
  }

  start.addEventListener("click", () => begin().catch(() => {}));
  finish.addEventListener("click", () => finishWithId3().catch(() => {}));
  undo.addEventListener("click", () => undoLast().catch(() => {}));
  next.addEventListener("click", () => (state.reply.done ? showComparison() : showOpen()));
  return { start: begin };
}
