// Text twins: small builders for the tables and lists that repeat a canvas view for screen readers.
// Every cell is set with textContent, so data can never become markup.

export function makeTable(caption, headers, rows, className = "twin-table") {
  const table = document.createElement("table");
  table.className = className;
  if (caption) {
    const cap = document.createElement("caption");
    cap.textContent = caption;
    table.append(cap);
  }
  const head = table.createTHead().insertRow();
  for (const h of headers) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    row.forEach((value, i) => {
      const cell = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) cell.scope = "row";
      cell.textContent = value === null || value === undefined ? "" : String(value);
      tr.append(cell);
    });
  }
  return table;
}

export function makeParagraph(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}

export function makeList(items) {
  const ul = document.createElement("ul");
  for (const text of items) {
    const li = document.createElement("li");
    li.textContent = text;
    ul.append(li);
  }
  return ul;
}

export function makeTwin(...children) {
  const div = document.createElement("div");
  div.className = "text-twin";
  div.append(...children.filter(Boolean));
  return div;
}

// A number for reading: up to `digits` significant digits, no trailing zeros.
export function fmt(x, digits = 3) {
  if (typeof x !== "number") return String(x);
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(digits)));
}
