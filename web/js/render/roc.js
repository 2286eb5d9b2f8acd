// A classifier's curves on held-out rows: ROC (area in the legend), precision-recall (average precision in
// the legend, the no-skill line at the positives' share) and the calibration (reliability) diagram with
// the rows per bin drawn as bars along its foot. Each draws one curve per class (one for two classes) and
// has a text twin.
import { classColour, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, FONT } from "./scales.js";
import { drawMarker, drawLegend } from "./marks.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const UNIT = [0, 0.25, 0.5, 0.75, 1];
const LEGEND_WIDTH = 170;

// Checks a curve list [{label, x, y, ...}] before drawing: equal lengths, values in [0, 1].
export function checkCurves(curves, what) {
  if (!Array.isArray(curves) || !curves.length) throw new Error(`${what}: expected at least one curve.`);
  for (const c of curves) {
    if (!c.x || !c.y || c.x.length !== c.y.length || !c.x.length) {
      throw new Error(`${what}: the curve of ${c.label} needs x and y of one equal, non-zero length.`);
    }
    if ([...c.x, ...c.y].some((v) => !(v >= -1e-9 && v <= 1 + 1e-9))) throw new Error(`${what}: values must lie in [0, 1].`);
  }
}

// The curves of a probability report (curves.js's reply): one per class with rows, or the positive class's.
export function classCurves(report) {
  if (report.binary) return [{ label: String(report.pos_label), index: 0, ...report.curves }];
  return report.per_class.filter((c) => !c.note).map((c, index) => ({ label: String(c.class), index, ...c }));
}

function unitPlot(canvas, options, xLabel, yLabel) {
  const W = options.width || 420;
  const H = options.height || 380;
  const ctx = setupCanvas(canvas, W, H);
  const plot = plotArea(W, H, { top: 26, right: LEGEND_WIDTH + 16, bottom: 50, left: 58 });
  const x = linearScale([0, 1], [plot.left, plot.right]);
  const y = linearScale([0, 1], [plot.bottom, plot.top]);
  drawAxes(ctx, plot, x, y, { xTicks: UNIT, yTicks: UNIT, xFormat: String, yFormat: String, xLabel, yLabel, grid: true });
  if (options.title) {
    ctx.save();
    ctx.font = "600 13px system-ui, sans-serif";
    ctx.fillStyle = INK.text;
    ctx.textBaseline = "top";
    ctx.fillText(options.title, plot.left, 4);
    ctx.restore();
  }
  return { ctx, plot, x, y };
}

function dashed(ctx, x, y, [x0, y0], [x1, y1]) {
  ctx.save();
  ctx.strokeStyle = INK.neutral;
  ctx.setLineDash([5, 4]);
  ctx.beginPath();
  ctx.moveTo(x(x0), y(y0));
  ctx.lineTo(x(x1), y(y1));
  ctx.stroke();
  ctx.restore();
}

function polyline(ctx, x, y, xs, ys, colour, step = false) {
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.beginPath();
  xs.forEach((v, i) => {
    if (i === 0) return ctx.moveTo(x(v), y(ys[i]));
    if (step) ctx.lineTo(x(v), y(ys[i - 1]));
    ctx.lineTo(x(v), y(ys[i]));
  });
  ctx.stroke();
  ctx.restore();
}

// ROC: true positive rate against false positive rate. `point` {fpr, tpr} marks the slider's threshold.
export function drawRoc(canvas, report, options = {}) {
  const curves = classCurves(report).map((c) => ({ ...c, x: c.roc.fpr, y: c.roc.tpr }));
  checkCurves(curves, "ROC");
  const { ctx, plot, x, y } = unitPlot(canvas, { title: "ROC curve", ...options }, "false positive rate", "true positive rate");
  dashed(ctx, x, y, [0, 0], [1, 1]);
  for (const c of curves) polyline(ctx, x, y, c.x, c.y, classColour(c.index));
  if (options.point) drawMarker(ctx, "filled", x(options.point.fpr), y(options.point.tpr), INK.text, 5);
  const items = [{ heading: report.binary ? "Area under the curve" : "Class vs rest: AUC" },
    ...curves.map((c) => ({ label: `${c.label}: ${fmt(c.roc.auc, 3)}`, colour: classColour(c.index), shape: "line" })),
    { label: "chance (0.5)", colour: INK.neutral, shape: "dashed" }];
  if (options.point) items.push({ label: "chosen threshold", colour: INK.text, shape: "filled" });
  drawLegend(ctx, items, plot.right + 16, plot.top, LEGEND_WIDTH);
  return { plot, x, y };
}

