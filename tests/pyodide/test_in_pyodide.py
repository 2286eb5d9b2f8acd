"""Every learner fits and predicts inside Pyodide (wasm32 numpy, where indices are 32-bit), on data large
enough to take the fast paths: the KD-tree search, the tree's box router, chunked Hessians."""

import shutil
import textwrap

import pytest


SCRIPT = textwrap.dedent("""
    import warnings
    import numpy as np
    import pellucid
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    grid = np.stack(np.meshgrid(np.linspace(-3, 3, 200), np.linspace(-3, 3, 200)), -1).reshape(-1, 2)
    for name, cls in pellucid.all_estimators().items():
        model = cls()
        counts = name == "MultinomialNB"  # it needs non-negative counts
        data = np.abs(X).round(1) if counts else X
        rows = 600 if name in ("AgglomerativeClustering", "KernelRegression", "KernelPerceptron") else 3000
        target = y[:rows] if cls.task in ("classification", "regression") else None
        model.fit(data[:rows], target)
        queries = np.abs(grid) if counts else grid
        out = model.predict(queries) if hasattr(model, "predict") else model.transform(queries)
        assert len(out) == len(queries), name
        print("ok", name)
    from pellucid.learners.neighbors.neighbors import nearest_neighbors, prepare
    X10 = rng.normal(size=(5000, 10)) + 4.0 * rng.integers(0, 2, size=(5000, 1))
    prepared = prepare(X10, "euclidean")
    tree, brute = (nearest_neighbors(X10[:500] + 0.1, prepared, "euclidean", 5, search=s) for s in ("tree", "brute"))
    assert all(np.array_equal(a, b) for a, b in zip(tree, brute))
    print("ok k-NN-tree-10-D")
    big = rng.normal(size=(120000, 10))
    model = pellucid.LogisticRegression().fit(big, (big[:, 0] > 0).astype(int))
    print("ok LogisticRegression 120k", model.n_iter_)
""")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_every_learner_runs_in_pyodide(run_in_pyodide):
    printed = run_in_pyodide(SCRIPT)
    done = [line.split()[1] for line in printed.splitlines() if line.startswith("ok ")]
    assert set(pellucid_names()) | {"k-NN-tree-10-D"} <= set(done), printed


def pellucid_names():
    import pellucid
    return list(pellucid.all_estimators())
