// Dendrogram of an agglomerative clustering from its merge list (scipy's convention: ids below n are
// leaves, id n + i is the i-th merge), with a cut line and the clusters under the cut coloured.
import { classColour, INK } from "./palette.js";
import { setupCanvas, plotArea, linearScale, drawAxes, FONT } from "./scales.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const CUT_COLOUR = "#b3261e";
const LABEL_LIMIT = 200;

function mergesOf(data) {
  return Array.isArray(data) ? data : data.merges;
}

// Throws an Error naming the merge that does not refer to earlier ids exactly once. For a truncated
// list (the last merges only) pass the number of rows and the index of the first merge listed.
export function checkMerges(merges, nRows = merges?.length + 1, first = 0) {
  if (!Array.isArray(merges) || merges.length === 0) throw new Error("Dendrogram: expected a non-empty list of merges.");
  const n = nRows + first;
  const used = new Set();
  merges.forEach((m, i) => {
    for (const id of [m.a, m.b]) {
      if (!Number.isInteger(id) || id < 0 || id >= n + i) {
        throw new Error(`Dendrogram: merge ${first + i} joins id ${id}, but only ids 0 to ${n + i - 1} exist at that step (n = ${nRows} leaves).`);
      }
      if (used.has(id)) throw new Error(`Dendrogram: id ${id} is merged twice (again at merge ${i}).`);
      used.add(id);
    }
    if (!Number.isFinite(m.distance)) throw new Error(`Dendrogram: merge ${i} has distance ${m.distance}.`);
  });
  return n - first;
}

// The tree to draw, renumbered so ids below n are its leaves. data is {merges, n_leaves?, first_merge?,
// labels?} or the merges array; a truncated readout (only the last merges) draws each earlier cluster it
// refers to as one leaf, labelled with its size in brackets when known, "…" otherwise.
// Returns {merges, n, rows (rows of the data), truncated, leafIds (original id of each leaf), leafName(leaf),
// leafSize(leaf) (rows under a leaf, null if unknown), firstRow(leaf) (the first data row under it)}.
export function treeOf(data, labels = null) {
  const given = mergesOf(data);
  const names = labels || (Array.isArray(data) ? null : data.labels) || null;
  const rows = Array.isArray(data) || data.n_leaves === undefined ? given.length + 1 : data.n_leaves;
  const first = Array.isArray(data) || data.first_merge === undefined ? rows - 1 - given.length : data.first_merge;
  checkMerges(given, rows, first);
  const rowName = (id) => (names ? String(names[id]) : String(id + 1));
  if (first === 0) {
    return { merges: given, n: rows, rows, truncated: false, leafIds: Array.from({ length: rows }, (_, i) => i),
      leafName: rowName, leafSize: () => 1, firstRow: (leaf) => leaf };
  }
  const shownBase = rows + first;
  const n = given.length + 1;
  const leafOf = new Map();
  const leafIds = [];
  const renumber = (id) => {
    if (id >= shownBase) return n + (id - shownBase);
    if (!leafOf.has(id)) { leafOf.set(id, leafIds.length); leafIds.push(id); }
    return leafOf.get(id);
  };
  const merges = given.map((m) => ({ ...m, a: renumber(m.a), b: renumber(m.b) }));
  // Sizes of the collapsed clusters, where a merge's size and its other child's size give them.
  const size = new Map();
  const known = (id) => (id < rows ? 1 : id >= shownBase ? given[id - shownBase].size : size.get(id));
  for (const m of given) {
    for (const [c, other] of [[m.a, m.b], [m.b, m.a]]) {
      if (c >= rows && c < shownBase && known(other) !== undefined && m.size !== undefined) size.set(c, m.size - known(other));
    }
  }
  const leafSize = (leaf) => known(leafIds[leaf]) ?? null;
  const leafName = (leaf) => {
    const id = leafIds[leaf];
    if (id < rows) return rowName(id);
    return size.has(id) ? `(${size.get(id)})` : "…";
  };
  // The first row under a leaf: itself, or the reply's first_row of a collapsed cluster (its id past the
  // rows when not given, so such clusters come after the rows, in the order the tail names them).
  const firstRows = (!Array.isArray(data) && data.first_row) || {};
  const firstRow = (leaf) => {
    const id = leafIds[leaf];
    return id < rows ? id : firstRows[id] ?? id;
  };
  return { merges, n, rows, truncated: true, leafIds, leafName, leafSize, firstRow };
}

// Leaves in drawing order (depth first from the root, a before b), so no branches cross.
export function leafOrder(merges) {
  const n = merges.length + 1;
  const order = [];
  const stack = [n + merges.length - 1];
  while (stack.length) {
    const id = stack.pop();
    if (id < n) { order.push(id); continue; }
    const m = merges[id - n];
    stack.push(m.b, m.a);
  }
  return order;
}

