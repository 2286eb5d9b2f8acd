"""k-nearest neighbours: predict from the k training rows closest to each query.

Notes 004 "K-Nearest Neighbor Methods": "to classify a new input vector x, examine the k-closest training
data points to x and assign the object to the most frequently occurring class"; there is no training
beyond storing the data, and the decision boundaries are a subset of the Voronoi diagram of the
training points (k = 1 gives exactly the Voronoi cells).

How the search works. Exactly, and deterministically: equidistant neighbours come in training-row
order, and when several rows tie for the k-th place the earlier ones win. `k_nearest` below is that
definition (explain() uses it); predictions search with neighbors_fast.py, which finds the same rows:
from 1,024 training rows on (and k at most 1/16 of them) a KD-tree compares each query only with the
rows near it (kd_tree.py); otherwise, or when the tree's boxes cannot prune (many features), queries
go in blocks against every training row (about 2 MB of scores each, never above 16 MB, so memory
stays bounded and each block stays in cache). Both measure with distance_scores.exact and give the same
answer to the last bit. Fit only stores the rows, as scikit-learn's brute search does; the first query
builds what the search needs (the score arrays, and the tree unless a trial tree shows that its boxes
would not prune) and the model keeps it.

Votes. The classifier predicts the class with the largest (weighted) vote; a tied vote goes to the
smallest label (the first in `classes_`), as scikit-learn does. With weights="distance" each
neighbour votes 1/distance; if some neighbours are at distance 0, they alone vote, with weight 1.
"""

import numpy as np

from ...core.base import ClassifierMixin, Estimator, RegressorMixin
from ...core.errors import DataError
from ...core.jsonable import python_scalar
from ...core.file_fields import Array, Labels, damaged
from ...tabular.features import NUMERIC_STATE, fit_numeric, numeric, one_row
from . import distance_scores
from ..shared.distances import square_safe_scale
from .neighbors_fast import nearest_neighbors, prepare
from ...core.params import Choice, Flag, Integer
from ...core.validation import check_classes



# --- the neighbours, by definition ---------------------------------------------------------------------

def k_nearest(Q, X, k, metric):
    """(distances, indices), each (m, k): for every query row of Q (m, p), the k training rows of X
    (n, p) closest to it, nearest first, equal distances by training row. Notes 004's definition as it
    reads: measure the distance to every training row and keep the k smallest. Predictions search with
    neighbors_fast.nearest_neighbors instead, which finds the same rows without measuring them all."""
    m, n = len(Q), len(X)
    prepared = distance_scores.prepare(X, metric)
    side = distance_scores.queries(Q, prepared, metric)
    queries, rows = np.repeat(np.arange(m), n), np.tile(np.arange(n), m)  # every (query, row) pair
    distances = distance_scores.exact(side, prepared, metric, queries, rows).reshape(m, n)  # (m, n)
    order = np.argsort(distances, axis=1, kind="stable")[:, :k]  # (m, k) ties keep training-row order
    return np.take_along_axis(distances, order, axis=1), order


# --- the estimators -----------------------------------------------------------------------------------

def stored_rows(M):
    """The training rows a model keeps: M itself when it is already a C-ordered float64 array (as
    scikit-learn keeps a reference to X: no second copy of a large table), else a float64 copy. Kept
    through a read-only view, so that nothing here can write the caller's array."""
    rows = np.ascontiguousarray(M, dtype=float).view()
    rows.flags.writeable = False
    return rows


def _divided(M, scale):
    """M / scale, or M itself when scale is 1 (no copy of the rows for data of an ordinary size)."""
    return M if scale == 1.0 else M / scale


_RULES = {
    "n_neighbors": Integer(1, label="k", help="How many of the closest training points vote (the notes' k; they "
                                              "suggest 3 or 5)."),
    "metric": Choice("euclidean", "manhattan", "cosine", help="How distance between two points is measured."),
    "weights": Choice("uniform", "distance", help="uniform: every neighbour counts the same; distance: "
                                                  "closer neighbours count more (1 / distance)."),
    "standardize": Flag(help="Rescale each numeric feature to mean 0 and standard deviation 1 first, so "
                             "no feature dominates the distance by its units."),
    "trace": Flag(help="Record what was stored and how the features were encoded."),
}


