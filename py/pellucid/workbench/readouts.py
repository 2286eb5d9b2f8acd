"""What the page shows of a fitted run: metrics per split, predictions, clusters, PCA, the dendrogram, and
a compact description of the model. Row references sent to the page are 1-based rows of the loaded table.
"""

import numpy as np

from ..evaluation import cluster_metrics, metrics
from ..evaluation.imbalance import balanced_accuracy_score
from ..tabular.features import numeric
from ..tabular.table import Table
from .grid import held_values, predict_grid
from ..host.progress import report

MAX_POINTS = 5000  # rows drawn in a scatter (sampled with a fixed seed beyond)
PREDICT_CHUNK = 4096  # rows predicted at a time (with a progress report) by models that store their rows
MAX_PAIRWISE = 5000  # rows above which O(n^2) measures (silhouette, Dunn) are skipped
DENDROGRAM_FULL = 2000  # leaves up to which the whole merge list is sent
DENDROGRAM_TAIL = 200  # merges sent beyond that (the last ones: the top of the tree)
LARGE_STATE = 1000  # fitted arrays with more values are left out of the compact model
STORED_ROWS = ("X_fit_", "y_fit_")  # a model's copy of its training rows, always left out
MAX_TREE_NODES = 1000  # tree nodes sent to the page (it draws 160 at first and unfolds more on a click)


def sample_rows(n, limit=MAX_POINTS, seed=0):
    """All row indices if n <= limit, else `limit` of them drawn without replacement (sorted)."""
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size=limit, replace=False))


def compact_model(estimator):
    """to_dict() without what the page does not draw from: the large fitted arrays (stored training rows,
    per-row labels; "omitted_state" names them), an ensemble's trees ("n_trees" counts them) and, in a tree
    of more than MAX_TREE_NODES nodes, the nodes beyond the first MAX_TREE_NODES breadth first
    (`bounded_tree`: the cut nodes say how many nodes are below them, and "tree_nodes_omitted" the total).
    `export_model` gives it all. A tree describes only those nodes in the first place (its to_dict's
    max_nodes); an ensemble is not described tree by tree at all (the Forest view asks for its trees)."""
    if isinstance(getattr(estimator, "estimators_", None), list):
        return {**estimator._header(), "n_trees": len(estimator.estimators_)}
    if hasattr(estimator, "tree_"):
        return compact_description(estimator.to_dict(max_nodes=MAX_TREE_NODES))
    return compact_description(estimator.to_dict(), hasattr(estimator, "X_fit_"))


def compact_description(d, stores_training_rows=False):
    """`compact_model` of a model's to_dict() output `d` (an imported file's, read once); `d` is not changed."""
    d = dict(d)
    state = d.get("state")
    if stores_training_rows:
        d["stores_training_rows"] = True
    if isinstance(state, dict):
        big = [k for k, v in state.items() if k in STORED_ROWS or _array_size(v) > LARGE_STATE]
        if big:
            d["state"] = {k: v for k, v in state.items() if k not in big}
            d["omitted_state"] = big
    if isinstance(d.get("tree"), dict) and d.get("n_nodes", 0) > MAX_TREE_NODES and "tree_nodes_omitted" not in d:
        d["tree"], d["tree_nodes_omitted"] = bounded_tree(d["tree"], MAX_TREE_NODES)
    if isinstance(d.get("trees"), list):  # an imported ensemble's trees: megabytes for a large forest
        d["n_trees"] = len(d.pop("trees"))
    return d


def _array_size(value):
    """How many values an encoded array holds (0 for anything else)."""
    if isinstance(value, dict) and ("__ndarray__" in value or "__packed__" in value):
        return int(np.prod(value.get("shape", [0])))
    return 0


def _children(node):
    if "branches" in node:
        return list(node["branches"].values())
    return [node[side] for side in ("left", "right") if side in node]


def _size(node):
    """Nodes in the subtree under `node`, itself included (iterative: a deep tree is no recursion limit)."""
    count, stack = 0, [node]
    while stack:
        count += 1
        stack.extend(_children(stack.pop()))
    return count


def bounded_tree(root, budget):
    """(copy of the nested tree with at most `budget` nodes, nodes left out). Breadth first, a node keeps
    its children while they fit, as the page's tree view unfolds them; a node whose children were cut
    keeps its own fields (its prediction, test, samples) and gains "omitted_nodes": the nodes below it."""
    top = dict(root)
    shown, omitted, queue = 1, 0, [top]
    for node in queue:  # the queue grows as children are kept
        kids = _children(node)
        if not kids:
            continue
        if shown + len(kids) > budget:
            below = sum(_size(kid) for kid in kids)
            for key in ("left", "right", "branches"):
                node.pop(key, None)
            node["omitted_nodes"] = below
            omitted += below
            continue
        shown += len(kids)
        if "branches" in node:
            node["branches"] = {value: dict(kid) for value, kid in node["branches"].items()}
            queue.extend(node["branches"].values())
        else:
            for side in ("left", "right"):
                node[side] = dict(node[side])
                queue.append(node[side])
    return top, omitted


