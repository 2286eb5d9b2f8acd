"""The growth of a tree as steps a page can replay next to the IMPORTANCE table.

Steps follow the order of the recursive DECISION-TREE-LEARNING of notes 000 (depth first, branches in
order), whatever order the nodes were actually computed in. Nodes are named by their path from the
root: "root", "root/Pat=Full", "root/Pat=Full/Hun=Yes", "root/x3<=2.45", "root/x3>2.45", and for a
binary categorical test "root/City∈{Lyon,Paris}", "root/City∉{Lyon,Paris}".
"""

import math

from .structure import LEAF, REASONS


def _threshold_text(t):
    return f"{t:.6g}"


def subset_label(name, values, inside):
    """A binary categorical branch in a node path: City∈{Lyon,Paris} or City∉{Lyon,Paris}."""
    return f"{name}{'∈' if inside else '∉'}{{{','.join(str(v) for v in values)}}}"


def left_set(tree, categories, i):
    """The values of the left set of node i's binary categorical test, or None for any other node."""
    codes = tree.left_values.get(int(i))
    return None if codes is None else [categories[int(tree.feature[i])][c] for c in codes.tolist()]


def paths(tree, names, categories):
    """The path name of every node (parents come before their children)."""
    out = []
    for i in range(tree.node_count):
        parent = int(tree.parent[i])
        if parent < 0:
            out.append("root")
            continue
        f, b = int(tree.feature[parent]), int(tree.branch[i])
        values = left_set(tree, categories, parent)
        if values is not None:
            label = subset_label(names[f], values, b == 0)
        elif categories[f] is not None:
            label = f"{names[f]}={categories[f][b]}"
        else:
            label = f"{names[f]}{'<=' if b == 0 else '>'}{_threshold_text(tree.threshold[parent])}"
        out.append(f"{out[parent]}/{label}")
    return out


def growth_steps(tree, names, categories, node_paths, payload):
    """One "split" or "leaf" step per node. payload(i) gives the node's counts (or value)."""
    samples = tree.samples
    steps = []
    for i in tree.preorder():
        f = int(tree.feature[i])
        gains = tree.candidates[i]
        step = {"step": "leaf" if f == LEAF else "split", "node": node_paths[i], "depth": int(tree.depth[i]),
                "samples": int(samples[i]), **payload(i), "impurity": float(tree.impurity[i]),
                "candidates": {names[j]: float(g) for j, g in enumerate(gains) if not math.isnan(g)},
                "chosen": None if f == LEAF else names[f],
                "threshold": None if f == LEAF or categories[f] is not None else float(tree.threshold[i]),
                "values": left_set(tree, categories, i),
                "reason": REASONS[int(tree.reason[i])] if f == LEAF else None}
        if tree.gap_nodes[i]:  # its rows had gaps in the tested column: the side they were sent to
            step["missing"] = "left" if tree.missing_left[i] else "right"
        steps.append(step)
    return steps


def chi2_steps(records, node_paths):
    return [{"step": "prune", "node": node_paths[i], "statistic": float(delta), "dof": int(dof),
             "p_value": float(p), "pruned": bool(pruned)} for i, delta, dof, p, pruned in records]


def reduced_error_steps(records, node_paths):
    return [{"step": "prune", "node": node_paths[i], "error_before": int(before), "error_after": int(after),
             "pruned": bool(pruned)} for i, before, after, pruned in records]
