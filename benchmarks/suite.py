"""The benchmark workloads, defined once: pellucid next to scikit-learn on the same data, timed the same way.

Both runners use this module unchanged: `benchmarks.native` imports it in CPython, `benchmarks.browser`
writes it into Pyodide's file system and imports it there. It needs only numpy, scikit-learn and
pellucid (whichever copy is importable), and makes its own data with scikit-learn's generators and fixed
seeds, so both runtimes time the same numbers.

Timing. For each workload the pellucid call and the scikit-learn call alternate (A, B, A, B, ...) in the
same process; each sample is timed with time.perf_counter with the garbage collector paused, and the
table reports the best (smallest) sample of each. Calls faster than BATCH_TIME / 2 are timed several in
a row per sample, enough for the faster side's sample to last BATCH_TIME (the same number of calls on
both sides; samples taken with fewer are dropped), and a sample's time is divided by its calls, so a
coarse clock (performance.now() in a browser, about 0.1 ms) does not decide a fast workload's result.
Every workload takes at least `repeats` (default 5) samples; fast ones repeat until about half a second
has been spent on them (at most 50 samples). Data preparation and, for the predict workloads, fitting
the models happen before the timing and are not counted.

Target: pellucid's time / scikit-learn's time <= 1.0 for every workload.
"""

import gc
import math
import time
import warnings

import numpy as np

TARGET_RATIO = 1.0
N = 20_000
N_QUERIES = 2_000
N_AGGLOMERATIVE = 3_000
GRID = 200
SCALING_SIZES = (1_000, 10_000, 100_000)
KMEANS_SEEDS = range(10)
MIN_TIME = 0.5  # seconds a fast workload is repeated for (at least `repeats` samples) ...
MAX_REPEATS = 50  # ... but never more samples than this
BATCH_TIME = 0.02  # seconds a sample lasts at least: faster calls are timed several to a sample ...
MAX_CALLS = 1000  # ... but never more than this many


# --- data --------------------------------------------------------------------------------------------

_cache = {}


def _cached(key, make):
    if key not in _cache:
        _cache[key] = make()
    return _cache[key]


def classification(n=N):
    """make_classification(n, 10 features, 5 informative, 2 redundant, 3 classes, random_state=0)."""
    from sklearn.datasets import make_classification
    return _cached(("clf", n), lambda: make_classification(
        n_samples=n, n_features=10, n_informative=5, n_redundant=2, n_classes=3, random_state=0))


def workflow_table(n, categorical):
    """What the page hands logistic regression for benchmarks/workflows.py's CSV (its training rows): 20
    numeric columns on scales 0.01-10,000 standardised, then `categorical` columns of 5 words one-hot
    encoded (0/1, not scaled), 3 nearly separable classes."""
    def make():
        rng = np.random.default_rng(0)
        y = rng.integers(0, 3, n)
        X = (rng.normal(0, 1.5, (3, 20))[y] + rng.normal(0, 1, (n, 20))) * np.logspace(-2, 4, 20)
        X = (X - X.mean(axis=0)) / X.std(axis=0)
        words = [np.eye(5)[(y + rng.integers(0, 3, n)) % 5] for _ in range(categorical)]
        return np.hstack([X] + words), y
    return _cached(("workflow", n, categorical), make)


def regression(n=N):
    """make_regression(n, 10 features, random_state=0)."""
    from sklearn.datasets import make_regression
    return _cached(("reg", n), lambda: make_regression(n_samples=n, n_features=10, random_state=0))


def queries():
    """2,000 k-NN queries: the first 2,000 training rows moved by N(0, 0.1^2) noise (seed 1)."""
    X, _ = classification()
    noise = lambda: np.random.default_rng(1).normal(0.0, 0.1, size=(N_QUERIES, X.shape[1]))  # noqa: E731
    return _cached("queries", lambda: X[:N_QUERIES] + noise())  # (m, 10)


def grid_2d():
    """The first two features of the 20,000-row data and a 200 x 200 grid over their range (+5%)."""
    def make():
        X, y = classification()
        X2 = np.ascontiguousarray(X[:, :2])  # (n, 2)
        lo, hi = X2.min(axis=0), X2.max(axis=0)
        pad = 0.05 * (hi - lo)
        xs = np.linspace(lo[0] - pad[0], hi[0] + pad[0], GRID)
        ys = np.linspace(lo[1] - pad[1], hi[1] + pad[1], GRID)
        gx, gy = np.meshgrid(xs, ys)
        return X2, y, np.column_stack([gx.ravel(), gy.ravel()])  # (n, 2), (n,), (40000, 2)
    return _cached("grid", make)


# --- the workloads -----------------------------------------------------------------------------------

