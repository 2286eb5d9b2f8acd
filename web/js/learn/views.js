// One view per learner family: view(box, timeline) returns show(i), which draws frame i. The views reuse
// the page's renderers (tree, scatter, dendrogram) and draw from the frames' plain numbers only.
import { el, simpleTable, formatValue } from "../dom.js";
import { drawTree, treeAsList } from "../render/tree-draw.js";
import { drawScatter } from "../render/scatter.js";
import { drawDendrogram } from "../render/dendrogram.js";
import { setupCanvas, plotArea, linearScale, drawAxes, extent, pad } from "../render/scales.js";
import { classColour, INK } from "../render/palette.js";
import { summaryTable, round, withZ } from "./summary.js";
import { pca } from "./pca-view.js";

const num = (v) => formatValue(v);
const vec = (w) => `[${w.map((v) => formatValue(v)).join(", ")}]`;
// The tree as it stood at frame i: nodes grown so far; a node waiting to be grown shows "?"; a node
// pruned by frame i is a leaf.
export function treeAt(node, i) {
  const out = { ...node };
  delete out.branches; delete out.left; delete out.right;
  if (node.pruned_at !== undefined && node.pruned_at <= i) return { ...out, reason: "pruned" };
  const grow = (child) => (child.frame <= i ? treeAt(child, i) : { samples: child.samples, counts: child.counts, prediction: "?" });
  if (node.branches) out.branches = Object.fromEntries(Object.entries(node.branches).map(([k, c]) => [k, grow(c)]));
  else if (node.left && node.right) { out.left = grow(node.left); out.right = grow(node.right); out.threshold = node.threshold; }
  return out;
}

function tree(box, tl) {
  const open = { all: false };
  const canvas = el("canvas", { class: "learn-canvas", "aria-label": "The tree grown so far" });
  const scroll = el("div", { class: "learn-tree-scroll" }, canvas);
  const node = el("p", { class: "learn-node" });
  const table = el("div", { class: "learn-table" });
  const twin = el("details", { class: "learn-twin" }, el("summary", { text: "The tree as text" }));
  box.append(node, el("div", { class: "learn-split" }, scroll, table), twin);
  return (i) => {
    const f = tl.frames[i];
    const partial = treeAt(tl.tree, i);
    const current = (n) => n.frame === i || n.checked_at === i;  // grown, or tested for pruning, at this step
    drawTree(canvas, partial, tl.classes, { current });
    twin.replaceChildren(twin.firstChild, treeAsList(partial, current));
    if (f.kind === "prune") {
      node.textContent = `Pruning test at ${f.node}: ${f.pruned ? "pruned to a leaf" : "kept"}.`;
      table.replaceChildren(simpleTable(["node", "test", "result"], [[f.node, f.math[0].text, f.pruned ? "prune" : "keep"]]));
      return;
    }
    const counts = Object.entries(f.counts || {}).map(([k, v]) => `${k} ${v}`).join(", ");
    node.textContent = `${f.kind === "split" ? "Split" : "Leaf"} at ${f.node}: ${f.samples} examples${counts ? ` (${counts})` : ""}`
      + (f.kind === "split" ? ` → test ${f.chosen}` : ` → leaf (${f.reason})`);
    const cands = Object.entries(f.candidates || {}).sort((a, b) => b[1] - a[1]);
    if (!cands.length) { table.replaceChildren(el("p", { class: "learn-muted", text: "No attribute was scored at this node." })); return; }
    const rows = cands.map(([a, g]) => [a === f.chosen ? `★ ${a}` : a, Number(g.toFixed(3)),
      f.breakdown?.[a] ? f.breakdown[a].branches.map((b) => `${b.value}: ${b.counts.join("/")}`).join("  ") : "—"]);
    const t = summaryTable(["attribute", tl.importance_label, `branches (${tl.classes.join("/")})`], rows,
      { caption: "IMPORTANCE of every candidate", open, sort: false, decorate: markWinner });  // largest gain first already
    table.replaceChildren(t);
  };
}

