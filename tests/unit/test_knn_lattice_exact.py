"""The lattice search of a boundary's grid (learners/neighbors/grid.py) gives the definition's neighbours
(neighbors.k_nearest: every distance measured, the k smallest kept, equal distances by training row) to
the last bit where its shortcuts could part from it:
- with no held column the grid's plane scores are taken as the distances (no second measure), so two
  squared distances one bit apart whose square roots are equal must still tie, and go by training row;
- with held columns the distances are measured from the rows' gaps to the held values (one-hot columns
  among them), with u and w put in;
- the rows' index is made once where the bounds grow a little from level to level."""

import numpy as np
import pytest

from pellucid.learners.neighbors import distance_scores, neighbors, neighbors_fast, grid as neighbors_grid


def _grid(xs, ys, held_at, u, w):
    """Queries over the lattice of xs (varying fastest, in column u) and ys (column w), every other column
    held at held_at: a decision boundary's grid."""
    gx, gy = np.meshgrid(xs, ys)
    Q = np.tile(np.asarray(held_at, dtype=float), (gx.size, 1))
    Q[:, u], Q[:, w] = gx.ravel(), gy.ravel()
    return Q


def _searched_as_the_definition(Q, X, k, metric, monkeypatch):
    """Search Q through neighbors_fast (checking that it went the lattice way) and compare with the definition."""
    searched = []
    monkeypatch.setattr(neighbors_fast, "nearest_on_lattice",
                        lambda *args, search=neighbors_grid.nearest_on_lattice: searched.append(1) or search(*args))
    fast = neighbors_fast.nearest_neighbors(Q, neighbors_fast.prepare(X, metric), metric, k)
    readable = neighbors.k_nearest(Q, X, k, metric)
    assert searched and neighbors_grid.lattice(Q) is not None
    assert np.array_equal(fast[1], readable[1])
    assert np.array_equal(fast[0], readable[0])
    return fast


def test_two_features_add_their_squares_as_written():
    """exact's distance in two features is the square root of d_1^2 + d_2^2 added as written, the very
    sum the lattice scores; in more it is einsum's."""
    rng = np.random.default_rng(0)
    diff = rng.normal(size=(1000, 2)) * rng.uniform(1e-3, 1e3, size=(1000, 2))
    squares = diff * diff
    assert np.array_equal(distance_scores.length_of_differences(diff, "euclidean"),
                          np.sqrt(squares[:, 0] + squares[:, 1]))
    assert np.array_equal(distance_scores.length_of_differences(-diff, "euclidean"),
                          distance_scores.length_of_differences(diff, "euclidean"))  # x - q or q - x
    assert np.array_equal(distance_scores.length_of_differences(diff, "manhattan"),
                          np.abs(diff[:, 0]) + np.abs(diff[:, 1]))


@pytest.mark.parametrize("u", [0, 1])
def test_squares_one_bit_apart_with_one_root_tie_by_training_row(u, monkeypatch):
    """Row 0 is at squared distance 2.0000000000000004 from the lattice's point (0, 0) and row 1 at 2.0:
    their distances, sqrt of each, are the same number, so row 0 comes first (k = 1 keeps it alone)."""
    assert np.sqrt(1.0 + 1.0000000000000002 ** 2) == np.sqrt(2.0)  # the premise
    rng = np.random.default_rng(1)
    far = rng.uniform(20, 30, size=(300, 2))  # rows far from (0, 0), so that the two are its nearest
    X = np.vstack([[1.0, 1.0000000000000002], [1.0, 1.0], far])
    if u == 1:
        X = X[:, ::-1].copy()  # the same rows with the features swapped: the sum in the other order
    Q = _grid(np.linspace(-3, 3, 25), np.linspace(-3, 3, 21), [0.0, 0.0], u, 1 - u)
    assert (Q == 0).all(axis=1).any()  # (0, 0) is a point of the lattice
    distances, indices = _searched_as_the_definition(Q, X, 1, "euclidean", monkeypatch)
    at_origin = np.flatnonzero((Q == 0).all(axis=1))[0]
    assert indices[at_origin, 0] == 0


@pytest.mark.parametrize("metric", ["euclidean", "manhattan"])
@pytest.mark.parametrize("k", [1, 4, 30, 200])
def test_integer_rows_and_lattice_with_every_kind_of_tie(metric, k, monkeypatch):
    """Rows on integer points (many duplicated), a lattice through them with half steps: points on rows,
    equal distances everywhere, k from 1 to the whole training set."""
    rng = np.random.default_rng(k)
    X = rng.integers(-5, 6, size=(200, 2)).astype(float)
    Q = _grid(np.arange(-14, 15) / 2.0, np.arange(-12, 13) / 2.0, [0.0, 0.0], 0, 1)
    _searched_as_the_definition(Q, X, k, metric, monkeypatch)


