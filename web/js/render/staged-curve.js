// The staged score: the model's score on each split of the rows after 1, 2, ... n stages (trees), one line
// per split, with the out-of-bag score marked at the last stage when the model has one. With a text twin.
import { SPLIT_COLOURS, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, extent, pad, fitText } from "./scales.js";
import { drawMarker, drawLegend } from "./marks.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

export const SPLIT_NAMES = { train: "training rows", validation: "validation rows", test: "test rows" };
const OOB_COLOUR = "#7b52c7";

// data: {n_stages, scores: {split: [n_stages scores]}, oob_score (or null), scoring ("accuracy" | "r2")}.
export function checkStaged(data) {
  if (!data || !Number.isInteger(data.n_stages) || data.n_stages < 1) throw new Error("Staged score: expected at least one stage.");
  const splits = Object.keys(data.scores || {});
  if (!splits.length) throw new Error("Staged score: expected the scores of at least one split.");
  for (const name of splits) {
    if (data.scores[name].length !== data.n_stages) {
      throw new Error(`Staged score: ${data.n_stages} stages need as many ${name} scores; got ${data.scores[name].length}.`);
    }
  }
}

const percent = (v) => `${Number((100 * v).toPrecision(4))}%`;
export const scoreText = (data, v) => (v === null || v === undefined ? "—" : data.scoring === "accuracy" ? percent(v) : fmt(v, 4));

// Draws `data` with options {width, height, title, stageName}; returns {plot, x, y}.
export function drawStaged(canvas, data, options = {}) {
  checkStaged(data);
  const n = data.n_stages;
  const W = options.width || 560;
  const H = options.height || 340;
  const wide = W >= 520;
  const oob = data.oob_score !== null && data.oob_score !== undefined;
  // A narrow chart has its legend under the axis title rather than beside the plot.
  const under = wide ? 0 : 18 * (Object.keys(data.scores).length + (oob ? 1 : 0)) + 8;
  const ctx = setupCanvas(canvas, W, H + under);
  const plot = plotArea(W, H + under, { top: 34, right: wide ? 200 : 16, bottom: 58 + under, left: 62 });
  const values = Object.values(data.scores).flat();
  if (oob) values.push(data.oob_score);
  const y = linearScale(pad(extent(values), 0.08), [plot.bottom, plot.top]);
  const x = linearScale(n === 1 ? [0.5, 1.5] : [1, n], [plot.left, plot.right]);
  const ticks = x.ticks(Math.max(2, Math.round(plot.width / 70))).filter((t) => Number.isInteger(t) && t >= 1 && t <= n);
  drawAxes(ctx, plot, x, y, { xTicks: ticks.length ? ticks : [1], xFormat: String, grid: true,
    xLabel: `number of ${options.stageName || "trees"}`, yLabel: data.scoring === "accuracy" ? "accuracy" : "R²",
    ...(data.scoring === "accuracy" ? { yFormat: (v) => percent(v) } : {}) });
  const items = [];
  for (const [name, scores] of Object.entries(data.scores)) {
    const colour = SPLIT_COLOURS[name] || INK.muted;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.beginPath();
    scores.forEach((s, i) => (i ? ctx.lineTo(x(i + 1), y(s)) : ctx.moveTo(x(i + 1), y(s))));
    ctx.stroke();
    ctx.restore();
    if (n <= 60) scores.forEach((s, i) => drawMarker(ctx, "filled", x(i + 1), y(s), colour, 2.5));
    drawMarker(ctx, "filled", x(n), y(scores[n - 1]), colour, 4.5);
    items.push({ label: SPLIT_NAMES[name] || name, colour, shape: "line" });
  }
  if (oob) {
    ctx.save();
    ctx.strokeStyle = OOB_COLOUR;
    ctx.setLineDash([5, 4]);
    ctx.beginPath();
    ctx.moveTo(plot.left, y(data.oob_score));
    ctx.lineTo(plot.right, y(data.oob_score));
    ctx.stroke();
    ctx.restore();
    drawMarker(ctx, "ring", x(n), y(data.oob_score), OOB_COLOUR, 6);
    items.push({ label: `out-of-bag, all ${n}`, colour: OOB_COLOUR, shape: "dashed" });
  }
  if (wide) drawLegend(ctx, items, plot.right + 16, plot.top, 180);
  else drawLegend(ctx, items, plot.left, plot.bottom + 54, W - plot.left - 8);
  ctx.fillStyle = INK.text;
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(fitText(ctx, options.title || "", W - 16), 8, 6);
  return { plot, x, y };
}

// The text twin: the score of each split after every stage, and the out-of-bag score.
export function describeStaged(data, { stageName = "trees" } = {}) {
  checkStaged(data);
  const names = Object.keys(data.scores);
  const rows = Array.from({ length: data.n_stages }, (_, i) => [String(i + 1), ...names.map((s) => scoreText(data, data.scores[s][i]))]);
  const oob = data.oob_score === null || data.oob_score === undefined ? null
    : makeParagraph(`Out-of-bag ${data.scoring === "accuracy" ? "accuracy" : "R²"} with all ${data.n_stages} ${stageName}: ${scoreText(data, data.oob_score)}.`);
  return makeTwin(oob, makeTable(`Score after each number of ${stageName}`, [stageName, ...names.map((s) => SPLIT_NAMES[s] || s)], rows));
}