function markWinner(table) {
  table.classList.add("learn-importance");
  table.querySelectorAll("tbody tr").forEach((tr) => { if (tr.firstChild.textContent.startsWith("★")) tr.classList.add("learn-winner"); });
}

function perceptron(box, tl) {
  const canvas = tl.points ? el("canvas", { class: "learn-canvas", "aria-label": "Points and the decision boundary" }) : null;
  const tableBox = el("div", { class: "learn-table learn-scroll" });
  const terms = el("div", { class: "learn-table" });
  const wide = !tl.inline;  // Python says (its frames), as it writes its math: the weights go per feature, not inline per visit
  const open = { all: false };
  box.append(el("div", { class: "learn-split" }, tableBox, canvas), terms);
  const update = (r) => {
    if (r.correct) return "none";
    if (!tl.binary) return r.change;  // Python writes it (one-vs-rest or the notes' joint update)
    return wide ? `${r.target > 0 ? "+" : "−"}f(x)` : `${r.target > 0 ? "+" : "−"}${vec(r.x)}`;
  };
  return (i) => {
    const frames = tl.frames.slice(0, i + 1);
    const f = tl.frames[i];
    const rows = frames.map((r) => [r.step, r.epoch, r.index + 1, ...(wide ? [] : [tl.binary ? vec(r.weights) : r.weights.map(vec).join(" ")]),
      tl.binary ? round(r.score) : vec(r.score), r.correct ? "yes" : "no", update(r)]);
    const headers = ["step", "epoch", "row", ...(wide ? [] : ["weights"]), "score", "correct?", "update"];
    const t = simpleTable(headers, rows, { caption: "Perceptron updates" });
    t.classList.add("learn-perceptron");
    t.tBodies[0].lastChild?.classList.add("learn-current");
    tableBox.replaceChildren(t);
    tableBox.scrollTop = tableBox.scrollHeight;
    if (wide) terms.replaceChildren(perceptronTerms(tl, f, open));
    if (canvas) drawLinear(canvas, tl.points, f.weights_after, tl);
  };
}

// This visit's numbers per feature: f_j(x), w_j and the term w_j·f_j(x) (binary), or w_j per class.
function perceptronTerms(tl, f, open) {
  const names = tl.weight_names;
  if (tl.binary) {
    const rows = names.map((n, j) => [n, f.x[j], f.weights[j], f.weights[j] * f.x[j], f.weights_after[j]]);
    const [headers, shown] = withZ(tl, ["feature", "f(x)", "w", "w·f(x)", "w after"], rows, names);
    return summaryTable(headers, shown, { caption: `Row ${f.index + 1}, feature by feature`, magnitude: (r) => r[r.length - 2], open });
  }
  const rows = names.map((n, j) => [n, f.x[j], ...f.weights.map((w) => w[j])]);
  const [headers, shown] = withZ(tl, ["feature", "f(x)", ...tl.classes.map((c) => `w (${c})`)], rows, names);
  const k = tl.classes.length;  // the largest |w_c·f(x)| over the classes
  return summaryTable(headers, shown, { caption: `Row ${f.index + 1}, feature by feature`,
    magnitude: (r) => Math.max(...r.slice(-k).map((w) => Math.abs(w * r[r.length - k - 1]))), open });
}

