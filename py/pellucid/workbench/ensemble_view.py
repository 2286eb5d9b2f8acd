"""What the page draws of an ensemble of trees: the forest as small multiples with each tree's vote for a
chosen row, one tree whole on demand, and the staged score (the score after each number of trees).

Every number comes from the fitted model: each tree's vote is that tree's own predict (and predict_proba)
on the row, the total is the ensemble's predict_proba and predict on it, and the staged scores are the
model's staged_predict on the run's rows, scored as the run's metrics score them. A forest predicts by
averaging its trees' probabilities (the soft vote), so the reply gives both the share of trees voting each
class (the majority vote) and that average; for trees grown until their leaves are pure the two agree.

The reply stays small for any forest: the small multiples are the first MAX_SHOWN trees, each as a
preorder list of its nodes down to THUMB_DEPTH (its shape and each node's prediction, nothing else); one
tree whole is its own command (`tree`); a row's votes are one number per tree.
"""

import numpy as np

from ..core.errors import DataError
from ..core.jsonable import python_scalar
from ..core.scores import accuracy_score
from .explain import explain_row
from .judging import held_out
from .readouts import MAX_TREE_NODES, compact_model

MAX_SHOWN = 24  # trees drawn as small multiples; the others are counted
THUMB_DEPTH = 8  # a small multiple's levels: deeper nodes are narrower than a pixel there
CONTESTED_ROWS = 500  # held-out rows searched for the one the trees disagree on most
STAGED_CELLS = 4_000_000  # stages x rows x outputs staged_predict may hold at once (rows go in chunks)


# --- the forest: its trees' shapes ---------------------------------------------------------------------

def _check_forest(run):
    if not run.learner.can("forest") or not getattr(run.estimator, "estimators_", None):
        raise DataError(f"{run.label} is not an ensemble of trees, so it has no forest to draw.")


def _classes(run):
    return np.asarray(run.estimator.classes_) if run.task == "classification" else None


def node_values(tree, classes):
    """(N,) each node's prediction: its class's index in the ensemble's `classes`, or its value."""
    predicted = tree.predict_at(np.arange(tree.tree_.node_count))
    if classes is None:
        return np.asarray(predicted, dtype=float)
    index = {python_scalar(c): i for i, c in enumerate(classes)}
    return np.array([index[python_scalar(c)] for c in predicted], dtype=np.intp)


def shape(tree, classes, max_depth=THUMB_DEPTH):
    """A small multiple of `tree`: {"kids", "value"}, its nodes in preorder down to `max_depth`; kids[i]
    is node i's number of children (0: a leaf; -1: a subtree cut at max_depth, drawn as a leaf with its
    own prediction), value[i] its class index or value. Its depth, nodes and leaves are told beside."""
    structure = tree.tree_
    values = node_values(tree, classes)
    kids, value, stack = [], [], [0]
    while stack:
        node = stack.pop()
        inner = structure.feature[node] >= 0
        if inner and structure.depth[node] >= max_depth:
            kids.append(-1)
        else:
            kids.append(int(structure.n_children[node]) if inner else 0)
            if inner:
                stack.extend(reversed(structure.children(node)))
        value.append(python_scalar(values[node]))
    return {"kids": kids, "value": value, "depth": tree.get_depth(), "nodes": int(structure.node_count),
            "leaves": tree.get_n_leaves()}


def forest(run, row=None, shown=MAX_SHOWN):
    """The Forest reply (docs/bridge.md): the ensemble's tree count, the first `shown` trees' shapes, the
    colour scale of a regressor's leaves, and the votes for `row` (1-based; None: `default_row`)."""
    _check_forest(run)
    estimator, classes = run.estimator, _classes(run)
    trees = estimator.estimators_
    shapes = [shape(tree, classes) for tree in trees[:shown]]
    out = {"n_trees": len(trees), "shown": len(shapes), "thumb_depth": THUMB_DEPTH, "task": run.task,
           "classes": None if classes is None else [python_scalar(c) for c in classes], "trees": shapes,
           "value_range": None, "oob_score": _oob(estimator), "n_rows": None, "votes": None}
    if classes is None:
        leaves = [v for s in shapes for v, k in zip(s["value"], s["kids"]) if k <= 0]
        out["value_range"] = [float(min(leaves)), float(max(leaves))]
    if run.table is not None:
        out["n_rows"] = int(run.table.n_rows)
        out["votes"] = votes(run, default_row(run) if row is None else row)
    return out


