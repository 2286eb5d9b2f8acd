"""The steps of a random forest or bagged trees, as frames: how the first tree's bootstrap sample was drawn
(which rows twice or more, which out of bag), which features its root was offered and what each gained,
then one row's answer: each tree's vote, and the forest's average of them.

Every number is read from the refitted model: the sample from its trace, the gains from the first tree's
own record of its root, the votes from each tree's answer for the row.
"""

import math

import numpy as np

from ..core.errors import DataError
from ..core.jsonable import python_scalar
from ..core.descriptor import Task
from ..learners.tree.feature_draw import n_offered
from .formula_text import name_tex, name_text
from .frames import num
from .tree_steps import importance_label

MOST_ROWS_LISTED = 12  # rows drawn several times, listed by number in the sample's frame


def ensemble(est, X, y, rows, run, row):
    """{family: "ensemble", frames, ...} for a fitted forest or bagging `est` refitted with trace=True on the
    training rows `rows`; `row` (1-based table row, default the first training row) is the row voted on."""
    row = int(rows[0]) + 1 if row is None else int(row)
    if not 1 <= row <= run.table.n_rows:
        raise DataError(f"Row {row} is not in the table (rows 1 to {run.table.n_rows}).", field="row")
    classes = [python_scalar(c) for c in est.classes_] if est.task == Task.CLASSIFICATION else None
    answers = est._answers(est._encode(run.model_input(np.array([row - 1]))))[:, 0]  # (T,) or (T, k)
    frames = [_sample_frame(est.trace_[0]["sample_counts"], rows, est.bootstrap),
              _root_frame(est, len(est.feature_names_in_)),
              _votes_frame(answers, classes, row), _together_frame(answers, classes, row)]
    label = importance_label(est.criterion) if classes is not None else "variance reduction"
    return {"family": "ensemble", "frames": frames, "classes": classes, "row": row,
            "n_trees": len(est.estimators_), "importance_label": label}


def _sample_frame(counts, rows, bootstrap):
    """Tree 1's bootstrap sample: how many rows it drew 0, 1, 2, ... times, the rows it drew most, and the
    out-of-bag share beside its expectation (1 - 1/n)^n."""
    counts = np.asarray(counts)
    n = len(counts)
    times = np.bincount(counts)
    repeated = np.flatnonzero(counts > 1)
    repeated = repeated[np.argsort(-counts[repeated], kind="stable")][:MOST_ROWS_LISTED]
    out_of_bag = int((counts == 0).sum())
    expected = (1 - 1 / n) ** n
    frame = {"kind": "sample", "tree": 1, "n": n, "bootstrap": bool(bootstrap),
             "times": [{"times": t, "rows": int(c)} for t, c in enumerate(times) if c],
             "repeated": [{"row": int(rows[i]) + 1, "times": int(counts[i])} for i in repeated],
             "out_of_bag": out_of_bag, "expected_out_of_bag": expected}
    if not bootstrap:
        frame["math"] = [{"tex": r"\text{no bootstrap: every tree grows on all } " + f"{n}" + r"\text{ rows}",
                          "text": f"no bootstrap: every tree grows on all {n} rows"}]
        return frame
    frame["math"] = [{"tex": rf"P(\text{{out of bag}}) = (1 - \tfrac{{1}}{{n}})^n = "
                             rf"(1 - \tfrac{{1}}{{{n}}})^{{{n}}} = {num(expected, 4)} \approx e^{{-1}} = "
                             rf"{num(math.exp(-1), 4)}",
                      "text": f"P(out of bag) = (1 - 1/n)^n = (1 - 1/{n})^{n} = {num(expected, 4)} ≈ "
                              f"e^-1 = {num(math.exp(-1), 4)}"},
                     {"tex": rf"\text{{tree 1 left }} {out_of_bag} / {n} = {num(out_of_bag / n, 4)}"
                             r"\text{ of the rows out of bag}",
                      "text": f"tree 1 left {out_of_bag} / {n} = {num(out_of_bag / n, 4)} of the rows out of bag"}]
    return frame


