// Scatter plot of points coloured by class or cluster, with optional cluster centres as large crosses;
// used for clusterings and for the PCA projection.
import { classColour, sequentialColour, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, extent, pad, axisTitle, yLabelWidth, zoomDomain } from "./scales.js";
import { drawMarker, drawLegend, legendHeight, splitLegendItems, splitShape, drawColourBar } from "./marks.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const LEGEND_W = 140;
const NARROW = 480;  // below this canvas width (a phone) the legend goes under the plot
const COLOUR_BAR_BELOW = 150;  // room under a narrow plot for the colour bar

// [[a, b], ...] (e.g. a PCA projection) -> {x: [a...], y: [b...]}.
export function fromPairs(pairs) {
  return { x: pairs.map((p) => p[0]), y: pairs.map((p) => p[1]) };
}

function centresOf(data) {
  const c = data.centres;
  if (!c) return null;
  if (Array.isArray(c)) return { x: c.map((p) => p[0]), y: c.map((p) => p[1]) };
  return c;
}

// Groups of the labels: integer labels are indices into `classes` (or clusters named "<name> <i>");
// other labels are taken in sorted order. Negative integers (noise) get the neutral colour.
export function labelGroups(data, options = {}) {
  const labels = data.label ? Array.from(data.label) : new Array(data.x.length).fill(0);
  if (isContinuous(labels, options)) return { continuous: true, index: labels, names: [], hasNoise: false };
  const integers = labels.every((v) => Number.isInteger(v));
  if (integers) {
    const max = labels.reduce((m, v) => Math.max(m, v), -1);
    const nGroups = Math.max(max + 1, data.classes ? data.classes.length : 0, centresOf(data)?.x.length || 0);
    const names = Array.from({ length: nGroups }, (_, i) => (data.classes ? String(data.classes[i]) : `${options.labelName || "cluster"} ${i}`));
    return { index: labels, names, hasNoise: labels.some((v) => v < 0) };
  }
  const names = [...new Set(labels.map(String))].sort();
  const lookup = new Map(names.map((n, i) => [n, i]));
  return { index: labels.map((v) => lookup.get(String(v))), names, hasNoise: false };
}

// Numeric labels are a continuous value (coloured on a ramp) when options.continuous says so, or when
// they are not all integers, or when there are more than 12 different ones.
export function isContinuous(labels, options = {}) {
  if (options.continuous !== undefined) return Boolean(options.continuous);
  if (!labels.length || !labels.every((v) => typeof v === "number" && Number.isFinite(v))) return false;
  return !labels.every(Number.isInteger) || new Set(labels).size > 12;
}

export function checkScatter(data) {
  if (!data || !data.x || !data.y) throw new Error("Scatter: expected {x, y} arrays.");
  const n = data.x.length;
  for (const key of ["y", "label", "split"]) {
    if (data[key] && data[key].length !== n) {
      throw new Error(`Scatter: x has ${n} values but ${key} has ${data[key].length}; they must be the same length.`);
    }
  }
  const c = centresOf(data);
  if (c && c.x.length !== c.y.length) throw new Error(`Scatter: centres have ${c.x.length} x and ${c.y.length} y values.`);
}

// Draws data {x, y, label?, split?, classes?, centres? ([[cx, cy]] or {x, y}), x_name, y_name} on `canvas`.
// Options: width, height, pointSize, labelName ("cluster"), legendTitle, continuous (colour numeric labels
// on a ramp with a colour bar; default: automatic), view ({x: [from, to], y: [from, to]}, the zoomed
// window as fractions of the data's range; default all). Returns {plot, x, y, nearest(cx, cy, r)}.
export function drawScatter(canvas, data, options = {}) {
  checkScatter(data);
  const W = options.width || 560;
  const narrow = W < NARROW;
  const groups = labelGroups(data, options);
  const centres = centresOf(data);
  const items = groups.continuous ? null : legendItems(data, groups, centres, options);
  // A phone's plot is nearly square and as wide as the canvas: the legend goes below it, not beside it.
  const plotH = narrow ? Math.round(Math.max(options.height || 0, 0.85 * W)) : options.height || 420;
  const below = groups.continuous ? COLOUR_BAR_BELOW : legendHeight(items);
  const ctx = setupCanvas(canvas, W, narrow ? plotH + 12 + below : plotH);
  const yDomain = zoomDomain(pad(extent(data.y, centres?.y)), options.view?.y);
  const margin = narrow ? { top: 28, right: 8, bottom: 50, left: 0 } : { top: 14, right: LEGEND_W + 20, bottom: 50, left: 62 };
  // On a phone the y axis's title sits above the plot, so the margin need only fit its tick labels.
  if (narrow) margin.left = Math.ceil(yLabelWidth(ctx, linearScale(yDomain, [plotH - 50, 28]), 5)) + 9;
  const plot = plotArea(W, plotH, margin);
  const legendAt = narrow ? { x: 4, y: plotH + 12, width: W - 8 } : { x: plot.right + 20, y: plot.top, width: LEGEND_W };
  canvas.dataset.plot = [plot.left, plot.top, plot.width, plot.height].map(Math.round).join(",");
  const x = linearScale(zoomDomain(pad(extent(data.x, centres?.x)), options.view?.x), [plot.left, plot.right]);
  const y = linearScale(yDomain, [plot.bottom, plot.top]);
  drawAxes(ctx, plot, x, y, { xLabel: axisTitle(data.x_name), yLabel: axisTitle(data.y_name), grid: true,
    yLabelAbove: narrow });
  const [lo, hi] = groups.continuous ? extent(groups.index) : [0, 1];
  const colourOf = groups.continuous
    ? (v) => `rgb(${sequentialColour((v - lo) / (hi - lo || 1)).join(",")})`
    : (g) => (g >= 0 ? classColour(g) : INK.neutral);
  const size = options.pointSize || 4;
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.left - size, plot.top - size, plot.width + 2 * size, plot.height + 2 * size);
  ctx.clip();
  for (let i = 0; i < data.x.length; i++) {
    drawMarker(ctx, splitShape(data.split ? data.split[i] : "train"), x(data.x[i]), y(data.y[i]), colourOf(groups.index[i]), size,
      groups.continuous ? INK.text : "#ffffff");
  }
  if (centres) {
    for (let c = 0; c < centres.x.length; c++) {
      drawMarker(ctx, "cross", x(centres.x[c]), y(centres.y[c]), groups.continuous ? INK.muted : colourOf(c), 9, "#1d232a");
    }
  }
  ctx.restore();
  if (groups.continuous) {
    const barH = narrow ? COLOUR_BAR_BELOW - 30 : Math.min(180, plot.height * 0.55);
    const used = drawColourBar(ctx, legendAt.x, legendAt.y, barH, [lo, hi], options.legendTitle || "value");
    if (data.split && new Set(data.split).size > 1) {
      const splitAt = narrow ? { x: legendAt.x + legendAt.width / 2, y: legendAt.y } : { x: legendAt.x, y: legendAt.y + used + 4 };
      drawLegend(ctx, [{ heading: "Points" }, ...splitLegendItems(data.split)], splitAt.x, splitAt.y, LEGEND_W);
    }
    return { plot, x, y, nearest: nearestIn(data, x, y) };
  }
  drawLegend(ctx, items, legendAt.x, legendAt.y, legendAt.width);
  return { plot, x, y, nearest: nearestIn(data, x, y) };
}

