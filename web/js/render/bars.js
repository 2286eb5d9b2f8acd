// Horizontal bars, one per feature, largest first, with an optional ± spread drawn as whiskers: used for
// permutation importance (the score's drop when a feature is shuffled) and a tree's impurity importance.
// Negative values draw left of zero. With a text twin.
import { classColour, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, niceTicks, drawAxes, fitText, FONT } from "./scales.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const BAR_HEIGHT = 22;
const MAX_BARS = 30;  // beyond this the drawing shows the first ones and says so; the twin lists all

// data: {labels, values, errors?} of equal lengths.
export function checkBars(data) {
  if (!data || !Array.isArray(data.labels) || !Array.isArray(data.values) || !data.labels.length) {
    throw new Error("Bars: expected non-empty labels and values.");
  }
  if (data.values.length !== data.labels.length || (data.errors && data.errors.length !== data.labels.length)) {
    throw new Error(`Bars: ${data.labels.length} labels need as many values (and errors), got ${data.values.length}.`);
  }
}

// The canvas height that fits `n` bars (the caller sizes the canvas with it).
export function barsHeight(n) {
  return 96 + BAR_HEIGHT * Math.min(n, MAX_BARS);
}

// Draws data {labels, values, errors?} with options {width, title, xLabel, colour}.
export function drawBars(canvas, data, options = {}) {
  checkBars(data);
  const n = Math.min(data.labels.length, MAX_BARS);
  const W = options.width || 520;
  const H = barsHeight(n);
  const ctx = setupCanvas(canvas, W, H);
  ctx.font = FONT;
  const labelWidth = Math.min(W * 0.35, Math.max(...data.labels.slice(0, n).map((l) => ctx.measureText(String(l)).width)) + 14);
  const plot = plotArea(W, H, { top: 30, right: 24, bottom: 54, left: labelWidth + 8 });
  const errors = data.errors || data.values.map(() => 0);
  const lo = Math.min(0, ...data.values.slice(0, n).map((v, i) => v - errors[i]));
  const hi = 1.04 * Math.max(1e-12, ...data.values.slice(0, n).map((v, i) => v + errors[i]));  // room past the longest bar
  const ticks = niceTicks(lo, hi, Math.max(2, Math.round(plot.width / 90)));
  const x = linearScale([Math.min(lo, ticks[0]), Math.max(hi, ticks[ticks.length - 1])], [plot.left, plot.right]);
  const slot = plot.height / n;
  const y = (i) => plot.top + slot * (i + 0.5);
  drawAxes(ctx, plot, x, (v) => v, { xTicks: ticks, yTicks: [], xLabel: options.xLabel || "importance", grid: true });
  const colour = options.colour || classColour(0);
  ctx.save();
  for (let i = 0; i < n; i++) {
    const v = data.values[i];
    ctx.fillStyle = colour;
    const [a, b] = [x(Math.min(0, v)), x(Math.max(0, v))];
    ctx.fillRect(a, y(i) - slot * 0.32, Math.max(1, b - a), slot * 0.64);
    if (errors[i] > 0) {
      ctx.strokeStyle = INK.text;
      ctx.beginPath();
      ctx.moveTo(x(v - errors[i]), y(i));
      ctx.lineTo(x(v + errors[i]), y(i));
      for (const end of [v - errors[i], v + errors[i]]) {
        ctx.moveTo(x(end), y(i) - 5);
        ctx.lineTo(x(end), y(i) + 5);
      }
      ctx.stroke();
    }
    ctx.fillStyle = INK.text;
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillText(fitText(ctx, String(data.labels[i]), labelWidth - 6), plot.left - 8, y(i));
  }
  ctx.strokeStyle = INK.axis;
  ctx.beginPath();
  ctx.moveTo(Math.round(x(0)) + 0.5, plot.top);
  ctx.lineTo(Math.round(x(0)) + 0.5, plot.bottom);
  ctx.stroke();
  ctx.fillStyle = INK.text;
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  const more = data.labels.length > n ? ` (first ${n} of ${data.labels.length})` : "";
  ctx.fillText(fitText(ctx, `${options.title || ""}${more}`, W - 16), 8, 6);
  ctx.restore();
  return { plot, x, y };
}

// The text twin: a row per feature with its value (and spread).
export function describeBars(data, { caption = "", valueName = "importance", note = "" } = {}) {
  checkBars(data);
  const headers = ["feature", valueName, ...(data.errors ? ["± std"] : [])];
  const rows = data.labels.map((l, i) => [l, fmt(data.values[i], 3), ...(data.errors ? [fmt(data.errors[i], 2)] : [])]);
  return makeTwin(note ? makeParagraph(note) : null, makeTable(caption, headers, rows));
}
