// Scales, ticks, canvas setup and axes: the one place every chart gets its coordinates and its frame.
import { INK } from "./palette.js";

export const FONT = "12px system-ui, sans-serif";
export const LABEL_FONT = "600 12px system-ui, sans-serif";

// [min, max] of the finite values; widened around a single value so a scale never divides by zero.
export function extent(...arrays) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of arrays) {
    if (!values) continue;
    for (const v of values) {
      if (Number.isFinite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  if (lo === Infinity) return [0, 1];
  if (lo === hi) return [lo - (Math.abs(lo) || 1) * 0.5, hi + (Math.abs(hi) || 1) * 0.5];
  return [lo, hi];
}

// Widen [lo, hi] by a fraction of its span on both sides, so points do not sit on the frame.
export function pad([lo, hi], fraction = 0.05) {
  const d = (hi - lo) * fraction;
  return [lo - d, hi + d];
}

// The part of [lo, hi] a zoomed plot shows: `window` is [from, to] as fractions of the span, [0, 1]
// (or none) being all of it (see plot-zoom.js).
export function zoomDomain([lo, hi], window) {
  if (!window) return [lo, hi];
  const span = hi - lo;
  return [lo + window[0] * span, lo + window[1] * span];
}

// A tick step of 1, 2 or 5 times a power of ten giving about `count` ticks over [lo, hi] (the step
// nearest the raw one on a log scale, as d3's ticks do).
export function tickStep(lo, hi, count = 5) {
  const raw = Math.abs(hi - lo) / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f >= Math.sqrt(50) ? 10 : f >= Math.sqrt(10) ? 5 : f >= Math.sqrt(2) ? 2 : 1) * power;
}

// Round tick values inside [lo, hi] (both ends included when they fall on a step).
export function niceTicks(lo, hi, count = 5) {
  const a = Math.min(lo, hi);
  const b = Math.max(lo, hi);
  const step = tickStep(a, b, count);
  const first = Math.ceil(a / step - 1e-9);
  const last = Math.floor(b / step + 1e-9);
  const ticks = [];
  for (let i = first; i <= last; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

// Short label for a tick or a value: as few digits as the step needs, exponent form only for extremes.
export function formatTick(v, step) {
  if (v === 0) return "0";
  const abs = Math.abs(v);
  if (abs >= 1e6 || abs < 1e-4) return v.toExponential(1).replace("e+", "e");
  const decimals = step ? Math.max(0, Math.min(8, -Math.floor(Math.log10(step) + 1e-9))) : 3;
  return v.toFixed(decimals);
}

// A linear map from domain [d0, d1] to range [r0, r1]; scale(v) -> pixel, scale.invert(px) -> value.
export function linearScale([d0, d1], [r0, r1]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const scale = (v) => r0 + (v - d0) * k;
  scale.invert = (p) => (k === 0 ? d0 : d0 + (p - r0) / k);
  scale.domain = [d0, d1];
  scale.range = [r0, r1];
  scale.ticks = (count = 5) => niceTicks(d0, d1, count);
  scale.step = (count = 5) => tickStep(d0, d1, count);
  return scale;
}

// Size a canvas to width x height CSS pixels at the screen's pixel ratio, clear it (to `fill`, or
// transparent when fill is null), return its context.
export function setupCanvas(canvas, width, height, { fill = "#ffffff" } = {}) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  if (fill) {
    ctx.fillStyle = fill;
    ctx.fillRect(0, 0, width, height);
  }
  return ctx;
}

// The plot rectangle inside a canvas of width x height after the margins {top, right, bottom, left}.
export function plotArea(width, height, margin) {
  return {
    left: margin.left,
    top: margin.top,
    width: Math.max(10, width - margin.left - margin.right),
    height: Math.max(10, height - margin.top - margin.bottom),
    get right() { return this.left + this.width; },
    get bottom() { return this.top + this.height; },
  };
}

// Ticks, tick labels, optional grid lines and axis titles for x and y scales over a plot rectangle.
// x and y are linearScale()s, or plain functions when xTicks/yTicks are given.
// Options: xLabel, yLabel, yLabelAbove (bool: the y title above the plot, for narrow charts), grid (bool), xTicks/yTicks (values), xFormat/yFormat (v => text), xCount/yCount.
export function drawAxes(ctx, plot, x, y, options = {}) {
  const xTicks = options.xTicks || x.ticks(options.xCount || Math.max(2, Math.round(plot.width / 80)));
  const yTicks = options.yTicks || y.ticks(options.yCount || Math.max(2, Math.round(plot.height / 50)));
  const xStep = xTicks.length > 1 ? xTicks[1] - xTicks[0] : x.step ? x.step() : 1;
  const yStep = yTicks.length > 1 ? yTicks[1] - yTicks[0] : y.step ? y.step() : 1;
  const xFormat = options.xFormat || ((v) => formatTick(v, xStep));
  const yFormat = options.yFormat || ((v) => formatTick(v, yStep));
  ctx.save();
  if (options.grid) {
    ctx.strokeStyle = INK.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const t of xTicks) line(ctx, crisp(x(t)), plot.top, crisp(x(t)), plot.bottom);
    for (const t of yTicks) line(ctx, plot.left, crisp(y(t)), plot.right, crisp(y(t)));
    ctx.stroke();
  }
  ctx.strokeStyle = INK.axis;
  ctx.lineWidth = 1;
  ctx.beginPath();
  line(ctx, plot.left, crisp(plot.bottom), plot.right, crisp(plot.bottom));
  line(ctx, crisp(plot.left), plot.top, crisp(plot.left), plot.bottom);
  for (const t of xTicks) line(ctx, crisp(x(t)), plot.bottom, crisp(x(t)), plot.bottom + 5);
  for (const t of yTicks) line(ctx, plot.left - 5, crisp(y(t)), plot.left, crisp(y(t)));
  ctx.stroke();
  ctx.fillStyle = INK.muted;
  ctx.font = FONT;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const t of xTicks) ctx.fillText(xFormat(t), x(t), plot.bottom + 8);
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const t of yTicks) ctx.fillText(yFormat(t), plot.left - 8, y(t));
  ctx.fillStyle = INK.text;
  ctx.font = LABEL_FONT;
  if (options.xLabel) {
    ctx.textAlign = "center";
    ctx.textBaseline = "bottom";
    ctx.fillText(fitText(ctx, options.xLabel, plot.width), plot.left + plot.width / 2, plot.bottom + 40);
  }
  if (options.yLabel && options.yLabelAbove) {
    // Narrow charts name the vertical axis above it, left-aligned, leaving the margin to the ticks.
    ctx.textAlign = "left";
    ctx.textBaseline = "bottom";
    ctx.fillText(fitText(ctx, options.yLabel, plot.right - 4), 4, plot.top - 10);
  } else if (options.yLabel) {
    ctx.translate(plot.left - (options.yLabelOffset || 46), plot.top + plot.height / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "center";
    ctx.textBaseline = "bottom";
    ctx.fillText(fitText(ctx, options.yLabel, plot.height), 0, 0);
  }
  ctx.restore();
}

