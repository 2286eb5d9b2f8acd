"""k-nearest neighbours: predict from the k training rows closest to each query (brute force, in blocks).

Seed 004 "K-Nearest Neighbor Methods": "to classify a new input vector x, examine the k-closest training
data points to x and assign the object to the most frequently occurring class"; there is no training
beyond storing the data, and the decision boundaries are a subset of the Voronoi diagram of the
training points (k = 1 gives exactly the Voronoi cells).

How the search works. Queries go in blocks (about 2 MB of distances each, never above 16 MB, so memory
stays bounded and each block stays in cache). A block first gets cheap scores against every training
row, with a bound on their rounding error: for Euclidean distance the expansion |x|^2 - 2 q.x
(= |q - x|^2 - |q|^2) on data centred at the training mean, in float32 from 2,048 training rows on.
The k-th smallest score of a strided sample of the training rows (or of all of them) is a threshold
that every true neighbour passes; the rows that pass are measured exactly (the square root of the sum
of squared differences), and the k nearest are taken from them by (distance, training row). So the
result is exact and deterministic: equidistant neighbours come in training-row order, and when several
rows tie for the k-th place the earlier ones win. With 1 to 3 features and at least 512 training rows
(a decision boundary over a grid of points) the search goes through a KD-tree instead (kd_tree.py),
which measures with the same distance function and gives the same answer to the last bit; for so
few features every distance is summed feature by feature in order (`pair_distances`).

Votes. The classifier predicts the class with the largest (weighted) vote; a tied vote goes to the
smallest label (the first in `classes_`), as scikit-learn does. With weights="distance" each
neighbour votes 1/distance; if some neighbours are at distance 0, they alone vote, with weight 1.
"""

import numpy as np

from .base import ClassifierMixin, Estimator, RegressorMixin
from .errors import DataError
from .features import fit_numeric, numeric, one_row
from .kd_tree import build_tree, k_nearest, pair_distances
from .params import Choice, Flag, Integer
from .validation import check_classes

_BLOCK_BYTES = 2 * 2 ** 20  # a block of distances sized for the cache ...
_MAX_BLOCK_BYTES = 16 * 2 ** 20  # ... and never above this (so a search stays well under 64 MB)


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


# --- the search ---------------------------------------------------------------------------------------
#
# Each block of queries gets cheap "scores" against every training row (ordered like the distance, up
# to a known rounding bound), a threshold that at least k rows pass, and then exact distances for the
# few rows that pass. The k nearest are taken from those, by (distance, training row).

_FAST_MIN_ROWS = 2048  # from this many training rows on, screen in float32 on a strided sample
_SAMPLE_STRIDE = 16
_UNIT_ROUNDOFF = {np.float32: 2.0 ** -24, np.float64: 2.0 ** -53}
_TREE_MAX_FEATURES = 3  # up to this many features a KD-tree beats comparing with every row ...
_TREE_MIN_ROWS = 512  # ... once there are this many training rows ...
_TREE_MIN_SHARE = 16  # ... and k is at most 1/16 of them
_TREE_PAIRS = 2 ** 21  # queries per tree search times its leaves (bounds the (query, node) pairs)


def _unit_rows(A):
    """A (n, p) with each nonzero row scaled to length 1 (a zero row stays 0): the cosine's points."""
    norms = np.linalg.norm(A, axis=1)  # (n,)
    return A / np.where(norms > 0, norms, 1.0)[:, None]


def _exact_distances(Qp, Xp, r, c, metric):
    """(pairs,) distances from queries Qp[r] to training rows Xp[c] (for cosine both scaled to unit
    length): `pair_distances`, terms added in feature order, for the few features a tree searches
    (so both searches agree to the last bit); numpy's row sums for more."""
    p = Xp.shape[1]
    if p <= _TREE_MAX_FEATURES or metric == "manhattan":  # manhattan: the order of its block scores
        return pair_distances([Qp[r, j] for j in range(p)], [Xp[c, j] for j in range(p)], metric)
    if metric == "euclidean":
        return np.sqrt(((Qp[r] - Xp[c]) ** 2).sum(axis=1))
    return np.clip(1.0 - (Qp[r] * Xp[c]).sum(axis=1), 0.0, 2.0)


def _prepare_metric(X, metric):
    """What the searches need from the training matrix X (n, p), computed once per model."""
    prepared = _prepare_scores(X, metric)
    prepared["points"] = _unit_rows(X) if metric == "cosine" else X  # (n, p) what distances compare
    if X.shape[1] <= _TREE_MAX_FEATURES and len(X) >= _TREE_MIN_ROWS:
        prepared["tree"] = build_tree(prepared["points"])
    return prepared


