"""Grow the tree yourself: the student picks the attribute at each node of the notes' tree (notes 000,
DECISION-TREE-LEARNING), and sees every candidate's gain and the one ID3 would have picked; once no node
is open, the student's tree and ID3's are scored on the run's held-out rows.

`grow_yourself(run, choices)` takes a kept run of the decision tree classifier (its table, target,
features and training/test rows; the run's own parameters play no part) and the student's choices so far,
{node path: attribute}, paths named as the traced tree names them ("root", "root/Pat=Full",
"root/Pat=Full/Hun=Yes"). It grows the tree in the pseudocode's order (depth first, branches in the
order of the values) on the training rows, with the notes' stops: no rows (PLURALITY-VALUE of the
parent's examples), all rows of one class, no attribute left; and the tree's own (min_gain = 0): a node
where no attribute gains anything is a leaf, as DecisionTreeClassifier makes it. Every other node either
has the student's choice, and is split multiway on it, or is open. Gains come from the readable grower
(growth.Learner.importance_of_each, the code the steps view's tree runs), ID3's pick is its argmax (the
earlier column on ties, as the tree breaks them), so choosing ID3's attribute everywhere grows exactly
DecisionTreeClassifier(criterion="entropy", categorical_split="multiway")'s tree.

Numeric features are refused: the notes' ID3 takes categorical attributes, and the tree's test on a
number (x <= t at its best threshold) can be asked again below, so the student would choose a threshold
test at node after node with no end in sight; a numeric column can be read as categorical on the page
when its values are few. Tables are small (MAX_ROWS rows, MAX_FEATURES features), as a tree grown by
hand is.
"""

import numpy as np

from ..core.errors import DataError
from ..core.jsonable import python_scalar
from ..core.settings import CATEGORICAL
from ..core.validation import check_target
from ..learners.tree.classifier import plurality_value
from ..learners.tree.criteria import Classes
from ..learners.tree.growth import Learner, Node, value_stats
from .runs import make_estimator

MAX_ROWS = 500  # rows of the table a tree is grown on by hand
MAX_FEATURES = 12
MAX_DIFFERENCES = 50  # rows listed where the two trees predict differently (all are counted)
ID3 = {"criterion": "entropy", "categorical_split": "multiway"}  # the notes' tree: gain, one branch per value


def grow_yourself(run, choices=None, finish=False):
    """The tree grown so far with the student's `choices` ({path: attribute}, or a list of {node,
    attribute}): {tree (nested, the page's tree format), nodes (every node in the pseudocode's order),
    current (the first open node's path, or None), done, and once done the comparison with ID3}.
    `finish`: ID3 chooses at every node the student left open (its nodes say "by": "id3")."""
    data = _Data(run)
    chosen = _choices(choices)
    walk = _Walk(data, chosen, bool(finish))
    tree = walk.grow(data.train, list(range(len(data.features))), "root", None, ())
    for path in chosen:
        if path not in walk.seen:
            raise DataError(f"There is no node {path!r} in the tree grown so far: choose at an open node.")
    open_paths = [node["path"] for node in walk.nodes if node["kind"] == "open"]
    reply = {"target": data.target, "features": data.features, "classes": data.labels,
             "n_train": int(len(data.train)), "tree": tree, "nodes": walk.nodes, "open": open_paths,
             "current": open_paths[0] if open_paths else None, "done": not open_paths}
    if not open_paths:
        reply["comparison"] = compare(data, tree, walk.nodes)
    return reply