class _NeighborsBase(Estimator):
    """Storing the training rows, finding the neighbours of queries, weighting their votes."""

    _param_rules = _RULES
    _renamed_params = {"k": "n_neighbors"}

    def _check_state(self):
        """k at most the stored rows: a larger k would ask predict for more neighbours than there are."""
        if self.n_neighbors > len(self.X_fit_):
            raise damaged("params.n_neighbors",
                          f"is {self.n_neighbors}, more than the {len(self.X_fit_)} training rows the file keeps")

    def __init__(self, n_neighbors=5, metric="euclidean", weights="uniform", standardize=False, trace=False):
        self.n_neighbors = n_neighbors
        self.metric = metric
        self.weights = weights
        self.standardize = standardize
        self.trace = trace

    def _store(self, M):
        if self.n_neighbors > len(M):
            raise DataError(f"k = {self.n_neighbors} (n_neighbors) is larger than the training set, which has "
                            f"{len(M)} rows (n_samples={len(M)}); choose k <= {len(M)}.", field="params.n_neighbors")
        self.X_fit_ = stored_rows(M)
        # Fit only stores, as scikit-learn's brute search does: the search structure (a KD-tree from
        # 1,024 rows on, 2.5 s at 10^6 rows) is built by the first query and kept here. The holder is
        # made now and filled in place, so predicting leaves the model's attributes as they are.
        self._search = {}

    def _prepared(self):
        """The search structure of the training rows, divided by `_scale()` as the queries will be: built
        at the first call (and again when the metric or the stored rows have changed), then kept."""
        search = getattr(self, "_search", None)
        if search is None:  # a model read from a file: its rows were set, not stored by fit
            search = self._search = {}
        key = (self.metric, id(self.X_fit_))
        if search.get("key") != key:
            scale = square_safe_scale(self.X_fit_)
            search.clear()
            prepared = prepare(_divided(self.X_fit_, scale), self.metric, k=int(self.n_neighbors))
            search.update(key=key, prepared=prepared, scale=scale)
        return search["prepared"]

    def release_prepared(self):
        """Let go of the search structure (the next query builds it again), to hold less while the model
        waits unused (workbench/runs.py)."""
        getattr(self, "_search", {}).clear()

    def _scale(self):
        """Training rows and queries are searched divided by this power of two (1 for data of an
        ordinary size), so that distances of rows near 1e-200 do not underflow to 0 (every row tying);
        found distances are multiplied back. Dividing by a power of two rounds nothing, so any such
        scale finds the same neighbours at the same distances."""
        self._prepared()
        return self._search["scale"]

    def _in_data_units(self, distances):
        """Distances found on the scaled rows, in the data's units (a cosine distance has none)."""
        return distances if self.metric == "cosine" else distances * self._scale()

    def kneighbors(self, X, n_neighbors=None, return_distance=True):
        """(distances, indices), each (m, k): the k nearest training rows of each row of X, nearest
        first, equal distances by training row (only the indices when `return_distance` is False)."""
        self._check_fitted()
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if not isinstance(k, (int, np.integer)) or not 1 <= k <= len(self.X_fit_):
            raise DataError(f"n_neighbors must be an integer from 1 to the {len(self.X_fit_)} training rows; "
                            f"got {k!r}.")
        dist, idx = self._kneighbors_encoded(numeric(self, X), int(k))
        return (dist, idx) if return_distance else idx

    def _kneighbors_encoded(self, M, k):
        """kneighbors of rows M (m, p) already encoded as the training rows were."""
        dist, idx = nearest_neighbors(_divided(M, self._scale()), self._prepared(), self.metric, k)
        return self._in_data_units(dist), idx

    def _vote_weights(self, distances):
        """(m, k) weight of each neighbour: 1, or 1/distance (only the exact matches when some are at 0)."""
        if self.weights == "uniform":
            return np.ones_like(distances)
        with np.errstate(divide="ignore"):
            w = 1.0 / distances  # (m, k)
        exact = np.isinf(w).any(axis=1)
        w[exact] = (distances[exact] == 0).astype(float)
        return w

    def _fit_trace(self, extra):
        enc = self.encoder_
        self.trace_ = [{"step": "store", "n_train": int(len(self.X_fit_)), "k": int(self.n_neighbors),
                        "metric": self.metric, "weights": self.weights, "features": enc.output_names,
                        "standardize": {"means": dict(enc.means), "scales": dict(enc.scales)}, **extra}]

    def _explain_neighbors(self, x_row, targets):
        columns = one_row(self, x_row)
        scale = self._scale()  # the definition, on the rows scaled as every search scales them
        dist, idx = k_nearest(_divided(numeric(self, columns), scale), _divided(self.X_fit_, scale), self.n_neighbors,
                              self.metric)
        dist = self._in_data_units(dist)
        w = self._vote_weights(dist)[0]
        return columns, [{"row": int(i), "distance": float(d), "target": python_scalar(t), "weight": float(wi)}
                         for i, d, t, wi in zip(idx[0], dist[0], targets[idx[0]], w)]