class Workload:
    """One comparison. `prepare()` returns (pellucid_call, sklearn_call, check); the calls take no
    arguments and are what is timed; `check(p_result, s_result)` says briefly how the results compare."""

    def __init__(self, name, group, prepare):
        self.name, self.group, self.prepare = name, group, prepare


def _tree_fit(n):
    def prepare():
        import pellucid
        from sklearn.tree import DecisionTreeClassifier
        X, y = classification(n)
        p = lambda: pellucid.DecisionTreeClassifier(criterion="entropy").fit(X, y)  # noqa: E731
        s = lambda: DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)  # noqa: E731
        check = lambda pm, sm: (f"leaves {_n_leaves(pm)} vs {sm.get_n_leaves()}; "  # noqa: E731
                                f"train acc {pm.score(X, y):.3f} vs {sm.score(X, y):.3f}")
        return p, s, check
    return prepare


def _n_leaves(model):
    for name in ("n_leaves_", "get_n_leaves"):
        value = getattr(model, name, None)
        if value is not None:
            return value() if callable(value) else value
    return "?"


def _logistic_fit(n, categorical=None):
    def prepare():
        import pellucid
        from sklearn.linear_model import LogisticRegression
        X, y = classification(n) if categorical is None else workflow_table(n, categorical)
        # On the workflow table's nearly separable classes scikit-learn's default tol (1e-4) stops with its
        # objective 9% above the optimum (coefficients 0.3 away); at 1e-6 it reaches the optimum pellucid's
        # Newton fit reaches, so both sides do the same job. The check shows both objectives.
        tol = 1e-4 if categorical is None else 1e-6
        p = lambda: pellucid.LogisticRegression(l2=1.0 / len(X)).fit(X, y)  # noqa: E731
        s = lambda: LogisticRegression(C=1.0, max_iter=1000, tol=tol).fit(X, y)  # noqa: E731

        def check(pm, sm):
            diff = max(np.abs(pm.coef_ - sm.coef_).max(), np.abs(pm.intercept_ - sm.intercept_).max())
            objectives = f"{_objective(pm, X, y):.6g} vs {_objective(sm, X, y):.6g}"
            return (f"max |coef diff| {diff:.1e}; iterations {pm.n_iter_} vs {int(np.max(sm.n_iter_))}; "
                    f"objective {objectives}")
        return p, s, check
    return prepare


def _objective(model, X, y):
    """The objective both libraries minimise: the summed log-loss plus |W|^2 / 2 (C = 1)."""
    Z = X @ model.coef_.T + model.intercept_
    if Z.shape[1] == 1:  # binary: one score column for the second class
        Z = np.hstack([np.zeros_like(Z), Z])
    top = Z.max(axis=1, keepdims=True)
    log_norm = top[:, 0] + np.log(np.exp(Z - top).sum(axis=1))
    rows = np.searchsorted(model.classes_, y)
    return float((log_norm - Z[np.arange(len(y)), rows]).sum() + 0.5 * (model.coef_ ** 2).sum())


def _kmeans_fit(n):
    """One-init k-means from each of the seeds KMEANS_SEEDS, back to back. With a single seed the
    ratio would mostly measure how lucky that seed's starting centres are (the iterations to converge
    vary 2-3x from seed to seed, differently for each library's seeding); over ten seeds it measures
    the cost of a fit."""
    def prepare():
        import pellucid
        from sklearn.cluster import KMeans
        X, _ = classification(n)
        p = lambda: [pellucid.KMeans(k=3, n_init=1, seed=s).fit(X) for s in KMEANS_SEEDS]  # noqa: E731
        s = lambda: [KMeans(n_clusters=3, n_init=1, random_state=s).fit(X) for s in KMEANS_SEEDS]  # noqa: E731

        def check(pms, sms):
            p_best, s_best = min(m.inertia_ for m in pms), min(m.inertia_ for m in sms)
            return (f"iterations {sum(m.n_iter_ for m in pms)} vs {sum(m.n_iter_ for m in sms)} in all; "
                    f"seed 0: {pms[0].n_iter_} vs {sms[0].n_iter_}; least inertia {p_best:.6g} vs {s_best:.6g}")
        return p, s, check
    return prepare


def _linear_fit():
    import pellucid
    from sklearn.linear_model import LinearRegression
    X, y = regression()
    check = lambda pm, sm: f"max |coef diff| {np.abs(pm.coef_ - sm.coef_).max():.1e}"  # noqa: E731
    return lambda: pellucid.LinearRegression().fit(X, y), lambda: LinearRegression().fit(X, y), check