class _Data:
    """The run's rows as ID3 reads them: the training rows' encoded attributes and class codes, ID3's own
    tree fitted on them (which also encodes the held-out rows), and the held-out rows."""

    def __init__(self, run):
        if run.table is None:
            raise DataError("This model was imported without its data, so there is no table to grow a tree on.")
        if run.learner.steps != "tree" or run.task != "classification":  # the notes' tree, classifying
            raise DataError(f"Growing a tree yourself starts from a decision tree classifier's run; "
                            f"this one is {run.label}: train a decision tree first.", field="model")
        if run.table.n_rows > MAX_ROWS:
            raise DataError(f"Growing a tree yourself takes a small table, at most {MAX_ROWS} rows; this one has "
                            f"{run.table.n_rows}.")
        if len(run.features) > MAX_FEATURES:
            raise DataError(f"Growing a tree yourself takes at most {MAX_FEATURES} features; "
                            f"{len(run.features)} are chosen.", field="features")
        self.run, self.target, self.features = run, run.target, list(run.features)
        train = run.train_rows()
        X, y = self.rows(train)
        self.id3 = make_estimator(run.model, ID3).fit(X, y)
        numeric = [name for name, kind in zip(self.id3.feature_names_in_, self.id3.feature_kinds_)
                   if kind != CATEGORICAL]
        if numeric:
            raise DataError(f"Growing a tree yourself takes categorical features, as the notes' ID3 does: "
                            f"{numeric[0]!r} is numeric. Leave it out, or read it as categorical.",
                            field=f"feature:{numeric[0]}")
        self.train = np.arange(len(train))  # positions among the training rows
        self.train_table_rows = train
        self.X = self.id3._encode(X)  # (n, d) value codes, categories sorted as the tree sorts them
        self.classes = self.id3.classes_
        self.labels = [str(python_scalar(c)) for c in self.classes]
        self.codes = np.searchsorted(self.classes, y)
        self.categories = self.id3.categories_
        self.learner = Learner(self.X, [True] * len(self.features), [len(c) for c in self.categories],
                               Classes(self.codes, len(self.classes), "entropy"), max_depth=None,
                               min_samples_split=2, min_gain=0.0)

    def rows(self, rows):
        """(X as the run's tree read it, y) of these table rows."""
        X = self.run.model_input(rows)
        y = check_target(self.run.table.column(self.target)[rows], len(rows), task="classification")
        return X, y

    def counts(self, stats):
        return {label: int(n) for label, n in zip(self.labels, stats)}


def _choices(choices):
    """{path: attribute} from a dict or a list of {node, attribute}; a DataError for anything else."""
    if choices is None:
        return {}
    if isinstance(choices, dict):
        items = list(choices.items())
    elif isinstance(choices, list) and all(isinstance(c, dict) and set(c) == {"node", "attribute"} for c in choices):
        items = [(c["node"], c["attribute"]) for c in choices]
        paths = [path for path, _ in items]
        if len(set(paths)) != len(paths):
            twice = next(p for p in paths if paths.count(p) > 1)
            raise DataError(f"The node {twice!r} is chosen twice: one attribute per node.")
    else:
        raise DataError("choices must be {node path: attribute} or a list of {node, attribute}.")
    for path, attribute in items:
        if not isinstance(path, str) or not isinstance(attribute, str):
            raise DataError(f"A choice names a node path and an attribute, as text; got {path!r}: {attribute!r}.")
    return dict(items)


