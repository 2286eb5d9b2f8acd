// Views of a regressor's predictions: predicted against actual with the y = x diagonal, residuals against
// predicted with the zero line, and for one numeric feature the fitted line through the points.
import { SPLIT_COLOURS, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, extent, pad, axisTitle, zoomDomain } from "./scales.js";
import { drawMarker, drawLegend, splitShape } from "./marks.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const SPLITS = ["train", "validation", "test"];
const FIT = "#1d232a";

export function checkRegression(data, needX = false) {
  if (!data || !data.actual || !data.predicted) throw new Error("Regression: expected {actual, predicted} arrays.");
  const n = data.actual.length;
  const lengths = { predicted: data.predicted.length, split: data.split?.length, x: data.x?.length };
  for (const [key, len] of Object.entries(lengths)) {
    if (len !== undefined && len !== n) {
      throw new Error(`Regression: actual has ${n} values but ${key} has ${len}; they must be the same length.`);
    }
  }
  if (needX && !data.x) throw new Error("Regression: the fitted-line view needs the feature values in x.");
  if (data.line && (!data.line.x || data.line.x.length !== data.line.predicted?.length)) {
    throw new Error(`Regression: line has ${data.line.x?.length} x values but ${data.line.predicted?.length} predictions.`);
  }
}

// What a split's rows are called: under k-fold every row's prediction is out-of-fold, not a training fit.
const splitName = (data, split) => data.split_names?.[split] ?? split;

const splitOf = (data, i) => {
  const s = data.split ? data.split[i] : "train";
  return SPLITS.includes(s) ? s : "train";
};

function frame(canvas, options, defaults) {
  const W = options.width || defaults.width;
  const H = options.height || defaults.height;
  const ctx = setupCanvas(canvas, W, H);
  const plot = plotArea(W, H, { top: 16, right: 130, bottom: 50, left: 66 });
  return { ctx, plot };
}

// Points by split, train first so held-out points stay on top; legend of the splits present.
function drawSplitPoints(ctx, plot, data, px, py, options) {
  const size = options.pointSize || 4;
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.left - size, plot.top - size, plot.width + 2 * size, plot.height + 2 * size);
  ctx.clip();
  for (const split of SPLITS) {
    for (let i = 0; i < data.actual.length; i++) {
      if (splitOf(data, i) === split) drawMarker(ctx, splitShape(split), px(i), py(i), SPLIT_COLOURS[split], size);
    }
  }
  ctx.restore();
  const present = SPLITS.filter((s) => Array.from({ length: data.actual.length }, (_, i) => splitOf(data, i)).includes(s));
  const items = [{ heading: "Rows" }, ...present.map((s) => ({ label: splitName(data, s), colour: SPLIT_COLOURS[s], shape: splitShape(s) }))];
  return items;
}

// A dashed guide line, clipped to the plot (a zoomed view puts its ends outside).
function guide(ctx, plot, x0, y0, x1, y1, colour = INK.muted) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.left, plot.top, plot.width, plot.height);
  ctx.clip();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([6, 4]);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.restore();
}

// Predicted (y) against actual (x) on one shared scale, with the diagonal where they are equal.
// data {actual, predicted, split?, target_name?}; options: width, height, pointSize, view (the zoomed window,
// {x: [from, to], y: [from, to]} as fractions of the data's range, as in every chart here). Returns {plot, x, y}.
export function drawPredictedActual(canvas, data, options = {}) {
  checkRegression(data);
  const { ctx, plot } = frame(canvas, options, { width: 520, height: 440 });
  const both = pad(extent(data.actual, data.predicted));
  const x = linearScale(zoomDomain(both, options.view?.x), [plot.left, plot.right]);
  const y = linearScale(zoomDomain(both, options.view?.y), [plot.bottom, plot.top]);
  const name = axisTitle(data.target_name || "target");
  drawAxes(ctx, plot, x, y, { xLabel: `actual ${name}`, yLabel: `predicted ${name}`, grid: true });
  guide(ctx, plot, x(both[0]), y(both[0]), x(both[1]), y(both[1]));
  const items = drawSplitPoints(ctx, plot, data, (i) => x(data.actual[i]), (i) => y(data.predicted[i]), options);
  drawLegend(ctx, [...items, { heading: "Guide" }, { label: "perfect fit", colour: INK.muted, shape: "dashed" }],
    plot.right + 16, plot.top, 110);
  return { plot, x, y };
}

