// Small DOM helpers that only ever set text and properties, never markup: data stays data.

export const byId = (id) => document.getElementById(id);

// Disables or enables a control without losing the keyboard's place: a focused control that is disabled
// drops the focus to <body> (Tab would start again from the top of the page), so the focus comes back
// to it when it is enabled again, unless the person has moved on meanwhile.
let parked = null;
export function setDisabled(control, disabled) {
  if (disabled && document.activeElement === control) parked = control;
  control.disabled = disabled;
  if (disabled || parked !== control) return;
  parked = null;
  if (!document.activeElement || document.activeElement === document.body) control.focus();
}

// el("button", {type: "button", class: "x", text: "Go", onclick}, ...children)
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// A box that scrolls must be reachable by keyboard, or its hidden part is out of reach for anyone who
// does not use a mouse or touch: it becomes a tab stop (the arrow keys then scroll it, and the focus
// ring shows where the keyboard is) and a labelled region, so a screen reader says what it holds.
export function keyboardScrollable(box, label) {
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", `${label} (scrollable)`);
  return box;
}

// A drawing's box scrolls sideways only on a narrow screen (the drawing keeps a readable width): it is
// a labelled tab stop while it scrolls, and a plain box otherwise, so on a wide screen Tab does not stop
// at every chart. A ResizeObserver sees the box and its drawing change size (a resize, a redraw).
const boxOf = new WeakMap();
let sizes = null;
function markWhileScrolling(box) {
  const label = boxOf.get(box)?.label;
  if (box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight) keyboardScrollable(box, label);
  else for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
}
export function keyboardScrollableWhenScrolling(box, label) {
  sizes ??= new ResizeObserver((entries) => {
    for (const { target } of entries) markWhileScrolling(boxOf.get(target).box);
  });
  for (const node of [box, ...box.children]) {
    boxOf.set(node, { box, label });
    sizes.observe(node);
  }
  markWhileScrolling(box);
}

// A table in its own scrolling box (.table-scroll), so a wide table scrolls without widening the page.
export const scrollingTable = (table, label) => keyboardScrollable(el("div", { class: "table-scroll" }, table), label);

export function option(value, label, selected = false) {
  const item = new Option(label, value);
  item.selected = selected;
  return item;
}

// A table from a header row and body rows of plain values (numbers are right-aligned).
export function simpleTable(headers, rows, { caption, rowHeaders = false } = {}) {
  const head = el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", { scope: "col", text: h }))));
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((value, i) => {
      const cell = rowHeaders && i === 0 ? el("th", { scope: "row" }) : el("td");
      cell.textContent = value === null || value === undefined ? "—" : String(value);
      if (typeof value === "number") cell.className = "num";
      tr.append(cell);
    });
    body.append(tr);
  }
  return el("table", {}, caption ? el("caption", { text: caption }) : null, head, body);
}

// Numbers for people: percentages for rates, 3 significant decimals otherwise, "—" for missing.
export function formatValue(value, kind = "number") {
  if (value === null || value === undefined || (typeof value === "number" && !Number.isFinite(value))) return "—";
  if (typeof value !== "number") return String(value);
  if (kind === "percent") return `${(value * 100).toFixed(1)}%`;
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e6)) return value.toExponential(3);
  return value.toFixed(abs >= 100 ? 1 : 3);
}