class _Walk:
    """DECISION-TREE-LEARNING with the student in ID3's place: `grow` returns the nested tree and records
    every node (in `nodes`, depth first) and every path it reached (in `seen`)."""

    def __init__(self, data, chosen, finish=False):
        self.data, self.chosen, self.finish = data, chosen, finish
        self.nodes, self.seen = [], set()

    def grow(self, rows, attributes, path, parent_stats, used):
        data, learner = self.data, self.data.learner
        self.seen.add(path)
        node = Node(learner.stats(rows), len(used), None, 0)
        record = {"path": path, "depth": len(used), "samples": int(len(rows)), "counts": data.counts(node.stats),
                  "entropy": float(learner.target.impurity(node.stats))}
        shown = {"samples": int(len(rows)), "counts": record["counts"], "path": path,
                 "prediction": self.label(parent_stats if len(rows) == 0 else node.stats)}
        reason = learner.stop_reason(node, rows, attributes)
        gains = None
        if reason is None:
            gains = learner.importance_of_each(rows, attributes, node.stats)[0][:, 0]
            best = np.nanmax(gains)
            if not best > learner.min_gain + learner.target.tol:
                reason = "no gain"
        if reason is not None:
            self._refuse(path, f"is a leaf ({reason}): there is nothing to choose there")
            self.nodes.append({**record, "kind": "leaf", "reason": reason, "prediction": shown["prediction"]})
            return {**shown, "reason": reason}
        id3 = int(np.argmax(gains >= best - learner.target.tol))  # A <- argmax IMPORTANCE, the earliest on ties
        record.update(kind="open", candidates=self.candidates(rows, attributes, gains),
                      id3=data.features[id3], chosen=None, matches_id3=None)
        self.nodes.append(record)
        if path not in self.chosen and not self.finish:
            return {**shown, "prediction": "?", "open": True}
        a = self.attribute(path, used) if path in self.chosen else id3
        record.update(kind="split", chosen=data.features[a], matches_id3=a == id3, gain=float(gains[a]),
                      by="student" if path in self.chosen else "id3")
        values = data.X[rows, a]
        branches = {}
        for v, value in enumerate(data.categories[a]):
            branches[str(value)] = self.grow(rows[values == v], [b for b in attributes if b != a],
                                             f"{path}/{data.features[a]}={value}", node.stats, (*used, a))
        return {**shown, "feature": data.features[a], "gain": float(gains[a]), "branches": branches}

    def attribute(self, path, used):
        """The column the student chose at `path`, or a DataError naming what is wrong with it."""
        name = self.chosen[path]
        if name not in self.data.features:
            raise DataError(f"{name!r} is not one of the features ({', '.join(self.data.features)}).")
        a = self.data.features.index(name)
        if a in used:
            raise DataError(f"{name!r} is already tested on the way to {path!r}: ID3 tests an attribute once on "
                            "a path, so choose another one there.")
        return a

    def candidates(self, rows, attributes, gains):
        """Every attribute open at the node: its gain and its branches' class counts (value -> counts)."""
        data = self.data
        out = []
        for a in attributes:
            per_value = value_stats(data.learner.target, data.X[rows, a].astype(np.intp), rows, len(data.categories[a]))
            out.append({"attribute": data.features[a], "gain": float(gains[a]),
                        "branches": {str(v): data.counts(s) for v, s in zip(data.categories[a], per_value)}})
        return out

    def label(self, stats):
        """PLURALITY-VALUE of a node with these class counts (ties to the smallest label, as the tree)."""
        return self.data.labels[int(plurality_value(stats))]

    def _refuse(self, path, why):
        if path in self.chosen:
            raise DataError(f"The node {path!r} {why}.")


def predict(tree, data, X):
    """The student's finished tree on encoded rows X: each row follows its values down to a leaf; a value
    the training rows never had at a test stops it there, with that node's plurality (as the tree does)."""
    out = []
    names = data.features
    for x in X:
        node = tree
        while "branches" in node:
            code = int(x[names.index(node["feature"])])
            if code < 0:
                break
            node = list(node["branches"].values())[code]
        out.append(node["prediction"])
    return np.array(out, dtype=object)


def compare(data, tree, nodes):
    """The student's tree and ID3's on the run's test rows (or, without any, its training rows): each
    one's accuracy, and the rows where they predict differently."""
    test = np.asarray(data.run.splits.get("test", []), dtype=np.intp)
    held_out = len(test) > 0
    rows = test if held_out else data.train_table_rows
    X, y = data.rows(rows)
    actual = np.array([str(python_scalar(v)) for v in y], dtype=object)
    student = predict(tree, data, data.id3._encode(X))
    id3 = np.array([str(python_scalar(v)) for v in data.id3.predict(X)], dtype=object)
    differ = np.flatnonzero(student != id3)
    decided = [node for node in nodes if node["kind"] == "split" and node["by"] == "student"]
    return {"rows": "test" if held_out else "training", "n": int(len(rows)),
            "note": None if held_out else "This run kept no test rows, so both trees are scored on the training "
                                          "rows they were grown on: split the data to judge them on unseen rows.",
            "student": _score(student, actual), "id3": _score(id3, actual),
            "same_tree": all(node["matches_id3"] for node in nodes if node["kind"] == "split"),
            "by_id3": sum(node["kind"] == "split" and node["by"] == "id3" for node in nodes),
            "agreed": sum(node["matches_id3"] for node in decided), "decided": len(decided),
            "n_differ": int(len(differ)),
            "differences": [{"row": int(rows[i]) + 1, "actual": actual[i], "student": student[i], "id3": id3[i]}
                            for i in differ[:MAX_DIFFERENCES]],
            "id3_tree": data.id3.to_dict()["tree"]}


def _score(predicted, actual):
    correct = int(np.sum(predicted == actual))
    return {"correct": correct, "accuracy": correct / len(actual) if len(actual) else None}
