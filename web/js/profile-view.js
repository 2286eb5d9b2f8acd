// The column profile: one row per column with its kind, missing and distinct counts, a tiny chart of its
// values, and its role. A column the profile left out (an ID, free text, one value in every row...) says
// why and offers "Use anyway"; a date column says how it was read and that the model learns from its
// parts. The table is its own text twin: the numbers are in it, and each chart has a label saying what
// it draws.
import { el, formatValue, option } from "./dom.js";

const ROLES = ["feature", "target", "ignore"];
const KIND_LABELS = { number: "number", category: "category", text: "text", date: "date", id: "ID" };
const CHART = { width: 96, height: 22 };  // CSS pixels, as .mini-chart in styles.css

// "8 features, 5 left out, target Survived": the summary line, readable with the table collapsed.
export function describeRoles(profile, roles) {
  const count = (role) => profile.filter((c) => roles[c.name] === role).length;
  const target = profile.find((c) => roles[c.name] === "target");
  const parts = [`${count("feature")} features`, `${count("ignore")} left out`];
  return `${profile.length} columns: ${parts.join(", ")}${target ? `, target ${target.name}` : ", no target"}`;
}

// A histogram's bins, or the most frequent categories' bars (the rest, "other", is in the label only: one
// bar of hundreds of categories would flatten the others).
function chartHeights(column) {
  return column.histogram ? column.histogram.counts : (column.bars || []).map(([, count]) => count);
}

// What the chart draws, in words (its accessible name and tooltip).
function chartLabel(column) {
  const h = column.histogram;
  if (h) {
    if (!h.edges.length) return "no values";
    const [low, high] = [h.edges[0], h.edges[h.edges.length - 1]];
    const show = (v) => (typeof v === "number" ? formatValue(v) : v);
    return `${column.kind === "date" ? "dates" : "values"} from ${show(low)} to ${show(high)} in ${h.counts.length} bins: ${h.counts.join(", ")}`;
  }
  if (!column.bars?.length) return column.unique ? `${column.unique} distinct values, nearly one per row` : "no values";
  const listed = column.bars.map(([value, count]) => `${value} ${count}`).join(", ");
  return `most frequent: ${listed}${column.other ? `; other values ${column.other}` : ""}`;
}

function drawChart(canvas, column) {
  const heights = chartHeights(column);
  const ratio = window.devicePixelRatio || 1;
  canvas.width = CHART.width * ratio;
  canvas.height = CHART.height * ratio;
  const ctx = canvas.getContext("2d");
  ctx.scale(ratio, ratio);
  const top = Math.max(1, ...heights);
  const step = CHART.width / Math.max(heights.length, 1);
  ctx.fillStyle = column.histogram ? "#3b6fd8" : "#2f7d4f";
  heights.forEach((count, i) => {
    const h = count ? Math.max(1, (count / top) * (CHART.height - 2)) : 0;
    ctx.fillRect(i * step + 0.5, CHART.height - h, Math.max(1, step - 1), h);
  });
}

function chartCell(column) {
  if (!chartHeights(column).length) return el("td", { class: "help", text: column.unique ? "about one per row" : "" });
  const label = chartLabel(column);
  const canvas = el("canvas", { class: "mini-chart", role: "img", "aria-label": label, title: label });
  drawChart(canvas, column);
  return el("td", {}, canvas);
}

function kindCell(column) {
  const detail = column.kind === "date" ? column.date_format : null;
  return el("td", { class: `kind-${column.kind}`, title: detail || null },
    KIND_LABELS[column.kind] || column.kind, detail ? el("span", { class: "help block", text: detail }) : null);
}

// The role select, and beside it why the column is left out (with "Use anyway") or what a date becomes.
function roleCell(column, role, onRole) {
  const select = el("select", { class: "mini", "aria-label": `${column.name}: role in the profile`, dataset: { column: column.name } },
    ...ROLES.map((r) => option(r, r, role === r)));
  select.addEventListener("change", () => onRole(column.name, select.value));
  const note = [];
  if (role === "ignore" && column.reason) {
    note.push(el("button", { type: "button", class: "link", text: "Use anyway", "aria-label": `Use ${column.name} anyway`,
      onclick: () => onRole(column.name, "feature") }),
    el("span", { class: "help block reason", text: `Left out: ${column.reason}.` }),
    column.if_used ? el("span", { class: "help block if-used", text: column.if_used }) : null);
  } else if (column.kind === "date" && role === "feature") {
    note.push(el("button", { type: "button", class: "link", text: "Leave out", "aria-label": `Leave ${column.name} out`,
      onclick: () => onRole(column.name, "ignore") }),
    el("span", { class: "help block", text: "Learned from as year, month, day of week, day of year." }));
  }
  return el("td", { class: "role-cell" }, select, ...note);
}

export function renderProfile(container, profile, roles, { onRole }) {
  const head = el("tr", {}, ...["Column", "Kind", "Missing", "Distinct", "Values", "Role"].map((h) => el("th", { scope: "col", text: h })));
  const rows = profile.map((column) => el("tr", { class: `role-${roles[column.name]}`, dataset: { column: column.name } },
    el("th", { scope: "row", text: column.name }),
    kindCell(column),
    el("td", { class: "num", text: column.missing ? String(column.missing) : "—" }),
    el("td", { class: "num", text: String(column.unique) }),
    chartCell(column),
    roleCell(column, roles[column.name], onRole)));
  container.replaceChildren(el("table", { class: "profile-table" },
    el("caption", { text: "Each column's kind, values and role. IDs name rows rather than describe them, free text is nearly one value per row, a column of one value has nothing to tell, and a column of hundreds of categories has few rows per value: they are left out unless you use them anyway." }),
    el("thead", {}, head), el("tbody", {}, ...rows)));
}