// A distance that cuts the tree into k clusters: halfway between the (n-k)-th and (n-k+1)-th merge
// distances in increasing order (half the first distance for k = n, 5% above the last for k = 1).
export function cutForK(merges, k) {
  const n = merges.length + 1;
  if (!Number.isInteger(k) || k < 1 || k > n) throw new Error(`Dendrogram: k must be an integer from 1 to ${n}, got ${k}.`);
  const d = merges.map((m) => m.distance).sort((p, q) => p - q);
  if (k === n) return d[0] / 2;
  if (k === 1) return d[n - 2] + Math.max(Math.abs(d[n - 2]) * 0.05, 1e-9);
  return (d[n - k - 1] + d[n - k]) / 2;
}

// Cluster of every leaf when the tree is cut at `cut`: maximal subtrees whose merge distance is <= cut,
// numbered by the first row under them (firstRow(leaf), default the leaf id), as the model numbers its
// labels_, so a cluster's colour here is its colour in the clusters plot. Returns {labels: [cluster per
// leaf id], k, roots: [node id, by cluster number]}.
export function clustersAtCut(merges, cut, firstRow = (leaf) => leaf) {
  const n = merges.length + 1;
  const found = [];  // {root, leaves, first}
  const stack = [n + merges.length - 1];
  while (stack.length) {
    const id = stack.pop();
    if (id < n || merges[id - n].distance <= cut) {
      const leaves = [];
      const inner = [id];
      while (inner.length) {
        const j = inner.pop();
        if (j < n) leaves.push(j);
        else inner.push(merges[j - n].b, merges[j - n].a);
      }
      found.push({ root: id, leaves, first: Math.min(...leaves.map(firstRow)) });
    } else {
      stack.push(merges[id - n].b, merges[id - n].a);
    }
  }
  found.sort((p, q) => p.first - q.first);
  const labels = new Array(n).fill(-1);
  found.forEach(({ leaves }, c) => { for (const leaf of leaves) labels[leaf] = c; });
  return { labels, k: found.length, roots: found.map((f) => f.root) };
}

// Draws data {merges, labels?} (or the merges array) on `canvas`. Options: width, height, cut (a distance)
// or k (clusters), labels (leaf names, default the 1-based row numbers), yLabel.
// Returns {plot, x (leaf position -> px), y (distance -> px, y.invert(px) -> distance), order (leaf ids
// left to right), cut (distance or null), clusters ({labels (per leaf), k, roots} or null), labelled (leaf
// names drawn), leafIds (each leaf's original id: a row below n_leaves, else a collapsed merge), truncated}.
export function drawDendrogram(canvas, data, options = {}) {
  const tree = treeOf(data, options.labels);
  const { merges, n } = tree;
  const order = leafOrder(merges);
  const showLabels = n <= LABEL_LIMIT;
  const W = options.width || 640;
  const H = options.height || 400;
  const ctx = setupCanvas(canvas, W, H);
  ctx.font = FONT;
  const labelText = tree.leafName;
  const longest = showLabels ? Math.max(...order.map((id) => ctx.measureText(labelText(id)).width)) : 0;
  const plotW = W - 62 - 24;
  const rotate = showLabels && longest + 4 > plotW / n;
  const labelSpace = !showLabels ? 10 : rotate ? Math.min(80, longest + 10) : 22;
  const plot = plotArea(W, H, { top: 24, right: 24, bottom: labelSpace + 36, left: 62 });
  const maxD = Math.max(...merges.map((m) => m.distance));
  const cut = options.k !== undefined && options.k !== null ? cutForK(merges, options.k)
    : Number.isFinite(options.cut) ? options.cut : null;
  const y = linearScale([0, (Math.max(maxD, cut ?? 0) || 1) * 1.08], [plot.bottom, plot.top]);
  const slot = plot.width / n;
  const x = (position) => plot.left + (position + 0.5) * slot;

  // Positions: leaves by order, a merge midway over its two children, at the height of its distance.
  const pos = new Float64Array(n + merges.length);
  order.forEach((id, i) => { pos[id] = i; });
  merges.forEach((m, i) => { pos[n + i] = (pos[m.a] + pos[m.b]) / 2; });
  const height = (id) => (id < n ? 0 : merges[id - n].distance);
  const clusters = cut === null ? null : clustersAtCut(merges, cut, tree.firstRow);
  const colourOfNode = new Array(n + merges.length).fill(INK.neutral);
  if (clusters) {
    clusters.roots.forEach((root, c) => {
      const stack = [root];
      while (stack.length) {
        const id = stack.pop();
        colourOfNode[id] = classColour(c);
        if (id >= n) stack.push(merges[id - n].a, merges[id - n].b);
      }
    });
  }

  drawAxes(ctx, plot, x, y, { yLabel: options.yLabel || "merge distance", xTicks: [], grid: true });
  ctx.save();
  ctx.lineWidth = n > 500 ? 1 : 1.5;
  ctx.lineCap = "square";
  // options.upTo draws only the first merges, so a timeline can show the tree growing on a fixed scale.
  const drawn = Number.isInteger(options.upTo) ? options.upTo : merges.length;
  merges.forEach((m, i) => {
    if (i >= drawn) return;
    const id = n + i;
    const top = y(m.distance);
    ctx.strokeStyle = colourOfNode[id];
    ctx.beginPath();
    for (const child of [m.a, m.b]) {
      ctx.moveTo(x(pos[child]), y(height(child)));
      ctx.lineTo(x(pos[child]), top);
    }
    ctx.moveTo(x(pos[m.a]), top);
    ctx.lineTo(x(pos[m.b]), top);
    ctx.stroke();
  });
  ctx.restore();

  ctx.save();
  ctx.fillStyle = INK.muted;
  ctx.font = FONT;
  if (showLabels) {
    order.forEach((id, i) => {
      ctx.fillStyle = clusters ? colourOfNode[id] : INK.muted;
      if (rotate) {
        ctx.save();
        ctx.translate(x(i), plot.bottom + 6);
        ctx.rotate(-Math.PI / 2);
        ctx.textAlign = "right";
        ctx.textBaseline = "middle";
        ctx.fillText(labelText(id), 0, 0);
        ctx.restore();
      } else {
        ctx.textAlign = "center";
        ctx.textBaseline = "top";
        ctx.fillText(labelText(id), x(i), plot.bottom + 6);
      }
    });
  }
  ctx.fillStyle = INK.text;
  ctx.font = "600 12px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  const caption = tree.truncated ? `${tree.rows} rows: the last ${merges.length} merges; (k) = a cluster of k rows`
    : showLabels ? `${n} rows (leaves)` : `${n} rows (leaves, too many to label)`;
  ctx.fillText(caption, plot.left + plot.width / 2, H - 8);
  ctx.restore();

  if (cut !== null) drawCut(ctx, plot, y(cut), cut, clusters.k);
  return { plot, x, y, order, cut, clusters, labelled: showLabels, leafIds: tree.leafIds, truncated: tree.truncated };
}

