"""In Pyodide (wasm32 numpy without BLAS, 32-bit indices), a logistic fit that reads its rows a block at a
time (row_blocks.py, as on a large table) stops where the traced fit stops, binary and softmax."""

import shutil
import textwrap

import pytest


SCRIPT = textwrap.dedent("""
    import numpy as np
    import pellucid
    from pellucid.learners.logistic import logistic_fast, row_blocks
    assert not logistic_fast.HAS_BLAS
    row_blocks.KEEP_CELLS, row_blocks.BLOCK_CELLS = 0, 5_000  # blocks of a few hundred rows
    rng = np.random.default_rng(3)
    for K in (2, 3):
        y = rng.integers(0, K, 4_000)
        X = rng.normal(size=(4_000, 6)) + y[:, None] * rng.normal(size=6)
        fast = pellucid.LogisticRegression(l2=1e-3).fit(X, y)
        readable = pellucid.LogisticRegression(l2=1e-3, trace=True).fit(X, y)
        assert fast.converged_ and fast.n_iter_ == readable.n_iter_, (fast.n_iter_, readable.n_iter_)
        np.testing.assert_allclose(fast.coef_, readable.coef_, rtol=1e-9, atol=1e-10)
        np.testing.assert_allclose(fast.intercept_, readable.intercept_, rtol=1e-9, atol=1e-10)
    print("ok")
""")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_streamed_fit_in_pyodide_equals_the_traced_fit(run_in_pyodide):
    printed = run_in_pyodide(SCRIPT)
    assert printed.startswith("ok"), printed
