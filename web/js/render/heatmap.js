// A heatmap of a score over two hyperparameters: one cell per pair of values, coloured on the sequential
// ramp from the lowest to the highest score, the value printed in the cell, and one cell (the best)
// outlined. Rows are the first parameter's values, columns the second's; the values come as a dense
// row-major array whose size is checked. With a text twin (the same grid as a table).
import { INK, sequentialColour } from "./palette.js";
import { setupCanvas, plotArea, fitText, FONT, LABEL_FONT } from "./scales.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const MAX_SIDE = 30;  // more values per side than this cannot be read in a cell

// data: {rows: [label], columns: [label], values: [number] (row-major, rows x columns), best?: index,
// rowName, columnName, valueName}.
export function checkHeatmap(data) {
  if (!data || !Array.isArray(data.rows) || !Array.isArray(data.columns) || !data.rows.length || !data.columns.length) {
    throw new Error("Heatmap: expected non-empty rows and columns.");
  }
  if (data.rows.length > MAX_SIDE || data.columns.length > MAX_SIDE) {
    throw new Error(`Heatmap: at most ${MAX_SIDE} values per side, got ${data.rows.length} x ${data.columns.length}.`);
  }
  const n = data.rows.length * data.columns.length;
  if (!data.values || data.values.length !== n) {
    throw new Error(`Heatmap: ${data.rows.length} rows x ${data.columns.length} columns need ${n} values, got ${data.values?.length ?? 0}.`);
  }
  if (data.best !== undefined && data.best !== null && !(Number.isInteger(data.best) && data.best >= 0 && data.best < n)) {
    throw new Error(`Heatmap: the best cell ${data.best} is not one of the ${n} cells.`);
  }
}

// Light cells take dark text and dark cells white text, so every printed value keeps its contrast.
function inkOn([r, g, b]) {
  const lum = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  return lum > 0.5 ? INK.text : "#ffffff";
}

function colourScale(values) {
  const finite = values.filter(Number.isFinite);
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  return (v) => (Number.isFinite(v) ? sequentialColour(hi > lo ? (v - lo) / (hi - lo) : 1) : [255, 255, 255]);
}

// Draws `data` with options {width, title, format (v => text)}; returns {plot, cell (row, column) -> box}.
export function drawHeatmap(canvas, data, options = {}) {
  checkHeatmap(data);
  const format = options.format || ((v) => fmt(v, 3));
  const [nr, nc] = [data.rows.length, data.columns.length];
  const W = options.width || 560;
  const measure = canvas.getContext("2d");
  measure.font = FONT;  // the row labels' width sets the left margin before the canvas is sized
  const rowLabelWidth = Math.min(W * 0.25, Math.max(...data.rows.map((l) => measure.measureText(String(l)).width)) + 12);
  const left = rowLabelWidth + 30;
  const cellWidth = (W - left - 16) / nc;
  const cellHeight = Math.max(30, Math.min(56, cellWidth * 0.7));
  const H = 70 + cellHeight * nr + 30;
  const ctx = setupCanvas(canvas, W, H);
  const plot = plotArea(W, H, { top: 58, right: 16, bottom: 30, left });
  const colour = colourScale(data.values);
  const cell = (i, j) => ({ x: plot.left + j * cellWidth, y: plot.top + i * cellHeight, w: cellWidth, h: cellHeight });
  ctx.font = FONT;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let i = 0; i < nr; i++) {
    for (let j = 0; j < nc; j++) {
      const v = data.values[i * nc + j];
      const rgb = colour(v);
      const box = cell(i, j);
      ctx.fillStyle = `rgb(${rgb.join(",")})`;
      ctx.fillRect(box.x, box.y, box.w, box.h);
      ctx.fillStyle = inkOn(rgb);
      ctx.fillText(fitText(ctx, Number.isFinite(v) ? format(v) : "—", box.w - 6), box.x + box.w / 2, box.y + box.h / 2);
    }
  }
  ctx.strokeStyle = "#ffffff";
  ctx.lineWidth = 1;
  for (let i = 0; i <= nr; i++) line(ctx, plot.left, plot.top + i * cellHeight, plot.right, plot.top + i * cellHeight);
  for (let j = 0; j <= nc; j++) line(ctx, plot.left + j * cellWidth, plot.top, plot.left + j * cellWidth, plot.bottom);
  if (Number.isInteger(data.best)) {
    const box = cell(Math.floor(data.best / nc), data.best % nc);
    // Dark around yellow: the mark stands out on the ramp's light and dark ends alike.
    ctx.lineWidth = 4;
    ctx.strokeStyle = INK.text;
    ctx.strokeRect(box.x + 2, box.y + 2, box.w - 4, box.h - 4);
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#f2b632";
    ctx.strokeRect(box.x + 3, box.y + 3, box.w - 6, box.h - 6);
  }
  drawLabels(ctx, data, plot, { cellWidth, cellHeight, rowLabelWidth });
  ctx.fillStyle = INK.text;
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(fitText(ctx, options.title || "", W - 16), 8, 6);
  return { plot, cell };
}

function drawLabels(ctx, data, plot, { cellWidth, cellHeight, rowLabelWidth }) {
  ctx.save();
  ctx.fillStyle = INK.muted;
  ctx.font = FONT;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  data.columns.forEach((l, j) => ctx.fillText(fitText(ctx, String(l), cellWidth - 4), plot.left + (j + 0.5) * cellWidth, plot.top - 4));
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  data.rows.forEach((l, i) => ctx.fillText(fitText(ctx, String(l), rowLabelWidth - 4), plot.left - 8, plot.top + (i + 0.5) * cellHeight));
  ctx.fillStyle = INK.text;
  ctx.font = LABEL_FONT;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(fitText(ctx, data.columnName || "", plot.width), plot.left + plot.width / 2, plot.top - 20);
  ctx.translate(14, plot.top + plot.height / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = "middle";
  ctx.fillText(fitText(ctx, data.rowName || "", plot.height), 0, 0);
  ctx.restore();
}

function line(ctx, x0, y0, x1, y1) {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
}

// The text twin: the same grid as a table, rows named by the first parameter's values, the best cell
// marked in words.
export function describeHeatmap(data, { caption = "", format = (v) => fmt(v, 3) } = {}) {
  checkHeatmap(data);
  const nc = data.columns.length;
  const headers = [`${data.rowName} \\ ${data.columnName}`, ...data.columns.map(String)];
  const rows = data.rows.map((label, i) => [String(label), ...data.columns.map((_, j) => {
    const k = i * nc + j;
    const text = Number.isFinite(data.values[k]) ? format(data.values[k]) : "—";
    return k === data.best ? `${text} (best)` : text;
  })]);
  const note = Number.isInteger(data.best)
    ? `Best: ${data.rowName} = ${data.rows[Math.floor(data.best / nc)]}, ${data.columnName} = ${data.columns[data.best % nc]}.` : "";
  return makeTwin(note ? makeParagraph(note) : null, makeTable(caption, headers, rows));
}
