"""Tree growth as display frames: each node's examples, its entropy (or Gini), the IMPORTANCE table with
every candidate's gain worked out branch by branch (and for C4.5's gain ratio its split information and
the quotient), and the pruning tests (notes 000, "Decision Trees",
"Information Gain", "Pruning"; notes 004, "Choosing best attribute", "Pruning decision trees").

A frame is the trace step plus what the page shows beside it: `breakdown` (per candidate, the class
counts of each branch) and `math` ([{tex, text}]: the notes' formulas with this node's numbers). The
whole tree comes once, as a nested dict in the page's tree format whose nodes carry the index of the
frame that grows them (`"frame"`), that tests them for pruning (`"checked_at"`) and, when pruned, that
prunes them (`"pruned_at"`), so the page can draw the tree as it stood at any frame and ring the node
the frame is about.
"""

import numpy as np

from ..learners.tree._base import BINARY_KINDS
from ..learners.tree.criteria import entropy, gini, importance, split_information
from .formula_text import fixed, name_tex, name_text

MAX_TREE_FRAMES = 600  # growth steps sent for one tree (a deeper tree is cut with a note)


def _number(value):
    """A count as a formula writes it: whole, or (class counts weighted by class_weight) to 4 digits."""
    return str(int(round(value))) if float(value).is_integer() else fixed(value, ".4g")


def _weighted(counts, weights):
    """Class counts as the tree's impurity reads them: times the class weights, if it has them."""
    return counts if weights is None else [float(c * w) for c, w in zip(counts, weights)]


def _impurity_terms(counts, criterion, binary):
    """(tex, text) of one node's impurity with its counts: B(p/(p+n)) for two classes (p = the second
    class), H(..) for more, Gini(..) for the Gini criterion."""
    n = _number(sum(counts))
    if criterion == "gini":
        inner = ", ".join(f"{_number(c)}/{n}" for c in counts)
        return rf"\mathrm{{Gini}}({inner})", f"Gini({inner})"
    if binary:
        return rf"B({_number(counts[1])}/{n})", f"B({_number(counts[1])}/{n})"
    inner = ", ".join(f"{_number(c)}/{n}" for c in counts)
    return rf"H({inner})", f"H({inner})"


def gain_formula(attribute, node_counts, branches, criterion, gain):
    """The notes' Gain(A) = B(p/(p+n)) - sum_k (p_k+n_k)/(p+n) B(p_k/(p_k+n_k)) with the numbers filled in.
    `branches` is [(label, counts)]. Returns {tex, text}."""
    binary = len(node_counts) == 2
    total = _number(sum(node_counts))
    head_tex, head_text = _impurity_terms(node_counts, criterion, binary)
    parts_tex, parts_text = [], []
    for _, counts in branches:
        if sum(counts) == 0:
            continue
        size = _number(sum(counts))
        t_tex, t_text = _impurity_terms(counts, criterion, binary)
        parts_tex.append(rf"\tfrac{{{size}}}{{{total}}}\,{t_tex}")
        parts_text.append(f"{size}/{total} {t_text}")
    name = "Gain" if criterion != "gini" else r"\Delta\mathrm{Gini}"
    tex = (rf"\mathrm{{{name}}}({name_tex(attribute)}) = {head_tex} - \left[{' + '.join(parts_tex)}\right]"
           rf" = {fixed(gain, '.3f')}") if criterion != "gini" else \
        (rf"{name}({name_tex(attribute)}) = {head_tex} - \left[{' + '.join(parts_tex)}\right] = {fixed(gain, '.3f')}")
    text_name = "Gain" if criterion != "gini" else "ΔGini"
    text = f"{text_name}({name_text(attribute)}) = {head_text} − [{' + '.join(parts_text)}] = {fixed(gain, '.3f')}"
    return {"tex": tex, "text": text}