// Points and the region each class wins under weights W (bias first); binary: the line w0 + w1 x1 + w2 x2 = 0.
function drawLinear(canvas, pts, weights, tl) {
  const W = 420, H = 360;
  const ctx = setupCanvas(canvas, W, H);
  const plot = plotArea(W, H, { top: 14, right: 14, bottom: 50, left: 56 });
  const x = linearScale(pad(extent(pts.x)), [plot.left, plot.right]);
  const y = linearScale(pad(extent(pts.y)), [plot.bottom, plot.top]);
  const rows = tl.binary ? [weights] : weights;
  const winner = (a, b) => {
    if (tl.binary) return rows[0][0] + rows[0][1] * a + rows[0][2] * b >= 0 ? 1 : 0;
    let best = 0, top = -Infinity;
    rows.forEach((w, c) => { const s = w[0] + w[1] * a + w[2] * b; if (s > top) { top = s; best = c; } });
    return best;
  };
  const cell = 6;
  ctx.globalAlpha = 0.14;
  for (let px = plot.left; px < plot.right; px += cell) {
    for (let py = plot.top; py < plot.bottom; py += cell) {
      ctx.fillStyle = classColour(winner(x.invert(px + cell / 2), y.invert(py + cell / 2)));
      ctx.fillRect(px, py, cell, cell);
    }
  }
  ctx.globalAlpha = 1;
  drawAxes(ctx, plot, x, y, { xLabel: tl.weight_names[1], yLabel: tl.weight_names[2] });
  pts.x.forEach((v, k) => {
    ctx.fillStyle = classColour(pts.label[k]);
    ctx.beginPath(); ctx.arc(x(v), y(pts.y[k]), 5.5, 0, 2 * Math.PI); ctx.fill();
    ctx.strokeStyle = "#fff"; ctx.stroke();
  });
  if (tl.binary && (weights[1] !== 0 || weights[2] !== 0)) {
    const [w0, w1, w2] = weights;
    ctx.save();
    ctx.beginPath(); ctx.rect(plot.left, plot.top, plot.width, plot.height); ctx.clip();
    ctx.strokeStyle = INK.text; ctx.lineWidth = 2;
    ctx.beginPath();
    if (Math.abs(w2) > 1e-12) {
      const [a0, a1] = x.domain;
      ctx.moveTo(x(a0), y(-(w0 + w1 * a0) / w2)); ctx.lineTo(x(a1), y(-(w0 + w1 * a1) / w2));
    } else { const a = -w0 / w1; ctx.moveTo(x(a), plot.top); ctx.lineTo(x(a), plot.bottom); }
    ctx.stroke();
    ctx.restore();
  }
}

function descent(box, tl) {
  const open = { all: false };
  const canvas = el("canvas", { class: "learn-canvas", "aria-label": "Loss per iteration" });
  const info = el("div", { class: "learn-table" });
  box.append(el("div", { class: "learn-split" }, canvas, info));
  const losses = tl.frames.map((f) => f.loss).filter((v) => v !== null);
  return (i) => {
    const f = tl.frames[i];
    if (losses.length) drawLoss(canvas, tl.frames.slice(0, i + 1), tl.frames);
    const flat = Array.isArray(f.weights) && !Array.isArray(f.weights[0]);
    const names = tl.weight_names || [];
    const parts = [];
    if (f.weights && f.weights.length) parts.push(descentWeights(tl, f, flat, names, open));
    if (f.updates) parts.push(simpleTable(["row", "label", "predicted"], f.updates.map((u) => [u.index + 1, u.label, u.predicted]), { caption: `Mistakes in epoch ${f.iter}` }));
    info.replaceChildren(el("p", { class: "learn-node", text: `${tl.solver || ""} · iteration ${f.iter}: loss ${num(f.loss)}` }), ...parts);
  };
}

// The weights at this iteration, one row per feature (largest first; with the normal equation's beside
// them when there is one), or one column per class for a multi-class model.
function descentWeights(tl, f, flat, names, open) {
  const named = names.length ? names : f.weights.map((_, j) => `w${j}`);
  if (flat) {
    const normal = tl.normal_equation;
    const rows = named.map((n, j) => [n, f.weights[j], ...(normal ? [normal[j]] : [])]).filter((r) => r[1] !== undefined);
    const [headers, shown] = withZ(tl, ["weight", `iteration ${f.iter}`, ...(normal ? ["normal equation"] : [])], rows, named);
    return summaryTable(headers, shown, { caption: "Weights", magnitude: (r) => r[headers.indexOf(`iteration ${f.iter}`)], open });
  }
  const rows = named.map((n, j) => [n, ...f.weights.map((w) => w[j])]).filter((r) => r[1] !== undefined);
  const [headers, shown] = withZ(tl, ["weight", ...f.weights.map((_, c) => String(tl.classes[c] ?? c))], rows, named);
  const k = f.weights.length;
  return summaryTable(headers, shown, { caption: "Weights per class (bias first)", magnitude: (r) => Math.max(...r.slice(-k).map(Math.abs)), open });
}

