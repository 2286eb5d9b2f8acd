// Tree layout, kept apart from drawing: positions every node of a pellucid tree dict in slot units.
// Leaves take consecutive columns left to right; a parent sits centred over its children; rows are depths.

function children(node) {
  if (node.branches) return Object.entries(node.branches).map(([value, child]) => ({ label: String(value), child }));
  if (node.left && node.right) {
    const t = formatNumber(node.threshold);
    return [{ label: `≤ ${t}`, child: node.left }, { label: `> ${t}`, child: node.right }];
  }
  return [];
}

export function formatNumber(x, digits = 3) {
  if (typeof x !== "number") return String(x);
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(digits + 1)));
}

// Returns {nodes: [{node, x, depth, parentIndex, edgeLabel}], width (columns), depth (rows)}.
export function layoutTree(root) {
  const nodes = [];
  let nextColumn = 0;
  let maxDepth = 0;
  function place(node, depth, parentIndex, edgeLabel) {
    const index = nodes.length;
    const entry = { node, x: 0, depth, parentIndex, edgeLabel };
    nodes.push(entry);
    maxDepth = Math.max(maxDepth, depth);
    const kids = children(node);
    if (kids.length === 0) {
      entry.x = nextColumn++;
    } else {
      const xs = kids.map(({ label, child }) => nodes[place(child, depth + 1, index, label)].x);
      entry.x = (xs[0] + xs[xs.length - 1]) / 2;
    }
    return index;
  }
  place(root, 0, -1, null);
  return { nodes, width: nextColumn, depth: maxDepth + 1 };
}

export function isLeaf(node) {
  return children(node).length === 0;
}