@pytest.mark.parametrize("metric", ["euclidean", "manhattan"])
@pytest.mark.parametrize("seed", range(4))
def test_one_hot_held_columns(metric, seed, monkeypatch):
    """Numeric features and one-hot encoded categories held at one row's values (or at a category no row
    has), the two varying features anywhere among the columns: the page's boundary with categorical columns."""
    rng = np.random.default_rng(seed)
    n, numeric, categories = 1500, 4, 5
    codes = rng.integers(0, categories, size=(n, 2))
    one_hot = np.hstack([np.eye(categories)[codes[:, j]] for j in range(2)])  # (n, 10)
    X = np.hstack([rng.normal(size=(n, numeric)), one_hot])
    X[rng.integers(0, n, 100)] = X[rng.integers(0, n, 100)]  # duplicate rows
    held_at = X[int(rng.integers(0, n))].copy()
    if seed % 2:
        held_at[numeric:numeric + categories] = 0.0  # a category never seen: all zeros
    u, w = rng.choice(numeric, 2, replace=False)
    Q = _grid(np.linspace(-3, 3, 40), np.linspace(-2.5, 3.5, 33), held_at, u, w)
    _searched_as_the_definition(Q, X, int(rng.choice([1, 5, 12])), metric, monkeypatch)


def test_grid_far_from_the_data_with_held_columns(monkeypatch):
    """A lattice far outside the rows (its bounds large and growing from level to level)."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(2000, 6))
    Q = _grid(np.linspace(40, 60, 30), np.linspace(-70, -50, 30), X[3], 2, 4)
    _searched_as_the_definition(Q, X, 5, "euclidean", monkeypatch)


@pytest.mark.parametrize("seed", range(6))
def test_neighbour_sets_without_distances_are_the_definitions(seed):
    """distances=False (a uniform vote): each query's k rows, in any order, are the definition's k; where
    the scores cannot decide (a row within rounding of a k-th: integer rows) the distances come too."""
    rng = np.random.default_rng(seed)
    tied = seed % 2 == 1
    X = rng.integers(-4, 5, size=(400, 3)).astype(float) if tied else rng.normal(size=(400, 3))
    Q = _grid(np.linspace(-4, 4, 33) if tied else np.linspace(-3, 3, 31), np.linspace(-4, 4, 17), X[0], 0, 2)
    k, metric = int(rng.choice([1, 5, 9])), ("euclidean", "manhattan")[seed % 3 == 2]
    distances, indices = neighbors_fast.nearest_neighbors(Q, neighbors_fast.prepare(X, metric), metric, k,
                                                          distances=False)
    readable = neighbors.k_nearest(Q, X, k, metric)
    assert np.array_equal(np.sort(indices, axis=1), np.sort(readable[1], axis=1))
    if distances is not None:
        assert np.array_equal(indices, readable[1]) and np.array_equal(distances, readable[0])
    elif tied:
        pytest.fail("integer rows on a half-step lattice tie at some k-th place; the distances should come")


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_classifier_votes_on_a_grid_are_the_definitions(weights):
    """predict_proba on a boundary's grid: the votes of the definition's neighbours."""
    from pellucid import KNeighborsClassifier
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 4))
    y = np.where(X[:, 0] + X[:, 1] > 0, "a", np.where(X[:, 2] > 0.5, "b", "c"))
    model = KNeighborsClassifier(n_neighbors=7, weights=weights).fit(X, y)
    Q = _grid(np.linspace(-3, 3, 41), np.linspace(-3, 3, 37), X.mean(axis=0), 1, 3)
    dist, idx = neighbors.k_nearest(Q, X, 7, "euclidean")
    w = np.ones_like(dist) if weights == "uniform" else 1.0 / dist
    votes = np.stack([(w * (y[idx] == c)).sum(axis=1) for c in model.classes_], axis=1)
    np.testing.assert_allclose(model.predict_proba(Q), votes / votes.sum(axis=1, keepdims=True), rtol=1e-12)
    agree = model.predict(Q) == model.classes_[np.argmax(votes, axis=1)]
    if weights == "uniform":  # whole votes: equal, ties to the first class included
        assert agree.all()
    else:  # sums of 1/distance in another order: equal but where two classes' weights all but tie
        assert agree.mean() > 0.999