def default_row(run, limit=CONTESTED_ROWS):
    """The row a forest view opens on: among the first `limit` held-out rows (ones the trees never saw;
    the training rows when none were held out), the one the trees disagree on most, which shows what a
    vote is: a classifier's row whose most voted class has the fewest trees, a regressor's whose trees'
    values spread the most (the first such row on a tie)."""
    rows, _ = held_out(run)
    rows = np.sort(rows)[:limit]
    if not len(rows):
        return 1
    X = run.model_input(rows)
    answers = np.array([tree.predict(X) for tree in run.estimator.estimators_])  # (T, m)
    if run.task == "classification":
        agreement = np.array([np.unique(column, return_counts=True)[1].max() for column in answers.T])  # (m,)
    else:
        agreement = -np.std(answers.astype(float), axis=0)
    return int(rows[int(np.argmin(agreement))]) + 1


# --- one row's votes ----------------------------------------------------------------------------------

def _row_input(run, row):
    if run.table is None:
        raise DataError("This model was imported without its data, so there is no row to vote on.")
    if isinstance(row, bool) or not isinstance(row, (int, float)) or row != int(row) \
            or not 1 <= row <= run.table.n_rows:
        raise DataError(f"row must be a row number from 1 to {run.table.n_rows:,}; got {row!r}.")
    return run.model_input(np.array([int(row) - 1]))


def votes(run, row):
    """How each tree answers 1-based table `row` and what the ensemble makes of it. A classifier:
    "tree_votes" (T,) each tree's class index (its own predict), "tree_proba" (shown, k) the shown trees'
    probabilities, "counts" (k,) the trees voting each class, "vote_share" counts / T, "majority" the class
    most trees vote for (the first in classes on a tie), "mean_proba" (k,) the ensemble's predict_proba
    (the mean of its trees'), "predicted" its predict. A regressor: "tree_values" (T,), "predicted"
    (their mean, the ensemble's predict)."""
    _check_forest(run)
    X = _row_input(run, row)
    estimator, classes = run.estimator, _classes(run)
    trees = estimator.estimators_
    out = {"row": int(row), "n_trees": len(trees), "predicted": python_scalar(estimator.predict(X)[0])}
    if run.target is not None:
        out["actual"] = python_scalar(run.table.column(run.target)[int(row) - 1])
    if classes is None:
        out["tree_values"] = [float(tree.predict(X)[0]) for tree in trees]
        return out
    index = {python_scalar(c): i for i, c in enumerate(classes)}
    tree_votes = np.array([index[python_scalar(tree.predict(X)[0])] for tree in trees], dtype=np.intp)  # (T,)
    counts = np.bincount(tree_votes, minlength=len(classes))  # (k,)
    out.update({"tree_votes": tree_votes.tolist(),
                "tree_proba": [_proba_in(tree, X, classes).tolist() for tree in trees[:MAX_SHOWN]],
                "counts": counts.tolist(), "vote_share": (counts / len(trees)).tolist(),
                "majority": python_scalar(classes[int(np.argmax(counts))]),
                "mean_proba": np.asarray(estimator.predict_proba(X)[0], dtype=float).tolist()})
    return out


def _proba_in(tree, X, classes):
    """(k,) a tree's probabilities for the one row of X, in the ensemble's class order."""
    proba = np.zeros(len(classes))
    where = np.searchsorted(classes, np.asarray(tree.classes_))
    proba[where] = tree.predict_proba(X)[0]
    return proba


