// A validation curve: the mean training and validation score (over the folds) against the values of one
// hyperparameter, each with a band of ± one standard deviation, and the best value marked. The values are
// spaced evenly in the order given (they may be choices, or numbers spaced by tens), each labelled.
// With a text twin.
import { CLASS_COLOURS, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, extent, pad, fitText } from "./scales.js";
import { drawDashedVertical, drawMarker, drawLegend } from "./marks.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const SERIES = { validation: { colour: CLASS_COLOURS[0], label: "held-out fold" },
  train: { colour: CLASS_COLOURS[1], label: "training folds" } };

// data: {labels: [value], validation: {mean, std}, train: {mean, std}, best?: index, xName, valueName,
// percent?: the scores are fractions the page reads as percentages (accuracy), so the axis says "85%"}.
export function checkCurve(data) {
  if (!data || !Array.isArray(data.labels) || !data.labels.length) throw new Error("Validation curve: expected non-empty labels.");
  for (const name of Object.keys(SERIES)) {
    const s = data[name];
    if (!s || s.mean?.length !== data.labels.length || s.std?.length !== data.labels.length) {
      throw new Error(`Validation curve: ${data.labels.length} values need as many ${name} means and deviations.`);
    }
  }
  if (data.best !== undefined && data.best !== null && !(Number.isInteger(data.best) && data.best >= 0 && data.best < data.labels.length)) {
    throw new Error(`Validation curve: the best value ${data.best} is not one of the ${data.labels.length}.`);
  }
}

// Draws `data` with options {width, height, title}; returns {plot, x (index -> px), y}.
export function drawCurve(canvas, data, options = {}) {
  checkCurve(data);
  const n = data.labels.length;
  const W = options.width || 560;
  const H = options.height || 340;
  const ctx = setupCanvas(canvas, W, H);
  const plot = plotArea(W, H, { top: 34, right: W < 480 ? 16 : 190, bottom: 58, left: 62 });
  const bands = Object.keys(SERIES).flatMap((name) => data[name].mean.flatMap((m, i) => [m - data[name].std[i], m + data[name].std[i]]));
  const y = linearScale(pad(extent(bands), 0.08), [plot.bottom, plot.top]);
  const x = (i) => plot.left + (n === 1 ? plot.width / 2 : (plot.width * (i + 0.25)) / (n - 0.5));
  const every = Math.max(1, Math.ceil(n / Math.max(1, plot.width / 48)));
  drawAxes(ctx, plot, x, y, { xTicks: data.labels.map((_, i) => i).filter((i) => i % every === 0),
    xFormat: (i) => fitText(ctx, String(data.labels[i]), 60), xLabel: data.xName, yLabel: data.valueName, grid: true,
    ...(data.percent ? { yFormat: (v) => `${Number((100 * v).toPrecision(4))}%` } : {}) });
  if (Number.isInteger(data.best)) drawDashedVertical(ctx, plot, x(data.best));
  for (const [name, { colour }] of Object.entries(SERIES)) drawSeries(ctx, data[name], x, y, colour);
  if (Number.isInteger(data.best)) drawMarker(ctx, "ring", x(data.best), y(data.validation.mean[data.best]), INK.text, 8);
  if (W >= 480) {
    drawLegend(ctx, [...Object.values(SERIES).map(({ colour, label }) => ({ label, colour, shape: "filled" })),
      { label: "± 1 std over folds", colour: "#c9d6f2", shape: "swatch" }, { label: "best", colour: INK.text, shape: "ring" }],
    plot.right + 16, plot.top, 170);
  }
  ctx.fillStyle = INK.text;
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(fitText(ctx, options.title || "", W - 16), 8, 6);
  return { plot, x, y };
}

function drawSeries(ctx, { mean, std }, x, y, colour) {
  ctx.save();
  ctx.globalAlpha = 0.18;
  ctx.fillStyle = colour;
  ctx.beginPath();
  mean.forEach((m, i) => (i ? ctx.lineTo(x(i), y(m + std[i])) : ctx.moveTo(x(i), y(m + std[i]))));
  for (let i = mean.length - 1; i >= 0; i--) ctx.lineTo(x(i), y(mean[i] - std[i]));
  ctx.closePath();
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.beginPath();
  mean.forEach((m, i) => (i ? ctx.lineTo(x(i), y(m)) : ctx.moveTo(x(i), y(m))));
  ctx.stroke();
  ctx.restore();
  mean.forEach((m, i) => drawMarker(ctx, "filled", x(i), y(m), colour, 4));
}

// The text twin: a row per value with both means and deviations, the best one marked.
export function describeCurve(data, { caption = "" } = {}) {
  checkCurve(data);
  const headers = [data.xName, "validation mean", "± std", "training mean", "± std", "best"];
  const rows = data.labels.map((label, i) => [String(label), fmt(data.validation.mean[i], 4), fmt(data.validation.std[i], 2),
    fmt(data.train.mean[i], 4), fmt(data.train.std[i], 2), i === data.best ? "best" : ""]);
  const note = Number.isInteger(data.best) ? `Best: ${data.xName} = ${data.labels[data.best]}.` : "";
  return makeTwin(note ? makeParagraph(note) : null, makeTable(caption, headers, rows));
}
