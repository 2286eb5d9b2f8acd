"""Distances between queries and training rows for k-NN, and cheap scores that order rows the same way.

The distances (notes 004's k-NN; `metric`):
  euclidean  sqrt(sum_j (q_j - x_j)^2)
  manhattan  sum_j |q_j - x_j|
  cosine     1 - q.x / (|q| |x|), taken as 1 - q.x on rows scaled to unit length (a zero row stays 0,
             at distance 1 from everything) and clipped to [0, 2].
`exact` measures chosen (query, row) pairs; every search measures with it, so all agree to the last bit.

Scores are what a search computes for every (query, row) pair it looks at, one matrix product for a
whole block: for Euclidean |x|^2 - 2 q.x (= |q - x|^2 - |q|^2) on data centred at the training mean and
divided by `unit`, a power of two near its largest value (in float32 from 2,048 training rows on, which
the division keeps in range whatever the data's scale, and which changes no bit of a comparison); for
cosine -q.x (= distance - 1); for Manhattan the distance itself, summed feature by feature as `exact`
sums it. A score differs from `score_of(distance)` by at
most slack / 2, a bound on its rounding error; so a row whose score exceeds a limit plus the slack is
farther than the distance that limit stands for.
"""

import numpy as np

from ..shared.distances import unit_scale

_FAST_MIN_ROWS = 2048  # from this many training rows on, Euclidean scores are computed in float32
_BLOCK_CELLS = 1 << 18  # values of the training rows centred at once (so no centred copy of them all)
_ADDED_AS_WRITTEN = 2  # in this many features or fewer, exact adds the squares one by one
_UNIT_ROUNDOFF = {np.float32: 2.0 ** -24, np.float64: 2.0 ** -53}


def unit_rows(A):
    """A (n, p) with each nonzero row scaled to length 1 (a zero row stays 0): the cosine's points."""
    norms = np.linalg.norm(A, axis=1)  # (n,)
    return A / np.where(norms > 0, norms, 1.0)[:, None]


def points_of(X, metric):
    """The rows the distances compare: X itself (read, never written), or for cosine its unit rows."""
    return unit_rows(X) if metric == "cosine" else X


def prepare(X, metric, order=None):
    """What scores and distances need from the training rows X (n, p), computed once per model."""
    return arrange(points_of(X, metric), metric, order)


def arrange(points, metric, order=None):
    """The score arrays of the training `points` (points_of(X, metric)), their columns in `order` (a
    KD-tree keeps each node's rows together; "order" then maps a column back to its training row), made
    a block of rows at a time: no (n, p) temporary beside the points, which stay in training order so
    that `exact` takes training-row indices."""
    n, p = points.shape
    blocks = _blocks(n, p)
    rows = (lambda block: points[block]) if order is None else (lambda block: np.take(points, order[block], axis=0))
    if metric == "euclidean":
        mean, unit = points.mean(axis=0), unit_scale(points)  # (p,) and a power of two
        top = max((float((((points[b] - mean) / unit) ** 2).sum(axis=1).max()) for b in blocks), default=0.0)
        radius = float(np.sqrt(top))
        fast = n >= _FAST_MIN_ROWS and radius < 1e15
        XaT = np.empty((p + 1, n), dtype=np.float32 if fast else np.float64)  # [Xc^T; |Xc|^2]
        for block in blocks:
            centred = (rows(block) - mean) / unit  # (b, p)
            XaT[:p, block] = centred.T
            XaT[p, block] = (centred ** 2).sum(axis=1)
        prepared = {"points": points, "mean": mean, "unit": unit, "radius": radius, "XaT": XaT}
    else:
        key = "XT" if metric == "manhattan" else "XnT"
        T = np.empty((p, n))  # (p, n)
        for block in blocks:
            T[:, block] = rows(block).T
        prepared = {"points": points, key: T}
    return prepared if order is None else {**prepared, "order": order}