// The legend of a class or cluster colouring: one swatch per group, noise, centres, and the splits' shapes.
function legendItems(data, groups, centres, options) {
  const items = [{ heading: options.legendTitle || (data.classes ? "Class" : "Cluster") },
    ...groups.names.map((name, i) => ({ label: name, colour: classColour(i), shape: "swatch" }))];
  if (groups.hasNoise) items.push({ label: "noise", colour: INK.neutral, shape: "swatch" });
  if (centres) items.push({ label: "centre", colour: INK.muted, shape: "cross" });
  if (data.split && new Set(data.split).size > 1) items.push({ heading: "Points" }, ...splitLegendItems(data.split));
  return items;
}

// Hit-testing: the index of the point nearest (cx, cy) within `radius` CSS pixels, or -1.
function nearestIn(data, x, y) {
  return (cx, cy, radius = 6) => {
    let best = -1;
    let bestD = radius * radius;
    for (let i = 0; i < data.x.length; i++) {
      const d = (x(data.x[i]) - cx) ** 2 + (y(data.y[i]) - cy) ** 2;
      if (d <= bestD) { bestD = d; best = i; }
    }
    return best;
  };
}

// The text twin: for every class or cluster, how many points, their mean position and the centre.
export function describeScatter(data, options = {}) {
  checkScatter(data);
  const groups = labelGroups(data, options);
  if (groups.continuous) return describeContinuous(data, groups.index, options);
  const centres = centresOf(data);
  const names = groups.hasNoise ? [...groups.names, "noise"] : groups.names;
  const rows = names.map((name, g) => {
    const target = g < groups.names.length ? g : -1;
    let n = 0, sx = 0, sy = 0;
    for (let i = 0; i < data.x.length; i++) {
      const gi = groups.index[i] < 0 ? -1 : groups.index[i];
      if (gi === target) { n++; sx += data.x[i]; sy += data.y[i]; }
    }
    const row = [name, n, n ? fmt(sx / n) : "–", n ? fmt(sy / n) : "–"];
    if (centres) row.push(target >= 0 && target < centres.x.length ? `(${fmt(centres.x[target])}, ${fmt(centres.y[target])})` : "–");
    return row;
  });
  const headers = [data.classes ? "class" : (options.labelName || "cluster"), "points", `mean ${data.x_name || "x"}`, `mean ${data.y_name || "y"}`];
  if (centres) headers.push("centre");
  return makeTwin(
    makeParagraph(`${data.x.length} points plotted by ${data.x_name || "x"} and ${data.y_name || "y"}.`),
    makeTable(options.caption || "Points by group", headers, rows),
  );
}

// Twin of a scatter coloured by a continuous value: the value's range and the points in four value bands.
function describeContinuous(data, values, options) {
  const [lo, hi] = extent(values);
  const bands = 4;
  const width = (hi - lo) / bands || 1;
  const rows = Array.from({ length: bands }, (_, b) => {
    const from = lo + b * width;
    const to = b === bands - 1 ? hi : from + width;
    let n = 0, sx = 0, sy = 0;
    values.forEach((v, i) => {
      if (Math.min(bands - 1, Math.floor((v - lo) / width)) === b) { n++; sx += data.x[i]; sy += data.y[i]; }
    });
    return [`${fmt(from)} to ${fmt(to)}`, n, n ? fmt(sx / n) : "–", n ? fmt(sy / n) : "–"];
  });
  return makeTwin(
    makeParagraph(`${data.x.length} points plotted by ${data.x_name || "x"} and ${data.y_name || "y"}, `
      + `coloured by ${options.legendTitle || "value"} from ${fmt(lo, 4)} to ${fmt(hi, 4)}.`),
    makeTable(options.caption || "Points by value band", [options.legendTitle || "value", "points",
      `mean ${data.x_name || "x"}`, `mean ${data.y_name || "y"}`], rows),
  );
}