def gain_ratio_formulas(attribute, node_counts, branches, ratio):
    """C4.5's GainRatio(A) = Gain(A) / SplitInfo(A) with the numbers filled in, as three lines: the notes'
    Gain(A) worked out, SplitInfo(A) = H(n_1/n, ..., n_K/n) of the branch sizes, and their quotient, the
    model's IMPORTANCE `ratio`. `branches` is [(label, counts)] (weighted, if the tree weighs classes)."""
    sizes = [float(sum(counts)) for _, counts in branches]
    gain = float(importance(node_counts, [counts for _, counts in branches]))
    info = float(split_information(sizes))
    total = _number(sum(node_counts))
    shares = ", ".join(f"{_number(n)}/{total}" for n in sizes if n > 0)
    a_tex, a_text = name_tex(attribute), name_text(attribute)
    g, si, r = fixed(gain, ".3f"), fixed(info, ".3f"), fixed(ratio, ".3f")
    quotient = rf"\frac{{\mathrm{{Gain}}({a_tex})}}{{\mathrm{{SplitInfo}}({a_tex})}}"
    return [gain_formula(attribute, node_counts, branches, "entropy", gain),
            {"tex": rf"\mathrm{{SplitInfo}}({a_tex}) = H({shares}) = {si}",
             "text": f"SplitInfo({a_text}) = H({shares}) = {si}"},
            {"tex": rf"\mathrm{{GainRatio}}({a_tex}) = {quotient} = \frac{{{g}}}{{{si}}} = {r}",
             "text": f"GainRatio({a_text}) = Gain({a_text}) / SplitInfo({a_text}) = {g} / {si} = {r}"}]


def importance_label(criterion):
    """What the IMPORTANCE column of the steps view holds, for the page's table."""
    return {"gini": "Gini decrease", "gain_ratio": "gain ratio"}.get(criterion, "gain (bits)")


class _Data:
    """The training rows as the tree read them: per column its values, kind and (categorical) categories."""

    def __init__(self, estimator, X, codes):
        self.names = list(estimator.feature_names_in_)
        self.kinds = list(estimator.feature_kinds_)
        self.columns = {name: np.asarray(X.column(name)) for name in self.names}
        self.categories = dict(zip(self.names, estimator.categories_))
        self.binary = {name for name, kind in zip(self.names, estimator.categorical_splits_) if kind in BINARY_KINDS}
        self.codes = codes  # (n,) class index per row, or None for a regression tree
        self.weights = getattr(estimator, "class_weights_", None)  # (k,) class weights, or None

    def branches(self, rows, attribute, threshold, left_set=None, missing=None):
        """[(label, row indices)] of a test on `attribute` at the given rows (left_set: the values of a
        binary categorical test; missing: the side, "left" or "right", rows missing a number go to)."""
        values = self.columns[attribute][rows]
        cats = self.categories[attribute]
        if left_set is not None:
            inside = np.isin(values.astype(str), [str(v) for v in left_set])
            listed = ", ".join(map(str, left_set))
            return [(f"in {{{listed}}}", rows[inside]), (f"not in {{{listed}}}", rows[~inside])]
        if cats is not None:
            return [(str(c), rows[values.astype(str) == str(c)]) for c in cats]
        left = goes_left(values.astype(float), threshold, missing)
        gap = {"left": (" or missing", ""), "right": ("", " or missing")}.get(missing, ("", ""))
        return [(f"<= {threshold:.6g}{gap[0]}", rows[left]), (f"> {threshold:.6g}{gap[1]}", rows[~left])]


def goes_left(values, threshold, missing):
    """(m,) whether each row passes a test x <= threshold, a missing number going to the `missing` side."""
    return (values <= threshold) | (np.isnan(values) & (missing == "left"))


def _class_counts(codes, rows, k):
    return np.bincount(codes[rows], minlength=k).astype(int).tolist()


def _child_rows(data, parent_step, parent_rows, child_path, parent_path):
    """Rows reaching a child: the parent's rows that pass the branch named at the end of its path."""
    label = child_path[len(parent_path) + 1:]
    attribute, threshold = parent_step["chosen"], parent_step["threshold"]
    values = data.columns[attribute][parent_rows]
    if parent_step.get("values") is not None:  # a binary categorical test: in the left set or not
        inside = np.isin(values.astype(str), [str(v) for v in parent_step["values"]])
        return parent_rows[inside if label[len(attribute):].startswith("∈") else ~inside]
    if threshold is None:
        value = label[len(attribute) + 1:]
        return parent_rows[values.astype(str) == value]
    left = goes_left(values.astype(float), threshold, parent_step.get("missing"))
    return parent_rows[left if label[len(attribute):].startswith("<=") else ~left]


