// The numbers: a headline score that says which rows it comes from, a table of every metric per
// split, per-class precision/recall/F1, cross-validation folds and the fitted model's summary.
import { el, simpleTable, formatValue, scrollingTable } from "./dom.js";
import { store } from "./store.js";

// Under k-fold the metrics come from the out-of-fold predictions: every row, each predicted by the model
// of the fold that held it out (never by the final model, which saw every row). An imported model has no
// split here: it is scored only on the loaded table's rows ("loaded"), when that table has its columns and
// target (workbench/imported.py), and otherwise has no score at all.
const PARTS = ["train", "validation", "test"];  // the rows of a split, each row in one
const SPLITS = [...PARTS, "out_of_fold", "loaded"];
const SPLIT_NAMES = { train: "Training", validation: "Validation", test: "Test", out_of_fold: "Out-of-fold", loaded: "Loaded table" };
// The metrics a run shows per task, the first the headline: [key, label, format], from settings.json
// (core.settings RESULT_METRICS), so the labels and which read as percentages are Python's.
function metricsOf(task) {
  const listed = store.get().shared?.metrics?.result?.[task] || [];
  return listed.map((m) => [m.name, m.label, m.percent ? "percent" : "number"]);
}

// A metric by name, also found as macro.{name} or as the sum of a ratio list.
export function metricValue(m, key) {
  if (!m) return undefined;
  if (key in m && typeof m[key] === "number") return m[key];
  if (key.startsWith("macro_")) {
    const name = key.slice(6);
    if (m.macro && typeof m.macro[name] === "number") return m.macro[name];
    if (m[name] && typeof m[name].macro === "number") return m[name].macro;
  }
  if (key === "explained_variance" && Array.isArray(m.explained_variance_ratio)) {
    return m.explained_variance_ratio.reduce((a, b) => a + b, 0);
  }
  return undefined;
}

function splitSize(result, split) {
  if (split === "loaded") return result.scored_on?.rows || 0;
  const rows = result.splits?.[split === "out_of_fold" ? "train" : split];
  return Array.isArray(rows) ? rows.length : 0;
}

// "30% of rows, 45 rows" for a split; "5-fold cross-validation" for k-fold.
export function splitPhrase(result, split) {
  const n = splitSize(result, split);
  if (split === "out_of_fold") return `${n} ${n === 1 ? "row" : "rows"}, each predicted by the fold model that did not see it`;
  if (split === "loaded") return loadedPhrase(result.scored_on);
  const total = PARTS.reduce((sum, s) => sum + splitSize(result, s), 0) || n;
  const pct = total ? Math.round((100 * n) / total) : 100;
  return `${pct}% of rows, ${n} ${n === 1 ? "row" : "rows"}`;
}

// "iris.csv, 150 rows" (or "142 of its 150 rows" when some lack the target or a column the model reads).
function loadedPhrase({ table, rows, of }) {
  const count = rows === of ? `${rows.toLocaleString("en-US")} ${rows === 1 ? "row" : "rows"}`
    : `${rows.toLocaleString("en-US")} of its ${of.toLocaleString("en-US")} rows (the others lack a value the model needs)`;
  return `${table}, ${count}`;
}

// The split the headline reports: held-out data when there is any; the loaded table for an imported model.
export function headlineSplit(result) {
  if (result.imported) return result.metrics?.loaded ? "loaded" : "none";
  if (result.cv) return "cv";
  for (const s of ["test", "validation"]) if (splitSize(result, s) && result.metrics?.[s]) return s;
  return "train";
}

// An imported model without a score says what it is and why it has none: never a score over no rows.
function unscoredHeadline(result) {
  return { label: "Imported model, not scored", value: "—", note: `${result.not_scored} · ${result.label}` };
}

export function headline(result) {
  const [key, name, format] = metricsOf(result.task)[0] || ["", "Score", "number"];
  const split = headlineSplit(result);
  if (split === "none") return unscoredHeadline(result);
  if (split === "loaded") {
    return { label: `${name} on the loaded table`, value: formatValue(metricValue(result.metrics.loaded, key), format),
      note: `${splitPhrase(result, split)} · ${result.label}, imported` };
  }
  if (split === "cv") {
    const k = result.cv.scores?.length || 0;
    return { label: `Cross-validated ${/^[A-Z][a-z]/.test(name) ? name.toLowerCase() : name}`, value: formatValue(result.cv.mean, format),
      note: `mean of ${k} folds, ± ${formatValue(result.cv.std, format)} · ${result.label}` };
  }
  const value = metricValue(result.metrics?.[split], key);
  const where = result.task === "projection" || result.task === "clustering" ? "All rows" : SPLIT_NAMES[split];
  const lower = /^[A-Z][a-z]/.test(name) ? name.toLowerCase() : name;
  const label = where === "All rows" ? name : `${where} ${lower}`;
  return { label, value: formatValue(value, format), note: `${splitPhrase(result, split)} · ${result.label}` };
}

