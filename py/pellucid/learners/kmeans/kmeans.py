"""k-means clustering: Lloyd's algorithm with k-means++ or random seeding (notes 004, "K-means", "K-means++").

The notes' iterative approach:

    initialise centres mu^(1..k)
    assign each point to the closest centre:  C^(i) = argmin_j ||mu^(j) - x^(i)||^2
    move each centre to the mean of its points:  mu^(j) = (1/|Omega_j|) sum_{i in Omega_j} x^(i)
    repeat until the clusters stay the same.

k-means++ seeding (the notes' four steps): the first centre is a row drawn uniformly at random; each next
centre is a row drawn with probability proportional to D(x)^2, the squared distance from x to the closest
centre chosen so far; repeat until k centres are chosen.

Greedy k-means++ (scikit-learn's seeding, the default here): step 3 draws several candidate rows the same
way (2 + floor(ln k) of them unless told) and keeps the one that leaves the least potential, the sum over
the rows of D(x)^2 once that candidate is a centre. One candidate is the notes' seeding, which the steps
view shows.
"""

import warnings

import numpy as np

from ...core.base import ClusterMixin, Estimator
from ...core.errors import ConvergenceWarning
from ...core.file_fields import Array, Int, Real, damaged
from ...tabular.features import NUMERIC_STATE, fit_numeric, numeric
from ...core.params import Choice, Flag, Integer, Number
from ...core.sample_weight import check_sample_weight
from ...core.validation import check_k_within_rows
from . import kmeans_fast
from ..shared.distances import square_safe_scale, squared_distances, unit_scale

_FULL_PROBABILITIES = 500  # up to this many rows the trace keeps every seeding probability
_TOP_PROBABILITIES = 20  # above it, only the largest ones
# Each greedy k-means++ step holds a (trials, n) block of distances: a bound keeps a typed (or a model
# file's) number from exhausting memory; scikit-learn's default is 2 + ln k, 4 for k up to 20.
MAX_LOCAL_TRIALS = 100


