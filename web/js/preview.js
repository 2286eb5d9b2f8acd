// The data preview: the first rows of the loaded table, and per column its kind (overridable),
// its role (target / feature / ignore) and how many values are missing.
import { el, option } from "./dom.js";

export const ROLES = ["feature", "target", "ignore"];

function columnHead(name, info, roles, handlers) {
  const safe = `col-${info.columns.indexOf(name)}`;
  const role = el("select", { id: `${safe}-role`, class: "mini", "aria-label": `Role of ${name}`, dataset: { column: name } },
    ...ROLES.map((r) => option(r, r, roles[name] === r)));
  role.addEventListener("change", () => handlers.onRole(name, role.value));
  const kind = el("select", { id: `${safe}-kind`, class: "mini", "aria-label": `Kind of ${name}`, dataset: { column: name } },
    option("numeric", "numeric", info.kinds[name] === "numeric"),
    option("categorical", "categorical", info.kinds[name] === "categorical"));
  kind.addEventListener("change", () => handlers.onKind(name, kind.value));
  const missing = info.missing[name];
  return el("th", { scope: "col", class: `role-${roles[name]}` },
    el("span", { class: "col-name", text: name }), role, kind,
    missing ? el("span", { class: "kind warn", text: `${missing} missing` }) : null);
}

export function renderPreview(table, info, roles = {}, handlers = { onRole() {}, onKind() {} }) {
  const headRow = el("tr", {}, ...info.columns.map((name) => columnHead(name, info, roles, handlers)));
  const body = el("tbody");
  for (const row of info.preview) {
    const tr = el("tr");
    for (const [i, value] of row.entries()) {
      const td = el("td", { class: roles[info.columns[i]] === "ignore" ? "ignored" : null });
      if (value === null || value === "") {
        td.textContent = "missing";
        td.classList.add("missing");
      } else {
        td.textContent = String(value);
      }
      tr.append(td);
    }
    body.append(tr);
  }
  const shown = info.preview.length;
  const caption = el("caption", { text: `First ${shown} of ${info.n_rows} rows. Set each column's role and kind above its values.` });
  table.replaceChildren(caption, el("thead", {}, headRow), body);
}