class KNeighborsClassifier(ClassifierMixin, _NeighborsBase):
    """k-nearest-neighbour classifier (notes 004): the majority class among the k closest training rows.

    predict_proba is the (weighted) share of the vote for each class in `classes_`. Fitted: `classes_`,
    `X_fit_` (n, p) encoded training rows (a read-only view of X itself when X is C-ordered float64 and
    needs no encoding: change X after fitting and the model changes, as scikit-learn's does), `y_fit_`
    (n,) class index of each row, `encoder_`.

    trace_: [{"step": "store", "n_train", "k", "metric", "weights", "features" (encoded names),
    "standardize": {"means", "scales"}, "classes", "class_count"}].
    """

    # A model file's state (core.file_fields): the encoded training rows and each one's class number.
    _state_fields = {**NUMERIC_STATE, "classes_": Labels(), "X_fit_": Array("f", ("n_rows", "n_encoded")),
                     "y_fit_": Array("i", ("n_rows",), low=0)}

    def _check_state(self):
        super()._check_state()
        if self.y_fit_.size and self.y_fit_.max() >= len(self.classes_):
            raise damaged("state.y_fit_", f"must hold class numbers below {len(self.classes_)}")

    def fit(self, X, y, feature_names=None):
        """Store the training rows and their labels."""
        self._check_params()
        M, y = fit_numeric(self, X, y, feature_names, task="classification", standardize=self.standardize)
        self.classes_ = check_classes(y, minimum=1)
        self.y_fit_ = np.searchsorted(self.classes_, y)  # (n,)
        self._store(M)
        if self.trace:
            counts = np.bincount(self.y_fit_, minlength=len(self.classes_))
            self._fit_trace({"classes": [python_scalar(c) for c in self.classes_], "class_count": counts.tolist()})
        return self

    def _votes(self, X):
        return self.votes_of_encoded(numeric(self, X))

    def votes_of_encoded(self, M):
        """(m, C) the (weighted) vote for each class of rows M (m, p) already encoded as the training rows
        were: a boundary's grid encodes its few distinct rows, not all of its rows (workbench/grid.py)."""
        if self.weights == "uniform":  # one vote each: which rows, not how far (the order of 1s adds the same)
            idx = nearest_neighbors(_divided(M, self._scale()), self._prepared(), self.metric, int(self.n_neighbors),
                                    distances=False)[1]
            w = np.ones(idx.shape)  # (m, k)
        else:
            dist, idx = self._kneighbors_encoded(M, int(self.n_neighbors))
            w = self._vote_weights(dist)  # (m, k)
        m, n_classes = len(idx), len(self.classes_)
        slots = np.arange(m)[:, None] * n_classes + self.y_fit_[idx]  # (m, k) row-major vote slots
        return np.bincount(slots.ravel(), weights=w.ravel(), minlength=m * n_classes).reshape(m, n_classes)

    def predict_proba(self, X):
        """(m, C) share of the (weighted) vote won by each class."""
        votes = self._votes(X)
        return votes / votes.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The most voted class (the smallest label on a tie)."""
        votes = self._votes(X)  # (m, C)
        return self.classes_[np.argmax(votes, axis=1)]

    def explain(self, x_row):
        """The k neighbours of one row (training row, distance, label, vote weight) and the vote."""
        self._check_fitted()
        columns, neighbours = self._explain_neighbors(x_row, self.classes_[self.y_fit_])
        for nb in neighbours:
            nb["label"] = nb.pop("target")
        votes = self._votes(columns)[0]
        return {"k": int(self.n_neighbors), "neighbors": neighbours,
                "classes": [python_scalar(c) for c in self.classes_],
                "votes": votes.tolist(), "proba": (votes / votes.sum()).tolist(),
                "prediction": python_scalar(self.classes_[int(np.argmax(votes))])}


class KNeighborsRegressor(RegressorMixin, _NeighborsBase):
    """k-nearest-neighbour regression (notes 004's rule with an average for the vote): the (weighted)
    mean target of the k closest training rows.

    Fitted: `X_fit_` (n, p) (a view of X as for the classifier), `y_fit_` (n,) targets, `encoder_`.
    trace_: [{"step": "store", ...}] as for the classifier, with "target_mean".
    """

    # A model file's state (core.file_fields): the encoded training rows and each one's target.
    _state_fields = {**NUMERIC_STATE, "X_fit_": Array("f", ("n_rows", "n_encoded")), "y_fit_": Array("f", ("n_rows",))}

    def fit(self, X, y, feature_names=None):
        """Store the training rows and their targets."""
        self._check_params()
        M, y = fit_numeric(self, X, y, feature_names, task="regression", standardize=self.standardize)
        self.y_fit_ = y  # (n,)
        self._store(M)
        if self.trace:
            self._fit_trace({"target_mean": float(y.mean())})
        return self

    def predict(self, X):
        """(m,) weighted mean of the neighbours' targets."""
        dist, idx = self.kneighbors(X)
        w = self._vote_weights(dist)  # (m, k)
        return (w * self.y_fit_[idx]).sum(axis=1) / w.sum(axis=1)

    def explain(self, x_row):
        """The k neighbours of one row (training row, distance, target, weight) and their weighted mean."""
        self._check_fitted()
        columns, neighbours = self._explain_neighbors(x_row, self.y_fit_)
        return {"k": int(self.n_neighbors), "neighbors": neighbours, "prediction": float(self.predict(columns)[0])}