def tree_frames(estimator, X, y, criterion="entropy"):
    """Frames of a DecisionTreeClassifier/Regressor fitted with trace=True on (X, y), plus the nested tree."""
    trace = estimator.trace_
    classes = [str(c) for c in getattr(estimator, "classes_", [])]
    classifier = bool(classes)
    codes = np.searchsorted(estimator.classes_, np.asarray(y)) if classifier else None
    data = _Data(estimator, X, codes)
    grow = [s for s in trace if s["step"] != "prune"][:MAX_TREE_FRAMES]
    prunes = [s for s in trace if s["step"] == "prune"]
    rows_of, step_of, frames = {}, {}, []
    all_rows = np.arange(len(y), dtype=np.intp)
    if getattr(estimator, "prune", None) == "reduced_error" and classifier:
        from ..learners.tree.classifier import stratified_holdout
        all_rows, _ = stratified_holdout(codes, estimator.validation_fraction, estimator.seed)
    at_depth = {}  # depth -> path of the latest node there (steps are in preorder)
    for step in grow:
        path = step["node"]
        parent_path = at_depth.get(step["depth"] - 1) if step["depth"] else None
        at_depth[step["depth"]] = path
        rows = all_rows if parent_path is None else _child_rows(data, step_of[parent_path], rows_of[parent_path],
                                                                 path, parent_path)
        rows_of[path], step_of[path] = rows, step
        frames.append(_growth_frame(step, rows, data, classes, criterion))
    for step in prunes:
        frames.append(_prune_frame(step, estimator))
    tree = _nested(frames, classes, data.weights)
    return {"family": "tree", "frames": frames, "tree": tree, "classes": classes,
            "truncated": len(grow) < sum(1 for s in trace if s["step"] != "prune"), "criterion": criterion,
            "importance_label": importance_label(criterion) if classifier else "variance reduction"}


def _growth_frame(step, rows, data, classes, criterion):
    frame = dict(step)
    frame["kind"] = step["step"]
    frame["rows"] = (np.sort(rows)[:200] + 1).tolist()  # 1-based positions among the training rows
    frame["math"] = []
    if not classes:
        mean, variance = fixed(step["value"], ".4g"), fixed(step["impurity"], ".4g")
        frame["math"].append({"tex": rf"\text{{node mean}} = {mean},\; \text{{variance}} = {variance}",
                              "text": f"node mean = {mean}, variance = {variance}"})
        return frame
    counts = [int(step["counts"].get(c, 0)) for c in classes]
    breakdown = {}
    if len(rows) == step["samples"] and step["candidates"]:
        for attribute, gain in step["candidates"].items():
            chosen = attribute == step["chosen"]
            threshold = step["threshold"] if chosen else None
            left_set = step.get("values") if chosen else None
            missing = step.get("missing") if chosen else None
            if (data.categories[attribute] is None and threshold is None) or \
                    (attribute in data.binary and left_set is None):
                continue  # a candidate's best threshold or left set is not recorded; its gain alone is shown
            branches = [(label, _class_counts(data.codes, r, len(classes)))
                        for label, r in data.branches(rows, attribute, threshold, left_set, missing)]
            weighted = [(label, _weighted(c, data.weights)) for label, c in branches]
            node_counts = _weighted(counts, data.weights)
            lines = gain_ratio_formulas(attribute, node_counts, weighted, gain) if criterion == "gain_ratio" \
                else [gain_formula(attribute, node_counts, weighted, criterion, gain)]
            breakdown[attribute] = {"branches": [{"value": label, "counts": c} for label, c in branches],
                                    **lines[-1], "lines": lines}
    frame["breakdown"] = breakdown
    node_counts = _weighted(counts, data.weights)
    head_tex, head_text = _impurity_terms(node_counts, criterion, len(classes) == 2)
    value = gini(node_counts) if criterion == "gini" else entropy(node_counts)
    value = fixed(value, ".3f")
    frame["math"].append({"tex": rf"{head_tex} = {value}", "text": f"{head_text} = {value}"})
    if step["chosen"] is not None and step["chosen"] in breakdown:
        frame["math"].extend(breakdown[step["chosen"]]["lines"])
    elif step["chosen"] is not None:
        gain = fixed(step["candidates"][step["chosen"]], ".3f")
        name = "GainRatio" if criterion == "gain_ratio" else "Gain"
        frame["math"].append({"tex": rf"\mathrm{{{name}}}({name_tex(step['chosen'])}) = {gain}",
                              "text": f"{name}({name_text(step['chosen'])}) = {gain}"})
    return frame


