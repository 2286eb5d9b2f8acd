"""A numeric matrix is accepted after one pass (its sum of squares) when that shows every value finite and
at most 1e150 in magnitude; whatever it shows, what is accepted and refused is what the checks value by
value accept and refuse, and an accepted float matrix is used as it is, not copied."""

import numpy as np
import pytest

import pellucid
from pellucid.core.errors import DataError
from pellucid.core.values import finite_and_workable_at_once
from pellucid.tabular import features
from pellucid.tabular.features import read


def test_one_pass_accepts_only_finite_workable_matrices():
    ok = np.random.default_rng(0).normal(size=(50, 4))
    assert finite_and_workable_at_once(ok) and finite_and_workable_at_once(np.asfortranarray(ok))
    assert finite_and_workable_at_once(np.array([[1e150, 0.0]]))
    for bad in (np.nan, np.inf, -np.inf, 1.01e150, -1e151):
        X = ok.copy()
        X[3, 2] = bad
        assert not finite_and_workable_at_once(X)
    assert not finite_and_workable_at_once(np.full((200, 2), 1e149))  # workable, but left to the other checks
    assert not finite_and_workable_at_once(ok[:, ::2])  # not one run of memory: not read


def _outcome(model, Q):
    """What predicting Q gives: the predictions, or the error's type and message."""
    try:
        return model.predict(Q)
    except DataError as exc:
        return type(exc), str(exc)


def _matrices(X):
    yield X
    yield np.asfortranarray(X)
    yield np.hstack([X, X])[:, ::2]  # not one run of memory
    yield np.full((200, X.shape[1]), 1e149)  # workable, though its squares add up beyond 1e300
    for bad in (np.nan, np.inf, -np.inf, 1e151):
        Z = X.copy()
        Z[5, 1] = bad
        yield Z


@pytest.mark.parametrize("learner", ["GaussianNB", "KMeans", "KNeighborsRegressor"])
def test_the_learners_answer_what_they_answer_with_the_checks_value_by_value(learner, monkeypatch):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 6))
    model = getattr(pellucid, learner)()
    model.fit(X) if learner == "KMeans" else model.fit(X, (X[:, 0] > 0).astype(int))
    assert read(model, X) is X  # accepted in one pass, used as it is
    one_pass = [_outcome(model, Q) for Q in _matrices(X)]
    monkeypatch.setattr(features, "finite_and_workable_at_once", lambda M: False)
    for got, Q in zip(one_pass, _matrices(X)):
        expected = _outcome(model, Q)
        if isinstance(expected, tuple):
            assert got == expected
        else:
            assert np.array_equal(got, expected, equal_nan=True)
