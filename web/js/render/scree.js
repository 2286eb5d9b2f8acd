// Scree plot of a PCA: a bar per component for its share of the variance, the running total as a line,
// and a guide at 90%.
import { CLASS_COLOURS, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, FONT } from "./scales.js";
import { drawMarker, drawLegend } from "./marks.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const BAR = CLASS_COLOURS[0];
const LINE = CLASS_COLOURS[1];
const GUIDE = 0.9;

export function cumulativeOf(ratios) {
  let total = 0;
  return Array.from(ratios, (r) => (total += r));
}

export function checkScree(data) {
  if (!data || !data.ratios || data.ratios.length === 0) throw new Error("Scree: expected a non-empty ratios array.");
  if (data.cumulative && data.cumulative.length !== data.ratios.length) {
    throw new Error(`Scree: ratios has ${data.ratios.length} values but cumulative has ${data.cumulative.length}.`);
  }
}

// Components needed to reach `level` of the variance (null if the listed components never reach it).
export function componentsFor(cumulative, level = GUIDE) {
  const i = cumulative.findIndex((c) => c >= level - 1e-12);
  return i < 0 ? null : i + 1;
}

const percent = (v) => `${Math.round(v * 100)}%`;

// Draws data {ratios, cumulative?} (explained variance ratio per component) on `canvas`.
// Options: width, height. Returns {plot, x (component index from 0 -> bar centre px), y, barWidth}.
export function drawScree(canvas, data, options = {}) {
  checkScree(data);
  const ratios = Array.from(data.ratios);
  const cumulative = data.cumulative ? Array.from(data.cumulative) : cumulativeOf(ratios);
  const m = ratios.length;
  const W = options.width || 560;
  const H = options.height || 360;
  const ctx = setupCanvas(canvas, W, H);
  const plot = plotArea(W, H, { top: 16, right: 150, bottom: 50, left: 62 });
  const slot = linearScale([0, m], [plot.left, plot.right]);
  const x = (i) => slot(i + 0.5);
  const y = linearScale([0, 1], [plot.bottom, plot.top]);
  const every = Math.max(1, Math.ceil(m / Math.max(1, plot.width / 36)));
  const xTicks = Array.from({ length: m }, (_, i) => i).filter((i) => i % every === 0);
  drawAxes(ctx, plot, x, y, {
    xTicks, xFormat: (i) => `PC${i + 1}`, yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1], yFormat: percent,
    xLabel: "principal component", yLabel: "share of variance", grid: true,
  });
  const barWidth = Math.max(1, Math.min(48, (plot.width / m) * 0.7));
  ctx.fillStyle = BAR;
  ratios.forEach((r, i) => ctx.fillRect(x(i) - barWidth / 2, y(r), barWidth, y(0) - y(r)));

  ctx.save();
  ctx.strokeStyle = INK.muted;
  ctx.setLineDash([5, 4]);
  ctx.beginPath();
  ctx.moveTo(plot.left, Math.round(y(GUIDE)) + 0.5);
  ctx.lineTo(plot.right, Math.round(y(GUIDE)) + 0.5);
  ctx.stroke();
  ctx.restore();

  ctx.save();
  ctx.strokeStyle = LINE;
  ctx.lineWidth = 2;
  ctx.beginPath();
  cumulative.forEach((c, i) => (i ? ctx.lineTo(x(i), y(c)) : ctx.moveTo(x(i), y(c))));
  ctx.stroke();
  ctx.restore();
  if (m <= 60) cumulative.forEach((c, i) => drawMarker(ctx, "filled", x(i), y(c), LINE, 4));

  const reach = componentsFor(cumulative);
  ctx.save();
  ctx.font = FONT;
  ctx.fillStyle = INK.muted;
  ctx.textAlign = "left";
  ctx.textBaseline = "bottom";
  ctx.fillText("90%", plot.left + 4, y(GUIDE) - 2);
  ctx.restore();
  const items = [
    { label: "explained", colour: BAR, shape: "swatch" },
    { label: "cumulative", colour: LINE, shape: "line" },
    { label: "90% guide", colour: INK.muted, shape: "dashed" },
  ];
  const used = drawLegend(ctx, items, plot.right + 20, plot.top + 8, 120);
  if (reach) {
    ctx.save();
    ctx.font = FONT;
    ctx.fillStyle = INK.text;
    ctx.textBaseline = "middle";
    ctx.fillText(`${reach} component${reach === 1 ? "" : "s"}`, plot.right + 20, plot.top + used + 24);
    ctx.fillText("reach 90%", plot.right + 20, plot.top + used + 40);
    ctx.restore();
  }
  return { plot, x, y, barWidth };
}

// The text twin: a row per component with its share and the running total.
export function describeScree(data) {
  checkScree(data);
  const ratios = Array.from(data.ratios);
  const cumulative = data.cumulative ? Array.from(data.cumulative) : cumulativeOf(ratios);
  const reach = componentsFor(cumulative);
  const pct = (v) => `${fmt(100 * v, 3)}%`;
  return makeTwin(
    makeParagraph(reach
      ? `${reach} of ${ratios.length} components explain at least 90% of the variance.`
      : `The ${ratios.length} components shown explain ${pct(cumulative[cumulative.length - 1])} of the variance.`),
    makeTable("Explained variance by component", ["component", "explained", "cumulative"],
      ratios.map((r, i) => [`PC${i + 1}`, pct(r), pct(cumulative[i])])),
  );
}
