// Decision-boundary heatmap: a dense row-major grid of predictions shaded by class (or by value for a
// regressor), the data points on top, axes named after the two features, and a legend.
import { classColour, hexToRgb, sequentialColour, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, extent, yLabelWidth, axisTitle, zoomDomain } from "./scales.js";
import { drawMarker, drawLegend, legendHeight, splitLegendItems, splitShape, drawColourBar } from "./marks.js";
import { makeTable, makeParagraph, makeTwin, makeList, fmt } from "./twin.js";

const LEGEND_W = 150;
// Below this width (a phone) the legend goes under the plot, so the plot spans the canvas instead of
// sharing it with the legend, and the vertical axis is named above it rather than along it.
const NARROW = 560;
const COLOUR_BAR_H = 100;

// Throws an Error naming the sizes when the grid and its axes do not agree.
export function checkBoundary(b) {
  if (!b || typeof b !== "object") throw new Error("Boundary: expected an object with width, height and predicted.");
  const { width, height } = b;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`Boundary: width and height must be positive integers, got ${width} × ${height}.`);
  }
  const n = width * height;
  const len = b.predicted ? b.predicted.length : 0;
  if (len !== n) {
    throw new Error(`Boundary: predicted has ${len} values but width × height = ${width} × ${height} = ${n}.`);
  }
  if (b.probability && b.probability.length !== n) {
    throw new Error(`Boundary: probability has ${b.probability.length} values but width × height = ${width} × ${height} = ${n}.`);
  }
  if (!b.x_values || b.x_values.length !== width) {
    throw new Error(`Boundary: x_values has ${b.x_values ? b.x_values.length : 0} values but width = ${width}.`);
  }
  if (!b.y_values || b.y_values.length !== height) {
    throw new Error(`Boundary: y_values has ${b.y_values ? b.y_values.length : 0} values but height = ${height}.`);
  }
  const r = b.value_range;
  if (r && !(Number.isFinite(r.low) && Number.isFinite(r.high) && r.low <= r.high)) {
    throw new Error(`Boundary: value_range must have finite low <= high, got ${r.low} and ${r.high}.`);
  }
  const p = b.points;
  if (p && p.x && (p.x.length !== p.y.length || (p.label && p.label.length !== p.x.length)
      || (p.split && p.split.length !== p.x.length))) {
    throw new Error(`Boundary: points have ${p.x.length} x, ${p.y.length} y, ${p.label ? p.label.length : 0} labels `
      + `and ${p.split ? p.split.length : 0} splits; they must all be the same length.`);
  }
}

// A regressor's colour scale: the target's range as Python sent it (value_range: predictions beyond it
// take the end colours, and its note says so), else the values drawn.
export function colourDomain(b, pts = b.points || { label: [] }) {
  return b.value_range ? [b.value_range.low, b.value_range.high] : extent(b.predicted, pts.label);
}

export function isRegression(b, options = {}) {
  if (options.task) return options.task === "regression";
  return !b.classes || b.classes.length === 0;
}

// How strongly a cell shows its class: 0.2 where the model is at chance, 0.7 where it is certain.
export function cellStrength(probability, nClasses) {
  if (probability === null || probability === undefined) return 0.45;
  const chance = 1 / Math.max(2, nClasses);
  const sure = Math.min(1, Math.max(0, (probability - chance) / (1 - chance)));
  return 0.2 + 0.5 * sure;
}

function blendWithWhite(rgb, a) {
  return rgb.map((c) => Math.round(255 + (c - 255) * a));
}

// The grid's own extent: grid values are cell centres, so each side gets half a cell.
function gridExtent(values) {
  const n = values.length;
  const first = values[0];
  const last = values[n - 1];
  const half = n > 1 ? (last - first) / (n - 1) / 2 : 0.5;
  return [first - half, last + half];
}