class KMeans(ClusterMixin, Estimator):
    """k-means (notes 004): Lloyd's assign / update iterations from k-means++ or random centres.

    Parameters: `n_clusters` (the notes' k) clusters; `init` "k-means++" (D(x)^2 seeding) or "random" (k
    distinct rows drawn uniformly); `n_local_trials` candidates drawn for each k-means++ centre after the
    first, the one that lowers the potential sum D(x)^2 most kept: None is 2 + floor(ln k), greedy
    k-means++ as scikit-learn seeds, 1 is the notes' plain k-means++ (ignored with init="random");
    `n_init` runs from different seedings, keeping the one of least inertia (1 by default; "auto" is 1
    with k-means++ and 10 with init="random", as scikit-learn's); `max_iter` iterations at most per run;
    `tol`: a run also stops when the squared movement of all centres in one iteration is at most
    tol * (mean variance of the columns), as scikit-learn; otherwise it stops when the assignment no
    longer changes (the notes' "until clusters stay the same"); `random_state` (the seed) for
    `np.random.default_rng`.

    Categorical columns are one-hot encoded (0/1 columns, not standardised), so distances are taken
    between the encoded rows. An empty cluster (no row closest to its centre) is re-seeded with the row
    farthest from its own centre, which then forms that cluster (the next farthest row for a second empty
    cluster, and so on).

    `fit(X, sample_weight=w)` weighs row i by w_i, as if it appeared w_i times (scikit-learn's meaning):
    each centre is the weighted mean of its rows, the inertia sums w_i ||x_i - mu||^2, and the seeding
    draws the first centre with probability w_i / sum w and each next one with w_i D(x_i)^2 / sum w D^2
    (the potential of greedy k-means++ weighted alike); init="random" draws rows with probability w_i /
    sum w. A row of weight 0 is still given a cluster (`labels_`) but moves no centre; a cluster left with
    no weight is re-seeded like an empty one, with the farthest row of positive weight.

    Fitted: `labels_` (n,), `cluster_centers_` (k, d) in the encoded feature space, `inertia_` (sum of
    squared distances of the rows to their centres), `n_iter_` (iterations of the best run), `encoder_`,
    `feature_names_in_`, `feature_kinds_`, `n_features_in_`.

    Trace (`trace=True`, for the run that was kept):
      {"step": "seed", "centre_index": j, "chosen": row, "probabilities": {"rows": [...], "p": [...]}}
        one per centre in the order chosen. "p" are the draw probabilities D(x)^2 / sum D^2 for the rows in
        "rows": every row when n <= 500, else the 20 most probable rows (the chosen row is always listed).
        With init="random" and for the first k-means++ centre the draw is uniform: "probabilities" is None.
        With more than one local trial the record also holds "candidates" (the rows drawn) and
        "potentials" (sum D(x)^2 with each candidate added); "chosen" is the candidate of least potential.
      {"step": "iteration", "iter": t, "centres": [[...]], "labels": [...], "inertia": float}
        one per iteration: the centres the rows were assigned to, the assignment, and its inertia. The
        last entry holds the final centres, labels_ and inertia_.
    """

    _param_rules = {
        "n_clusters": Integer(1, None, label="k", help="Number of clusters k."),
        "init": Choice("k-means++", "random",
                       help="How to choose the first centres: k-means++ draws each next centre with "
                            "probability proportional to D(x)^2; random picks k rows uniformly."),
        "n_local_trials": Integer(1, MAX_LOCAL_TRIALS, none_ok=True,
                                  help="k-means++ candidates drawn for each next centre; the one that lowers "
                                       "the sum of D(x)^2 most is kept. None: 2 + ln k (scikit-learn's greedy "
                                       "k-means++); 1: the notes' plain k-means++."),
        "n_init": Integer(1, None, also=("auto",),
                          help="Number of runs from different initial centres; the run with the smallest inertia "
                               "is kept. \"auto\" (scikit-learn's): 1 with k-means++, 10 with random."),
        "max_iter": Integer(1, None, help="Most assign/update iterations per run."),
        "tol": Number(0, None, help="Stop when the centres move less than this (relative to the data's "
                                    "variance)."),
        "random_state": Integer(0, None, none_ok=True, label="seed",
                                help="Random seed for choosing the initial centres (None: a fresh one each fit)."),
        "trace": Flag(help="Record the seeding draws and every iteration's centres and clusters."),
    }
    # A model file's state (core.file_fields): the centres and each training row's cluster.
    _state_fields = {**NUMERIC_STATE, "labels_": Array("i", ("n_rows",), low=0),
                     "cluster_centers_": Array("f", ("n_clusters", "n_encoded")), "inertia_": Real(low=0),
                     "n_iter_": Int(0)}

    def _check_state(self):
        if self.labels_.size and self.labels_.max() >= len(self.cluster_centers_):
            raise damaged("state.labels_", f"must hold cluster numbers below {len(self.cluster_centers_)}")

    # The steps view refits with these (workbench.steps.refit_traced): it shows the notes' seeding.
    _steps_params = {"n_local_trials": 1}
    _renamed_params = {"k": "n_clusters", "seed": "random_state"}  # before scikit-learn's names

    def __init__(self, n_clusters=3, init="k-means++", n_local_trials=None, n_init=1, max_iter=300, tol=1e-4,
                 random_state=0, trace=False):
        self.n_clusters = n_clusters
        self.init = init
        self.n_local_trials = n_local_trials
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.trace = trace

    def fit(self, X, y=None, feature_names=None, sample_weight=None):
        """Cluster the rows of X into k clusters, each row weighing its `sample_weight` (None: 1)."""
        self._check_params()
        M, _ = fit_numeric(self, X, None, feature_names, sample_weight=sample_weight)  # (n, d)
        n = len(M)
        weights = check_sample_weight(sample_weight, n)  # (n,) or None
        check_k_within_rows(self.n_clusters, n)
        rng = np.random.default_rng(self.random_state)
        scale = square_safe_scale(M)  # the runs work on M / scale, where squares neither underflow nor
        M = M / scale if scale != 1.0 else M  # overflow (scale is 1 for data of an ordinary size)
        # k-means is unmoved by a shift; centred data keeps the distance expansion exact. The rows are
        # kept as columns of MT, so every (k, n) product reduces over k along contiguous memory.
        origin = np.ones(n) @ M / n  # (d,) the column means
        MT = np.subtract(M.T, origin[:, None], order="C")  # (d, n)
        x_sq = np.einsum("ij,ij->j", MT, MT)  # (n,)
        tol = self.tol * float(x_sq.sum()) / M.size  # sklearn's scaling: tol * mean column variance
        best = None
        for _ in range(self._runs()):
            seeding = [] if self.trace else None
            centres = self._initial_centres(MT, x_sq, rng, seeding, weights)
            # the one choice of path: the notes' steps when traced, else the same clusters faster
            run = (lloyd(MT, centres, self.max_iter, tol, x_sq, True, origin, weights) if self.trace
                   else kmeans_fast.lloyd_run(MT, centres, self.max_iter, tol, x_sq, relocate_empty, weights))
            if best is None or run["inertia"] < best["inertia"]:
                best, best_seeding = run, seeding
        self.labels_ = best["labels"]
        self.cluster_centers_ = (best["centres"] + origin) * scale
        self.inertia_ = best["inertia"] * scale ** 2
        self.n_iter_ = best["n_iter"]
        if self.trace:
            self.trace_ = best_seeding + [_in_data_units(record, scale) for record in best["trace"]]
        self._warn_if_fewer_clusters()
        return self

    def _warn_if_fewer_clusters(self):
        """Rows that coincide share a centre, so data with fewer than k distinct rows gives fewer than k
        clusters: said rather than left for the caller to notice (scikit-learn warns alike)."""
        found = np.count_nonzero(np.bincount(self.labels_, minlength=self.n_clusters))
        if found < self.n_clusters:
            warnings.warn(f"Number of distinct clusters ({found}) found smaller than k ({self.n_clusters}), "
                          "usually because X has fewer than k distinct rows (duplicate points); choose a "
                          "smaller k.",
                          ConvergenceWarning, stacklevel=3)

    def _runs(self):
        """n_init, with scikit-learn's "auto": one k-means++ run, or ten random starts."""
        if self.n_init == "auto":
            return 1 if self.init == "k-means++" else 10
        return self.n_init

    def _initial_centres(self, MT, x_sq, rng, seeding, weights=None):
        if self.init == "random":
            p = None if weights is None else weights / weights.sum()
            rows = rng.choice(MT.shape[1], size=self.n_clusters, replace=False, p=p)
            if seeding is not None:
                seeding.extend({"step": "seed", "centre_index": j, "chosen": int(r), "probabilities": None}
                               for j, r in enumerate(rows))
        else:
            rows = kmeans_plus_plus(MT.T, self.n_clusters, rng, x_sq, seeding, self.n_local_trials, weights)
        return MT[:, rows].T.copy()  # (k, d)

    def predict(self, X):
        """The index of the closest centre for every row of X."""
        self._check_fitted()
        return kmeans_fast.nearest_centres(numeric(self, X), self.cluster_centers_)

    def transform(self, X):
        """(n, k) Euclidean distances from every row of X to every centre."""
        self._check_fitted()
        scale = unit_scale(self.cluster_centers_)
        M = numeric(self, X) / scale
        return np.sqrt(squared_distances(M, self.cluster_centers_ / scale)) * scale  # (n, k)

    def fit_transform(self, X, y=None, feature_names=None):
        return self.fit(X, feature_names=feature_names).transform(X)

    def score(self, X, y=None, sample_weight=None):
        """Minus the inertia of X with respect to the fitted centres (higher is better, as scikit-learn),
        each row's squared distance weighed by its `sample_weight` when given."""
        labels = self.predict(X)
        diff = numeric(self, X) - self.cluster_centers_[labels]  # (n, d)
        weights = check_sample_weight(sample_weight, len(diff))
        squares = np.einsum("ij,ij->i", diff, diff)  # (n,)
        return -float(squares.sum() if weights is None else squares @ weights)