function drawCut(ctx, plot, py, cut, k) {
  ctx.save();
  ctx.strokeStyle = CUT_COLOUR;
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 4]);
  ctx.beginPath();
  ctx.moveTo(plot.left, Math.round(py));
  ctx.lineTo(plot.right, Math.round(py));
  ctx.stroke();
  const text = `cut at ${fmt(cut, 3)}: ${k} cluster${k === 1 ? "" : "s"}`;
  ctx.font = "600 12px system-ui, sans-serif";
  const ty = py - 12 < plot.top ? py + 12 : py - 10;
  // A white halo instead of a box, so branches behind the label stay visible.
  ctx.setLineDash([]);
  ctx.lineJoin = "round";
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  ctx.strokeStyle = "rgba(255,255,255,0.95)";
  ctx.lineWidth = 4;
  ctx.strokeText(text, plot.right - 4, ty);
  ctx.fillStyle = CUT_COLOUR;
  ctx.fillText(text, plot.right - 4, ty);
  ctx.restore();
}

// The text twin: the merges in order (all of them up to 200, else the last 100, nearest the root) and,
// with options.cut or options.k, the clusters the cut makes.
export function describeDendrogram(data, options = {}) {
  const tree = treeOf(data, options.labels);
  const given = mergesOf(data);
  const names = options.labels || (Array.isArray(data) ? null : data.labels) || null;
  const n = tree.rows;
  const offset = n - 1 - given.length;  // merges before the first one listed
  const nameOf = (id) => (id < n ? `row ${names ? names[id] : id + 1}` : `merge ${id - n + 1}`);
  const skip = given.length > 200 ? given.length - 100 : 0;
  const rows = given.slice(skip).map((m, i) => [offset + skip + i + 1, `${nameOf(m.a)} + ${nameOf(m.b)}`, fmt(m.distance, 4), m.size]);
  const listed = given.length - skip;
  const parts = [makeParagraph(`${n} rows joined by ${n - 1} merges`
    + (listed < n - 1 ? `; the last ${listed} merges are listed.` : "."))];
  const merges = tree.merges;
  const cut = options.k !== undefined && options.k !== null ? cutForK(merges, options.k)
    : Number.isFinite(options.cut) ? options.cut : null;
  if (cut !== null) {
    const { labels, k } = clustersAtCut(merges, cut, tree.firstRow);
    const sizes = new Array(k).fill(0);
    labels.forEach((c, leaf) => { sizes[c] += tree.leafSize(leaf) ?? NaN; });
    const known = sizes.every(Number.isFinite) ? ` of sizes ${sizes.join(", ")}` : "";
    parts.push(makeParagraph(`Cut at distance ${fmt(cut, 4)}: ${k} cluster${k === 1 ? "" : "s"}${known}.`));
  }
  parts.push(makeTable("Merges", ["step", "joins", "distance", "size"], rows));
  return makeTwin(...parts);
}