// Residual (actual - predicted) against predicted, with the zero line.
export function drawResiduals(canvas, data, options = {}) {
  checkRegression(data);
  const { ctx, plot } = frame(canvas, options, { width: 520, height: 360 });
  const residuals = Array.from(data.actual, (a, i) => a - data.predicted[i]);
  const [r0, r1] = extent(residuals);
  const reach = Math.max(Math.abs(r0), Math.abs(r1));
  const x = linearScale(zoomDomain(pad(extent(data.predicted)), options.view?.x), [plot.left, plot.right]);
  const y = linearScale(zoomDomain(pad([-reach, reach]), options.view?.y), [plot.bottom, plot.top]);
  const name = axisTitle(data.target_name || "target");
  drawAxes(ctx, plot, x, y, { xLabel: `predicted ${name}`, yLabel: "residual (actual − predicted)", grid: true });
  guide(ctx, plot, plot.left, Math.round(y(0)) + 0.5, plot.right, Math.round(y(0)) + 0.5);
  const items = drawSplitPoints(ctx, plot, data, (i) => x(data.predicted[i]), (i) => y(residuals[i]), options);
  drawLegend(ctx, [...items, { heading: "Guide" }, { label: "zero residual", colour: INK.muted, shape: "dashed" }],
    plot.right + 16, plot.top, 110);
  return { plot, x, y };
}

// The target against one numeric feature, with the model's predictions joined in order of x as a line.
// data {x (feature per row), actual, predicted, split?, x_name?, target_name?, line?: {x, predicted}};
// with `line` (e.g. predictions over a grid of x) the curve is drawn from it instead of the rows.
export function drawFittedLine(canvas, data, options = {}) {
  checkRegression(data, true);
  const { ctx, plot } = frame(canvas, options, { width: 560, height: 400 });
  const curve = data.line || { x: data.x, predicted: data.predicted };
  const x = linearScale(zoomDomain(pad(extent(data.x, curve.x)), options.view?.x), [plot.left, plot.right]);
  const y = linearScale(zoomDomain(pad(extent(data.actual, curve.predicted)), options.view?.y), [plot.bottom, plot.top]);
  drawAxes(ctx, plot, x, y, { xLabel: axisTitle(data.x_name || "x"), yLabel: axisTitle(data.target_name || "target"), grid: true });
  const items = drawSplitPoints(ctx, plot, data, (i) => x(data.x[i]), (i) => y(data.actual[i]), options);
  const order = Array.from(curve.x, (_, i) => i).sort((a, b) => curve.x[a] - curve.x[b]);
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.left, plot.top, plot.width, plot.height);
  ctx.clip();
  ctx.strokeStyle = FIT;
  ctx.lineWidth = 2.5;
  ctx.lineJoin = "round";
  ctx.beginPath();
  order.forEach((i, k) => (k ? ctx.lineTo(x(curve.x[i]), y(curve.predicted[i])) : ctx.moveTo(x(curve.x[i]), y(curve.predicted[i]))));
  ctx.stroke();
  ctx.restore();
  drawLegend(ctx, [...items, { heading: "Model" }, { label: "prediction", colour: FIT, shape: "line" }], plot.right + 16, plot.top, 110);
  return { plot, x, y };
}

// Error summary of one split's rows: count, mean residual, MAE, RMSE and R² (null when undefined).
export function residualSummary(actual, predicted) {
  const n = actual.length;
  if (n === 0) return { n: 0, meanResidual: null, mae: null, rmse: null, r2: null };
  let sr = 0, sa = 0, ss = 0, mean = 0;
  for (let i = 0; i < n; i++) mean += actual[i] / n;
  let tot = 0;
  for (let i = 0; i < n; i++) {
    const r = actual[i] - predicted[i];
    sr += r; sa += Math.abs(r); ss += r * r;
    tot += (actual[i] - mean) ** 2;
  }
  return { n, meanResidual: sr / n, mae: sa / n, rmse: Math.sqrt(ss / n), r2: tot > 0 ? 1 - ss / tot : null };
}

// The text twin: the error summary per split.
export function describeRegression(data) {
  checkRegression(data);
  const rows = [];
  for (const split of SPLITS) {
    const idx = Array.from({ length: data.actual.length }, (_, i) => i).filter((i) => splitOf(data, i) === split);
    if (!idx.length) continue;
    const s = residualSummary(idx.map((i) => data.actual[i]), idx.map((i) => data.predicted[i]));
    rows.push([splitName(data, split), s.n, fmt(s.meanResidual, 4), fmt(s.mae, 4), fmt(s.rmse, 4), s.r2 === null ? "–" : fmt(s.r2, 4)]);
  }
  return makeTwin(
    makeParagraph(`Predictions for ${data.actual.length} rows of ${data.target_name || "the target"}; residual = actual − predicted.`),
    makeTable("Prediction errors by split", ["split", "rows", "mean residual", "MAE", "RMSE", "R²"], rows),
  );
}