def _blocks(n, p):
    """Slices of n rows of p values, each about _BLOCK_CELLS values."""
    step = max(1, _BLOCK_CELLS // max(1, p))
    return [slice(a, min(a + step, n)) for a in range(0, n, step)]


def queries(Q, prepared, metric):
    """The query side of the scores for the rows of Q (c, p): {"points" (what distances compare),
    "left" (the left factor of the score product), "slack" (c,), "offset" (c,): score_of(d) = (d /
    unit)^2 - offset (Euclidean), d - 1 (cosine) or d (Manhattan)}."""
    if metric == "euclidean":
        XaT, radius = prepared["XaT"], prepared["radius"]
        Qc = (Q - prepared["mean"]) / prepared["unit"]  # (c, p)
        q_sq = (Qc ** 2).sum(axis=1)  # (c,)
        left = np.hstack([-2.0 * Qc, np.ones((len(Q), 1))]).astype(XaT.dtype)  # (c, p + 1)
        # Rounding of a dot product of length p + 1 (inputs rounded too), doubled for safety.
        magnitude = 2.0 * np.sqrt(q_sq) * radius + radius ** 2  # (c,) >= sum |a_i b_i|
        slack = 4.0 * (Q.shape[1] + 4) * _UNIT_ROUNDOFF[XaT.dtype.type] * magnitude
        return {"points": Q, "left": left, "slack": slack, "offset": q_sq, "unit": prepared["unit"]}
    if metric == "manhattan":
        return {"points": Q, "left": Q, "slack": np.zeros(len(Q))}
    Qn = unit_rows(Q)  # (c, p)
    slack = np.full(len(Q), 8.0 * (Q.shape[1] + 4) * _UNIT_ROUNDOFF[np.float64])  # |q.x| <= 1, both sides
    return {"points": Qn, "left": -Qn, "slack": slack}


def scores(side, prepared, metric, which=slice(None), start=0, stop=None):
    """(c, stop - start) scores of the queries side[...][which] against the score columns start..stop
    (training rows prepared["order"][start:stop] when the columns have been put in another order)."""
    left = side["left"][which]
    if metric == "euclidean":
        return left @ prepared["XaT"][:, start:stop]
    if metric == "cosine":
        return left @ prepared["XnT"][:, start:stop]
    XT = prepared["XT"][:, start:stop]
    total, diff = np.zeros((len(left), XT.shape[1])), np.empty((len(left), XT.shape[1]))
    for j in range(XT.shape[0]):  # one feature at a time keeps the block 2-D; the order `exact` uses
        np.subtract(left[:, j:j + 1], XT[j], out=diff)
        total += np.abs(diff, out=diff)
    return total


def score_of(distance, side, metric, which=slice(None)):
    """The score that stands for `distance` for the queries side[...][which] (exact arithmetic)."""
    if metric == "euclidean":
        return (distance / side["unit"]) ** 2 - side["offset"][which]
    return distance - 1.0 if metric == "cosine" else distance


def exact(side, prepared, metric, r, c):
    """(pairs,) distances from queries side["points"][r] to training rows prepared["points"][c]."""
    Q, X = side["points"], prepared["points"]
    if metric == "euclidean":
        return length_of_differences(Q[r] - X[c], metric)
    if metric == "cosine":
        return np.clip(1.0 - np.einsum("ij,ij->i", Q[r], X[c]), 0.0, 2.0)
    total = np.zeros(len(r))
    for j in range(Q.shape[1]):  # feature by feature, as the scores are summed
        total += np.abs(Q[r, j] - X[c, j])
    return total


def length_of_differences(diff, metric):
    """(pairs,) exact's Euclidean or Manhattan distances from the rows of diff (pairs, p), the differences
    q - x (or x - q: the same bits). In at most two features the squares are added as written, d_1^2 +
    d_2^2 (einsum may fuse or reorder them): so the squared distance of a boundary's grid in two features
    is the very number its lattice search scores (grid.py), and that search need not measure
    again."""
    if metric == "manhattan":
        total = np.zeros(len(diff))
        for j in range(diff.shape[1]):  # feature by feature, as exact sums them
            total += np.abs(diff[:, j])
        return total
    if diff.shape[1] <= _ADDED_AS_WRITTEN:
        squares = diff * diff
        return np.sqrt(squares[:, 0] + squares[:, 1] if diff.shape[1] == 2 else squares.sum(axis=1))
    return np.sqrt(np.einsum("ij,ij->i", diff, diff))


def in_order(prepared, order):
    """The prepared rows with the score arrays' columns taken in another order, as `arrange` makes them
    directly (the page's search decides on a tree after its score arrays exist, so it reorders a copy).
    The points stay as they are, in training order, so `exact` still takes training-row indices."""
    by_column = ("XaT", "XT", "XnT")
    return {**{key: value[:, order] if key in by_column else value for key, value in prepared.items()},
            "order": order}