# --- supervised ---------------------------------------------------------------------------------------

def class_labels(y, predicted):
    """The sorted labels seen in the target or the predictions (one label list for every split)."""
    return np.unique(np.concatenate([np.asarray(y), np.asarray(predicted)]))


def classifier_metrics(y, predicted, rows, labels):
    """classification_report_dict on the given rows, with confusion rows as 1-based table rows."""
    report = metrics.classification_report_dict(y[rows], predicted[rows], labels=labels)
    # the mean recall over classes: an imbalanced target's rare classes count as much as the common one
    report["balanced_accuracy"] = balanced_accuracy_score(y[rows], predicted[rows])
    table_rows = np.asarray(rows) + 1  # split position -> 1-based table row
    confusion = report["confusion"]
    confusion["rows"] = [[table_rows[np.asarray(cell, dtype=np.intp)] for cell in line] for line in confusion["rows"]]
    return report


def regressor_metrics(y, predicted, rows):
    return metrics.regression_report_dict(y[rows], predicted[rows])


def supervised_metrics(task, y, predicted, splits):
    """{split: report} for every split with rows."""
    labels = class_labels(y, predicted) if task == "classification" else None
    out = {}
    for name, rows in splits.items():
        if len(rows):
            out[name] = (classifier_metrics(y, predicted, rows, labels) if task == "classification"
                         else regressor_metrics(y, predicted, rows))
    return out


def predict_rows(run, X):
    """The model's prediction for every row of X. A learner whose prediction is the most probable class
    (k-NN's vote) gives its probabilities in the same pass; they are kept in run.probabilities, so the
    export writes them without searching every row's neighbours again. A model that compares each row
    with its stored training rows (k-NN, kernels) predicts in chunks, telling the page how far it got."""
    estimator = run.estimator
    with_proba = run.learner.predict_is_argmax_proba and run.learner.can("probabilities")
    predict = estimator.predict_proba if with_proba else estimator.predict
    n = X.n_rows if isinstance(X, Table) else len(X)
    if not hasattr(estimator, "X_fit_") or n <= PREDICT_CHUNK:
        out = predict(X)
    else:
        parts = []
        for start in range(0, n, PREDICT_CHUNK):
            rows = np.arange(start, min(start + PREDICT_CHUNK, n))
            parts.append(predict(X.take(rows) if isinstance(X, Table) else X[rows]))
            report(0.5 + 0.45 * rows[-1] / n, f"Predicting every row: {rows[-1] + 1:,} of {n:,}")
        out = np.concatenate(parts)
    if not with_proba:
        return out
    run.probabilities = out  # (n, C)
    return np.asarray(estimator.classes_)[np.argmax(out, axis=1)]


def predictions(run, y, predicted):
    """Per row, for drawing: {rows (1-based), split, predicted, actual}, as arrays: the page's worker sends
    them as typed arrays (wire.py), not as 50,000 numbers written out one by one."""
    return {"rows": np.arange(1, len(predicted) + 1), "split": run.split_of_rows(),
            "predicted": np.asarray(predicted), "actual": np.asarray(y)}


def fit_curve(run, resolution=200):
    """For a regressor with a numeric feature: predictions along the first numeric feature's range,
    the other features held at their training mean or mode (the fitted line or curve)."""
    table = run.table
    name = next((f for f in run.features if table.kinds[f] == "numeric"), None)
    if name is None:
        return None
    values = table.column(name)
    grid = np.linspace(np.nanmin(values), np.nanmax(values), resolution)  # (resolution,)
    held = held_values(run, exclude=[name])
    predicted = predict_grid(run.estimator, run.features, {name: grid}, held, table.kinds,
                             prepare=run.prepare)
    return {"feature": name, "x": grid.tolist(), "predicted": np.asarray(predicted, dtype=float).tolist(),
            "points_x": values.tolist(), "others": [f for f in run.features if f != name]}


# --- clustering -----------------------------------------------------------------------------------

def cluster_labels(estimator, X, train_rows):
    """A cluster for every table row: the fitted labels for training rows, predict for the others."""
    labels = np.empty(X.n_rows, dtype=np.intp)
    labels[train_rows] = estimator.labels_
    others = np.setdiff1d(np.arange(X.n_rows), train_rows)
    if len(others):
        labels[others] = estimator.predict(X.take(others))
    return labels