// Precision against recall; the no-skill level of each class is its share of the rows.
export function drawPrecisionRecall(canvas, report, options = {}) {
  const curves = classCurves(report).map((c) => ({ ...c, x: c.precision_recall.recall, y: c.precision_recall.precision }));
  checkCurves(curves, "Precision-recall");
  const { ctx, plot, x, y } = unitPlot(canvas, { title: "Precision-recall curve", ...options }, "recall", "precision");
  if (curves.length === 1) {
    const base = curves[0].precision_recall.prevalence;
    dashed(ctx, x, y, [0, base], [1, base]);
  }
  for (const c of curves) polyline(ctx, x, y, c.x, c.y, classColour(c.index), true);
  if (options.point) drawMarker(ctx, "filled", x(options.point.recall), y(options.point.precision), INK.text, 5);
  const items = [{ heading: "Average precision" },
    ...curves.map((c) => ({ label: `${c.label}: ${fmt(c.precision_recall.average_precision, 3)}`, colour: classColour(c.index), shape: "line" }))];
  if (curves.length === 1) items.push({ label: `no skill (${fmt(curves[0].precision_recall.prevalence, 2)})`, colour: INK.neutral, shape: "dashed" });
  drawLegend(ctx, items, plot.right + 16, plot.top, LEGEND_WIDTH);
  return { plot, x, y };
}

// Reliability: the fraction of positive rows against the mean predicted probability, per bin; the
// rows in each bin are bars along the foot (tallest = a fifth of the plot), labelled when few.
export function drawCalibration(canvas, report, options = {}) {
  const curves = classCurves(report).map((c) => ({ ...c, x: c.calibration.prob_pred, y: c.calibration.prob_true }));
  checkCurves(curves, "Calibration");
  const { ctx, plot, x, y } = unitPlot(canvas, { title: "Calibration (reliability)", ...options },
    "mean predicted probability", "fraction of positive rows");
  dashed(ctx, x, y, [0, 0], [1, 1]);
  if (curves.length === 1) {
    const { edges, count } = curves[0].calibration;
    const most = Math.max(1, ...count);
    ctx.save();
    ctx.fillStyle = "rgba(91, 103, 112, 0.22)";
    ctx.font = FONT;
    count.forEach((n, b) => {
      const h = (plot.height / 5) * (n / most);
      ctx.fillRect(x(edges[b]) + 1, plot.bottom - h, x(edges[b + 1]) - x(edges[b]) - 2, h);
    });
    ctx.restore();
  }
  for (const c of curves) {
    polyline(ctx, x, y, c.x, c.y, classColour(c.index));
    c.x.forEach((v, i) => drawMarker(ctx, "filled", x(v), y(c.y[i]), classColour(c.index), 4));
  }
  const items = [{ heading: "Predicted vs observed" },
    ...curves.map((c) => ({ label: c.label, colour: classColour(c.index), shape: "line" })),
    { label: "perfectly calibrated", colour: INK.neutral, shape: "dashed" }];
  if (curves.length === 1) items.push({ label: "rows per bin", colour: "rgba(91, 103, 112, 0.45)", shape: "swatch" });
  drawLegend(ctx, items, plot.right + 16, plot.top, LEGEND_WIDTH);
  return { plot, x, y };
}

// The text twin: the areas per class, and the calibration bins with their row counts.
export function describeCurves(report) {
  const curves = classCurves(report);
  const parts = [makeTable("Areas under the curves", ["class", "ROC AUC", "average precision"],
    curves.map((c) => [c.label, fmt(c.roc.auc, 3), fmt(c.precision_recall.average_precision, 3)]))];
  if (!report.binary) {
    parts.push(makeParagraph(`Averaged over the classes: ROC AUC ${fmt(report.roc_auc.macro, 3)} (macro), `
      + `${fmt(report.roc_auc.weighted, 3)} (weighted by rows); average precision ${fmt(report.average_precision.macro, 3)} (macro).`));
    const missing = report.per_class.filter((c) => c.note).map((c) => c.note);
    if (missing.length) parts.push(makeParagraph(missing.join(" ")));
  }
  for (const c of curves) {
    const { edges, count, bin, prob_pred: pred, prob_true: truth } = c.calibration;
    const rows = count.map((n, b) => {
      const at = bin.indexOf(b);
      return [`${fmt(edges[b], 2)}–${fmt(edges[b + 1], 2)}`, n, at < 0 ? "—" : fmt(pred[at], 3), at < 0 ? "—" : fmt(truth[at], 3)];
    });
    parts.push(makeTable(`Calibration of ${c.label}`, ["predicted probability bin", "rows", "mean predicted", "fraction positive"], rows));
  }
  return makeTwin(...parts);
}
