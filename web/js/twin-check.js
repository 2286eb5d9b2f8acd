// "Compare with scikit-learn": the trained model next to scikit-learn's equivalent, fitted by the worker
// on the same rows (scikit-learn is loaded into the worker the first time, never at start).
import { byId, scrollingTable } from "./dom.js";
import { store } from "./store.js";
import { python } from "./python.js";
import { run, showMessage } from "./work.js";
import { unavailableReason } from "./unavailable.js";

const SPLIT_NAMES = { train: "training rows", validation: "validation rows", test: "test rows" };

function formatScore(value, format) {
  if (value === null || value === undefined) return "—";
  return format === "percent" ? `${(100 * value).toFixed(1)}%` : value.toFixed(3);
}

function formatSeconds(seconds) {
  return seconds < 1 ? `${(1000 * seconds).toFixed(1)} ms` : `${seconds.toFixed(2)} s`;
}

function cell(tag, text, attrs = {}) {
  const el = document.createElement(tag);
  el.textContent = text;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function row(label, ours, theirs, kind) {
  const tr = document.createElement("tr");
  tr.dataset.row = kind;
  tr.append(cell("th", label, { scope: "row" }), cell("td", ours, { "data-lib": "pellucid" }),
    cell("td", theirs, { "data-lib": "sklearn" }));
  return tr;
}

function comparisonTable(r) {
  const table = document.createElement("table");
  table.id = "compare-table";
  const head = table.createTHead().insertRow();
  head.append(cell("th", ""), cell("th", "Pellucid", { scope: "col" }), cell("th", `scikit-learn ${r.sklearn.version}`, { scope: "col" }));
  const body = table.createTBody();
  for (const s of r.scores) {
    const where = s.split === "kfold" ? `mean over ${s.n} folds` : `${s.n} ${SPLIT_NAMES[s.split] || s.split}`;
    body.append(row(`${r.score_name} (${where})`, formatScore(s.pellucid, r.score_format), formatScore(s.sklearn, r.score_format), s.split));
  }
  const fit = r.fit_seconds;
  const what = fit.per_fold ? "Fit time (per fold)" : `Fit time (${fit.rows} rows)`;
  body.append(row(what, formatSeconds(fit.pellucid), formatSeconds(fit.sklearn), "fit"));
  return table;
}

function paragraph(text, className = "help") {
  return cell("p", text, { class: className });
}

// Wires the button; a new result (or none) takes the last comparison away.
export function mountTwinCheck() {
  const button = byId("compare-sklearn");
  const box = byId("compare-result");

  store.subscribe(["result"], () => {
    box.replaceChildren();
    box.hidden = true;
  });
  store.subscribe(["ready", "busy", "result"], ({ ready, busy, result }) => {
    button.disabled = !(ready && !busy) || Boolean(unavailableReason(result, "check_twin"));
  });

  function render(r) {
    if (!r.equivalent) {
      box.replaceChildren(paragraph(r.message, "compare-none"));
    } else {
      const scroll = scrollingTable(comparisonTable(r), "Pellucid and scikit-learn side by side");
      const notes = document.createElement("ul");
      notes.className = "help";
      notes.append(...r.notes.map((n) => cell("li", n)));
      box.replaceChildren(scroll, paragraph(`scikit-learn's model: ${r.sklearn.estimator}; input: ${r.sklearn.preparation}. ` +
        "Both were fitted on the same rows and scored the same way."), notes);
      if (r.warnings?.length) box.append(paragraph(`Warnings: ${r.warnings.join(" ")}`));
    }
    if (r.load_seconds) box.append(paragraph(`scikit-learn was loaded in ${r.load_seconds.toFixed(1)} s (once per visit).`));
    box.hidden = false;
  }

  async function compare() {
    const modelId = store.get().result?.model_id;
    if (!modelId) return;
    showMessage("");
    const r = await run("Comparing with scikit-learn…", () => python.call("check_twin", { model_id: modelId }));
    if (r && store.get().result?.model_id === modelId) render(r);
  }

  button.addEventListener("click", compare);
}
