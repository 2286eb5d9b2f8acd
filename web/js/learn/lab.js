// "See it learn"'s estimation lab: a drawn sample or a table column, its MLE, likelihood curve, MAP and
// Laplace estimates, computed by Python (bridge `estimation_lab`) and drawn here.
import { el, option, simpleTable } from "../dom.js";
import { renderMath } from "./math.js";

const fmt = (v) => (typeof v === "number" ? String(Number(v.toFixed(4))) : String(v));

export function labPane(pane, { call, getContext, say }) {
  const dist = el("select", { "aria-label": "Distribution" }, ...["bernoulli", "poisson", "categorical", "gaussian"].map((d) => option(d, d)));
  const source = el("select", { "aria-label": "Data" }, option("draw", "drawn with a seed"), option("column", "a column of the data"));
  const n = el("input", { type: "number", min: 1, max: 10000, value: 20, "aria-label": "n" });
  const seed = el("input", { type: "number", min: 0, value: 0, "aria-label": "Seed" });
  const param = el("input", { type: "number", step: "any", value: 0.3, "aria-label": "True parameter" });
  const column = el("input", { type: "text", placeholder: "column name", "aria-label": "Column" });
  const slider = (label, min, max, step, value) => el("input", { type: "range", min, max, step, value, "aria-label": label });
  const a = slider("Prior a", 0.5, 20, 0.5, 2);
  const b = slider("Prior b", 0.5, 20, 0.5, 2);
  const k = slider("Laplace k", 0, 10, 0.5, 1);
  const readout = el("span", { class: "learn-muted" });
  const canvas = el("canvas", { class: "learn-canvas", "aria-label": "Log likelihood curve" });
  const math = el("div", { class: "learn-math" });
  const table = el("div", { class: "learn-table" });
  pane.append(el("div", { class: "learn-toolbar" }, el("label", {}, "Distribution ", dist), el("label", {}, "Data ", source),
    el("label", {}, "n ", n), el("label", {}, "seed ", seed), el("label", {}, "true parameter ", param), el("label", {}, "column ", column)),
  el("div", { class: "learn-toolbar" }, el("label", {}, "prior a ", a), el("label", {}, "prior b ", b), el("label", {}, "Laplace k ", k), readout),
  el("div", { class: "learn-body" }, el("div", {}, canvas, table), el("aside", { class: "learn-notes" }, el("h3", { text: "The math" }), math)));
  const defaults = { bernoulli: 0.3, poisson: 3, categorical: null, gaussian: 0 };
  dist.addEventListener("change", () => { param.value = defaults[dist.value] ?? ""; param.disabled = dist.value === "categorical"; run(); });
  let pending = 0;
  async function run() {
    readout.textContent = `a = ${a.value}, b = ${b.value}, k = ${k.value}`;
    const args = { distribution: dist.value, prior_a: Number(a.value), prior_b: Number(b.value), k: Number(k.value) };
    if (source.value === "column") {
      const ctx = getContext();
      if (!ctx) return say("Load data and train a model first, or draw a sample.", true);
      Object.assign(args, { table_id: ctx.table_id, column: column.value || ctx.target });
    } else {
      Object.assign(args, { n: Number(n.value), seed: Number(seed.value) });
      const p = Number(param.value);
      if (dist.value === "bernoulli") args.params = { theta: p };
      if (dist.value === "poisson") args.params = { lambda: p };
      if (dist.value === "gaussian") args.params = { mu: p, sigma: 1 };
    }
    const ticket = ++pending;
    const lab = await call("estimation_lab", args);
    if (ticket !== pending) return;
    say("");
    pane.dataset.mle = JSON.stringify(lab.mle.params);
    renderMath(math, lab.math);
    const rows = [];
    for (const [name, value] of Object.entries(lab.mle.params)) rows.push([`MLE ${name}`, typeof value === "object" ? Object.entries(value).map(([kk, v]) => `${kk} ${fmt(v)}`).join(", ") : fmt(value)]);
    if (lab.map) rows.push(["MAP", Object.entries(lab.map.params).map(([kk, v]) => (typeof v === "object" ? Object.entries(v).map(([c, p]) => `${c} ${fmt(p)}`).join(", ") : `${kk} ${fmt(v)}`)).join(", ")]);
    if (lab.map_error) rows.push(["MAP", lab.map_error]);
    if (lab.laplace) rows.push([`Laplace k = ${lab.laplace.k}`, Object.entries(lab.laplace.estimates).map(([c, p]) => `${c} ${fmt(p)}`).join(", ")]);
    table.replaceChildren(simpleTable(["estimate", "value"], rows, { caption: `${lab.n} observations`, rowHeaders: true }));
    drawCurve(canvas, lab);
  }
  for (const input of [dist, source, n, seed, param, column]) input.addEventListener("change", run);
  for (const input of [a, b, k]) input.addEventListener("input", run);
  pane.addEventListener("lab-run", () => run().catch(() => {}));
  queueMicrotask(() => run().catch(() => {}));
}

