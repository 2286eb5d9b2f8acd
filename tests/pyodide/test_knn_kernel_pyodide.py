"""k-NN's WebAssembly kernel (web/wasm/knn.wat), run as the page runs it: inside Pyodide under Node,
registered as the worker registers it. Its searches find the same neighbours at the same distances as
numpy's score product in the same Pyodide, and as the definition (neighbors.k_nearest): on random data,
on duplicated rows (ties, some too many for the kernel's room), for k = 1 and k above half the rows,
with 60 features, on tiny sets, in KD-tree column order, and when models take turns in the kernel."""

import shutil
import subprocess
import sys
import textwrap

import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
import build  # noqa: E402

SCRIPT = textwrap.dedent("""
    import numpy as np
    import pellucid
    from pellucid.host import kernels
    from pellucid.learners.neighbors import distance_scores, neighbors_fast, wasm_kernel as neighbors_kernel
    from pellucid.learners.neighbors.neighbors import k_nearest

    real_searcher = neighbors_kernel.searcher
    seen = {"blocks": 0, "again": 0}

    class Counted:
        def __init__(self, inner):
            self.inner, self.block = inner, inner.block

        def candidates(self, side):
            found = self.inner.candidates(side)
            seen["blocks"] += 1
            seen["again"] += len(found[2])
            return found

    def counted(prepared, metric, k):
        found = real_searcher(prepared, metric, k)
        return None if found is None else Counted(found)

    def search(Q, X, metric, k, kernel, tree=False):
        neighbors_kernel.searcher = counted if kernel else (lambda *args: None)
        try:
            return neighbors_fast.nearest_neighbors(Q, neighbors_fast.prepare(X, metric, tree=tree), metric, k)
        finally:
            neighbors_kernel.searcher = real_searcher

    def check(name, Q, X, metric, k, tree=False, overflow=False):
        seen.update(blocks=0, again=0)
        with_kernel = search(Q, X, metric, k, True, tree)
        assert seen["blocks"] > 0, (name, "the kernel was not used")
        assert (seen["again"] > 0) == overflow, (name, seen)
        with_numpy = search(Q, X, metric, k, False, tree)
        for a, b in zip(with_kernel, with_numpy):
            assert np.array_equal(a, b), (name, "kernel and numpy differ")
        distances, indices = k_nearest(Q, X, k, metric)
        assert np.array_equal(with_kernel[1], indices), (name, "not the definition's neighbours")
        assert np.allclose(with_kernel[0], distances, rtol=1e-12, atol=1e-12), name
        print("ok", name)

    rng = np.random.default_rng(0)
    assert neighbors_kernel._kernel() is not None, "the kernel is not registered"
    X = rng.normal(size=(3000, 20))
    Q = rng.normal(size=(301, 20))  # not a multiple of the kernel's 4 queries
    for metric in ("euclidean", "cosine"):
        for k in (1, 5, 1600):  # 1600: more than half the training rows
            check(f"random-{metric}-k{k}", Q, X, metric, k)
    far = X * 3.0 + 1e6  # far from 0: scores are taken on centred data
    check("far-from-origin", far[:200] + rng.normal(size=(200, 20)), far, "euclidean", 7)
    check("tree-order", Q, X, "euclidean", 5, tree=True)  # the tree gives up at 20-D: columns in its order

    groups = rng.normal(size=(20, 8))
    ties = np.vstack([np.repeat(groups, 100, axis=0), rng.normal(size=(500, 8))])  # 100 copies of 20 rows
    check("duplicated-rows", np.vstack([groups, rng.normal(size=(40, 8))]), ties, "euclidean", 5)
    many = np.vstack([np.repeat(groups[:1], 1500, axis=0), rng.normal(size=(1000, 8))])
    check("too-many-ties", np.vstack([groups[:1], rng.normal(size=(10, 8))]), many, "euclidean", 3, overflow=True)
    check("cosine-ties", groups[:6] * 2.0, ties, "cosine", 4)

    wide = rng.normal(size=(2500, 60))
    check("60-features", rng.normal(size=(77, 60)), wide, "euclidean", 9)

    distance_scores._FAST_MIN_ROWS = neighbors_kernel._MIN_ROWS = 1  # let tiny sets through the kernel
    for n in (1, 5, 9):
        small = rng.normal(size=(n, 3))
        for k in sorted({1, (n + 1) // 2, n}):
            check(f"tiny-{n}-k{k}", rng.normal(size=(7, 3)), small, "euclidean", k)
    distance_scores._FAST_MIN_ROWS, neighbors_kernel._MIN_ROWS = 2048, 2048

    # Models take turns: a model's rows are copied into the kernel again only when another's were there.
    class CountedLoads:
        def __init__(self, inner):
            self.inner, self.loads = inner, 0

        def loadRows(self, *args):
            self.loads += 1
            return self.inner.loadRows(*args)

        def __getattr__(self, name):
            return getattr(self.inner, name)

    loads = kernels._found["knn"] = CountedLoads(neighbors_kernel._kernel())
    models = {name: (train, neighbors_fast.prepare(train, "euclidean", tree=False))
              for name, train in (("first", X), ("second", rng.normal(size=(2600, 20)) * 2.0))}
    for name in ("first", "first", "second", "first"):
        train, prepared = models[name]
        found = neighbors_fast.nearest_neighbors(Q[:50], prepared, "euclidean", 5)
        assert np.array_equal(found[1], k_nearest(Q[:50], train, 5, "euclidean")[1]), name
    assert loads.loads == 3, loads.loads
    kernels._found["knn"] = loads.inner
    print("ok turns")

    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    model = pellucid.KNeighborsClassifier(n_neighbors=7).fit(X, y)
    neighbors_kernel.searcher = lambda *args: None
    plain = model.predict_proba(Q)
    neighbors_kernel.searcher = real_searcher
    assert np.array_equal(model.predict_proba(Q), plain)
    print("ok classifier")
""")


@pytest.fixture(scope="module")
def site(built_site):
    return built_site


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_the_kernel_finds_the_neighbours_numpy_finds(site, tmp_path):
    assert (site / "wasm" / "knn.wasm").exists(), "the build did not compile web/wasm/knn.wat"
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    run = subprocess.run(["node", str(build.ROOT / "tests" / "knn_kernel_run.mjs"), str(site), str(script)],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    done = {line.split()[1] for line in run.stdout.splitlines() if line.startswith("ok ")}
    expected = {f"random-{m}-k{k}" for m in ("euclidean", "cosine") for k in (1, 5, 1600)} | {
        "far-from-origin", "tree-order", "duplicated-rows", "too-many-ties", "cosine-ties", "60-features",
        "tiny-1-k1", "tiny-5-k3", "tiny-9-k9", "turns", "classifier"}
    assert expected <= done, run.stdout
