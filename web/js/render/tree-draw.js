// Draws a laid-out tree on a canvas: boxes with feature, gain and class counts; leaves with their
// prediction in the class colour; branch values on the edges. Takes the layout, never the model.
import { layoutTree, isLeaf, formatNumber } from "./tree-layout.js";
import { classColour } from "./palette.js";
import { fitText, setupCanvas } from "./scales.js";

const BOX_W = 150;
const BOX_H = 62;
const COLUMN = 166;
const ROW = 112;
const MARGIN = 24;
const CURRENT = "#d97706";  // the node this step of "See it learn" is about

function nodeLines(node) {
  const counts = Object.entries(node.counts || {}).map(([label, n]) => `${label} ${n}`).join(" · ");
  if (isLeaf(node)) return { title: `→ ${node.prediction}`, lines: [`${node.samples} ${node.samples === 1 ? "row" : "rows"}`, counts] };
  const gain = node.gain === undefined ? "" : `gain ${node.gain.toFixed(3)}`;
  return { title: node.feature, lines: [gain, counts] };
}

// Options: current (a predicate on nodes): that node gets a ring and "this step" above it.
export function drawTree(canvas, tree, classes, { current = () => false } = {}) {
  const layout = layoutTree(tree);
  const width = Math.max(layout.width * COLUMN, BOX_W) + 2 * MARGIN;
  const height = (layout.depth - 1) * ROW + BOX_H + 2 * MARGIN;
  // Transparent background: the page's panel shows through, and tests can count what was drawn.
  const ctx = setupCanvas(canvas, width, height, { fill: null });
  const centre = (entry) => ({ x: MARGIN + entry.x * COLUMN + BOX_W / 2, y: MARGIN + entry.depth * ROW });
  drawEdges(ctx, layout.nodes, centre);
  for (const entry of layout.nodes) {
    if (current(entry.node)) drawCurrent(ctx, centre(entry));
    drawNode(ctx, entry.node, centre(entry), classes);
  }
  return { ...layout, rootX: centre(layout.nodes[0]).x };
}

function drawEdges(ctx, nodes, centre) {
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
  }
}

function drawNode(ctx, node, { x, y }, classes) {
  const leaf = isLeaf(node);
  const classIndex = classes ? classes.indexOf(String(node.prediction)) : -1;
  const accent = classIndex >= 0 ? classColour(classIndex) : "#5b6770";
  ctx.fillStyle = leaf ? tint(accent) : "#f5f7fa";
  ctx.strokeStyle = leaf ? accent : "#7d8791";
  ctx.lineWidth = leaf ? 2 : 1.2;
  roundRect(ctx, x - BOX_W / 2, y, BOX_W, BOX_H, 8);
  ctx.fill();
  ctx.stroke();
  const { title, lines } = nodeLines(node);
  ctx.textAlign = "center";
  ctx.fillStyle = leaf ? accent : "#1d232a";
  ctx.font = "600 14px system-ui, sans-serif";
  ctx.fillText(fitText(ctx, title, BOX_W - 12), x, y + 19);
  ctx.fillStyle = "#39424c";
  ctx.font = "12px system-ui, sans-serif";
  lines.forEach((line, i) => ctx.fillText(fitText(ctx, line, BOX_W - 12), x, y + 37 + i * 15));
}

function drawCurrent(ctx, { x, y }) {
  ctx.save();
  ctx.strokeStyle = CURRENT;
  ctx.lineWidth = 4;
  roundRect(ctx, x - BOX_W / 2 - 5, y - 5, BOX_W + 10, BOX_H + 10, 11);
  ctx.stroke();
  ctx.fillStyle = CURRENT;
  ctx.font = "600 11px system-ui, sans-serif";
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
export function treeAsList(tree, current = () => false) {
  const list = document.createElement("ul");
  list.append(treeItem(tree, null, current));
  return list;
}

function treeItem(node, edge, current) {
  const item = document.createElement("li");
  const prefix = edge === null ? "" : `${edge}: `;
  const counts = Object.entries(node.counts || {}).map(([k, v]) => `${k} ${v}`).join(", ");
  const mark = current(node) ? " (this step)" : "";
  if (isLeaf(node)) {
    item.textContent = `${prefix}predict ${node.prediction} (${counts})${mark}`;
    return item;
  }
  item.textContent = `${prefix}split on ${node.feature}, gain ${node.gain.toFixed(3)} (${counts})${mark}`;
  const sub = document.createElement("ul");
  if (node.branches) {
    for (const [value, child] of Object.entries(node.branches)) sub.append(treeItem(child, `${node.feature} = ${value}`, current));
  } else {
    const t = formatNumber(node.threshold);
    sub.append(treeItem(node.left, `${node.feature} ≤ ${t}`, current), treeItem(node.right, `${node.feature} > ${t}`, current));
  }
  item.append(sub);
  return item;
}