function drawLoss(canvas, shown, all) {
  const W = 440, H = 300;
  const ctx = setupCanvas(canvas, W, H);
  const plot = plotArea(W, H, { top: 14, right: 16, bottom: 50, left: 64 });
  const its = all.map((f) => f.iter);
  const ls = all.map((f) => f.loss).filter(Number.isFinite);
  const x = linearScale(extent(its), [plot.left, plot.right]);
  const y = linearScale(pad(extent(ls)), [plot.bottom, plot.top]);
  drawAxes(ctx, plot, x, y, { xLabel: "iteration", yLabel: "loss", grid: true });
  ctx.strokeStyle = classColour(0); ctx.lineWidth = 2;
  ctx.beginPath();
  shown.forEach((f, k) => (k ? ctx.lineTo(x(f.iter), y(f.loss)) : ctx.moveTo(x(f.iter), y(f.loss))));
  ctx.stroke();
  const last = shown[shown.length - 1];
  ctx.fillStyle = classColour(1);
  ctx.beginPath(); ctx.arc(x(last.iter), y(last.loss), 4.5, 0, 2 * Math.PI); ctx.fill();
}

function kmeans(box, tl) {
  const canvas = el("canvas", { class: "learn-canvas", "aria-label": "Rows and centres" });
  const info = el("div", { class: "learn-table" });
  box.append(el("div", { class: "learn-split" }, canvas, info));
  const n = tl.points.x.length;
  return (i) => {
    const f = tl.frames[i];
    const labels = f.labels || new Array(n).fill(-1);
    drawScatter(canvas, { x: tl.points.x, y: tl.points.y, label: labels, centres: f.centres.map((c) => [c[0], c[1] ?? 0]),
      x_name: tl.feature_names[0], y_name: tl.feature_names[1] || "" }, { width: 520, height: 380, pointSize: 3.5 });
    if (f.kind === "seed") {
      info.replaceChildren(el("p", { class: "learn-node", text: `k-means++ seeding: centre ${f.centre_index + 1} is row ${f.chosen}` }),
        f.top ? simpleTable(["row", "P = D(x)² / Σ D²"], f.top.map((t) => [t.row, Number(t.p.toFixed(4))]), { caption: "Most likely draws" })
          : el("p", { class: "learn-muted", text: "The first centre is drawn uniformly." }));
    } else {
      info.replaceChildren(el("p", { class: "learn-node", text: `Iteration ${f.iter}: inertia ${f.inertia.toFixed(4)}` }),
        simpleTable(["cluster", "rows", tl.feature_names[0], tl.feature_names[1] || ""], f.centres.map((c, j) => [j, f.sizes[j], Number(c[0].toFixed(4)), c[1] === undefined ? null : Number(c[1].toFixed(4))]), { caption: "Centres" }));
    }
  };
}

function agglomerative(box, tl) {
  const canvas = el("canvas", { class: "learn-canvas", "aria-label": "Dendrogram" });
  const info = el("p", { class: "learn-node" });
  box.append(info, canvas);
  return (i) => {
    const f = tl.frames[i];
    info.textContent = `Merge ${i + 1} of ${tl.frames.length}: clusters ${f.a} and ${f.b} at distance ${f.distance.toFixed(4)} (size ${f.size}).`;
    // The dendrogram grows one merge per step; the cut just above this merge colours the clusters so far.
    if (tl.merges) drawDendrogram(canvas, { merges: tl.merges }, { width: 760, height: 340, cut: f.distance + 1e-9, upTo: i + 1 });
  };
}

