"""In Pyodide (wasm32 numpy without BLAS, 32-bit indices), a logistic fit on one-hot columns sums their
Hessian blocks per category and reaches the traced fit's weights in the same iterations."""

import shutil
import textwrap

import pytest


SCRIPT = textwrap.dedent("""
    import numpy as np
    import pellucid
    from pellucid.learners.logistic import indicator_gram, logistic_fast
    assert not logistic_fast.HAS_BLAS
    made = []
    original = indicator_gram.IndicatorGram.__init__
    def noting(self, *args):
        original(self, *args)
        made.append(self.batches)
    indicator_gram.IndicatorGram.__init__ = noting
    rng = np.random.default_rng(3)
    n = 2000
    y = rng.integers(0, 3, n)
    X = rng.normal(size=(n, 4)) + y[:, None] * rng.normal(size=4)
    one_hot = [np.eye(size)[(y + rng.integers(0, 2, n)) % size] for size in (5, 4, 6, 3)]
    X = np.hstack([X] + one_hot)
    fast = pellucid.LogisticRegression(l2=0.001).fit(X, y)
    readable = pellucid.LogisticRegression(l2=0.001, trace=True).fit(X, y)
    assert made and len(made[0]) > 1, made  # several groups, joint tables and pairs across them
    assert fast.n_iter_ == readable.n_iter_, (fast.n_iter_, readable.n_iter_)
    np.testing.assert_allclose(fast.coef_, readable.coef_, rtol=1e-9, atol=1e-10)
    assert np.array_equal(fast.predict(X), readable.predict(X))
    print("ok", made[0], fast.n_iter_)
""")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs Pyodide outside the browser")
def test_one_hot_fit_in_pyodide_equals_the_traced_fit(run_in_pyodide):
    printed = run_in_pyodide(SCRIPT)
    assert printed.startswith("ok "), printed