def _gaussian_nb_fit():
    import pellucid
    from sklearn.naive_bayes import GaussianNB
    X, y = classification()
    check = lambda pm, sm: f"train acc {pm.score(X, y):.4f} vs {sm.score(X, y):.4f}"  # noqa: E731
    return lambda: pellucid.GaussianNB().fit(X, y), lambda: GaussianNB().fit(X, y), check


def _knn_predict():
    import pellucid
    from sklearn.neighbors import KNeighborsClassifier
    X, y = classification()
    Q = queries()
    pm = pellucid.KNeighborsClassifier(k=5).fit(X, y)
    sm = KNeighborsClassifier(n_neighbors=5).fit(X, y)
    check = lambda pp, sp: f"same label on {np.mean(pp == sp):.2%} of queries"  # noqa: E731
    return lambda: pm.predict(Q), lambda: sm.predict(Q), check


def _agglomerative_fit(linkage):
    def prepare():
        import pellucid
        from sklearn.cluster import AgglomerativeClustering
        X = classification()[0][:N_AGGLOMERATIVE]
        p = lambda: pellucid.AgglomerativeClustering(k=3, linkage=linkage).fit(X)  # noqa: E731
        s = lambda: AgglomerativeClustering(n_clusters=3, linkage=linkage).fit(X)  # noqa: E731
        return p, s, lambda pm, sm: f"same partition: {_same_partition(pm.labels_, sm.labels_)}"
    return prepare


def _same_partition(a, b):
    pairs = set(zip(np.asarray(a).tolist(), np.asarray(b).tolist()))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def _pca_fit():
    import pellucid
    from sklearn.decomposition import PCA
    X, _ = classification()

    def check(pm, sm):
        diff = np.abs(pm.explained_variance_ - sm.explained_variance_).max() / sm.explained_variance_.max()
        return f"max relative eigenvalue diff {diff:.1e}"
    return lambda: pellucid.PCA().fit(X), lambda: PCA().fit(X), check


def _grid_predict(kind):
    def prepare():
        import pellucid
        from sklearn.linear_model import LogisticRegression
        from sklearn.naive_bayes import GaussianNB
        from sklearn.neighbors import KNeighborsClassifier
        from sklearn.tree import DecisionTreeClassifier
        X2, y, G = grid_2d()
        pm, sm = {
            "tree": (pellucid.DecisionTreeClassifier(criterion="entropy"),
                     DecisionTreeClassifier(criterion="entropy", random_state=0)),
            "logistic": (pellucid.LogisticRegression(l2=1.0 / len(X2)), LogisticRegression(C=1.0, max_iter=1000)),
            "gaussian_nb": (pellucid.GaussianNB(), GaussianNB()),
            "knn": (pellucid.KNeighborsClassifier(k=5), KNeighborsClassifier(n_neighbors=5)),
        }[kind]
        pm.fit(X2, y)
        sm.fit(X2, y)
        check = lambda pp, sp: f"same label on {np.mean(pp == sp):.2%} of the grid"  # noqa: E731
        return lambda: pm.predict(G), lambda: sm.predict(G), check
    return prepare


def _k(n):
    return f"{n // 1000}k"


WORKLOADS = [
    Workload("decision tree fit (entropy), 20k x 10", "fit", _tree_fit(N)),
    Workload("logistic regression fit (converged), 20k x 10", "fit", _logistic_fit(N)),
    Workload("logistic regression fit, 35k x 20 standardised + 5 one-hot columns", "fit",
             _logistic_fit(35_000, categorical=5)),
    Workload("logistic regression fit, 35k x 20 standardised", "fit", _logistic_fit(35_000, categorical=0)),
    Workload("linear regression fit, 20k x 10", "fit", _linear_fit),
    Workload("Gaussian NB fit, 20k x 10", "fit", _gaussian_nb_fit),
    Workload("k-NN predict, 2k queries vs 20k rows, k=5", "fit", _knn_predict),
    Workload("k-means fit (k=3, one init) x 10 seeds, 20k x 10", "fit", _kmeans_fit(N)),
    Workload("agglomerative single-link fit, 3k x 10", "fit", _agglomerative_fit("single")),
    Workload("agglomerative complete-link fit, 3k x 10", "fit", _agglomerative_fit("complete")),
    Workload("PCA fit (all components), 20k x 10", "fit", _pca_fit),
    Workload("grid predict 200x200: decision tree", "grid", _grid_predict("tree")),
    Workload("grid predict 200x200: logistic regression", "grid", _grid_predict("logistic")),
    Workload("grid predict 200x200: Gaussian NB", "grid", _grid_predict("gaussian_nb")),
    Workload("grid predict 200x200: k-NN (k=5)", "grid", _grid_predict("knn")),
    *[Workload(f"scaling: decision tree fit, {_k(n)} x 10", "scaling", _tree_fit(n)) for n in SCALING_SIZES],
    *[Workload(f"scaling: k-means fit x 10 seeds, {_k(n)} x 10", "scaling", _kmeans_fit(n))
      for n in SCALING_SIZES],
    *[Workload(f"scaling: logistic regression fit, {_k(n)} x 10", "scaling", _logistic_fit(n))
      for n in SCALING_SIZES],
]


