"""Greedy k-means++ seeding on a hand-checkable example: the candidates drawn with probability D(x)^2,
their potentials sum D(x)^2, the one of least potential kept; one trial is the notes' plain draw."""

import numpy as np
import pytest

from pellucid import KMeans, from_dict
from pellucid.core.errors import DataError
from pellucid.learners.kmeans.kmeans import kmeans_plus_plus, local_trials

X = np.array([[0.0], [1.0], [10.0], [11.0]])  # D(x)^2 from row 0: 0, 1, 100, 121 (cumulative 0, 1, 101, 222)


class Draws:
    """A generator stand-in: the first centre is row 0, then the uniform numbers given, in order."""

    def __init__(self, *uniforms):
        self.uniforms = list(uniforms)

    def integers(self, n):
        return 0

    def random(self, size=None):
        if size is None:
            return self.uniforms.pop(0)
        return np.array([self.uniforms.pop(0) for _ in range(size)])


def test_two_candidates_the_one_leaving_less_potential_is_kept():
    trace = []
    # 0.002 * 222 = 0.444 falls in row 1's share (0, 1]; 0.5 * 222 = 111 in row 3's (101, 222]
    rows = kmeans_plus_plus(X, 2, Draws(0.002, 0.5), trace=trace, n_local_trials=2)
    seed = trace[1]
    assert seed["candidates"] == [1, 3]
    # with row 1 (x=1): D^2 = 0, 0, 81, 100 -> 181; with row 3 (x=11): 0, 1, 1, 0 -> 2
    assert seed["potentials"] == pytest.approx([181.0, 2.0])
    assert seed["chosen"] == 3 and rows.tolist() == [0, 3]
    assert seed["probabilities"]["p"] == pytest.approx([0, 1 / 222, 100 / 222, 121 / 222])


def test_potential_carries_to_the_next_centre():
    # after rows 0 and 3: D^2 = 0, 1, 1, 0 (cumulative 0, 1, 2, 2); 0.25 * 2 = 0.5 -> row 1, 0.75 * 2 = 1.5 -> row 2
    trace = []
    rows = kmeans_plus_plus(X, 3, Draws(0.002, 0.5, 0.25, 0.75), trace=trace, n_local_trials=2)
    assert trace[2]["candidates"] == [1, 2]
    assert trace[2]["potentials"] == pytest.approx([1.0, 1.0])  # a tie keeps the first drawn
    assert rows.tolist() == [0, 3, 1]


def test_one_trial_is_the_notes_single_draw():
    trace = []
    rows = kmeans_plus_plus(X, 2, Draws(0.002), trace=trace, n_local_trials=1)
    assert rows.tolist() == [0, 1]  # the drawn row, however much potential it leaves
    assert "candidates" not in trace[1] and "potentials" not in trace[1]


@pytest.mark.parametrize("k, trials", [(1, 2), (2, 2), (3, 3), (7, 3), (8, 4), (20, 4), (21, 5)])
def test_default_trials_are_two_plus_floor_ln_k(k, trials):
    assert local_trials(k) == trials
    assert local_trials(k, 1) == 1


def test_the_default_is_greedy_and_one_trial_the_plain_seeding():
    rng_rows = np.random.default_rng(0).normal(size=(60, 2))
    greedy = KMeans(n_clusters=4, random_state=2, trace=True).fit(rng_rows)
    assert greedy.n_local_trials is None
    assert all(len(t["candidates"]) == 3 for t in greedy.trace_[1:4])  # 2 + floor(ln 4)
    plain = KMeans(n_clusters=4, random_state=2, n_local_trials=1, trace=True).fit(rng_rows)
    assert all("candidates" not in t for t in plain.trace_ if t["step"] == "seed")


def test_n_local_trials_is_checked_and_kept_in_model_files():
    for bad in (0, 101, 10 ** 9):  # 10 ** 9 would ask for a (10 ** 9, n) block of distances
        with pytest.raises(DataError, match="n_local_trials"):
            KMeans(n_local_trials=bad).fit(X)
    model = KMeans(n_clusters=2, n_local_trials=1).fit(X)
    assert from_dict(model.to_dict()).n_local_trials == 1
    damaged = model.to_dict()
    damaged["params"]["n_local_trials"] = -3
    with pytest.raises(DataError, match="n_local_trials"):
        from_dict(damaged)