// Units written as a column-name suffix ("area_m2", "length_cm", "share_pct") and how an axis shows them.
// Single letters (m, s, g, c) are left out: "vitamin_c" is not in degrees.
const UNIT_SUFFIXES = { mm: "mm", cm: "cm", km: "km", m2: "m²", m3: "m³", kg: "kg", ms: "ms", sec: "s", secs: "s",
  min: "min", hours: "h", days: "days", years: "years", pct: "%", percent: "%", usd: "USD", eur: "EUR", kwh: "kWh" };

// An axis title for a column: a name that already carries its unit ("sepal length (cm)") is kept; a unit
// suffix after an underscore is shown in brackets ("area_m2" -> "area (m²)"); any other name is as is.
export function axisTitle(name) {
  if (name === undefined || name === null) return "";
  const text = String(name);
  const match = /^(.+)_([A-Za-z0-9]+)$/.exec(text);
  if (!match || /[([]/.test(text)) return text;
  const unit = UNIT_SUFFIXES[match[2].toLowerCase()];
  return unit ? `${match[1]} (${unit})` : text;
}

// Width the y tick labels need, so a chart can set its left margin before drawing.
export function yLabelWidth(ctx, y, count, format) {
  ctx.save();
  ctx.font = FONT;
  const ticks = y.ticks(count);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : y.step();
  const widths = ticks.map((t) => ctx.measureText(format ? format(t) : formatTick(t, step)).width);
  ctx.restore();
  return Math.max(0, ...widths);
}

export function fitText(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(cut + "…").width > width) cut = cut.slice(0, -1);
  return cut + "…";
}

function line(ctx, x0, y0, x1, y1) {
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
}

// Half-pixel offset so 1px lines fall on whole device pixels instead of blurring over two.
function crisp(v) {
  return Math.round(v) + 0.5;
}
