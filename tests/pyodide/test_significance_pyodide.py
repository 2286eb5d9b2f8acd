"""Repeated k-fold and the corrected resampled t-test inside Pyodide (wasm32 numpy, 32-bit indices): the
folds, the fold scores and the p-values Compare learners gives there are those of a native run."""

import shutil
import textwrap

import numpy as np
import pytest

from pellucid.evaluation.significance import corrected_resampled_t_test
from pellucid.evaluation.splits import RepeatedStratifiedKFold

SCRIPT = textwrap.dedent("""
    import numpy as np
    from pellucid.evaluation.significance import corrected_resampled_t_test
    from pellucid.evaluation.splits import RepeatedStratifiedKFold
    y = np.array(["a", "b", "c"] * 30 + ["a"] * 7)
    folds = [test.tolist() for _, test in RepeatedStratifiedKFold(4, 3, seed=9).split(np.zeros((len(y), 1)), y)]
    print("folds", folds)
    rng = np.random.default_rng(5)
    a, b = rng.uniform(0.7, 0.9, 12), rng.uniform(0.7, 0.9, 12)
    print("p", repr(corrected_resampled_t_test(a, b, 72, 24)["p_value"]))
""")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_folds_and_p_values_are_the_native_ones(run_in_pyodide):
    printed = run_in_pyodide(SCRIPT)
    lines = dict(line.split(" ", 1) for line in printed.splitlines() if line.startswith(("folds ", "p ")))
    y = np.array(["a", "b", "c"] * 30 + ["a"] * 7)
    native = [test.tolist() for _, test in RepeatedStratifiedKFold(4, 3, seed=9).split(np.zeros((len(y), 1)), y)]
    assert lines["folds"] == str(native)
    rng = np.random.default_rng(5)
    a, b = rng.uniform(0.7, 0.9, 12), rng.uniform(0.7, 0.9, 12)
    assert float(lines["p"]) == corrected_resampled_t_test(a, b, 72, 24)["p_value"]
