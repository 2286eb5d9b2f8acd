// The Curves view: a classifier's ROC, precision-recall and calibration curves on the rows its model did
// not see (the test rows, or out-of-fold under k-fold), asked of Python when the tab is opened. For two
// classes a threshold slider redraws the confusion matrix and its metrics from the reply's threshold
// table, in the page, without asking Python again.
import { byId, el, simpleTable, formatValue } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run } from "./work.js";
import { renderer, sizeFor } from "./view-draw.js";

const e = byId;
const reports = new Map();  // curves by model id: a cache, not state
let shown = null;  // {report, mod}: what the slider redraws from (a drawing's data and its renderer module, not state)

// Where the rows come from, in words.
export function rowsPhrase(report) {
  const n = report.n_rows.toLocaleString("en-US");
  if (report.rows === "out_of_fold") return `Out of fold: each of the ${n} rows is scored by the fold model that did not see it.`;
  if (report.in_sample) return `On the ${n} training rows: this run kept no rows out, so these curves flatter the model.`;
  return `On the ${n} ${report.rows} rows, which the model did not see in training.`;
}

// The counts and metrics when predicting the positive class at thresholds[i], by the table's comparison.
export function atThreshold(table, i) {
  const [tn, fp, fn, tp] = ["tn", "fp", "fn", "tp"].map((k) => table[k][i]);
  const ratio = (a, b) => (b ? a / b : null);
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
  return { tn, fp, fn, tp, precision, recall, f1, accuracy: ratio(tp + tn, tp + tn + fp + fn), fpr: ratio(fp, fp + tn) };
}

async function curvesFor(modelId) {
  if (!reports.has(modelId)) {
    const report = await run("Computing the curves…", () => python.call("curves", { model_id: modelId }), { cancellable: true });
    if (!report) return null;
    reports.set(modelId, report);
  }
  return reports.get(modelId);
}

function drawThreshold() {
  const { report, mod } = shown;
  const slider = e("threshold");
  const i = Number(slider.value);
  const table = report.thresholds;
  const m = atThreshold(table, i);
  const t = formatValue(table.thresholds[i]);
  const rule = `${table.comparison} ${t}`;  // "above 0.5": predict's rule at a tie, decided in Python
  e("threshold-value").textContent = rule;
  slider.setAttribute("aria-valuetext", `probability ${rule}`);
  const negative = String(report.classes.find((c) => String(c) !== String(report.pos_label)));
  const positive = String(report.pos_label);
  const metrics = [["Precision", m.precision], ["Recall", m.recall], ["F1", m.f1], ["Accuracy", m.accuracy]];
  e("threshold-metrics").replaceChildren(simpleTable(["Metric", "Value"], metrics.map(([k, v]) => [k, formatValue(v)]),
    { rowHeaders: true, caption: `Predicting ${positive} when its probability is ${rule}` }));
  renderer("confusion").then((confusion) => {
    e("threshold-confusion").replaceChildren();
    confusion.renderConfusion(e("threshold-confusion"), { labels: [negative, positive], matrix: [[m.tn, m.fp], [m.fn, m.tp]] },
      { caption: `Confusion matrix predicting ${positive} at a probability ${rule}: rows are actual classes, columns predicted` });
  });
  const size = sizeFor(e("roc-canvas"), 0.8, 420);
  mod.drawRoc(e("roc-canvas"), report, { ...size, point: { fpr: m.fpr ?? 0, tpr: m.recall ?? 0 } });
  if (m.precision !== null) mod.drawPrecisionRecall(e("pr-canvas"), report, { ...size, point: { precision: m.precision, recall: m.recall ?? 0 } });
}

async function draw({ result, view }) {
  if (view !== "curves" || !result?.model_id) return;
  const report = await curvesFor(result.model_id);
  if (!report || store.get().result !== result || store.get().view !== "curves") return;
  const mod = await renderer("roc");
  shown = { report, mod };
  e("curves-caption").textContent = rowsPhrase(report);
  const size = sizeFor(e("roc-canvas"), 0.8, 420);
  mod.drawRoc(e("roc-canvas"), report, size);
  mod.drawPrecisionRecall(e("pr-canvas"), report, size);
  mod.drawCalibration(e("calibration-canvas"), report, size);
  e("curves-text").replaceChildren(mod.describeCurves(report));
  e("threshold-box").hidden = !report.binary;
  if (!report.binary) return;
  e("threshold-positive").textContent = String(report.pos_label);
  const slider = e("threshold");
  slider.max = String(report.thresholds.thresholds.length - 1);
  slider.value = String(report.thresholds.default_index);  // 0.5, where predict decides
  drawThreshold();
}

export function mountCurvesView() {
  store.subscribe(["result", "view"], (state) => {
    draw(state).catch((error) => {
      e("curves-caption").replaceChildren(el("strong", { text: `The curves could not be drawn: ${error.message}` }));
    });
  });
  e("threshold").addEventListener("input", () => shown && drawThreshold());
}