def local_trials(k, n_local_trials=None):
    """Candidates drawn per k-means++ centre: as given, or 2 + floor(ln k) for None (scikit-learn's)."""
    return 2 + int(np.log(k)) if n_local_trials is None else int(n_local_trials)


def kmeans_plus_plus(M, k, rng, x_sq=None, trace=None, n_local_trials=1, weights=None):
    """k-means++ seeding of the (n, d) rows M: row indices of k centres. Each next centre is drawn with
    probability D(x)^2 / sum D(x)^2 (the notes' seeding, n_local_trials=1); with t > 1 trials, t rows are
    drawn so and the one whose choice leaves the least potential sum D(x)^2 is kept (greedy k-means++;
    None: t = 2 + floor(ln k)). With row `weights` w, the first row is drawn with probability w / sum w and
    D(x)^2 is weighed by w in the draws and the potential (scikit-learn's). Appends one "seed" record per
    centre to `trace` if a list."""
    n = len(M)
    if x_sq is None:
        x_sq = np.einsum("ij,ij->i", M, M)
    trials = local_trials(k, n_local_trials)
    if weights is None:
        chosen = [int(rng.integers(n))]  # step 1: uniformly at random
    else:
        chosen = [int(rng.choice(n, p=weights / weights.sum()))]  # step 1: a row drawn by its weight
    if trace is not None:
        trace.append({"step": "seed", "centre_index": 0, "chosen": chosen[0], "probabilities": None})
    d2 = _distances_to_row(M, x_sq, chosen[0])  # (n,) step 2: D(x)^2
    for j in range(1, k):
        mass = d2 if weights is None else d2 * weights  # (n,) each row's share of the potential
        cumulative = np.cumsum(mass)  # (n,)
        total = float(cumulative[-1])
        if total > 0:  # step 3: draw proportionally to D(x)^2 (one draw: the notes' stream of numbers)
            draws = rng.random() * total if trials == 1 else rng.random(trials) * total
            candidates = np.minimum(np.searchsorted(cumulative, draws, side="right"), n - 1)
        else:  # every row coincides with a centre: any row will do
            candidates = rng.integers(n)
        candidates = np.atleast_1d(candidates)
        record = {"step": "seed", "centre_index": j}
        if len(candidates) == 1:
            row = int(candidates[0])
            d2_next = np.minimum(d2, _distances_to_row(M, x_sq, row))
        else:
            row, d2_next, potentials = _best_candidate(M, x_sq, d2, candidates, weights)
            record.update(candidates=candidates.tolist(), potentials=potentials.tolist())
        if trace is not None:
            trace.append({**record, "chosen": row, "probabilities": _probabilities(mass, total, row)})
        chosen.append(row)
        d2 = d2_next  # step 4: repeat
    return np.array(chosen)


