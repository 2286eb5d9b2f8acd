// The data controls: the dataset menu (examples and generators), generator settings, the loaded
// table's summary and the choice of what to do about missing values.
import { el, option } from "./dom.js";

// Fills the "Dataset" select with optgroups from the bridge's `datasets` list.
export function fillDatasets(select, datasets, chosen) {
  const groups = new Map();
  for (const d of datasets) {
    if (!groups.has(d.group)) groups.set(d.group, el("optgroup", { label: d.group }));
    groups.get(d.group).append(option(d.name, d.label));
  }
  const upload = el("optgroup", { label: "Your data" }, option("upload", "Uploaded CSV (choose a file below)"));
  upload.firstChild.disabled = true;
  select.replaceChildren(option("", "Choose a data set…"), ...groups.values(), upload);
  select.value = datasets.some((d) => d.name === chosen) ? chosen : "";
}

// Number inputs for a generator's n / noise / seed, labelled from the bridge's description.
export function renderGenerator(container, dataset, values) {
  const params = dataset?.generator_params || [];
  container.hidden = params.length === 0;
  container.replaceChildren(...params.map((p) => {
    const id = `gen-${p.name}`;
    const input = el("input", {
      type: "number", id, min: p.low, max: p.high, step: p.step ?? "any",
      value: String(values[p.name] ?? p.default), dataset: { gen: p.name },
    });
    return el("div", { class: "field" }, el("label", { for: id, text: p.label || p.name }), input);
  }));
}

// A generator's {n, noise, seed}: `values` where they name them, else the defaults, each clamped to its
// stated range (and whole where the parameter is).
export function generatorValues(dataset, values = {}) {
  const out = {};
  for (const p of dataset?.generator_params || []) {
    let v = Number(values[p.name] ?? p.default);
    if (!Number.isFinite(v)) v = p.default;
    if (p.low !== null && p.low !== undefined) v = Math.max(p.low, v);
    if (p.high !== null && p.high !== undefined) v = Math.min(p.high, v);
    out[p.name] = Number.isInteger(p.step ?? 1) && Number.isInteger(p.default) ? Math.round(v) : v;
  }
  return out;
}

export function describeTable(info) {
  return `${info.name}: ${info.n_rows} rows × ${info.columns.length} columns`;
}

// Missing values: a message and the two remedies, or nothing when every cell is filled.
export function renderMissing(container, info, onChoose) {
  const columns = info.columns.filter((c) => info.missing[c] > 0);
  container.hidden = columns.length === 0;
  if (!columns.length) {
    container.replaceChildren();
    return;
  }
  const list = columns.map((c) => `${c} (${info.missing[c]})`).join(", ");
  container.replaceChildren(
    el("p", { text: `Some cells are empty: ${list}. Most models need every value; choose what to do:` }),
    el("div", { class: "button-row" },
      el("button", { type: "button", class: "secondary", text: "Drop rows with missing values", onclick: () => onChoose("drop") }),
      el("button", { type: "button", class: "secondary", text: "Fill with mean/mode", onclick: () => onChoose("fill") })),
  );
}
