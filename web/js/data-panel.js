// The data controls: the dataset menu (examples and generators), generator settings, the loaded
// table's summary, how an uploaded file was read (the header switch and the reader's notes), and where
// the missing cells are.
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

// How an uploaded file was read: for an Excel workbook of several sheets the sheet menu (`onSheet(name)`
// reads that sheet), the "First row is a header" switch (checked when the first row gave the names;
// `onHeader(checked)` re-reads the file) and the reader's notes, one per line. Nothing for a built-in data
// set, which carries no `read_info`.
export function renderReading(container, info, onHeader, onSheet) {
  const reading = info.read_info;
  container.hidden = !reading;
  if (!reading) return container.replaceChildren();
  const how = reading.header_detected ? "decided from the file" : "as you set it";
  const notes = reading.notes.map((note) => el("li", { text: note }));
  const sheets = reading.sheets || [];
  const sheetMenu = sheets.length > 1 ? el("div", { class: "field sheet-field" },
    el("label", { for: "sheet-choice", text: "Sheet" }),
    el("select", { id: "sheet-choice", onchange: (event) => onSheet(event.target.value) },
      ...sheets.map((name) => option(name, name, name === reading.sheet)))) : null;
  const parts = [
    sheetMenu,
    el("span", { class: "check-row" },
      el("input", { type: "checkbox", id: "header-row", checked: reading.header,
        onchange: (event) => onHeader(event.target.checked) }),
      el("label", { for: "header-row", text: "First row is a header" }),
      el("span", { class: "help", id: "header-how", text: `(${how})` })),
    notes.length ? el("ul", { class: "read-notes", "aria-label": "How the file was read" }, ...notes) : null,
  ];
  container.replaceChildren(...parts.filter(Boolean));
}

// How many cells are missing per column, and where they are dealt with: the preprocessing step's choice,
// fitted on the training rows only (a fill over the whole table would let the test rows leak into it).
export function renderMissingNote(container, info, onShowChoice) {
  const columns = info.columns.filter((c) => info.missing[c] > 0);
  container.hidden = columns.length === 0;
  if (!columns.length) return container.replaceChildren();
  const list = columns.map((c) => `${c} (${info.missing[c]})`).join(", ");
  container.replaceChildren(
    `Missing cells: ${list}. Training deals with them as the preprocessing step's `,
    el("button", { type: "button", class: "link", text: "Missing values choice", onclick: onShowChoice }),
    " says, fitted on the training rows only.",
  );
}