def _root_frame(est, d):
    """The features tree 1's root was offered (max_features of the d), each with its gain, and its test."""
    tree = est.estimators_[0]
    names = list(tree.feature_names_in_)
    gains = tree.tree_.candidates[0]  # (d,) NaN where the root was not offered the feature
    offered = [{"feature": names[j], "gain": float(gains[j])} for j in np.flatnonzero(~np.isnan(gains))]
    chosen = int(tree.tree_.feature[0])
    k = n_offered(getattr(est, "max_features", None), d)
    rule = "every feature" if k is None else f"max_features = {est.max_features!r}: {k} of {d}"
    frame = {"kind": "root", "tree": 1, "offered": offered, "n_features": d, "n_offered": len(offered),
             "chosen": names[chosen] if chosen >= 0 else None, "rule": rule}
    said = f"{len(offered)} of {d} features, drawn at random" if k is not None else f"all {d} features"
    if chosen < 0:
        text = ", and stays a leaf: no offered feature gains"
        tex = r"\text{" + text + "}"
    else:
        tex, text = r"\text{; it tests }" + name_tex(names[chosen]), f"; it tests {name_text(names[chosen])}"
    frame["math"] = [{"tex": rf"\text{{tree 1's root is offered {said}}}" + tex,
                      "text": f"tree 1's root is offered {said}" + text}]
    return frame


def _votes_frame(answers, classes, row):
    """Each tree's answer for the row: its class (and that class's probability in the tree), or its value."""
    if classes is None:
        votes = [{"tree": t + 1, "value": float(v)} for t, v in enumerate(answers)]
    else:
        best = np.argmax(answers, axis=1)
        votes = [{"tree": t + 1, "class": classes[b], "p": float(answers[t, b])} for t, b in enumerate(best)]
    what = "votes for a class" if classes is not None else "predicts a value"
    return {"kind": "votes", "row": row, "votes": votes,
            "math": [{"tex": rf"\text{{each of the {len(answers)} trees {what} for row {row}}}",
                      "text": f"each of the {len(answers)} trees {what} for row {row}"}]}


def _together_frame(answers, classes, row):
    """The forest's answer: the mean of the trees' probabilities (its prediction the class of the highest),
    beside the count of the trees' votes; for regression the mean of their values."""
    T = len(answers)
    if classes is None:
        mean = float(np.mean(answers))
        return {"kind": "together", "row": row, "prediction": mean,
                "math": [{"tex": rf"\hat y = \frac{{1}}{{T}} \sum_{{t=1}}^{{T}} h_t(\mathbf{{x}}) = "
                                 rf"\frac{{{num(float(np.sum(answers)), 4)}}}{{{T}}} = {num(mean, 4)}",
                          "text": f"ŷ = (1/T) Σ h_t(x) = {num(float(np.sum(answers)), 4)} / {T} = {num(mean, 4)}"}]}
    mean = answers.mean(axis=0)  # (k,)
    votes = np.bincount(np.argmax(answers, axis=1), minlength=len(classes))
    winner = int(np.argmax(mean))
    per_class = [{"class": c, "votes": int(v), "mean_p": float(p)} for c, v, p in zip(classes, votes, mean)]
    return {"kind": "together", "row": row, "per_class": per_class, "prediction": classes[winner],
            "majority": classes[int(np.argmax(votes))],
            "math": [{"tex": r"\hat p(c \mid \mathbf{x}) = \frac{1}{T} \sum_{t=1}^{T} p_t(c \mid \mathbf{x})"
                             rf" = {num(float(mean[winner]), 4)} \text{{ for }}" + name_tex(classes[winner]) +
                             r"\text{, the highest}",
                      "text": f"p̂(c | x) = (1/T) Σ p_t(c | x) = {num(float(mean[winner]), 4)} for {classes[winner]}, "
                              "the highest"}]}
