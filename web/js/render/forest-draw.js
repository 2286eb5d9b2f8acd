// The forest as small multiples: each tree's shape in a small box (its branches as lines, its leaves as
// dots in their class's colour, or a regressor's value on the sequential ramp), with a text twin listing
// every tree drawn and each tree's vote for the chosen row. Takes a shape list, never the model.
import { classColour, sequentialColour, INK } from "./palette.js";
import { setupCanvas } from "./scales.js";
import { makeTable, makeParagraph, makeTwin, fmt } from "./twin.js";

const MARGIN = 6;

// shape: {kids, value, depth, nodes, leaves} (workbench/ensemble_view.py `shape`): the nodes in preorder,
// kids[i] children of node i (0 a leaf, -1 a subtree cut at the drawing's depth), value[i] its prediction.
export function checkShape(shape) {
  if (!shape || !shape.kids || !shape.value || shape.kids.length !== shape.value.length || !shape.kids.length) {
    throw new Error("Forest: a tree's shape needs as many predictions as nodes, and at least one node.");
  }
  const n = shape.kids.length;
  let open = 1;  // preorder: every node fills one open place and opens its children's
  shape.kids.forEach((k, i) => {
    if (open <= 0) throw new Error(`Forest: a tree's ${n} nodes do not make one tree (node ${i} comes after its last leaf).`);
    open += Math.max(0, k) - 1;
  });
  if (open !== 0) throw new Error(`Forest: a tree's ${n} nodes do not make one tree (${open} places left open).`);
}

// Positions in slot units: leaves (and cut subtrees) take consecutive columns, a parent sits over its children.
export function layoutShape(shape) {
  const nodes = [];
  let column = 0;
  let at = 0;
  function place(depth, parent) {
    const index = at++;
    const node = { x: 0, depth, parent, kids: shape.kids[index], value: shape.value[index] };
    nodes[index] = node;
    if (node.kids > 0) {
      const xs = [];
      for (let c = 0; c < node.kids; c++) xs.push(nodes[place(depth + 1, index)].x);
      node.x = (xs[0] + xs[xs.length - 1]) / 2;
    } else {
      node.x = column++;
    }
    return index;
  }
  place(0, -1);
  return { nodes, columns: column, levels: 1 + Math.max(...nodes.map((n) => n.depth)) };
}

function leafColour(value, { task, valueRange }) {
  if (task === "regression") {
    const [lo, hi] = valueRange || [0, 1];
    const [r, g, b] = sequentialColour(hi > lo ? (value - lo) / (hi - lo) : 0.5);
    return `rgb(${r},${g},${b})`;
  }
  return classColour(value);
}

// Draws one small multiple. Options: width, height (CSS px), task, valueRange ([lo, hi] of a regressor's
// leaves). Returns the layout.
export function drawShape(canvas, shape, options = {}) {
  checkShape(shape);
  const width = options.width || 160;
  const height = options.height || 96;
  const ctx = setupCanvas(canvas, width, height, { fill: null });
  const layout = layoutShape(shape);
  const sx = (width - 2 * MARGIN) / Math.max(1, layout.columns);
  const sy = (height - 2 * MARGIN) / Math.max(1, layout.levels - 1 || 1);
  const px = (n) => MARGIN + (n.x + 0.5) * sx;
  const py = (n) => MARGIN + n.depth * sy;
  ctx.strokeStyle = INK.axis;
  ctx.lineWidth = layout.columns > 60 ? 0.6 : 1;
  ctx.beginPath();
  for (const n of layout.nodes) {
    if (n.parent < 0) continue;
    const p = layout.nodes[n.parent];
    ctx.moveTo(px(p), py(p));
    ctx.lineTo(px(n), py(n));
  }
  ctx.stroke();
  const r = Math.max(1.2, Math.min(3.5, sx / 2.2));
  for (const n of layout.nodes) {
    if (n.kids > 0) continue;
    ctx.beginPath();
    ctx.arc(px(n), py(n), r, 0, 2 * Math.PI);
    if (n.kids < 0) {  // a subtree below the drawn depth: a ring in its prediction's colour
      ctx.strokeStyle = leafColour(n.value, options);
      ctx.lineWidth = 1.2;
      ctx.stroke();
    } else {
      ctx.fillStyle = leafColour(n.value, options);
      ctx.fill();
      if (options.task === "regression") {  // the ramp's light end would vanish on white without an edge
        ctx.strokeStyle = INK.muted;
        ctx.lineWidth = 0.6;
        ctx.stroke();
      }
    }
  }
  return layout;
}

// A tree's vote in words: its class, or its value.
export function voteText(forest, votes, i) {
  if (!votes) return "";
  if (forest.task === "regression") return fmt(votes.tree_values[i], 4);
  return String(forest.classes[votes.tree_votes[i]]);
}

// The text twin: the count, then a row per tree drawn (its depth, leaves, nodes and, with `votes`, its
// vote and probabilities for the row).
export function describeForest(forest, votes = null) {
  const lead = makeParagraph(`${forest.n_trees} trees in all; the first ${forest.shown} are drawn` +
    (forest.shown < forest.n_trees ? ", the others are counted in the votes." : "."));
  const headers = ["tree", "depth", "leaves", "nodes"];
  const classification = forest.task !== "regression";
  if (votes) headers.push(`vote for row ${votes.row}`, ...(classification ? forest.classes.map((c) => `P(${c})`) : []));
  const rows = forest.trees.map((t, i) => {
    const row = [`tree ${i + 1}`, t.depth, t.leaves, t.nodes];
    if (votes) row.push(voteText(forest, votes, i), ...(classification ? votes.tree_proba[i].map((p) => fmt(p, 3)) : []));
    return row;
  });
  return makeTwin(lead, makeTable("The trees drawn", headers, rows));
}
