"""Gradient boosting's histogram path inside Pyodide (wasm32 numpy, 32-bit indices): the bins, the
histograms' keys and the routing by bins give there the trees and answers of a native run, missing values
included, and the exact trees on a table of few values."""

import shutil
import textwrap

import numpy as np
import pytest

import pellucid

SCRIPT = textwrap.dedent("""
    import numpy as np
    import pellucid
    rng = np.random.default_rng(5)
    X = rng.normal(size=(3000, 5))
    X[:, 4] = rng.integers(0, 9, size=3000)
    y = np.digitize(X[:, 0] + X[:, 1] * X[:, 2] + 0.3 * X[:, 4] + 0.5 * rng.normal(size=3000), [-0.5, 1.0])
    X[rng.random(X.shape) < 0.05] = np.nan
    for max_bins, subsample in ((32, 1.0), (255, 0.7)):
        model = pellucid.GradientBoostingClassifier(n_estimators=10, max_bins=max_bins, subsample=subsample).fit(X, y)
        print("trees", max_bins, [tree.tree_.feature.tolist() for tree in model.estimators_.ravel()])
        print("proba", max_bins, np.round(model.predict_proba(X[:50]), 10).tolist())
    few = np.round(X, 1)
    exact = pellucid.GradientBoostingClassifier(n_estimators=10).fit(few, y)
    binned = pellucid.GradientBoostingClassifier(n_estimators=10, max_bins=255).fit(few, y)
    print("exact trees", all(np.array_equal(a.tree_.feature, b.tree_.feature) for a, b in
                             zip(exact.estimators_.ravel(), binned.estimators_.ravel())),
          float(np.abs(exact.decision_function(few) - binned.decision_function(few)).max()))
""")


def native():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(3000, 5))
    X[:, 4] = rng.integers(0, 9, size=3000)
    y = np.digitize(X[:, 0] + X[:, 1] * X[:, 2] + 0.3 * X[:, 4] + 0.5 * rng.normal(size=3000), [-0.5, 1.0])
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_the_histogram_path_grows_and_answers_as_natively(run_in_pyodide):
    lines = run_in_pyodide(SCRIPT).splitlines()
    X, y = native()
    for max_bins, subsample in ((32, 1.0), (255, 0.7)):
        model = pellucid.GradientBoostingClassifier(n_estimators=10, max_bins=max_bins, subsample=subsample).fit(X, y)
        assert f"trees {max_bins} {[tree.tree_.feature.tolist() for tree in model.estimators_.ravel()]}" in lines
        proba = next(line for line in lines if line.startswith(f"proba {max_bins} "))
        np.testing.assert_allclose(eval(proba.split(" ", 2)[2]), model.predict_proba(X[:50]), rtol=0, atol=1e-9)
    same, gap = next(line for line in lines if line.startswith("exact trees")).split()[2:]
    assert same == "True" and float(gap) < 1e-10
