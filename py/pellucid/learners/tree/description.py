"""The tree as nested JSON-able nodes (the "tree" of `to_dict`, what the page draws) and back.

Every node: samples, impurity, and the estimator's payload (classification: counts, prediction;
regression: value, prediction). An inner node adds feature, gain, candidates (attribute -> gain for
every attribute considered there) and one of: branches (value -> child: a multiway test), values (the
left set of a binary test "feature in values"), left, right; or threshold, left (<=), right, and, where
the node's training rows had gaps in that column, "missing": the side ("left" or "right") they were sent
to; elsewhere a missing value takes the side that took more training rows. A leaf adds the reason it
is a leaf, and the candidates when they were scored but none gained enough.
"""

from collections import deque

import numpy as np

from ...core.file_fields import (damaged, require_dict, require_key, require_names, require_number,
                                 require_text)
from ...core.jsonable import untag
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
    sides = tree.missing_left.tolist() if tree.takes_missing else None
    learned = tree.gap_nodes.tolist()
    scored = ~np.isnan(tree.candidates).all(axis=1)  # (N,) once, not per leaf
    nodes = {}
    for i in kept:
        node = {"samples": int(samples[i]), **payload(i), "impurity": float(tree.impurity[i])}
        f = int(tree.feature[i])
        if f != LEAF:
            node["feature"] = names[f]
            if categories[f] is None:
                node["threshold"] = float(tree.threshold[i])
                if sides is not None and learned[i]:
                    node["missing"] = "left" if sides[i] else "right"
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
    """A Tree from `to_nested` output, each node checked as it is read (a DataError about the model file
    naming the node: "tree.left.right"). read_payload(node, path) -> (stats column (s,), value) of a node.
    Returns (tree, values) with values in node id order."""
    index = {name: j for j, name in enumerate(names)}
    records, values, left_values = [], [], {}
    queue = deque([(root, -1, 0, 0, "tree")])
    while queue:
        node, parent, branch, depth, path = queue.popleft()
        node = require_dict(node, path)
        i = len(records)
        stats, value = read_payload(node, path)
        gains = np.full(len(names), np.nan)
        for name, g in require_dict(node.get("candidates", {}), f"{path}.candidates").items():
            if name not in index:
                raise damaged(f"{path}.candidates", f"names {name!r}, which is not a feature")
            gains[index[name]] = require_number(untag(g), f"{path}.candidates.{name}", finite=False)
        reason = node.get("reason")
        rec = {"parent": parent, "branch": branch, "depth": depth, "stats": stats, "candidates": gains,
               "impurity": require_number(untag(require_key(node, "impurity", path)), f"{path}.impurity",
                                          finite=False),
               "feature": LEAF, "threshold": np.nan, "child_start": -1, "n_children": 0, "gain": np.nan,
               "missing": None,
               "reason": REASON[require_text(reason, f"{path}.reason", REASONS)] if reason is not None else -1}
        if "feature" in node:
            kids = _children(node, path, index, categories, left_values, i)
            rec.update(feature=index[node["feature"]], gain=require_number(untag(require_key(node, "gain", path)),
                                                                           f"{path}.gain", finite=False),
                       child_start=i + 1 + len(queue), n_children=len(kids), reason=-1)
            if categories[rec["feature"]] is None:
                rec["threshold"] = require_number(require_key(node, "threshold", path), f"{path}.threshold")
                if "missing" in node:
                    rec["missing"] = require_text(node["missing"], f"{path}.missing", ("left", "right")) == "left"
            queue.extend((kid, i, b, depth + 1, f"{path}.{key}") for b, (key, kid) in enumerate(kids))
        elif any(key in node for key in ("left", "right", "branches")):
            raise damaged(path, "has branches but no feature to test")
        records.append(rec)
        values.append(value)
    stats = np.array([r["stats"] for r in records]).T  # (s, N)
    tree = Tree(*([r[k] for r in records] for k in ("feature", "threshold", "child_start", "n_children",
                                                      "parent", "branch", "depth")),
                stats, [r["gain"] for r in records], np.array([r["candidates"] for r in records]),
                [r["reason"] for r in records], left_values)
    tree.impurity = np.array([r["impurity"] for r in records])
    learned = [i for i, r in enumerate(records) if r["missing"] is not None]
    if learned:  # the other nodes take the side of more rows (Tree.more_rows_left)
        tree.learned_sides(learned, [records[i]["missing"] for i in learned])
    return tree, values
    return tree, values


def _children(node, path, index, categories, left_values, i):
    """[(key, child)] of an inner node: left and right of a threshold or value-set test, or a branch per
    category of a multiway test; a binary test's left values are recorded in `left_values`."""
    feature = require_text(node["feature"], f"{path}.feature")
    if feature not in index:
        raise damaged(f"{path}.feature", f"names {feature!r}, which is not a feature")
    values = categories[index[feature]]
    if values is None or "values" in node:
        if values is not None:
            code = {v: c for c, v in enumerate(values)}
            left = require_names(node["values"], f"{path}.values")
            if not left or any(v not in code for v in left):
                raise damaged(f"{path}.values", f"must hold some of {feature!r}'s categories")
            left_values[i] = sorted(code[v] for v in left)
        return [(side, require_dict(require_key(node, side, path), f"{path}.{side}")) for side in ("left", "right")]
    branches = require_dict(require_key(node, "branches", path), f"{path}.branches")
    if sorted(branches) != sorted(values):
        raise damaged(f"{path}.branches", f"must have one branch for each of {feature!r}'s categories")
    return [(f"branches.{v}", branches[v]) for v in values]
