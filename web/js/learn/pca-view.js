// "See it learn"'s PCA view: the mean, the covariance matrix, the eigenvalues and the components kept,
// one step per frame.
import { el, simpleTable } from "../dom.js";
import { summaryTable, withZ } from "./summary.js";

export function pca(box, tl) {
  const info = el("div", { class: "learn-table" });
  box.append(info);
  const names = tl.feature_names;
  const open = { all: false };
  const r4 = (v) => Number(v.toFixed(4));
  return (i) => {
    const f = tl.frames[i];
    if (f.kind === "mean") {
      const [headers, rows] = withZ(tl, ["feature", "mean"], names.map((n, j) => [n, r4(f.mean[j])]), names);
      info.replaceChildren(summaryTable(headers, rows, { caption: "Step 1: the mean", magnitude: (r) => r[r.length - 1], open }));
    } else if (f.kind === "covariance") info.replaceChildren(f.matrix ? covariance(f.matrix, names, open) : el("p", { text: "Too many features to show the covariance." }));
    else if (f.kind === "eigen") info.replaceChildren(summaryTable(["component", "eigenvalue", "ratio", "cumulative"], f.eigenvalues.map((v, j) => [`PC${j + 1}`, r4(v), r4(f.ratios[j]), r4(f.cumulative[j])]), { caption: "Step 3: eigenvalues, largest first", open, sort: false }));
    else info.replaceChildren(el("p", { class: "learn-node", text: `Step 4: keep ${f.n_components} component${f.n_components === 1 ? "" : "s"} (${f.rule}).` }));
  };
}

// The covariance matrix; with many features, the block of the SUMMARY_ROWS largest variances first.
function covariance(matrix, names, open) {
  const order = names.map((_, j) => j).sort((a, b) => matrix[b][b] - matrix[a][a] || a - b);
  const keep = open.all ? order : order.slice(0, 8);
  const rows = keep.map((j) => [names[j], ...keep.map((k) => Number(matrix[j][k].toFixed(4)))]);
  const caption = keep.length < names.length ? `Step 2: the covariance matrix (the ${keep.length} largest variances of ${names.length})` : "Step 2: the covariance matrix";
  const box = el("div", { class: "learn-summary learn-scroll-x" }, simpleTable(["", ...keep.map((j) => names[j])], rows, { caption, rowHeaders: true }));
  if (names.length > 8) {
    box.append(el("button", { type: "button", class: "learn-show-all", "aria-expanded": String(Boolean(open.all)),
      text: open.all ? "Show the 8 largest" : `Show all ${names.length}`,
      onclick: () => {
        open.all = !open.all;
        const again = covariance(matrix, names, open);
        box.replaceWith(again);
        again.querySelector(".learn-show-all").focus();
      } }));
  }
  return box;
}
