// Draws a laid-out tree on a canvas: boxes with feature, gain and class counts; leaves with their
// prediction in the class colour; branch values on the edges; collapsed subtrees as "+412 leaves" boxes.
// Text that does not fit is shortened with "…"; every box and edge label is returned as a hit region
// with its full text, so the view can show it on hover. Takes the layout, never the model.
import { layoutTree, isLeaf, formatNumber, children } from "./tree-layout.js";
import { classColour } from "./palette.js";
import { fitText, setupCanvas } from "./scales.js";

const BOX_W = 150;
const BOX_H = 62;
const COLUMN = 166;
const ROW = 112;
const MARGIN = 24;
const CURRENT = "#d97706";  // the node this step of "See it learn" is about
const MAX_CANVAS_PX = 30000;
// The smallest text drawn (a box's counts, a collapsed box's note), in drawing pixels: the tree view opens a
// phone at the zoom that keeps it readable.
export const SMALLEST_TEXT_PX = 11;  // browsers leave a canvas blank beyond about 32767 pixels a side

function prediction(node) {
  return typeof node.prediction === "number" ? formatNumber(node.prediction, 4) : String(node.prediction);
}

// A large tree reaches the page cut to the nodes it can unfold; a cut node says where the rest is.
const CUT_NOTE = "in the exported model";

function nodeLines(node) {
  const counts = Object.entries(node.counts || {}).map(([label, n]) => `${label} ${n}`).join(" · ");
  const rows = `${node.samples} ${node.samples === 1 ? "row" : "rows"}`;
  if (node.omitted_nodes) return { title: node.feature, lines: [`+${node.omitted_nodes} nodes below`, CUT_NOTE] };
  if (isLeaf(node)) return { title: `→ ${prediction(node)}`, lines: [rows, counts] };
  const gain = node.gain === undefined ? "" : `gain ${formatNumber(node.gain, 3)}`;
  return { title: node.feature, lines: [gain, counts || rows] };
}

// The full text of a box, for its tooltip and the text twin.
function fullText(entry) {
  const { title, lines } = nodeLines(entry.node);
  const more = entry.hidden ? [`+${entry.hidden} leaves hidden: click to open`] : [];
  return [title, ...lines.filter(Boolean), ...more].join("\n");
}

// Options: current (a predicate on nodes): that node gets a ring and "this step" above it; open (a Set of
// node keys) and budget: which subtrees of a large tree are shown (tree-layout.js).
// Returns the layout with rootX, `scale` (canvas pixels per layout pixel, below 1 only for a tree too
// wide for one canvas) and `regions`: [{x, y, w, h, text, key, hidden}] in layout pixels.
export function drawTree(canvas, tree, classes, { current = () => false, open, budget } = {}) {
  const layout = layoutTree(tree, { open, budget });
  const width = Math.max(layout.width * COLUMN, BOX_W) + 2 * MARGIN;
  const height = (layout.depth - 1) * ROW + BOX_H + 2 * MARGIN;
  const ratio = window.devicePixelRatio || 1;
  const scale = Math.min(1, MAX_CANVAS_PX / (Math.max(width, height) * ratio));
  // Transparent background: the page's panel shows through, and tests can count what was drawn.
  const ctx = setupCanvas(canvas, width * scale, height * scale, { fill: null });
  ctx.scale(scale, scale);
  const centre = (entry) => ({ x: MARGIN + entry.x * COLUMN + BOX_W / 2, y: MARGIN + entry.depth * ROW });
  const regions = drawEdges(ctx, layout.nodes, centre);
  for (const entry of layout.nodes) {
    const c = centre(entry);
    if (current(entry.node)) drawCurrent(ctx, c);
    drawNode(ctx, entry, c, classes);
    regions.push({ x: c.x - BOX_W / 2, y: c.y, w: BOX_W, h: BOX_H, text: fullText(entry), key: entry.key, hidden: entry.hidden });
  }
  return { ...layout, rootX: centre(layout.nodes[0]).x, width, height, scale, regions };
}

function drawEdges(ctx, nodes, centre) {
  const regions = [];
  ctx.font = "12px system-ui, sans-serif";
  ctx.textAlign = "center";
  for (const entry of nodes) {
    if (entry.parentIndex < 0) continue;
    const from = centre(nodes[entry.parentIndex]);
    const to = centre(entry);
    ctx.strokeStyle = "#9aa3ad";
    ctx.lineWidth = 1.2;
    ctx.beginPath();
    ctx.moveTo(from.x, from.y + BOX_H);
    ctx.bezierCurveTo(from.x, from.y + BOX_H + 30, to.x, to.y - 30, to.x, to.y);
    ctx.stroke();
    const label = fitText(ctx, entry.edgeLabel, COLUMN - 20);
    const mx = (from.x + to.x) / 2;
    const my = (from.y + BOX_H + to.y) / 2;
    const w = ctx.measureText(label).width + 8;
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(mx - w / 2, my - 9, w, 18);
    ctx.fillStyle = "#39424c";
    ctx.fillText(label, mx, my + 4);
    const parent = nodes[entry.parentIndex].node;
    regions.push({ x: mx - w / 2, y: my - 9, w, h: 18, text: `${parent.feature} ${entry.edgeLabel}`, key: null, hidden: 0 });
  }
  return regions;
}

