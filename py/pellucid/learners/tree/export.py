"""The tree as indented text, in the layout of scikit-learn's export_text.

    |--- Pat = Full
    |   |--- Hun = No
    |   |   |--- class: No
    |--- x3 <= 2.45
    |   |--- class: 0
    |--- x3 >  2.45
    |--- City in {Lyon, Paris}
    |--- City not in {Lyon, Paris}
    |--- income <= 41000.00 or missing    (a tree that met missing numbers says where they go)
"""

from .structure import ALL_PRESENT, LEAF


def _condition(model, node, branch, decimals):
    f = int(model.tree_.feature[node])
    name = model.feature_names_in_[f]
    values = model.categories_[f]
    left = model.tree_.left_values.get(int(node))
    if left is not None:
        listed = ", ".join(values[c] for c in left.tolist())
        return f"{name} in {{{listed}}}" if branch == 0 else f"{name} not in {{{listed}}}"
    if values is not None:
        return f"{name} = {values[branch]}"
    tree = model.tree_
    threshold = tree.threshold[node]
    if threshold == ALL_PRESENT:  # the test "is the value present?"
        return f"{name} is present" if branch == 0 else f"{name} is missing"
    gaps = " or missing" if tree.gap_nodes[node] and bool(tree.missing_left[node]) == (branch == 0) else ""
    return (f"{name} <= {threshold:.{decimals}f}" if branch == 0 else f"{name} >  {threshold:.{decimals}f}") + gaps


def export_text(model, decimals=2):
    """A text drawing of a fitted DecisionTreeClassifier or DecisionTreeRegressor."""
    model._check_fitted()
    tree = model.tree_
    lines = []
    stack = [(0, 0, None)]  # (node, depth, line to print before it)
    while stack:
        node, depth, line = stack.pop()
        if line is not None:
            lines.append(line)
        indent = "|   " * depth
        if tree.feature[node] == LEAF:
            lines.append(f"{indent}|--- {model._leaf_text(node, decimals)}")
            continue
        for branch, child in reversed(list(enumerate(tree.children(node)))):
            stack.append((child, depth + 1, f"{indent}|--- {_condition(model, node, branch, decimals)}"))
    return "\n".join(lines) + "\n"
