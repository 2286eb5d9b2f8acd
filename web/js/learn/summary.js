// Per-feature numbers at real-data scale: a formula is shown once in "The math" and its numbers for
// every feature go in a table here, the largest few first, with a "Show all N" toggle for the rest.
import { el, simpleTable, formatValue } from "../dom.js";

export const SUMMARY_ROWS = 8;

// A number for a table cell: four significant digits (one decimal from 1,000 up), still a number so
// the cell aligns right; anything else as it is.
export const round = (v) => (typeof v !== "number" || !Number.isFinite(v) || Number.isInteger(v) ? v
  : Number(Math.abs(v) >= 1000 ? v.toFixed(1) : v.toPrecision(4)));

// A table of `rows` (arrays) ordered by |magnitude(row)|, largest first; only the first SUMMARY_ROWS
// unless `open.all` is set. `open` is the view's own {all} so the choice survives stepping on.
// `decorate(table)` runs on every drawing (e.g. to mark the chosen row).
export function summaryTable(headers, rows, { caption, magnitude, open, rowHeaders = true, sort = true, decorate = null }) {
  const ordered = sort ? rows.map((row, i) => ({ row, i, m: Math.abs(magnitude(row)) || 0 }))
    .sort((a, b) => b.m - a.m || a.i - b.i).map((r) => r.row) : rows;
  const box = el("div", { class: "learn-summary" });
  const draw = () => {
    const shown = open.all ? ordered : ordered.slice(0, SUMMARY_ROWS);
    const more = ordered.length > SUMMARY_ROWS;
    const title = more && !open.all ? `${caption} (the ${SUMMARY_ROWS} largest of ${ordered.length})` : caption;
    const table = simpleTable(headers, shown.map((row) => row.map(round)), { caption: title, rowHeaders });
    if (decorate) decorate(table);
    const parts = [table];
    if (more) {
      parts.push(el("button", { type: "button", class: "learn-show-all", "aria-expanded": String(Boolean(open.all)),
        text: open.all ? `Show the ${SUMMARY_ROWS} largest` : `Show all ${ordered.length}`,
        onclick: () => { open.all = !open.all; draw(); box.querySelector(".learn-show-all").focus(); } }));
    }
    box.replaceChildren(...parts);
  };
  draw();
  return box;
}

// "z = (x − 13.0) / 0.81" for a feature the run standardised before the model read it, else "—"; a column
// constant on the training rows has no spread to divide by: it reads as 0.
export function zText(name, standardized) {
  const ms = standardized && standardized[name];
  if (!ms) return "—";
  const [mean, scale, constant] = ms;
  if (constant) return `z = 0 (constant ${formatValue(mean)} on the training rows)`;
  const shift = mean < 0 ? `x + ${formatValue(-mean)}` : `x − ${formatValue(mean)}`;
  return `z = (${shift}) / ${formatValue(scale)}`;
}

// True when some feature was standardised: only then does a table get the z column.
export const anyStandardized = (tl) => Object.keys(tl.standardized || {}).length > 0;

// Per-feature rows get the run's standardisation once, as a z column, when there was one.
export const withZ = (tl, headers, rows, names) => (anyStandardized(tl)
  ? [[headers[0], "as the model reads it", ...headers.slice(1)], rows.map((r, j) => [r[0], zText(names[j], tl.standardized), ...r.slice(1)])]
  : [headers, rows]);
