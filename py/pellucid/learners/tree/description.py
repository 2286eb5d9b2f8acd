"""The tree as nested JSON-able nodes (the "tree" of `to_dict`, what the page draws) and back.

Every node: samples, impurity, and the estimator's payload (classification: counts, prediction;
regression: value, prediction). An inner node adds feature, gain, candidates (attribute -> gain for
every attribute considered there) and one of: branches (value -> child: a multiway test), values (the
left set of a binary test "feature in values"), left, right; or threshold, left (<=), right.
A leaf adds the reason it is a leaf, and the candidates when they were scored but none gained enough.
"""

from collections import deque

import numpy as np

from .structure import LEAF, REASON, REASONS, Tree


def _candidates(tree, i, names):
    gains = tree.candidates[i].tolist()  # Python floats: a per-value numpy test is the slow part of a big tree
    return {names[j]: g for j, g in enumerate(gains) if g == g}  # g != g only for NaN (not scored)


def to_nested(tree, names, categories, payload, max_nodes=None):
    """(nested dict of the tree, nodes left out); payload(i) gives the estimator's fields for node i.

    With `max_nodes`, only the first max_nodes nodes breadth first are described, as a view unfolds them: a
    node keeps its children while they fit, and a node whose children were cut keeps its own fields and
    gains "omitted_nodes", the number of nodes below it. A tree of 70,000 nodes is then described in the
    time of 1,000."""
    kept, below = _kept(tree, max_nodes)
    samples = tree.samples
    scored = ~np.isnan(tree.candidates).all(axis=1)  # (N,) once, not per leaf
    nodes = {}
    for i in kept:
        node = {"samples": int(samples[i]), **payload(i), "impurity": float(tree.impurity[i])}
        f = int(tree.feature[i])
        if f != LEAF:
            node["feature"] = names[f]
            if categories[f] is None:
                node["threshold"] = float(tree.threshold[i])
            elif i in tree.left_values:
                node["values"] = [categories[f][c] for c in tree.left_values[i].tolist()]
            node["gain"] = float(tree.gain[i])
            node["candidates"] = _candidates(tree, i, names)
        else:
            node["reason"] = REASONS[int(tree.reason[i])]
            if scored[i]:
                node["candidates"] = _candidates(tree, i, names)
        nodes[i] = node
    for i in kept:
        f = int(tree.feature[i])
        if f == LEAF:
            continue
        if i in below:
            nodes[i]["omitted_nodes"] = below[i]
            continue
        kids = [nodes[c] for c in tree.children(i)]
        if categories[f] is None or i in tree.left_values:
            nodes[i]["left"], nodes[i]["right"] = kids
        else:
            nodes[i]["branches"] = dict(zip(categories[f], kids))
    return nodes[0], sum(below.values())


def _kept(tree, max_nodes):
    """(node ids to describe, in id order; {node: nodes below it} for the nodes whose children are cut)."""
    if max_nodes is None or tree.node_count <= max_nodes:
        return range(tree.node_count), {}
    size = _subtree_sizes(tree)
    kept, below, queue = [0], {}, [0]
    for i in queue:  # breadth first; the queue grows as children are kept
        kids = list(tree.children(i)) if tree.feature[i] != LEAF else []
        if not kids:
            continue
        if len(kept) + len(kids) > max_nodes:
            below[i] = int(size[kids].sum())
            continue
        kept.extend(kids)
        queue.extend(kids)
    return sorted(kept), below


def _subtree_sizes(tree):
    """(N,) nodes in the subtree under each node, itself included, summed up from the deepest level."""
    size = np.ones(tree.node_count, dtype=np.int64)
    for depth in range(tree.max_depth(), 0, -1):
        at = np.flatnonzero(tree.depth == depth)
        np.add.at(size, tree.parent[at], size[at])
    return size


def from_nested(root, names, categories, read_payload):
    """A Tree from `to_nested` output. read_payload(node) -> (stats column (s,), value) of a node.
    Returns (tree, values) with values in node id order."""
    index = {name: j for j, name in enumerate(names)}
    records, values, left_values = [], [], {}
    queue = deque([(root, -1, 0, 0)])
    while queue:
        node, parent, branch, depth = queue.popleft()
        i = len(records)
        stats, value = read_payload(node)
        gains = np.full(len(names), np.nan)
        for name, g in node.get("candidates", {}).items():
            gains[index[name]] = float(g)
        rec = {"parent": parent, "branch": branch, "depth": depth, "stats": stats, "candidates": gains,
               "impurity": float(node["impurity"]), "feature": LEAF, "threshold": np.nan,
               "child_start": -1, "n_children": 0, "gain": np.nan, "reason": REASON.get(node.get("reason"), -1)}
        if "feature" in node:
            f = index[node["feature"]]
            if categories[f] is None:
                kids = [node["left"], node["right"]]
                rec["threshold"] = float(node["threshold"])
            elif "values" in node:
                kids = [node["left"], node["right"]]
                code = {v: c for c, v in enumerate(categories[f])}
                left_values[i] = sorted(code[str(v)] for v in node["values"])
            else:
                kids = [node["branches"][v] for v in categories[f]]
            rec.update(feature=f, gain=float(node["gain"]), child_start=i + 1 + len(queue),
                       n_children=len(kids), reason=-1)
            queue.extend((kid, i, b, depth + 1) for b, kid in enumerate(kids))
        records.append(rec)
        values.append(value)
    stats = np.array([r["stats"] for r in records]).T  # (s, N)
    tree = Tree(*([r[k] for r in records] for k in ("feature", "threshold", "child_start", "n_children",
                                                      "parent", "branch", "depth")),
                stats, [r["gain"] for r in records], np.array([r["candidates"] for r in records]),
                [r["reason"] for r in records], left_values)
    tree.impurity = np.array([r["impurity"] for r in records])
    return tree, values
