// Confusion matrix as an accessible HTML table: actual classes as rows, predicted as columns, cells
// shaded by count, the diagonal marked, and every non-empty off-diagonal cell a button that lists the
// misclassified rows in a region below the table. Its look (the .cm-* rules) lives in styles.css, since
// the page's Content-Security-Policy allows no inline styles.

import { keyboardScrollable } from "../dom.js";

let regionCount = 0;


export function checkConfusion(c) {
  if (!c || !Array.isArray(c.labels) || !Array.isArray(c.matrix)) throw new Error("Confusion: expected {labels, matrix}.");
  const k = c.labels.length;
  if (c.matrix.length !== k || c.matrix.some((row) => row.length !== k)) {
    throw new Error(`Confusion: ${k} labels need a ${k} × ${k} matrix, got ${c.matrix.length} rows of `
      + `${c.matrix.map((r) => r.length).join("/")} values.`);
  }
  if (c.rows && (c.rows.length !== k || c.rows.some((row) => row.length !== k))) {
    throw new Error(`Confusion: rows must be a ${k} × ${k} grid of row-number lists like the matrix.`);
  }
}

// Background for a cell holding `share` (count / largest count): green on the diagonal, red elsewhere.
function shade(share, diagonal) {
  const a = 0.06 + 0.5 * share;  // at most half strength, so dark text stays readable on every cell
  return diagonal ? `rgba(47, 158, 91, ${a.toFixed(3)})` : `rgba(194, 59, 90, ${a.toFixed(3)})`;
}

// Fills `container` with the table and the rows region. confusion: {labels, matrix (actual x predicted
// counts), rows? (same shape, lists of row numbers)}. Options: caption, onSelectRows(rows, {actual,
// predicted}) called when a cell is opened (with [] when it is closed). Returns {table, region}.
export function renderConfusion(container, confusion, options = {}) {
  checkConfusion(confusion);
  const { labels, matrix, rows } = confusion;
  const k = labels.length;
  const max = Math.max(1, ...matrix.flat());
  const regionId = `cm-rows-${++regionCount}`;

  const table = document.createElement("table");
  table.className = "cm-table";
  const caption = document.createElement("caption");
  caption.textContent = options.caption || "Confusion matrix: rows are the actual classes, columns the predicted ones";
  table.append(caption);
  const head = table.createTHead();
  const top = head.insertRow();
  const corner = document.createElement("td");
  corner.className = "cm-axis";
  corner.rowSpan = 2;
  corner.colSpan = 2;
  corner.textContent = "actual ↓ · predicted →";
  const predictedHead = document.createElement("th");
  predictedHead.scope = "colgroup";
  predictedHead.colSpan = k;
  predictedHead.className = "cm-axis";
  predictedHead.textContent = "predicted";
  top.append(corner, predictedHead);
  const names = head.insertRow();
  for (const label of labels) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = String(label);
    names.append(th);
  }

  const region = document.createElement("div");
  region.id = regionId;
  region.className = "cm-rows";
  region.setAttribute("role", "region");
  region.setAttribute("aria-label", "Misclassified rows");
  region.setAttribute("aria-live", "polite");
  region.hidden = true;

  const buttons = [];
  const close = (focusButton) => {
    region.hidden = true;
    region.replaceChildren();
    for (const b of buttons) b.setAttribute("aria-expanded", "false");
    if (focusButton) focusButton.focus();
    if (options.onSelectRows) options.onSelectRows([], null);
  };
  const open = (button, i, j) => {
    const list = rows ? Array.from(rows[i][j]) : [];
    for (const b of buttons) b.setAttribute("aria-expanded", String(b === button));
    const title = document.createElement("p");
    const n = matrix[i][j];
    title.textContent = `Actual ${labels[i]}, predicted ${labels[j]}: ${n} ${n === 1 ? "row" : "rows"}`;
    const body = document.createElement("p");
    body.className = "cm-list";
    keyboardScrollable(body, "Row numbers");  // a long list scrolls inside its own box
    body.textContent = list.length ? `Rows ${list.join(", ")}` : "Row numbers are not available for this matrix.";
    region.replaceChildren(title, body);
    region.hidden = false;
    if (options.onSelectRows) options.onSelectRows(list, { actual: labels[i], predicted: labels[j] });
  };

  const body = table.createTBody();
  matrix.forEach((row, i) => {
    const tr = body.insertRow();
    if (i === 0) {
      const actualHead = document.createElement("th");
      actualHead.scope = "rowgroup";
      actualHead.rowSpan = k;
      actualHead.className = "cm-axis";
      actualHead.textContent = "actual";
      tr.append(actualHead);
    }
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = String(labels[i]);
    tr.append(th);
    row.forEach((count, j) => {
      const td = document.createElement("td");
      const diagonal = i === j;
      const share = count / max;
      td.style.backgroundColor = count > 0 ? shade(share, diagonal) : "";
      td.style.color = "#1d232a";
      if (diagonal) td.classList.add("cm-diagonal");
      if (!diagonal && count > 0) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = String(count);
        button.setAttribute("aria-expanded", "false");
        button.setAttribute("aria-controls", regionId);
        button.setAttribute("aria-label", `${count} ${count === 1 ? "row" : "rows"} of actual ${labels[i]} predicted as ${labels[j]}: show row numbers`);
        button.addEventListener("click", () => (button.getAttribute("aria-expanded") === "true" ? close(button) : open(button, i, j)));
        button.addEventListener("keydown", (event) => {
          if (event.key === "Escape" && !region.hidden) { event.preventDefault(); close(button); }
        });
        buttons.push(button);
        td.append(button);
      } else {
        const span = document.createElement("span");
        span.textContent = String(count);
        if (diagonal) span.title = "correct";
        td.append(span);
      }
      tr.append(td);
    });
  });

  container.replaceChildren(table, region);
  return { table, region };
}