// Paints the grid at its own resolution into an ImageData (row 0 of the image is the top, the largest y).
function gridImage(b, regression, valueDomain) {
  const { width, height, predicted, probability } = b;
  const image = new ImageData(width, height);
  const px = image.data;
  if (regression) {
    const [lo, hi] = valueDomain;
    const span = hi - lo || 1;
    for (let j = 0; j < height; j++) {
      const row = (height - 1 - j) * width * 4;
      for (let i = 0; i < width; i++) {
        const [r, g, bl] = sequentialColour((predicted[j * width + i] - lo) / span);
        const o = row + i * 4;
        px[o] = r; px[o + 1] = g; px[o + 2] = bl; px[o + 3] = 255;
      }
    }
    return image;
  }
  const k = b.classes.length;
  const base = b.classes.map((_, c) => hexToRgb(classColour(c)));
  // Shades are quantised to 64 levels per class so the inner loop only looks colours up.
  const levels = 64;
  const table = base.map((rgb) => Array.from({ length: levels + 1 }, (_, q) => blendWithWhite(rgb, 0.2 + 0.5 * q / levels)));
  const flat = base.map((rgb) => blendWithWhite(rgb, cellStrength(null, k)));
  const chance = 1 / Math.max(2, k);
  for (let j = 0; j < height; j++) {
    const row = (height - 1 - j) * width * 4;
    for (let i = 0; i < width; i++) {
      const idx = j * width + i;
      const c = predicted[idx];
      const o = row + i * 4;
      if (!(c >= 0 && c < k)) { px[o + 3] = 0; continue; }
      let rgb;
      if (probability) {
        const sure = Math.min(1, Math.max(0, (probability[idx] - chance) / (1 - chance)));
        rgb = table[c][Math.round(sure * levels)];
      } else {
        rgb = flat[c];
      }
      px[o] = rgb[0]; px[o + 1] = rgb[1]; px[o + 2] = rgb[2]; px[o + 3] = 255;
    }
  }
  return image;
}