def _prepare_scores(X, metric):
    """What the block scores need from the training matrix X (n, p)."""
    if metric == "euclidean":
        mean = X.mean(axis=0)  # (p,)
        Xc = X - mean  # (n, p); centring keeps the expansion accurate for data far from 0
        sq = (Xc ** 2).sum(axis=1)  # (n,)
        XaT = np.vstack([Xc.T, sq])  # (p + 1, n)
        radius = float(np.sqrt(sq.max()))
        fast = len(X) >= _FAST_MIN_ROWS and radius < 1e15
        return {"X": X, "mean": mean, "radius": radius, "XaT": XaT.astype(np.float32) if fast else XaT}
    if metric == "manhattan":
        return {"XT": np.ascontiguousarray(X.T)}  # (p, n)
    return {"XnT": _unit_rows(X).T}  # (p, n)


def _block_scores(Q, prepared, metric):
    """(scores (c, n), slack (c,), exact(rows, cols) -> distances): scores differ from an order-keeping
    transform of the distance by at most slack/2; `exact` gives the true distances of chosen pairs."""
    if metric == "euclidean":
        XaT, radius, X = prepared["XaT"], prepared["radius"], prepared["X"]
        Qc = Q - prepared["mean"]  # (c, p)
        Qa = np.hstack([-2.0 * Qc, np.ones((len(Q), 1))]).astype(XaT.dtype)  # (c, p + 1)
        scores = Qa @ XaT  # (c, n) ~ |x|^2 - 2 q.x = |q - x|^2 - |q|^2
        # Rounding of a dot product of length p + 1 (inputs rounded too), doubled for safety.
        magnitude = 2.0 * np.sqrt((Qc ** 2).sum(axis=1)) * radius + radius ** 2  # (c,) >= sum |a_i b_i|
        slack = 4.0 * (X.shape[1] + 4) * _UNIT_ROUNDOFF[XaT.dtype.type] * magnitude
        return scores, slack, lambda r, c: np.sqrt(((Q[r] - X[c]) ** 2).sum(axis=1))
    if metric == "manhattan":
        XT = prepared["XT"]
        scores, diff = np.zeros((len(Q), XT.shape[1])), np.empty((len(Q), XT.shape[1]))  # (c, n)
        for j in range(XT.shape[0]):  # one feature at a time keeps the block 2-D
            np.subtract(Q[:, j:j + 1], XT[j], out=diff)
            scores += np.abs(diff, out=diff)
        return scores, np.zeros(len(Q)), lambda r, c: scores[r, c]
    Qn = _unit_rows(Q)  # (c, p)
    scores = -(Qn @ prepared["XnT"])  # (c, n) ~ -cos(q, x), |q.x| <= 1 (a dot product of length p)
    slack = np.full(len(Q), 8.0 * (Q.shape[1] + 4) * _UNIT_ROUNDOFF[np.float64])  # both sides' rounding
    return scores, slack, lambda r, c: _exact_distances(Qn, prepared["points"], r, c, "cosine")


def _candidates(scores, slack, k, stride):
    """(rows, cols) of every entry that can be among a row's k nearest: the k-th smallest score of a
    strided sample is an upper bound on the row's k-th smallest, widened by the rounding slack."""
    sample = scores[:, ::stride]  # (c, n / stride)
    if k < sample.shape[1]:
        kth = np.partition(sample, k - 1, axis=1)[:, k - 1]  # (c,)
    else:
        kth = sample.max(axis=1)
    limit = (kth + slack).astype(scores.dtype)  # (c,)
    limit = np.nextafter(limit, np.inf)  # rounding the limit itself must not lose a candidate
    flat = np.flatnonzero(scores <= limit[:, None])
    return np.divmod(flat, scores.shape[1])


def _k_nearest_block(Q, prepared, metric, k):
    """(distances, indices), each (c, k), for one block of queries."""
    scores, slack, exact = _block_scores(Q, prepared, metric)
    n = scores.shape[1]
    stride = _SAMPLE_STRIDE if n >= max(_FAST_MIN_ROWS, 4 * k * _SAMPLE_STRIDE) else 1
    rows, cols = _candidates(scores, slack, k, stride)
    if stride > 1 and len(rows) > 8 * k * _SAMPLE_STRIDE * len(Q):  # a poor sample: use every row
        rows, cols = _candidates(scores, slack, k, 1)
    dist = exact(rows, cols)
    order = np.lexsort((cols, dist, rows))  # by query, then distance, then training row
    take = np.searchsorted(rows[order], np.arange(len(Q)))[:, None] + np.arange(k)  # (c, k)
    return dist[order][take], cols[order][take]