def _prune_frame(step, estimator):
    frame = dict(step)
    frame["kind"] = "prune"
    if "statistic" in step:
        verdict = "prune" if step["pruned"] else "keep"
        frame["math"] = [{"tex": rf"\Delta = \sum_k \frac{{(p_k - \hat p_k)^2}}{{\hat p_k}} + "
                                 rf"\frac{{(n_k - \hat n_k)^2}}{{\hat n_k}} = {fixed(step['statistic'], '.3f')},\quad "
                                 rf"\mathrm{{dof}} = {step['dof']},\quad P(\chi^2_{{{step['dof']}}} \ge \Delta) = "
                                 rf"{fixed(step['p_value'], '.4f')}",
                          "text": f"Δ = {fixed(step['statistic'], '.3f')}, dof = {step['dof']}, p-value = "
                                  f"{fixed(step['p_value'], '.4f')} → {verdict} (α = {estimator.alpha})"}]
    else:
        verdict = "prune" if step["pruned"] else "keep"
        frame["math"] = [{"tex": rf"\text{{validation errors: subtree}} = {step['error_before']},\; "
                                 rf"\text{{as a leaf}} = {step['error_after']}",
                          "text": f"validation errors: subtree {step['error_before']}, as a leaf "
                                  f"{step['error_after']} → {verdict}"}]
    return frame


def _plurality(counts, classes, weights=None):
    weights = [1.0] * len(classes) if weights is None else weights
    best = max(range(len(classes)), key=lambda i: (counts.get(classes[i], 0) * weights[i], -i))
    return classes[best]


def _nested(frames, classes, weights=None):
    """The grown tree in the page's format, each node tagged with the frame that grows it ("frame"),
    and with the frame that tests it for pruning ("checked_at") and prunes it ("pruned_at")."""
    nodes, root, at_depth = {}, None, {}
    for i, frame in enumerate(frames):
        if frame["kind"] == "prune":
            if frame["node"] in nodes:
                nodes[frame["node"]]["checked_at"] = i  # the pruning test of this node
                if frame["pruned"]:
                    nodes[frame["node"]]["pruned_at"] = i
            continue
        node = {"frame": i, "samples": frame["samples"], "impurity": frame["impurity"]}
        if classes:
            node["counts"] = frame["counts"]
            node["prediction"] = _plurality(frame["counts"], classes, weights) if frame["samples"] else "(parent)"
        else:
            node["prediction"] = round(frame["value"], 4)
        if frame["kind"] == "split":
            node["feature"] = frame["chosen"]
            node["gain"] = frame["candidates"].get(frame["chosen"], 0.0)
            if frame["threshold"] is not None:
                node["threshold"] = frame["threshold"]
            elif frame.get("values") is not None:
                node["values"] = frame["values"]
            else:
                node["branches"] = {}
        path = frame["node"]
        nodes[path] = node
        at_depth[frame["depth"]] = path
        if frame["depth"] == 0:
            root = node
            continue
        parent_path = at_depth[frame["depth"] - 1]
        label = path[len(parent_path) + 1:]
        parent = nodes[parent_path]
        if "branches" in parent:
            parent["branches"][label[len(parent["feature"]) + 1:]] = node
        elif label[len(parent["feature"]):].startswith(("<=", "∈")):
            parent["left"] = node
        else:
            parent["right"] = node
    return root
