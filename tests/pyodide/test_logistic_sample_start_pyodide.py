"""In Pyodide (wasm32 numpy without BLAS, 32-bit indices), a logistic fit on enough rows starts Newton from
the fit on a sample of them and stops at the traced fit's optimum in fewer full steps."""

import shutil
import textwrap

import pytest


SCRIPT = textwrap.dedent("""
    import numpy as np
    import pellucid
    from pellucid.learners.logistic import logistic_fast, sample_start as logistic_sample_start
    assert not logistic_fast.HAS_BLAS
    starts = []
    original = logistic_sample_start.sample_start
    def noting(*args):
        starts.append(original(*args))
        return starts[-1]
    pellucid.learners.logistic.logistic.sample_start = noting
    rng = np.random.default_rng(7)
    n = 17_600  # a sample of 1,100 rows
    y = rng.integers(0, 3, n)
    X = rng.normal(size=(n, 4)) + y[:, None] * rng.normal(size=4)
    X = np.hstack([X] + [np.eye(4)[(y + rng.integers(0, 2, n)) % 4] for _ in range(2)])
    fast = pellucid.LogisticRegression(l2=1e-3, tol=1e-8).fit(X, y)
    readable = pellucid.LogisticRegression(l2=1e-3, tol=1e-8, trace=True).fit(X, y)
    assert len(starts) == 1 and starts[0] is not None, starts
    assert fast.converged_ and fast.n_iter_ < readable.n_iter_, (fast.n_iter_, readable.n_iter_)
    assert abs(fast.loss_curve_[-1] - readable.loss_curve_[-1]) <= 1e-9 * readable.loss_curve_[-1]
    np.testing.assert_allclose(fast.predict_proba(X), readable.predict_proba(X), atol=1e-6)
    print("ok", fast.n_iter_, readable.n_iter_)
""")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_sampled_start_in_pyodide_reaches_the_traced_fits_optimum(run_in_pyodide):
    printed = run_in_pyodide(SCRIPT)
    assert printed.startswith("ok "), printed