def nearest_neighbors(Q, prepared, metric, k, n_train, search="auto"):
    """(distances, indices), each (m, k): the k nearest training rows of every query row of Q (m, p),
    nearest first, equal distances by training row. search: "brute", "tree" (needs a prepared tree)
    or "auto" (the tree when there is one and k is small beside the training set); same answer."""
    if search == "tree" or (search == "auto" and "tree" in prepared and k <= n_train // _TREE_MIN_SHARE):
        return _tree_neighbors(Q, prepared, metric, k)
    m = len(Q)
    distances, indices = np.empty((m, k)), np.empty((m, k), dtype=np.intp)
    row_bytes = 8 * max(n_train, 1)
    block = max(1, _BLOCK_BYTES // row_bytes, min(32, _MAX_BLOCK_BYTES // row_bytes))  # rows per block
    for start in range(0, m, block):
        stop = min(start + block, m)
        distances[start:stop], indices[start:stop] = _k_nearest_block(Q[start:stop], prepared, metric, k)
    return distances, indices


def _tree_neighbors(Q, prepared, metric, k):
    """nearest_neighbors through the KD-tree, in batches of queries."""
    Qp = _unit_rows(Q) if metric == "cosine" else Q  # (m, p)
    distances, indices = np.empty((len(Q), k)), np.empty((len(Q), k), dtype=np.intp)
    tree = prepared["tree"]
    batch = int(np.clip(_TREE_PAIRS // 2 ** tree["depth"], 256, 8192))  # queries x leaves stays bounded
    for start in range(0, len(Q), batch):
        block = slice(start, start + batch)
        distances[block], indices[block] = k_nearest(tree, Qp[block], k, metric)
    return distances, indices


# --- the estimators -----------------------------------------------------------------------------------

_RULES = {
    "k": Integer(1, help="How many of the closest training points vote (the notes suggest 3 or 5)."),
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

    def __init__(self, k=5, metric="euclidean", weights="uniform", standardize=False, trace=False):
        self.k = k
        self.metric = metric
        self.weights = weights
        self.standardize = standardize
        self.trace = trace

    def _store(self, M):
        if self.k > len(M):
            raise DataError(f"k = {self.k} is larger than the training set, which has {len(M)} "
                            f"rows; choose k <= {len(M)}.")
        self.X_fit_ = np.array(M, dtype=float)  # (n, p) a copy: M may be the caller's array
        self._cache = None

    def _prepared(self):
        key = (self.metric, id(self.X_fit_))
        cache = getattr(self, "_cache", None)
        if cache is None or cache[0] != key:
            self._cache = (key, _prepare_metric(self.X_fit_, self.metric))
        return self._cache[1]

    def kneighbors(self, X, k=None):
        """(distances, indices), each (m, k): the k nearest training rows of each row of X, nearest
        first, equal distances by training row."""
        self._check_fitted()
        k = self.k if k is None else k
        if not isinstance(k, (int, np.integer)) or not 1 <= k <= len(self.X_fit_):
            raise DataError(f"k must be an integer from 1 to the {len(self.X_fit_)} training rows; got {k!r}.")
        return nearest_neighbors(numeric(self, X), self._prepared(), self.metric, int(k), len(self.X_fit_))

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
        self.trace_ = [{"step": "store", "n_train": int(len(self.X_fit_)), "k": int(self.k),
                        "metric": self.metric, "weights": self.weights, "features": enc.output_names,
                        "standardize": {"means": dict(enc.means), "scales": dict(enc.scales)}, **extra}]

    def _explain_neighbors(self, x_row, targets):
        columns = one_row(self, x_row)
        dist, idx = self.kneighbors(columns)
        w = self._vote_weights(dist)[0]
        return columns, [{"row": int(i), "distance": float(d), "target": _plain(t), "weight": float(wi)}
                         for i, d, t, wi in zip(idx[0], dist[0], targets[idx[0]], w)]


class KNeighborsClassifier(ClassifierMixin, _NeighborsBase):
    """k-nearest-neighbour classifier (seed 004): the majority class among the k closest training rows.

    predict_proba is the (weighted) share of the vote for each class in `classes_`. Fitted: `classes_`,
    `X_fit_` (n, p) encoded training rows, `y_fit_` (n,) class index of each row, `encoder_`.

    trace_: [{"step": "store", "n_train", "k", "metric", "weights", "features" (encoded names),
    "standardize": {"means", "scales"}, "classes", "class_count"}].
    """

    def fit(self, X, y, feature_names=None):
        """Store the training rows and their labels."""
        self._check_params()
        M, y = fit_numeric(self, X, y, feature_names, task="classification", standardize=self.standardize)
        self.classes_ = check_classes(y, minimum=1)
        self.y_fit_ = np.searchsorted(self.classes_, y)  # (n,)
        self._store(M)
        if self.trace:
            counts = np.bincount(self.y_fit_, minlength=len(self.classes_))
            self._fit_trace({"classes": [_plain(c) for c in self.classes_], "class_count": counts.tolist()})
        return self

    def _votes(self, X):
        dist, idx = self.kneighbors(X)
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
        return {"k": int(self.k), "neighbors": neighbours, "classes": [_plain(c) for c in self.classes_],
                "votes": votes.tolist(), "proba": (votes / votes.sum()).tolist(),
                "prediction": _plain(self.classes_[int(np.argmax(votes))])}


class KNeighborsRegressor(RegressorMixin, _NeighborsBase):
    """k-nearest-neighbour regression (seed 004's rule with an average for the vote): the (weighted)
    mean target of the k closest training rows.

    Fitted: `X_fit_` (n, p), `y_fit_` (n,) targets, `encoder_`. trace_: [{"step": "store", ...}] as for
    the classifier, with "target_mean".
    """

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
        return {"k": int(self.k), "neighbors": neighbours, "prediction": float(self.predict(columns)[0])}