def cluster_readout(estimator, M, labels, warnings, split):
    """Inertia (k-means: to its centres; otherwise to the cluster means), silhouette and Dunn index of
    one split's rows; the O(n^2) ones are skipped (None) above MAX_PAIRWISE rows."""
    k = len(np.unique(labels))
    if hasattr(estimator, "cluster_centers_"):
        inertia = cluster_metrics.inertia(M, labels, estimator.cluster_centers_)
    else:
        inertia = cluster_metrics.inertia(M, labels)
    out = {"n": int(len(labels)), "n_clusters": int(k), "inertia": inertia, "silhouette": None, "dunn": None}
    if len(labels) > MAX_PAIRWISE:
        warnings.append(f"The silhouette and the Dunn index of the {split} rows were skipped: they compare "
                        f"every pair of rows, too slow for {len(labels)} rows (the limit is {MAX_PAIRWISE}).")
    elif 2 <= k <= len(labels) - 1:
        out["silhouette"] = cluster_metrics.silhouette_score(M, labels)
        out["dunn"] = cluster_metrics.dunn_index(M, labels)
    else:  # said, so an empty cell is not read as a missing computation
        warnings.append(f"The silhouette and the Dunn index of the {split} rows need at least two clusters "
                        f"among them and fewer clusters than rows; their {len(labels)} rows fall in {k}.")
    return out


def clusters(estimator, M, labels):
    """{labels (per table row), centres (encoded feature space), feature_names, sizes}."""
    k = int(labels.max()) + 1 if len(labels) else 0
    if hasattr(estimator, "cluster_centers_"):
        centres = estimator.cluster_centers_
    else:
        counts = np.maximum(np.bincount(labels, minlength=k), 1)  # (k,)
        centres = np.stack([np.bincount(labels, weights=M[:, j], minlength=k) for j in range(M.shape[1])],
                           axis=1) / counts[:, None]  # (k, d)
    return {"labels": labels.tolist(), "centres": np.asarray(centres).tolist(),
            "feature_names": list(estimator.feature_names_out_),
            "sizes": np.bincount(labels, minlength=k).tolist()}


def feature_means(run, labels):
    """{feature: [mean per cluster]} of each numeric feature in its own units, over the training rows: where
    the page draws a cluster's centre on a plane of two features. The model's own centres are in the space
    it reads (standardised, one-hot), which a plane of raw values cannot show; a k-means centre is the
    mean of its training rows there, so this is the same point in the features' units."""
    train = run.train_rows()
    k = int(labels.max()) + 1 if len(labels) else 0
    out = {}
    for f in run.features:
        if run.table.kinds.get(f) != "numeric":
            continue
        values, cluster = run.table.column(f)[train].astype(float), labels[train]
        known = ~np.isnan(values)  # a missing value moves no centre
        sums = np.bincount(cluster[known], weights=values[known], minlength=k)  # (k,)
        counts = np.bincount(cluster[known], minlength=k)
        out[f] = [float(s / c) if c else None for s, c in zip(sums, counts)]
    return out


def dendrogram(estimator):
    """The merge list {a, b, distance, size}; for more than DENDROGRAM_FULL rows only the last
    DENDROGRAM_TAIL merges (ids below n are rows, n + j the cluster of merge j, as in `children_`), with
    "first_row": the first training row of each earlier cluster the tail joins ({id: row}), so the page
    numbers a cut's clusters by their first row, as `labels_` numbers the model's (the same colours)."""
    merges = estimator.merges_
    n = int(estimator.n_leaves_)
    truncated = n > DENDROGRAM_FULL
    first = max(0, len(merges) - DENDROGRAM_TAIL) if truncated else 0
    out = {"merges": merges[first:], "n_leaves": n, "first_merge": first, "truncated": truncated}
    if truncated:
        first_row = np.arange(2 * n - 1)  # (2n-1,) a row is its own first row
        for j, (a, b) in enumerate(estimator.children_[:first]):
            first_row[n + j] = min(first_row[a], first_row[b])
        collapsed = {c for m in merges[first:] for c in (m["a"], m["b"]) if n <= c < n + first}
        out["first_row"] = {str(c): int(first_row[c]) for c in sorted(collapsed)}
    return out


# --- PCA ------------------------------------------------------------------------------------------

def pca_readout(estimator, X, table, target):
    """Ratios, cumulative ratios, components, and the rows (up to MAX_POINTS) projected on PC1, PC2
    (PC2 = 0 when only one component is kept), with their target values for colouring."""
    ratios = np.asarray(estimator.explained_variance_ratio_)
    rows = sample_rows(X.n_rows)
    Z = estimator.transform(X.take(rows))  # (m, K)
    if Z.shape[1] == 1:
        Z = np.column_stack([Z[:, 0], np.zeros(len(Z))])  # (m, 2)
    out = {"ratios": ratios.tolist(), "cumulative": np.cumsum(ratios).tolist(),
           "components": np.asarray(estimator.components_).tolist(),
           "feature_names": list(estimator.feature_names_out_),
           "projection": Z[:, :2].tolist(), "rows": (rows + 1).tolist(), "target_values": None}
    if target is not None:
        out["target_values"] = table.column(target)[rows].tolist()
    return out


def pca_metrics(estimator, X, splits):
    """Per split: the share of its variance the kept components explain."""
    return {name: {"n": int(len(rows)), "explained_variance_ratio": np.asarray(
                estimator.explained_variance_ratio_).tolist(), "variance_kept": estimator.score(X.take(rows))}
            for name, rows in splits.items() if len(rows)}


def encoded(estimator, X):
    """X encoded as the model reads it (for distances between rows)."""
    return numeric(estimator, X)