function drawCurve(canvas, lab) {
  import("../render/scales.js").then(({ setupCanvas, plotArea, linearScale, drawAxes, extent, pad }) => {
    const W = 460, H = 300;
    const ctx = setupCanvas(canvas, W, H);
    const plot = plotArea(W, H, { top: 16, right: 16, bottom: 50, left: 64 });
    const c = lab.curve;
    if (!c) {
      const counts = lab.mle.counts || {};
      const keys = Object.keys(counts);
      const x = linearScale([-0.5, keys.length - 0.5], [plot.left, plot.right]);
      const y = linearScale([0, Math.max(1, ...Object.values(counts)) * 1.1], [plot.bottom, plot.top]);
      drawAxes(ctx, plot, x, y, { xTicks: keys.map((_, i) => i), xFormat: (i) => keys[i], yLabel: "count", xLabel: "value" });
      keys.forEach((key, i) => { ctx.fillStyle = "#3b6fd8"; ctx.fillRect(x(i) - 14, y(counts[key]), 28, plot.bottom - y(counts[key])); });
      return;
    }
    const finite = (arr) => arr.map((v, i) => [c.grid[i], v]).filter(([, v]) => v !== null && Number.isFinite(v));
    const ll = finite(c.log_likelihood);
    const post = c.log_posterior ? finite(c.log_posterior) : [];
    const values = [...ll, ...post].map(([, v]) => v).sort((p, q) => p - q);
    const top = values[values.length - 1];
    const lo = Math.max(values[0], top - 30);
    const x = linearScale(extent(c.grid), [plot.left, plot.right]);
    const y = linearScale(pad([lo, top]), [plot.bottom, plot.top]);
    drawAxes(ctx, plot, x, y, { xLabel: c.parameter, yLabel: "log likelihood", grid: true });
    ctx.save(); ctx.beginPath(); ctx.rect(plot.left, plot.top, plot.width, plot.height); ctx.clip();
    const line = (pts, colour, dash = []) => {
      ctx.strokeStyle = colour; ctx.lineWidth = 2; ctx.setLineDash(dash); ctx.beginPath();
      pts.forEach(([g, v], i) => (i ? ctx.lineTo(x(g), y(v)) : ctx.moveTo(x(g), y(v)))); ctx.stroke();
    };
    line(ll, "#3b6fd8");
    if (post.length) line(post, "#e07b22", [6, 4]);
    const mark = (v, colour, label, row) => {
      ctx.setLineDash([]); ctx.strokeStyle = colour; ctx.lineWidth = 1.5; ctx.beginPath(); ctx.moveTo(x(v), plot.top); ctx.lineTo(x(v), plot.bottom); ctx.stroke();
      ctx.fillStyle = colour; ctx.font = "600 12px system-ui, sans-serif"; ctx.textAlign = "left"; ctx.fillText(`${label} ${fmt(v)}`, Math.min(x(v) + 4, plot.right - 90), plot.top + 14 + row * 16);
    };
    mark(c.mle, "#3b6fd8", "MLE", 0);
    if (c.map !== undefined && c.map !== null) mark(c.map, "#e07b22", "MAP", 1);
    ctx.restore();
  });
}