function naiveBayes(box, tl) {
  const info = el("div", { class: "learn-table" });
  box.append(info);
  return (i) => {
    const f = tl.frames[i];
    if (f.kind === "prior") {
      info.replaceChildren(simpleTable(["class", "count", "P(y)"], f.classes.map((c, j) => [c, f.class_count[j], Number(f.prior[j].toFixed(4))]), { caption: "Class prior" }));
    } else if (f.kind === "likelihood") {
      const rows = tl.classes.map((c, j) => [c, ...f.values.map((_, v) => `${f.counts[j][v]} → ${(f.estimates?.[j]?.[v] ?? 0).toFixed(3)}`)]);
      info.replaceChildren(simpleTable(["class", ...f.values.map(String)], rows, { caption: `${f.feature}: count(x, y) → P_LAP,k(x | y), k = ${f.k}` }));
    } else {
      info.replaceChildren(simpleTable(["class", "mean", "variance"], tl.classes.map((c, j) => [c, Number(f.mean[j].toFixed(4)), Number(f.var[j].toFixed(4))]), { caption: f.feature }));
    }
  };
}

function knn(box, tl) {
  const info = el("div", { class: "learn-table" });
  box.append(info);
  return (i) => {
    const f = tl.frames[i];
    if (f.kind === "store") {
      info.replaceChildren(el("p", { class: "learn-node", text: `k-NN stores the ${f.n_train} training rows; k = ${f.k}, ${f.metric} distance. Step on to see the neighbours of row ${tl.explain ? tl.explain.row : "—"}.` }));
      return;
    }
    const shown = tl.frames.slice(1, i + 1);
    info.replaceChildren(el("p", { class: "learn-node", text: `Neighbours of row ${tl.explain.row} (votes so far: ${Object.entries(f.votes).map(([k, v]) => `${k} ${num(v)}`).join(", ")})` }),
      simpleTable(["rank", "row", "distance", "label / target"], shown.map((nb) => [nb.rank, nb.row, Number(nb.distance.toFixed(4)), String(nb.label ?? nb.target)])));
  };
}

// A forest or bagged trees: tree 1's bootstrap sample, the features its root was offered, each tree's vote
// for the chosen row, and the forest's average of them. Every number comes from the frame.
function ensemble(box, tl) {
  const info = el("p", { class: "learn-node" });
  const table = el("div", { class: "learn-table" });
  const open = { all: false };
  box.append(info, table);
  const classify = tl.classes !== null && tl.classes !== undefined;
  const show = {
    sample(f) {
      info.textContent = f.bootstrap
        ? `Tree 1 grows on a bootstrap sample: ${f.n} rows drawn with replacement from the ${f.n} training rows. `
          + `${f.out_of_bag} were never drawn (out of bag); the rows drawn twice or more count that many times.`
        : `Without bootstrap every tree grows on all ${f.n} training rows.`;
      const parts = [simpleTable(["times drawn", "rows"], f.times.map((t) => [t.times, t.rows]), { caption: "How often tree 1's sample drew each row" })];
      if (f.repeated.length) parts.push(simpleTable(["row", "times drawn"], f.repeated.map((r) => [r.row, r.times]), { caption: "Rows drawn most often" }));
      table.replaceChildren(...parts);
    },
    root(f) {
      info.textContent = `Tree 1's root was offered ${f.n_offered} of the ${f.n_features} features (${f.rule})`
        + (f.chosen ? ` and tests the best of them, ${f.chosen}.` : "; none of them gains, so it stays a leaf.");
      const rows = [...f.offered].sort((a, b) => b.gain - a.gain).map((o) => [o.feature === f.chosen ? `★ ${o.feature}` : o.feature, Number(o.gain.toFixed(4))]);
      table.replaceChildren(summaryTable(["feature offered", tl.importance_label || "gain"], rows,
        { caption: "The gain of every feature the root was offered", open, sort: false, decorate: markWinner }));
    },
    votes(f) {
      info.textContent = `Row ${f.row}: each of the ${f.votes.length} trees answers on its own.`;
      const headers = classify ? ["tree", "votes for", "its probability"] : ["tree", "predicts"];
      const rows = f.votes.map((v) => (classify ? [v.tree, String(v.class), Number(v.p.toFixed(3))] : [v.tree, num(v.value)]));
      table.replaceChildren(simpleTable(headers, rows, { caption: `Each tree's answer for row ${f.row}` }));
    },
    together(f) {
      if (!classify) {
        info.textContent = `The forest predicts the mean of its ${tl.n_trees} trees' values for row ${f.row}: ${num(f.prediction)}.`;
        table.replaceChildren();
        return;
      }
      const agree = f.majority === f.prediction ? "the class most trees vote for too" : `while most trees vote for ${f.majority}`;
      info.textContent = `The forest averages its trees' probabilities and predicts ${f.prediction} for row ${f.row}, ${agree}.`;
      const rows = f.per_class.map((c) => [String(c.class) === String(f.prediction) ? `★ ${c.class}` : String(c.class), c.votes, Number(c.mean_p.toFixed(4))]);
      table.replaceChildren(summaryTable(["class", "trees voting for it", "mean probability"], rows,
        { caption: `The ${tl.n_trees} trees together`, open, sort: false, decorate: markWinner }));
    },
  };
  return (i) => show[tl.frames[i].kind](tl.frames[i]);
}

