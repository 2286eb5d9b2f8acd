"""Trees with missing numbers inside Pyodide (wasm32 numpy, 32-bit indices): the growers' gap handling,
routing rows with gaps, and a packed model file give there the tree and answers of a native run."""

import shutil
import textwrap

import numpy as np
import pytest

import pellucid

SCRIPT = textwrap.dedent("""
    import json
    import numpy as np
    import pellucid
    rng = np.random.default_rng(4)
    X = rng.normal(size=(3000, 4))
    y = ((X[:, 0] > 0) ^ (X[:, 3] > 0.5) ^ (rng.random(3000) < 0.3)).astype(int)
    X[X[:, 3] > 0.5, 3] = np.nan
    X[rng.random(X.shape) < 0.1] = np.nan
    for trace in (False, True):
        tree = pellucid.DecisionTreeClassifier(max_depth=6, trace=trace).fit(X, y)
        print("tree", trace, tree.tree_.feature.tolist(), tree.tree_.missing_left.astype(int).tolist(),
              tree.tree_.gap_nodes.astype(int).tolist())
    back = pellucid.from_dict(json.loads(json.dumps(pellucid.DecisionTreeClassifier().fit(X, y).to_dict())))
    print("predicted", back.predict(X).tolist())
""")


def native():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(3000, 4))
    y = ((X[:, 0] > 0) ^ (X[:, 3] > 0.5) ^ (rng.random(3000) < 0.3)).astype(int)
    X[X[:, 3] > 0.5, 3] = np.nan
    X[rng.random(X.shape) < 0.1] = np.nan
    return X, y


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_trees_with_gaps_grow_and_answer_as_natively(run_in_pyodide):
    printed = run_in_pyodide(SCRIPT)
    X, y = native()
    for trace in (False, True):
        tree = pellucid.DecisionTreeClassifier(max_depth=6, trace=trace).fit(X, y).tree_
        line = f"tree {trace} {tree.feature.tolist()} {tree.missing_left.astype(int).tolist()} " \
               f"{tree.gap_nodes.astype(int).tolist()}"
        assert line in printed.splitlines()
    model = pellucid.DecisionTreeClassifier().fit(X, y)
    assert model.tree_.node_count > 1000  # packed in its model file
    assert f"predicted {model.predict(X).tolist()}" in printed.splitlines()
