"""Why one row gets its prediction: the path it takes through a tree, its k nearest neighbours and their
vote, its log-probability sum per class (naive Bayes), its score per class term by term (linear models),
or its distance to each centre (k-means). Row numbers in and out are 1-based rows of the loaded table.
"""

import numpy as np

from ..core.errors import DataError
from ..core.jsonable import python_scalar
from ..learners import registry
from ..learners.tree.structure import ALL_PRESENT
from ..learners.tree.tracing import subset_label
from ..tabular.features import numeric


def _row_values(run, row):
    if run.table is None:
        raise DataError("This model was imported without its data, so there are no rows to explain.")
    if isinstance(row, bool) or not isinstance(row, (int, float)) or row != int(row) \
            or not 1 <= row <= run.table.n_rows:
        raise DataError(f"row must be a row number from 1 to {run.table.n_rows}; got {row!r}.")
    X = run.table.select(run.features).take(np.array([int(row) - 1]))
    return X, {name: python_scalar(X.column(name)[0]) for name in X.columns}


def explain_row(run, row, estimator=None):
    """{kind, row, values, prediction, ...} for the run's model (or `estimator`, a refit of it)."""
    est = estimator if estimator is not None else run.estimator
    raw, values = _row_values(run, row)
    out = {"row": int(row), "values": values}  # in the user's units
    X = run.prepare(raw)  # as the model reads it: imputed and standardised as in training
    prepared = {name: python_scalar(X.column(name)[0]) for name in X.columns}
    if prepared != values:
        out["prepared_values"] = prepared
    if run.target is not None:
        out["actual"] = python_scalar(run.table.column(run.target)[int(row) - 1])
    out.update(_KINDS[registry.of(est).explain](est, X, prepared, run))
    return out


def _neighbours(est, X, values, run):
    out = {"kind": "neighbours", **est.explain(X)}
    train = run.train_rows()
    for nb in out["neighbors"]:
        nb["row"] = int(train[nb["row"]]) + 1
    return out


def _naive_bayes(est, X, values, run):
    return {"kind": "naive_bayes", **est.explain(X)}


def _centres(est, X, values, run):
    m = numeric(est, X)[0]  # (d,)
    d2 = ((est.cluster_centers_ - m) ** 2).sum(axis=1)  # (k,)
    return {"kind": "centres", "distances": np.sqrt(d2).tolist(), "prediction": int(np.argmin(d2))}


def _prediction(est, X, values, run):
    return {"kind": "prediction",
            "prediction": python_scalar(np.asarray(est.predict(X))[0]) if hasattr(est, "predict") else None}


def _tree_path(est, X, values, run):
    """The tests the row passes from the root to its leaf, with the trace's node names."""
    node, path, steps = est.to_dict()["tree"], "root", []
    nodes = [path]
    while "feature" in node:
        feature, value = node["feature"], values[node["feature"]]
        if "branches" in node:
            key = str(value)
            if key not in node["branches"]:
                steps.append({"feature": feature, "value": value, "test": f"{feature} = {key} (unseen)"})
                break
            path, node = f"{path}/{feature}={key}", node["branches"][key]
            steps.append({"feature": feature, "value": value, "test": f"{feature} = {key}"})
        elif "values" in node:  # a binary category test: the left set against the rest
            key, left_set = str(value), node["values"]
            if key not in est.categories_[est.feature_names_in_.index(feature)]:
                steps.append({"feature": feature, "value": value, "test": f"{feature} = {key} (unseen)"})
                break
            inside = key in left_set
            path = f"{path}/{subset_label(feature, left_set, inside)}"
            node = node["left"] if inside else node["right"]
            listed = ", ".join(map(str, left_set))
            steps.append({"feature": feature, "value": value,
                          "test": f"{feature} = {key} {'in' if inside else 'not in'} {{{listed}}}"})
        else:
            t = node["threshold"]
            missing = value is None or value != value
            left = _missing_goes_left(node) if missing else float(value) <= t
            path = f"{path}/{feature}{'<=' if left else '>'}{t:.6g}"
            steps.append({"feature": feature, "value": None if missing else value,
                          "test": _threshold_test(feature, value, t, left, missing)})
            node = node["left"] if left else node["right"]
        nodes.append(path)
    text = " → ".join(s["test"] for s in steps) + f" → predict {node['prediction']}"
    return {"kind": "path", "steps": steps, "nodes": nodes, "prediction": python_scalar(node["prediction"]),
            "counts": node.get("counts"), "text": text}


def _missing_goes_left(node):
    """Where a tree's test sends a missing number: the side it learned ("missing", where its training rows
    had gaps), else the side that took more training rows (structure.py)."""
    if "missing" in node:
        return node["missing"] == "left"
    return node["left"]["samples"] > node["right"]["samples"]


def _threshold_test(feature, value, t, left, missing):
    """A numeric test in words, as the row meets it."""
    if t >= ALL_PRESENT:  # the test "is the value present?"
        return f"{feature} is missing" if missing else f"{feature} = {value} is present"
    if missing:
        return f"{feature} is missing: {'≤' if left else '>'} {t:.4g} or missing"
    return f"{feature} = {value} {'≤' if left else '>'} {t:.4g}"


def _linear_scores(est, X, values, run):
    """Score per class: bias + sum_j w_j f_j(x), each term listed (the binary score is w . f)."""
    f = numeric(est, X)[0]  # (d,) the row as the model reads it
    W = np.atleast_2d(est.coef_)  # (1 or K, d)
    b = np.atleast_1d(est.intercept_)  # (1 or K,)
    names = list(getattr(est, "feature_names_out_", None) or est.encoder_.output_names)
    scores = (W @ f + b).tolist()  # (1 or K,)
    classes = [python_scalar(c) for c in getattr(est, "classes_", [])]
    labels = classes if len(W) == len(classes) else ([f"score ({classes[1]} if ≥ 0)"] if classes else ["ŷ"])
    terms = [{"name": "bias", "value": 1.0, "weights": b.tolist()}] + [
        {"name": n, "value": float(v), "weights": W[:, j].tolist()} for j, (n, v) in enumerate(zip(names, f))]
    prediction = python_scalar(np.asarray(est.predict(X))[0])
    out = {"kind": "scores", "labels": labels, "scores": scores, "terms": terms, "prediction": prediction}
    if registry.of(est).can("probabilities") and classes:
        out["proba"] = est.predict_proba(X)[0].tolist()
    return out


# The learner's descriptor names its explain kind.
_KINDS = {"path": _tree_path, "neighbours": _neighbours, "naive_bayes": _naive_bayes, "scores": _linear_scores,
          "centres": _centres, "prediction": _prediction}