// Gradient boosting for one training row: F_0, then each round's residual, the leaf its tree puts the row
// in, that leaf's value and the updated F (one line per class when there are several).
function boosting(box, tl) {
  const info = el("p", { class: "learn-node" });
  const table = el("div", { class: "learn-table" });
  box.append(info, table);
  const who = (t) => (t.class === null || t.class === undefined ? "F" : `F for ${t.class}`);
  return (i) => {
    const f = tl.frames[i];
    if (f.kind === "start") {
      info.textContent = `Row ${f.row}: boosting starts every row at F₀ (${tl.loss === "squared_error" ? "the mean target" : "the log-odds of the classes"}).`
        + (tl.omitted ? ` The first ${tl.frames.length - 1} of ${tl.n_rounds} rounds follow.` : ` ${tl.n_rounds} rounds follow.`);
      table.replaceChildren(simpleTable(tl.classes && tl.classes.length > 2 ? ["class", "F₀"] : ["", "F₀"],
        f.init.map((v, k) => [tl.classes && tl.classes.length > 2 ? String(tl.classes[k]) : "F₀", num(v)])));
      return;
    }
    const where = f.trees.length > 1 ? "the leaf it falls in, in each class's tree, is in the table" : `it falls in leaf ${f.trees[0].leaf}`;
    info.textContent = `Round ${f.round}: a tree is fitted to the residuals of row ${f.row} and every other; ${where}`
      + `${f.in_bag ? "" : " (the row was left out of this round's subsample)"}; training loss now ${num(f.train_score)}.`;
    const rows = f.trees.map((t) => [who(t), num(t.residual), t.leaf, num(t.value), num(t.before), num(t.after)]);
    table.replaceChildren(simpleTable(["", "residual r", "leaf", "h(x)", "F before", `F after (+ ${num(f.learning_rate)}·h)`], rows,
      { caption: `Round ${f.round} for row ${f.row}` }));
  };
}

