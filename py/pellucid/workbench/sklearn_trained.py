"""The page model's fitted state carried into its scikit-learn script (a network's weights, from the twin's
`trained` in its descriptor). The script's own fit gives the twin its shape and classes; the page's numbers
then replace what that fit reached, so that the script predicts as the page does (USE_PAGE_STATE = False
keeps scikit-learn's own fit). Only where the page trained one model, on a split or on every row: under
k-fold the script fits a model per fold.

The first layer's rows follow the page model's inputs; the script puts them in the order of its pipeline's
columns by name (a category's one-hot input "plan=pro" is the encoder's column "plan_pro").
"""

SET_STATE = '''def set_page_state(model):
    """The page model's fitted state on the pipeline's last step, its rows in the order of the columns."""
    names = [str(name) for name in (model[:-1].get_feature_names_out() if len(model) > 1 else X.columns)]
    order = [PAGE_INPUTS.index(name if name in PAGE_INPUTS else name.split("__", 1)[-1]) for name in names]
    for i, (attribute, arrays) in enumerate(PAGE_STATE.items()):
        arrays = [np.array(array, dtype=float) for array in arrays]
        if i == 0:
            arrays[0] = arrays[0][order]
        setattr(model[-1], attribute, arrays)
'''


def state_lines(run, twin):
    """The script's PAGE_INPUTS, PAGE_STATE and set_page_state, or [] when the twin's fit stands."""
    if twin.trained is None:
        return []
    inputs = [_script_column(run, name) for name in run.estimator.feature_names_out_]
    lines = ["# The page's trained model: its state replaces what scikit-learn's fit reaches, so the script",
             "# predicts as the page does. False keeps scikit-learn's own fit.",
             "USE_PAGE_STATE = True",
             f"PAGE_INPUTS = {inputs!r}", "PAGE_STATE = {"]
    for attribute, arrays in twin.trained(run.estimator).items():
        lines.append(f"    {attribute!r}: [")
        for array in arrays:
            lines += _array_lines(array, "        ")
        lines.append("    ],")
    return [*lines, "}", "", "", *SET_STATE.splitlines(), "", ""]


def call_lines():
    return ["if USE_PAGE_STATE:", "    set_page_state(model)"]


def _script_column(run, name):
    """The page input `name` as the script's encoder names its column: a category's "plan=pro" is "plan_pro"."""
    for feature in run.features:
        if run.table.kinds.get(feature) == "categorical" and name.startswith(f"{feature}="):
            return f"{feature}_{name[len(feature) + 1:]}"
    return name


def _array_lines(array, indent):
    """A vector on one line, a matrix a row a line; each float written so that it reads back the same."""
    if array and isinstance(array[0], list):
        return [f"{indent}[", *(f"{indent}    {_vector(row)}," for row in array), f"{indent}],"]
    return [f"{indent}{_vector(array)},"]


def _vector(values):
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"