def names():
    return [w.name for w in WORKLOADS]


# --- timing ------------------------------------------------------------------------------------------

def _timed(call, calls=1):
    """(seconds per call, the last call's result) of `calls` calls in a row."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(calls):
            result = call()
        return (time.perf_counter() - start) / calls, result
    finally:
        gc.enable()


def measure(workload, repeats=5):
    """{"name", "group", "pellucid_ms", "sklearn_ms", "ratio", "met", "repeats", "calls", "check"} for one
    workload: the best time per call of each side, over `repeats` samples of `calls` calls each."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence chatter is reported by `check`, not as warnings
        p_call, s_call, check = workload.prepare()
        calls, p_times, s_times, spent = 1, [], [], 0.0
        while len(p_times) < repeats or (spent < MIN_TIME and len(p_times) < MAX_REPEATS):
            tp, p_result = _timed(p_call, calls)
            ts, s_result = _timed(s_call, calls)
            spent += (tp + ts) * calls
            faster = min(tp, ts)
            if faster * calls < BATCH_TIME / 2 and calls < MAX_CALLS:  # too short for the clock: more calls
                calls = min(MAX_CALLS, math.ceil(BATCH_TIME / max(faster, 1e-9)))  # per sample, and the
                p_times, s_times = [], []  # shorter samples are dropped
                continue
            p_times.append(tp)
            s_times.append(ts)
        try:
            note = check(p_result, s_result)
        except Exception as exc:  # a check is informative only; never lose the timing over it
            note = f"check failed: {type(exc).__name__}: {exc}"
    p_best, s_best = min(p_times) * 1e3, min(s_times) * 1e3
    ratio = p_best / s_best
    return {"name": workload.name, "group": workload.group, "pellucid_ms": p_best, "sklearn_ms": s_best,
            "ratio": ratio, "met": ratio <= TARGET_RATIO, "repeats": len(p_times), "calls": calls,
            "check": note}


def run_one(name, repeats=5):
    return measure(next(w for w in WORKLOADS if w.name == name), repeats)


def run(repeats=5, only=None, progress=None):
    """Measure every workload (or those whose name contains one of `only`), in the order defined."""
    results = []
    for workload in WORKLOADS:
        if only and not any(part in workload.name for part in only):
            continue
        result = measure(workload, repeats)
        if progress:
            progress(result)
        results.append(result)
    return results


# --- reporting ---------------------------------------------------------------------------------------

def _ms(value):
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def table(results):
    """The Markdown results table."""
    lines = ["| workload | pellucid (ms) | scikit-learn (ms) | ratio (pellucid/sklearn) | target met |",
             "|---|---:|---:|---:|:---:|"]
    for r in results:
        lines.append(f"| {r['name']} | {_ms(r['pellucid_ms'])} | {_ms(r['sklearn_ms'])} | {r['ratio']:.2f} | "
                     f"{'yes' if r['met'] else 'NO'} |")
    return "\n".join(lines)


def checks_table(results):
    """What each pair computed, side by side (pellucid vs scikit-learn), and how often each was timed
    (samples, times the calls per sample when more than one)."""
    lines = ["| workload | runs | pellucid vs scikit-learn |", "|---|---:|---|"]
    lines += [f"| {r['name']} | {_runs(r)} | {r['check']} |" for r in results]
    return "\n".join(lines)


def _runs(result):
    calls = result.get("calls", 1)
    return f"{result['repeats']} x {calls}" if calls > 1 else str(result["repeats"])


def scaling_table(results):
    """How each cost grows: time at each size relative to the smallest size."""
    rows = {}
    for r in results:
        if r["group"] == "scaling":
            model, size = r["name"].removeprefix("scaling: ").rsplit(", ", 1)
            rows.setdefault(model, []).append((size, r["pellucid_ms"], r["sklearn_ms"]))
    lines = ["| model | size | pellucid (ms) | x smallest | scikit-learn (ms) | x smallest |",
             "|---|---|---:|---:|---:|---:|"]
    for model, entries in rows.items():
        p0, s0 = entries[0][1], entries[0][2]
        for size, p, s in entries:
            lines.append(f"| {model} | {size} | {_ms(p)} | {p / p0:.1f} | {_ms(s)} | {s / s0:.1f} |")
    return "\n".join(lines)