def _best_candidate(M, x_sq, d2, candidates, weights=None):
    """The candidate row that leaves the least potential sum D(x)^2 (weighted by `weights` when given; the
    first such on a tie), the D(x)^2 with it as a centre, and the (t,) potentials of all candidates."""
    d2_with = -2.0 * (M[candidates] @ M.T)  # (t, n)
    d2_with += x_sq
    d2_with += x_sq[candidates][:, None]
    np.maximum(d2_with, 0.0, out=d2_with)
    np.minimum(d2_with, d2, out=d2_with)  # D(x)^2 once each candidate is a centre
    potentials = d2_with.sum(axis=1) if weights is None else d2_with @ weights  # (t,)
    best = int(np.argmin(potentials))
    return int(candidates[best]), d2_with[best], potentials


def _distances_to_row(M, x_sq, row):
    d2 = M @ (-2.0 * M[row])  # (n,)
    d2 += x_sq
    d2 += x_sq[row]
    return np.maximum(d2, 0.0, out=d2)


def _probabilities(d2, total, chosen):
    n = len(d2)
    p = d2 / total if total > 0 else np.full(n, 1.0 / n)  # (n,)
    if n <= _FULL_PROBABILITIES:
        rows = np.arange(n)
    else:
        rows = np.argsort(-p, kind="stable")[:_TOP_PROBABILITIES]
        if chosen not in rows:
            rows = np.append(rows, chosen)
    return {"rows": rows.tolist(), "p": p[rows].tolist()}


def assign(MT, centres):
    """Assignment step: C^(i) = argmin_j ||mu^(j) - x^(i)||^2 for the rows held as the columns of MT
    (d, n). ||x||^2 is the same for every j, so the argmin is that of ||mu||^2 - 2 mu.x; returns the
    labels (ties to the lowest j) and that value for each row's centre."""
    c_sq = np.einsum("ij,ij->i", centres, centres)  # (k,)
    part = c_sq[:, None] + (-2.0 * centres) @ MT  # (k, n)
    labels = part.argmin(axis=0)  # (n,)
    return labels, part[labels, np.arange(MT.shape[1])]


