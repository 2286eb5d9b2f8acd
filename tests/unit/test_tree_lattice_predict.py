"""A tree routes the rows of a lattice (a boundary's grid) per line and column of the lattice: every row
still ends in the node the level-by-level routing gives it, and rows that are not a lattice go the usual
way."""

import numpy as np
import pytest

from pellucid import DecisionTreeClassifier, DecisionTreeRegressor
from pellucid.learners.tree import routing
from pellucid.learners.tree.held import FixedTree

SEEDS = range(6)


def _lattice(xs, ys, held=(), order=(0, 1)):
    """Rows i * len(xs) + j holding xs[j] and ys[i] (in the columns `order` names), then `held` values."""
    gx, gy = np.meshgrid(xs, ys)
    columns = [None, None]
    columns[order[0]], columns[order[1]] = gx.ravel(), gy.ravel()
    return np.column_stack(columns + [np.full(gx.size, v) for v in held])


def _data(rng, n, d):
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0, d)
    X[:, 0] = np.round(X[:, 0], 1)  # repeated values: lattice points fall exactly on thresholds
    y = (X[:, 0] + X[:, 1] ** 2 + rng.normal(size=n) > 1).astype(int) + (X[:, -1] > 0.5)
    return X, y


def _axes(rng, X, column, count):
    """`count` values over the column's range and beyond, some exactly on training values, maybe
    descending."""
    lo, hi = X[:, column].min(), X[:, column].max()
    values = np.linspace(lo - 0.2 * (hi - lo), hi + 0.2 * (hi - lo), count)
    values[rng.integers(0, count, count // 4)] = rng.choice(X[:, column], count // 4)
    return values if rng.random() < 0.7 else values[::-1]


def _levels(model, Q):
    """The readable routing: every row moves down one level per pass (Tree._apply_levels)."""
    return model.tree_._apply_levels(Q, model._is_categorical)


@pytest.fixture
def lattice_calls(monkeypatch):
    """How many times the Router found the boxes per line and column."""
    calls = []
    original = routing.Router._lattice_boxes
    monkeypatch.setattr(routing.Router, "_lattice_boxes", lambda *args: calls.append(1) or original(*args))
    return calls


@pytest.mark.parametrize("seed", SEEDS)
def test_lattice_rows_end_where_the_levels_route_them(seed, lattice_calls):
    rng = np.random.default_rng(seed)
    d = int(rng.integers(2, 5))
    X, y = _data(rng, int(rng.integers(1500, 4000)), d)
    model = DecisionTreeClassifier(criterion="entropy").fit(X, y)
    xs, ys = _axes(rng, X, 0, int(rng.integers(60, 130))), _axes(rng, X, 1, int(rng.integers(60, 130)))
    held = [X[rng.integers(len(X)), j] for j in range(2, d)]  # on training values: thresholds may hold them
    for order in ((0, 1), (1, 0)):  # the first feature varying fastest, then the second
        Q = _lattice(xs, ys, held, order)
        assert routing.lattice_shape(Q, range(d)) is not None
        nodes = model.apply(Q)
        np.testing.assert_array_equal(nodes, _levels(model, Q))
    assert len(lattice_calls) == 2  # the boxes were found per line and column


@pytest.mark.parametrize("seed", SEEDS)
def test_lattice_predictions_equal_those_of_the_same_rows_in_another_order(seed, lattice_calls):
    rng = np.random.default_rng(seed + 10)
    X, y = _data(rng, 3000, 2)
    target = X[:, 0] * 2 + np.sin(3 * X[:, 1])
    Q = _lattice(_axes(rng, X, 0, 150), _axes(rng, X, 1, 90))
    shuffled = rng.permutation(len(Q))
    assert routing.lattice_shape(Q[shuffled], [0, 1]) is None
    for model in (DecisionTreeClassifier().fit(X, y), DecisionTreeRegressor(min_samples_leaf=2).fit(X, target)):
        np.testing.assert_array_equal(model.predict(Q)[shuffled], model.predict(Q[shuffled]))
    assert len(lattice_calls) == 2


@pytest.mark.parametrize("seed", SEEDS)
def test_fixed_tree_routes_a_lattice_as_the_whole_tree(seed, lattice_calls):
    rng = np.random.default_rng(seed + 20)
    X, y = _data(rng, 3000, 4)
    model = DecisionTreeClassifier(criterion="entropy").fit(X, y)
    held = {2: float(X[5, 2]), 3: float(X[7, 3])}
    Q = _lattice(_axes(rng, X, 0, 100), _axes(rng, X, 1, 120), held.values())
    fixed = FixedTree(model.tree_, held, model._is_categorical)
    np.testing.assert_array_equal(fixed.apply(Q[:, :2]), _levels(model, Q))
    assert lattice_calls


def test_lattice_shape_says_which_features_vary_along_a_line():
    Q = _lattice(np.arange(70.0), np.arange(80.0) * 2, held=[5.0])
    assert routing.lattice_shape(Q, [0, 1, 2]) == (80, {0: True, 1: False, 2: False})  # held: flat lines
    assert routing.lattice_shape(_lattice(np.arange(70.0), np.arange(80.0), order=(1, 0)), [0, 1]) == \
        (80, {0: False, 1: True})


def test_rows_that_are_no_lattice_are_not_taken_for_one():
    Q = _lattice(np.arange(70.0), np.arange(80.0))
    changed = Q.copy()
    changed[1000, 0] += 0.5  # one point moved
    with_nan = Q.copy()
    with_nan[:, 0] = np.nan
    one_line = Q[:70]
    cut_short = Q[:-1]
    three_varying = np.column_stack([Q, np.arange(len(Q))])
    for rows, features in ((changed, [0, 1]), (with_nan, [0, 1]), (one_line, [0, 1]), (cut_short, [0, 1]),
                           (three_varying, [0, 1, 2]), (Q[:, :1], [0])):
        assert routing.lattice_shape(rows, features) is None
    assert routing.lattice_shape(three_varying, [0, 1]) is not None  # the third column is not the tree's


def test_a_moved_point_is_routed_as_any_row():
    rng = np.random.default_rng(7)
    X, y = _data(rng, 3000, 2)
    model = DecisionTreeClassifier().fit(X, y)
    Q = _lattice(_axes(rng, X, 0, 100), _axes(rng, X, 1, 100))
    Q[4321] = X[0]  # no longer a lattice
    np.testing.assert_array_equal(model.apply(Q), _levels(model, Q))


def test_lattices_whose_first_values_repeat_route_as_the_levels_do():
    rng = np.random.default_rng(8)
    X, y = _data(rng, 3000, 2)
    model = DecisionTreeClassifier().fit(X, y)
    xs, ys = _axes(rng, X, 0, 90), _axes(rng, X, 1, 80)
    xs[1], ys[1] = xs[0], ys[0]
    paired = _lattice(xs[1:], np.repeat(ys[1:41], 2))  # every line twice: read as 40 lines of twice the length
    assert routing.lattice_shape(paired, [0, 1]) == (40, {0: True, 1: False})
    for Q in (_lattice(xs, ys), _lattice(xs[1:], ys), paired):  # a line that starts flat; two first lines alike
        np.testing.assert_array_equal(model.apply(Q), _levels(model, Q))