// AdaBoost: each round's weighted error and vote, the chosen row's weight, and the rows weighing most.
function adaboostView(box, tl) {
  const info = el("p", { class: "learn-node" });
  const table = el("div", { class: "learn-table" });
  box.append(info, table);
  return (i) => {
    const f = tl.frames[i];
    info.textContent = `Round ${f.round}: the tree gets ${f.n_wrong} training rows wrong (weighted error ${num(f.error)}), so its vote is α = ${num(f.alpha)}. `
      + `Row ${f.row} weighs ${num(f.weight)} and is ${f.wrong ? "wrong: its weight grows" : "right: its weight keeps its share"}.`
      + (i === tl.frames.length - 1 && tl.stop ? ` Boosting stopped here: ${tl.stop}.` : "");
    table.replaceChildren(simpleTable(["row", "weight before the round", "this tree"], f.heaviest.map((h) => [h.row, num(h.weight), h.wrong ? "wrong" : "right"]),
      { caption: "The rows weighing most" }));
  };
}

// A network, for one row: each layer's weighted sums and activations (forward), each delta by the chain rule
// (backward, output first), then each weight's gradient over the batch and the step the solver added. Every
// number is the frame's, read from the traced fit.
function network(box, tl) {
  const info = el("p", { class: "learn-node" });
  const table = el("div", { class: "learn-table" });
  const open = { all: false };
  box.append(info, table);
  const where = (f) => `Row ${tl.row ?? "(the first trained on)"}, epoch ${f.epoch} (step ${f.step} of the fit, a batch of ${f.batch_rows} rows)`;
  const show = {
    forward(f) {
      info.textContent = `${where(f)}. Forward, ${f.layer_name}: each unit's weighted sum z = Σ a·w + b of the ${f.inputs.length} values before it, then a = ${f.function}(z).`;
      const rows = f.units.map((u, j) => [u, f.b[j], f.z[j], f.a[j]]);
      table.replaceChildren(summaryTable(["unit", "bias b", "weighted sum z", `a = ${f.function}(z)`], rows,
        { caption: `${f.layer_name}: z and a`, magnitude: (r) => r[2], open, sort: false }),
      summaryTable(["input", "value a"], f.inputs.map((u, i) => [u, f.a_in[i]]), { caption: "What the layer reads", magnitude: (r) => r[1], open, sort: false }));
    },
    backward(f) {
      const output = f.target !== undefined;
      info.textContent = output
        ? `${where(f)}. Backward, the output: δ = a − y, how much the loss changes with each output's weighted sum.`
        : `${where(f)}. Backward, ${f.layer_name}: the next layer's deltas carried back through its weights, times the unit's slope g'(z).`;
      const rows = f.units.map((u, j) => (output ? [u, f.a[j], f.target[j], f.delta[j]]
        : [u, f.a[j], f.carried[j], f.delta[j]]));
      const headers = output ? ["unit", "a", "y", "δ = a − y"] : ["unit", "a", "δ_next W_nextᵀ", "δ = that × g'(z)"];
      table.replaceChildren(summaryTable(headers, rows, { caption: `${f.layer_name}: deltas`, magnitude: (r) => r[3], open, sort: false }));
    },
    update(f) {
      info.textContent = `${where(f)}. Update, the weights into ${f.layer_name}: the gradient over the batch (penalty included) and what the ${tl.solver} step added (η = ${num(f.learning_rate)}).`;
      const rows = [];
      f.inputs.forEach((from, i) => f.units.forEach((to, j) => rows.push([`${from} → ${to}`, f.W_before[i][j], f.row_grad[i][j],
        f.coef_grad[i][j], f.coef_update[i][j], f.W_after[i][j]])));
      f.units.forEach((to, j) => rows.push([`bias of ${to}`, f.b_before[j], f.delta[j], f.intercept_grad[j], f.intercept_update[j], f.b_after[j]]));
      table.replaceChildren(summaryTable(["weight", "before", "this row's a·δ", "gradient (batch)", "step added", "after"], rows,
        { caption: `Weights into ${f.layer_name}`, magnitude: (r) => r[3], open }));
    },
  };
  return (i) => show[tl.frames[i].kind](tl.frames[i]);
}

export const VIEWS = { tree, perceptron, descent, kmeans, agglomerative, naive_bayes: naiveBayes, knn, pca, ensemble, boosting, adaboost: adaboostView, network };
