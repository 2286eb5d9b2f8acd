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

function nodeLines(node) {
  const counts = Object.entries(node.counts || {}).map(([label, n]) => `${label} ${n}`).join(" · ");
  if (isLeaf(node)) return { title: `→ ${node.prediction}`, lines: [`${node.samples} ${node.samples === 1 ? "row" : "rows"}`, counts] };
  const gain = node.gain === undefined ? "" : `gain ${node.gain.toFixed(3)}`;
  return { title: node.feature, lines: [gain, counts] };
}

export function drawTree(canvas, tree, classes) {
  const layout = layoutTree(tree);
  const width = Math.max(layout.width * COLUMN, BOX_W) + 2 * MARGIN;
  const height = (layout.depth - 1) * ROW + BOX_H + 2 * MARGIN;
  // Transparent background: the page's panel shows through, and tests can count what was drawn.
  const ctx = setupCanvas(canvas, width, height, { fill: null });
  const centre = (entry) => ({ x: MARGIN + entry.x * COLUMN + BOX_W / 2, y: MARGIN + entry.depth * ROW });
  drawEdges(ctx, layout.nodes, centre);
  for (const entry of layout.nodes) drawNode(ctx, entry.node, centre(entry), classes);
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
export function treeAsList(tree) {
  const list = document.createElement("ul");
  list.append(treeItem(tree, null));
  return list;
}

function treeItem(node, edge) {
  const item = document.createElement("li");
  const prefix = edge === null ? "" : `${edge}: `;
  const counts = Object.entries(node.counts || {}).map(([k, v]) => `${k} ${v}`).join(", ");
  if (isLeaf(node)) {
    item.textContent = `${prefix}predict ${node.prediction} (${counts})`;
    return item;
  }
  item.textContent = `${prefix}split on ${node.feature}, gain ${node.gain.toFixed(3)} (${counts})`;
  const sub = document.createElement("ul");
  if (node.branches) {
    for (const [value, child] of Object.entries(node.branches)) sub.append(treeItem(child, `${node.feature} = ${value}`));
  } else {
    const t = formatNumber(node.threshold);
    sub.append(treeItem(node.left, `${node.feature} ≤ ${t}`), treeItem(node.right, `${node.feature} > ${t}`));
  }
  item.append(sub);
  return item;
}
