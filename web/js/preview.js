// The data preview: the first rows of the loaded table with each column's inferred kind and missing count.

export function renderPreview(table, summary) {
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  for (const name of summary.columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = name;
    const kind = document.createElement("span");
    kind.className = "kind";
    const missing = summary.missing[name];
    kind.textContent = summary.kinds[name] + (missing ? ` · ${missing} missing` : "");
    th.append(kind);
    headRow.append(th);
  }
  head.append(headRow);
  const body = document.createElement("tbody");
  for (const row of summary.preview) {
    const tr = document.createElement("tr");
    for (const value of row) {
      const td = document.createElement("td");
      if (value === null) {
        td.textContent = "missing";
        td.className = "missing";
      } else {
        td.textContent = String(value);
      }
      tr.append(td);
    }
    body.append(tr);
  }
  table.replaceChildren(head, body);
}