function drawNode(ctx, entry, { x, y }, classes) {
  const node = entry.node;
  if (entry.hidden) return drawCollapsed(ctx, entry, { x, y });
  if (node.omitted_nodes) ctx.setLineDash([5, 3]);
  const leaf = isLeaf(node) && !node.omitted_nodes;
  const classIndex = classes ? classes.indexOf(String(node.prediction)) : -1;
  const accent = classIndex >= 0 ? classColour(classIndex) : "#5b6770";
  ctx.fillStyle = leaf ? tint(accent) : "#f5f7fa";
  ctx.strokeStyle = leaf ? accent : "#7d8791";
  ctx.lineWidth = leaf ? 2 : 1.2;
  roundRect(ctx, x - BOX_W / 2, y, BOX_W, BOX_H, 8);
  ctx.fill();
  ctx.stroke();
  ctx.setLineDash([]);
  const { title, lines } = nodeLines(node);
  ctx.textAlign = "center";
  ctx.fillStyle = leaf ? accent : "#1d232a";
  ctx.font = "600 14px system-ui, sans-serif";
  ctx.fillText(fitText(ctx, title, BOX_W - 12), x, y + 19);
  ctx.fillStyle = "#39424c";
  ctx.font = "12px system-ui, sans-serif";
  lines.forEach((line, i) => ctx.fillText(fitText(ctx, line, BOX_W - 12), x, y + 37 + i * 15));
}

// A collapsed subtree: its test on top, and how many leaves opening it shows.
function drawCollapsed(ctx, entry, { x, y }) {
  ctx.fillStyle = "#eef2f7";
  ctx.strokeStyle = "#5b6770";
  ctx.lineWidth = 1.5;
  ctx.setLineDash([5, 3]);
  roundRect(ctx, x - BOX_W / 2, y, BOX_W, BOX_H, 8);
  ctx.fill();
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.textAlign = "center";
  ctx.fillStyle = "#1d232a";
  ctx.font = "600 14px system-ui, sans-serif";
  ctx.fillText(fitText(ctx, entry.node.feature, BOX_W - 12), x, y + 19);
  ctx.fillStyle = "#1f5fa8";
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.fillText(`+${entry.hidden} leaves`, x, y + 38);
  ctx.fillStyle = "#39424c";
  ctx.font = `${SMALLEST_TEXT_PX}px system-ui, sans-serif`;
  ctx.fillText("click to open", x, y + 54);
}

function drawCurrent(ctx, { x, y }) {
  ctx.save();
  ctx.strokeStyle = CURRENT;
  ctx.lineWidth = 4;
  roundRect(ctx, x - BOX_W / 2 - 5, y - 5, BOX_W + 10, BOX_H + 10, 11);
  ctx.stroke();
  ctx.fillStyle = CURRENT;
  ctx.font = `600 ${SMALLEST_TEXT_PX}px system-ui, sans-serif`;
  ctx.textAlign = "left";
  ctx.fillText("this step", x - BOX_W / 2 - 4, y - 9);
  ctx.restore();
}

function tint(hex) {
  return `${hex}1f`;
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

// A text twin of the drawing for screen readers and copy-paste: nested lists built with textContent.
// With `current` (as for drawTree) that node's line ends with "(this step)".
// With `layout` (drawTree's result) and `onOpen(key)`, a collapsed subtree is listed as a button that opens it.
export function treeAsList(tree, current = () => false, { layout = null, onOpen = null } = {}) {
  const hidden = new Map((layout?.nodes || []).filter((n) => n.hidden).map((n) => [n.key, n.hidden]));
  const list = document.createElement("ul");
  list.append(treeItem(tree, null, current, "r", { hidden, onOpen }));
  return list;
}

function treeItem(node, edge, current, key, folded) {
  const item = document.createElement("li");
  item.dataset.node = key;  // the node's path ("r.0.1"), the same key the drawing opens it by
  const prefix = edge === null ? "" : `${edge}: `;
  const counts = Object.entries(node.counts || {}).map(([k, v]) => `${k} ${v}`).join(", ") || `${node.samples} rows`;
  const mark = current(node) ? " (this step)" : "";
  if (node.omitted_nodes) {
    item.textContent = `${prefix}split on ${node.feature} (${counts}): ${node.omitted_nodes} more nodes below, ${CUT_NOTE}`;
    return item;
  }
  if (isLeaf(node)) {
    item.textContent = `${prefix}predict ${prediction(node)} (${counts})${mark}`;
    return item;
  }
  const gain = node.gain === undefined ? "" : `, gain ${node.gain.toFixed(3)}`;
  item.textContent = `${prefix}split on ${node.feature}${gain} (${counts})${mark}`;
  if (folded.hidden.has(key) && folded.onOpen) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tree-open";
    button.textContent = `Open +${folded.hidden.get(key)} leaves`;
    button.addEventListener("click", () => folded.onOpen(key));
    item.append(" ", button);
    return item;
  }
  const sub = document.createElement("ul");
  children(node).forEach(({ label, child }, b) => {
    const branch = node.branches ? `${node.feature} = ${label}` : `${node.feature} ${label}`;
    sub.append(treeItem(child, branch, current, `${key}.${b}`, folded));
  });
  item.append(sub);
  return item;
}