def tree(run, index, row=None):
    """Tree `index` (0-based) of the ensemble as the Tree view draws one (readouts.compact_model: its
    first MAX_TREE_NODES nodes breadth first), with its index and the ensemble's tree count; with a
    1-based table `row`, "path": the tests that row passes in this tree to its vote (explain_row's path)."""
    _check_forest(run)
    trees = run.estimator.estimators_
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(trees):
        raise DataError(f"index must be a tree number from 0 to {len(trees) - 1}; got {index!r}.")
    model = compact_model(trees[index])
    out = {"index": index, "n_trees": len(trees), "tree": model["tree"],
           "classes": model.get("classes"), "tree_nodes_omitted": model.get("tree_nodes_omitted", 0),
           "depth": trees[index].get_depth(), "leaves": trees[index].get_n_leaves(),
           "max_nodes": MAX_TREE_NODES, "path": None}
    if row is not None:
        _row_input(run, row)  # the row's number checked as the votes check it
        path = explain_row(run, row, estimator=trees[index])
        out["path"] = {"row": int(row), "text": path["text"], "prediction": path["prediction"]}
    return out


def _oob(estimator):
    score = getattr(estimator, "oob_score_", None)
    return None if score is None or not np.isfinite(score) else float(score)


# --- the staged score -------------------------------------------------------------------------------

def staged(run):
    """The Staged reply (docs/bridge.md): the score (accuracy, or R^2) of the model after each stage (each
    tree of a forest) on each split of the run's rows, from its staged_predict; the split that judges it
    ("test", else "validation"; None when no rows were held out); the out-of-bag score when there is one."""
    if not run.learner.can("staged") or not hasattr(run.estimator, "staged_predict"):
        raise DataError(f"{run.label} does not predict stage by stage, so it has no staged score.")
    if run.table is None:
        raise DataError("This model was imported without its data, so there are no rows to score it on.")
    y = np.asarray(run.table.column(run.target))
    scores = {}
    for name in ("train", "validation", "test"):
        rows = np.asarray(run.splits.get(name, []), dtype=np.intp)
        if len(rows):
            scores[name] = staged_scores(run, rows, y[rows]).tolist()
    which = next((name for name in ("test", "validation") if name in scores), None)
    method = (run.setup.get("evaluation") or {}).get("method", "none")
    return {"n_stages": len(scores["train"]), "scoring": "accuracy" if run.task == "classification" else "r2",
            "scores": scores, "held_out": which, "method": method, "oob_score": _oob(run.estimator),
            "oob": bool(getattr(run.estimator, "oob_score", False))}


def staged_scores(run, rows, y):
    """(stages,) the score after each stage on table `rows` whose targets are `y`: accuracy is the right
    answers over the rows, R^2 one less the squared error over the target's squared spread, each summed
    over chunks of rows, so a large table never holds every stage's predictions for every row at once."""
    classification = run.task == "classification"
    outputs = len(run.estimator.classes_) if classification else 1
    chunk = max(1, STAGED_CELLS // (_stages(run.estimator) * outputs))
    total = None
    for start in range(0, len(rows), chunk):
        part, truth = rows[start:start + chunk], y[start:start + chunk]
        stages = run.estimator.staged_predict(run.model_input(part))
        if classification:
            found = np.array([accuracy_score(truth, p, normalize=False) for p in stages], dtype=float)
        else:
            found = np.array([np.sum((truth.astype(float) - p) ** 2) for p in stages])
        total = found if total is None else total + found
    if classification:
        return total / len(rows)
    spread = float(np.sum((y.astype(float) - np.mean(y.astype(float))) ** 2))
    return 1.0 - total / spread if spread > 0 else np.where(total == 0, 1.0, 0.0)


def _stages(estimator):
    """How many stages staged_predict yields: a forest's trees, a boosting's estimators."""
    return max(1, len(getattr(estimator, "estimators_", ())) or int(getattr(estimator, "n_estimators", 1)))