// Draws Boundary `b` (see docs/bridge.md) on `canvas`. Options: width, height (CSS px), task
// ("classification"/"regression", default from b.classes), valueLabel (regressor colour-bar title),
// pointSize, showPoints (default true), view (the zoomed window, as fractions of the full range: plot-zoom.js;
// the grid's cells are enlarged crisply). Returns {plot, x, y, valueAt(cssX, cssY)} for hit-testing.
export function drawBoundary(canvas, b, options = {}) {
  checkBoundary(b);
  const regression = isRegression(b, options);
  const W = options.width || 620;
  const narrow = W < NARROW;
  // A phone's plot is nearly square: the legend's room goes to the plot's height, not beside it.
  const plotH = narrow ? Math.round(Math.max(options.height || 0, 0.85 * W)) : options.height || 460;
  const pts = b.points && b.points.x ? b.points : { x: [], y: [], label: [], split: [] };
  const legend = legendBlocks(b, pts, regression);
  const H = narrow ? plotH + 12 + Math.max(...legend.map(blockHeight)) : plotH;
  const ctx = setupCanvas(canvas, W, H);
  const [gx0, gx1] = gridExtent(b.x_values);
  const [gy0, gy1] = gridExtent(b.y_values);
  const [px0, px1] = extent(pts.x);
  const [py0, py1] = extent(pts.y);
  const hasPts = pts.x.length > 0;
  const yDomain = zoomDomain([hasPts ? Math.min(gy0, py0) : gy0, hasPts ? Math.max(gy1, py1) : gy1], options.view?.y);
  const margin = narrow ? { top: 28, right: 4, bottom: 50, left: 0 } : { top: 14, right: LEGEND_W + 20, bottom: 50, left: 62 };
  if (narrow) margin.left = Math.ceil(yLabelWidth(ctx, linearScale(yDomain, [plotH - 50, 28]), yTickCount(plotH - 78))) + 9;
  const plot = plotArea(W, plotH, margin);
  const xDomain = zoomDomain([hasPts ? Math.min(gx0, px0) : gx0, hasPts ? Math.max(gx1, px1) : gx1], options.view?.x);
  const x = linearScale(xDomain, [plot.left, plot.right]);
  const y = linearScale(yDomain, [plot.bottom, plot.top]);
  const valueDomain = regression ? colourDomain(b, pts) : null;

  // The grid is painted at its own resolution, then scaled up without smoothing: one drawImage call.
  const small = document.createElement("canvas");
  small.width = b.width;
  small.height = b.height;
  small.getContext("2d").putImageData(gridImage(b, regression, valueDomain), 0, 0);
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.left, plot.top, plot.width, plot.height);
  ctx.clip();
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small, x(gx0), y(gy1), x(gx1) - x(gx0), y(gy0) - y(gy1));
  if (options.showPoints !== false) drawPoints(ctx, pts, x, y, regression, valueDomain, b.classes, options.pointSize || 4);
  ctx.restore();
  drawAxes(ctx, plot, x, y, { xLabel: axisTitle(b.x_name), yLabel: axisTitle(b.y_name), yLabelAbove: narrow,
    yCount: yTickCount(plot.height) });
  const at = narrow ? { x: 4, y: plotH + 12, across: (W - 8) / legend.length } : { x: plot.right + 20, y: plot.top, across: 0 };
  drawBoundaryLegend(ctx, legend, at, plot, valueDomain, options);
  canvas.dataset.plot = [plot.left, plot.top, plot.width, plot.height].map(Math.round).join(",");

  const valueAt = (cx, cy) => {
    if (cx < plot.left || cx > plot.right || cy < plot.top || cy > plot.bottom) return null;
    const vx = x.invert(cx);
    const vy = y.invert(cy);
    const column = Math.floor((vx - gx0) / (gx1 - gx0) * b.width);
    const row = Math.floor((vy - gy0) / (gy1 - gy0) * b.height);
    if (column < 0 || column >= b.width || row < 0 || row >= b.height) return null;
    const index = row * b.width + column;
    const predicted = b.predicted[index];
    return {
      x: vx, y: vy, column, row, index, predicted,
      label: regression ? predicted : b.classes[predicted],
      probability: b.probability ? b.probability[index] : null,
    };
  };
  return { plot, x, y, valueAt };
}

function drawPoints(ctx, pts, x, y, regression, valueDomain, classes, size) {
  const n = pts.x.length;
  const [lo, hi] = valueDomain || [0, 1];
  const colourOf = (label) => {
    if (regression) {
      const [r, g, bl] = sequentialColour((label - lo) / (hi - lo || 1));
      return `rgb(${r},${g},${bl})`;
    }
    return label >= 0 && label < classes.length ? classColour(label) : INK.neutral;
  };
  const halo = regression ? INK.text : "#ffffff";
  // Train first, so held-out points (what the model did not see) stay visible on top.
  for (const split of ["train", "validation", "test"]) {
    for (let i = 0; i < n; i++) {
      const s = pts.split ? pts.split[i] : "train";
      if ((s === "validation" || s === "test" ? s : "train") !== split) continue;
      const label = pts.label ? pts.label[i] : 0;
      drawMarker(ctx, splitShape(s), x(pts.x[i]), y(pts.y[i]), colourOf(label), size, halo);
    }
  }
}

function yTickCount(height) {
  return Math.max(2, Math.round(height / 50));
}

// The legend's parts: the classes (or the colour bar of a regressor), then the points' splits.
function legendBlocks(b, pts, regression) {
  const blocks = [];
  if (regression) blocks.push({ colourBar: true });
  else {
    const k = b.classes.length;
    const items = [{ heading: "Class" }, ...b.classes.map((c, i) => ({ label: c, colour: classColour(i), shape: "swatch" }))];
    if (b.probability) {
      const pale = blendWithWhite(hexToRgb(classColour(0)), cellStrength(1 / k, k));
      items.push({ label: "pale = unsure", colour: `rgb(${pale.join(",")})`, shape: "swatch" });
    }
    blocks.push({ items });
  }
  if (pts.x.length) blocks.push({ items: [{ heading: "Points" }, ...splitLegendItems(pts.split || ["train"])] });
  return blocks;
}

