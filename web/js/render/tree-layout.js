// Tree layout, kept apart from drawing: positions every shown node of a pellucid tree dict in slot units.
// Leaves take consecutive columns left to right; a parent sits centred over its children; rows are depths.
// A large tree is shown within a node budget: breadth first, a node's children are shown while they fit,
// and an inner node whose children do not is drawn collapsed ("+412 leaves") until it is opened.

export const NODE_BUDGET = 160;
// A test "x ≤ the largest float" sends every present value left and the missing ones right (the model
// file's threshold for "is the value present?").
const ALL_PRESENT = Number.MAX_VALUE;  // nodes drawn before subtrees collapse (about 80 leaves)

export function children(node) {
  if (node.branches) return Object.entries(node.branches).map(([value, child]) => ({ label: String(value), child }));
  if (node.values && node.left && node.right) {
    const set = `{${node.values.join(", ")}}`;
    return [{ label: `∈ ${set}`, child: node.left }, { label: `∉ ${set}`, child: node.right }];
  }
  if (node.left && node.right) {
    if (node.threshold >= ALL_PRESENT) return [{ label: "present", child: node.left }, { label: "missing", child: node.right }];
    const t = formatNumber(node.threshold);
    const gap = (side) => (node.missing === side ? " or missing" : "");  // where a missing number goes
    return [{ label: `≤ ${t}${gap("left")}`, child: node.left }, { label: `> ${t}${gap("right")}`, child: node.right }];
  }
  return [];
}

// A number to `digits` significant digits (3-4 read well in a box): 1234.5678 -> 1235, 0.000123456 -> 0.0001235.
export function formatNumber(x, digits = 4) {
  if (typeof x !== "number") return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e6) return String(x);
  return String(Number(x.toPrecision(digits)));
}

export function isLeaf(node) {
  return children(node).length === 0;
}

export function countLeaves(node) {
  let n = 0;
  const stack = [node];
  while (stack.length) {
    const kids = children(stack.pop());
    if (kids.length === 0) n += 1;
    else for (const { child } of kids) stack.push(child);
  }
  return n;
}

// Which inner nodes show their children: breadth first within `budget` nodes, plus those in `open` (keys).
function expandedKeys(root, budget, open) {
  const expanded = new Set();
  let shown = 1;
  const queue = [{ node: root, key: "r" }];
  for (let i = 0; i < queue.length; i++) {
    const { node, key } = queue[i];
    const kids = children(node);
    if (!kids.length || !(open.has(key) || shown + kids.length <= budget)) continue;
    expanded.add(key);
    shown += kids.length;
    kids.forEach(({ child }, b) => queue.push({ node: child, key: `${key}.${b}` }));
  }
  return expanded;
}

// Returns {nodes: [{node, key, x, depth, parentIndex, edgeLabel, hidden}], width (columns), depth (rows)};
// `hidden` is the number of leaves under a collapsed node (0 for shown nodes and real leaves).
export function layoutTree(root, { budget = NODE_BUDGET, open = new Set() } = {}) {
  const expanded = expandedKeys(root, budget, open);
  const nodes = [];
  let nextColumn = 0;
  let maxDepth = 0;
  function place(node, key, depth, parentIndex, edgeLabel) {
    const index = nodes.length;
    const kids = children(node);
    const entry = { node, key, x: 0, depth, parentIndex, edgeLabel, hidden: 0 };
    nodes.push(entry);
    maxDepth = Math.max(maxDepth, depth);
    if (!expanded.has(key)) {
      if (kids.length) entry.hidden = countLeaves(node);
      entry.x = nextColumn++;
    } else {
      const xs = kids.map(({ label, child }, b) => nodes[place(child, `${key}.${b}`, depth + 1, index, label)].x);
      entry.x = (xs[0] + xs[xs.length - 1]) / 2;
    }
    return index;
  }
  place(root, "r", 0, -1, null);
  return { nodes, width: nextColumn, depth: maxDepth + 1 };
}