def update(MT, labels, k, weights=None):
    """Update step: mu^(j) = (1/|Omega_j|) sum_{i in Omega_j} x^(i), the mean of each cluster's rows; with
    row weights w, the weighted mean sum_{i in Omega_j} w_i x^(i) / sum_{i in Omega_j} w_i."""
    members = (labels[None, :] == np.arange(k)[:, None]).astype(MT.dtype)  # (k, n) 1 where x^(i) in Omega_j
    if weights is not None:
        members *= weights  # (k, n) w_i where x^(i) in Omega_j
    return (members @ MT.T) / members.sum(axis=1)[:, None]  # (k, d)


def relocate_empty(labels, counts, dist, weights=None):
    """Give each empty cluster (`counts` 0: no rows, or with weights none that weigh anything) the row
    farthest from its own centre (the next farthest for the next), among the rows of positive weight."""
    labels = labels.copy()
    if weights is not None:
        dist = np.where(weights > 0, dist, -np.inf)  # a row of weight 0 cannot hold a centre in place
    far = np.argsort(-dist, kind="stable")
    for j, row in zip(np.flatnonzero(counts == 0), far):
        labels[row] = j
    return labels


def lloyd(MT, centres, max_iter, tol, x_sq, trace=False, origin=0.0, weights=None):
    """Lloyd's algorithm on the rows held as the columns of MT (d, n), from the given (k, d) centres:
    assign, update, until the clusters stay the same or the centres' squared shift is <= tol. Returns
    a dict of labels, centres, inertia, n_iter and trace (`origin` is added to the traced centres).
    With row `weights` the means and the inertia are weighted.

    Traced fits run these steps as written; the others kmeans_fast.lloyd_run (the same clusters, faster),
    chosen in KMeans.fit. Without `trace` the result's "trace" is None."""
    k, records, labels_old, stable = len(centres), [], None, False
    for it in range(1, max_iter + 1):
        labels, best = assign(MT, centres)
        records.append(_iteration(it, centres + origin, labels, best, x_sq, weights))
        if labels_old is not None and np.array_equal(labels, labels_old):
            stable = True  # the clusters stayed the same: the centres are already their means
            break
        counts = np.bincount(labels, weights=weights, minlength=k)
        if np.any(counts == 0):
            labels = relocate_empty(labels, counts, best + x_sq, weights)
        new = update(MT, labels, k, weights)
        shift = float(np.sum((new - centres) ** 2))
        centres, labels_old = new, labels
        if shift <= tol:
            break
    return _result(MT, centres, it, stable, records if trace else None, x_sq, origin, weights)


def _result(MT, centres, n_iter, stable, records, x_sq, origin, weights=None):
    """The labels of the final centres, the exact inertia (without the expansion), and the last record."""
    labels, best = assign(MT, centres)
    diff = MT - centres.T[:, labels]  # (d, n)
    if weights is None:
        inertia = float(np.einsum("ij,ij->", diff, diff))
    else:
        inertia = float(np.einsum("ij,ij->j", diff, diff) @ weights)
    if records is not None:
        if not stable:
            records.append(_iteration(n_iter + 1, centres + origin, labels, best, x_sq, weights))
        records[-1]["inertia"] = inertia
    return {"labels": labels, "centres": centres, "inertia": inertia, "n_iter": n_iter, "trace": records}


def _in_data_units(record, scale):
    """An iteration record of a run on rows divided by `scale`, in the units of the data."""
    return {**record, "centres": (np.array(record["centres"]) * scale).tolist(),
            "inertia": record["inertia"] * scale ** 2}


def _iteration(it, centres, labels, best, x_sq, weights=None):
    return {"step": "iteration", "iter": it, "centres": centres.tolist(), "labels": labels.tolist(),
            "inertia": float(_weighted_total(np.maximum(best + x_sq, 0.0), weights))}


def _weighted_total(values, weights):
    """sum_i values_i, or sum_i w_i values_i with row weights."""
    return values.sum() if weights is None else values @ weights