function blockHeight(block) {
  return block.colourBar ? COLOUR_BAR_H + 30 : legendHeight(block.items);
}

// Beside the plot the blocks are stacked; under it (across > 0) they sit side by side.
function drawBoundaryLegend(ctx, blocks, at, plot, valueDomain, options) {
  let { x, y } = at;
  const width = at.across ? at.across - 12 : LEGEND_W;
  for (const block of blocks) {
    const used = block.colourBar
      ? drawColourBar(ctx, x, y, at.across ? COLOUR_BAR_H : Math.min(200, plot.height * 0.55), valueDomain, options.valueLabel || "Predicted value")
      : drawLegend(ctx, block.items, x, y, width);
    if (at.across) x += at.across;
    else y += used + 4;
  }
}

// The text twin: what the regions are, how much of the grid each class covers, and the points by split.
export function describeBoundary(b, options = {}) {
  checkBoundary(b);
  const regression = isRegression(b, options);
  const pts = b.points && b.points.x ? b.points : { x: [], y: [], label: [], split: [] };
  const [x0, x1] = [b.x_values[0], b.x_values[b.width - 1]];
  const [y0, y1] = [b.y_values[0], b.y_values[b.height - 1]];
  const intro = makeParagraph(`${regression ? "Predicted values" : "Decision regions"} over ${b.x_name} `
    + `(${fmt(x0)} to ${fmt(x1)}) and ${b.y_name} (${fmt(y0)} to ${fmt(y1)}), on a ${b.width} × ${b.height} grid; `
    + `${pts.x.length} points drawn.`);
  const held = Object.entries(b.held || {});
  const heldList = held.length
    ? makeList(held.map(([f, v]) => `${f} held at ${typeof v === "number" ? fmt(v) : v}`)) : null;
  const splitsOf = (keep) => {
    const counts = { train: 0, validation: 0, test: 0 };
    for (let i = 0; i < pts.x.length; i++) {
      if (keep(i)) counts[pts.split ? pts.split[i] : "train"] = (counts[pts.split ? pts.split[i] : "train"] || 0) + 1;
    }
    return counts;
  };
  let table;
  if (regression) {
    const stats = (values) => {
      const [lo, hi] = extent(values);
      const mean = values.length ? values.reduce((s, v) => s + v, 0) / values.length : NaN;
      return [fmt(lo), fmt(mean), fmt(hi)];
    };
    const rows = [["grid predictions", b.predicted.length, ...stats(Array.from(b.predicted))]];
    for (const split of ["train", "validation", "test"]) {
      const values = pts.label.filter((_, i) => (pts.split ? pts.split[i] : "train") === split);
      if (values.length) rows.push([`${split} points (actual)`, values.length, ...stats(values)]);
    }
    table = makeTable("Predicted values", ["", "count", "min", "mean", "max"], rows);
    const r = b.value_range;
    if (r) {
      const range = makeParagraph(r.note || `The colours follow the target's range, ${fmt(r.low)} to ${fmt(r.high)}; `
        + "every prediction on the grid lies within it.");
      return makeTwin(intro, range, table, heldList);
    }
  } else {
    const n = b.predicted.length;
    const rows = b.classes.map((name, c) => {
      let cells = 0;
      let sure = 0;
      for (let i = 0; i < n; i++) {
        if (b.predicted[i] === c) {
          cells++;
          if (b.probability) sure += b.probability[i];
        }
      }
      const counts = splitsOf((i) => pts.label[i] === c);
      return [name, `${fmt((100 * cells) / n, 3)}%`, b.probability ? (cells ? fmt(sure / cells) : "–") : "n/a",
        counts.train, counts.validation, counts.test];
    });
    table = makeTable("Decision regions by class", ["class", "share of grid", "mean probability",
      "train points", "validation points", "test points"], rows);
  }
  return makeTwin(intro, table, heldList);
}