function metricsTable(result) {
  const splits = SPLITS.filter((s) => result.metrics?.[s] && (splitSize(result, s) || (s === "train" && !result.imported)));
  if (result.metrics?.out_of_fold) splits.splice(0, splits.length, "out_of_fold");
  const rows = metricsOf(result.task)
    .map(([key, name, format]) => [name, ...splits.map((s) => formatValue(metricValue(result.metrics[s], key), format))])
    .filter((row) => row.slice(1).some((v) => v !== "—"));
  if (!rows.length) return null;
  const headers = ["Metric", ...splits.map((s) => `${SPLIT_NAMES[s]} (${splitPhrase(result, s)})`)];
  return simpleTable(headers, rows, { rowHeaders: true, caption: "Each number comes from the rows named in its column." });
}

// Per-class rows from any of the shapes the metrics may take.
export function perClassRows(m) {
  if (!m) return [];
  if (Array.isArray(m.per_class)) {
    return m.per_class.map((c) => [String(c.label ?? c.class), c.precision, c.recall, c.f1, c.support]);
  }
  const labels = m.labels || m.classes || m.confusion?.labels ||
    (m.precision && typeof m.precision === "object" ? Object.keys(m.precision).filter((k) => k !== "macro") : []);
  const pick = (obj, label, i) => (Array.isArray(obj) ? obj[i] : obj?.[label]);
  return labels.map((label, i) => [String(label), pick(m.precision, label, i), pick(m.recall, label, i),
    pick(m.f1, label, i), pick(m.support, label, i)]);
}

function perClassTable(result, split) {
  const rows = perClassRows(result.metrics?.[split]);
  if (!rows.length) return null;
  const shown = rows.map(([label, p, r, f, s]) => [label, formatValue(p), formatValue(r), formatValue(f),
    s === undefined ? "—" : s]);
  const hasSupport = rows.some((r) => r[4] !== undefined);
  const headers = ["Class", "Precision", "Recall", "F1", ...(hasSupport ? ["Rows"] : [])];
  const body = hasSupport ? shown : shown.map((r) => r.slice(0, 4));
  return simpleTable(headers, body, { rowHeaders: true,
    caption: `Per class, on the ${SPLIT_NAMES[split].toLowerCase()} rows (${splitPhrase(result, split)}).` });
}

function cvTable(result) {
  if (!result.cv?.scores) return null;
  const [, name, format] = metricsOf(result.task)[0] || [];
  const rows = result.cv.scores.map((s, i) => [`Fold ${i + 1}`, formatValue(s, format)]);
  rows.push(["Mean ± std", `${formatValue(result.cv.mean, format)} ± ${formatValue(result.cv.std, format)}`]);
  return simpleTable(["Fold", name || "Score"], rows, { rowHeaders: true,
    caption: "Each fold is scored by a model trained on the other folds." });
}

function varianceTable(result) {
  const ratios = result.pca?.ratios || result.metrics?.train?.explained_variance_ratio;
  if (!ratios) return null;
  let sum = 0;
  const rows = ratios.map((r, i) => { sum += r; return [`PC${i + 1}`, formatValue(r, "percent"), formatValue(sum, "percent")]; });
  return simpleTable(["Component", "Variance explained", "Cumulative"], rows, { rowHeaders: true });
}

export function summaryTable(rows) {
  return simpleTable(["", ""], rows.map(([k, v]) => [k, formatValue(v)]), { rowHeaders: true });
}

// The classifier split whose confusion matrix is drawn: the headline split, or under k-fold the
// out-of-fold predictions (a result from before they were kept falls back to the training rows).
export function confusionSplit(result) {
  const split = headlineSplit(result);
  if (split !== "cv") return split;
  return result.metrics?.out_of_fold ? "out_of_fold" : "train";
}

// "out-of-fold rows (150 rows, each predicted by …)", "test rows (30% of rows, 45 rows)": which rows a
// number or a confusion matrix comes from.
export function rowsPhrase(result, split) {
  const name = split === "train" ? "training" : SPLIT_NAMES[split]?.toLowerCase() || split;
  return `${name} rows (${splitPhrase(result, split)})`;
}

// Everything under the Metrics tab except the confusion canvas (views.js draws that).
export function renderMetrics(container, result) {
  const unscored = result.imported && !result.metrics?.loaded;
  const scroll = (table, label) => table && scrollingTable(table, label);
  const parts = [el("h3", { text: "Scores" }), unscored ? el("p", { class: "help", text: `No score: ${result.not_scored}` }) : null,
    scroll(metricsTable(result), "Scores"), scroll(cvTable(result), "Scores of each fold")];
  if (result.task === "classification" && !unscored) {
    parts.push(el("h3", { text: "Precision, recall and F1" }),
      scroll(perClassTable(result, confusionSplit(result)), "Precision, recall and F1 of each class"));
  }
  if (result.task === "projection") parts.push(el("h3", { text: "Explained variance" }), scroll(varianceTable(result), "Explained variance"));
  const warnings = (result.warnings || []).map((w) => el("li", { text: w }));
  if (warnings.length) parts.push(el("ul", { class: "warnings" }, ...warnings));
  container.replaceChildren(...parts.filter(Boolean));
}
