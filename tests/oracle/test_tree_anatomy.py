"""A fitted tree's anatomy against scikit-learn's: feature_importances_, apply and decision_path, on data
where no two split candidates tie (checked), so both libraries grow the same tree."""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.tree import DecisionTreeClassifier as SkTree
from sklearn.tree import DecisionTreeRegressor as SkRegressor

from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _data(task, n=1000, d=5, seed=0):
    """Continuous features (float32 values, as scikit-learn stores them) and a target that depends on
    three of them, so the importances differ."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32).astype(float)  # (n, d)
    signal = 2.0 * X[:, 0] - X[:, 1] + 0.5 * X[:, 2] * X[:, 3] + rng.normal(scale=0.5, size=n)
    return X, (signal > 0).astype(int) if task == "classification" else signal


def _assert_no_tied_choice(tree):
    """The premise: at every split node, the chosen feature's gain beats every other feature's clearly."""
    for node in np.flatnonzero(tree.feature >= 0):
        gains = np.sort(np.nan_to_num(tree.candidates[node], nan=-np.inf))[::-1]
        assert gains[0] - gains[1] > 1e-9, f"node {node}: two features tie"


def _pair(task, **params):
    X, y = _data(task)
    if task == "classification":
        ours = DecisionTreeClassifier(criterion=params.pop("criterion", "entropy"), **params).fit(X, y)
        theirs = SkTree(criterion=ours.criterion, random_state=0, **params).fit(X, y)
    else:
        ours = DecisionTreeRegressor(**params).fit(X, y)
        theirs = SkRegressor(random_state=0, **params).fit(X, y)
    _assert_no_tied_choice(ours.tree_)
    assert ours.tree_.node_count == theirs.tree_.node_count
    return X, ours, theirs


# Grown fully, small deep nodes can be split perfectly by several features: depth limits keep the premise.
CASES = [("classification", {"criterion": "entropy", "max_depth": 4}),
         ("classification", {"criterion": "gini", "max_depth": 4, "min_samples_leaf": 5}),
         ("regression", {"max_depth": 5, "min_samples_leaf": 5})]


@pytest.mark.parametrize(("task", "params"), CASES)
def test_feature_importances_match_sklearn(task, params):
    _, ours, theirs = _pair(task, **params)
    assert ours.feature_importances_.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize(("task", "params"), CASES)
def test_apply_groups_rows_into_the_same_leaves(task, params):
    X, ours, theirs = _pair(task, **params)
    ours_leaf, theirs_leaf = ours.apply(X), theirs.apply(X)
    assert (ours.tree_.feature[ours_leaf] < 0).all()
    # Node ids differ (breadth first here, depth first there): the same leaves hold the same rows.
    pairs = set(zip(ours_leaf.tolist(), theirs_leaf.tolist()))
    assert len(pairs) == len(set(ours_leaf.tolist())) == len(set(theirs_leaf.tolist()))


@pytest.mark.parametrize(("task", "params"), CASES)
def test_decision_path_visits_nodes_of_the_same_sizes(task, params):
    X, ours, theirs = _pair(task, **params)
    ours_path, theirs_path = ours.decision_path(X), theirs.decision_path(X)
    assert ours_path.shape == theirs_path.shape == (len(X), ours.tree_.node_count)
    for row in range(0, len(X), 7):
        ours_nodes = ours_path[row].indices  # root first: ids grow down a path in both numberings
        theirs_nodes = theirs_path[row].indices
        np.testing.assert_array_equal(ours.tree_.samples[ours_nodes], theirs.tree_.n_node_samples[theirs_nodes])
    assert ours_path[np.arange(len(X)), ours.apply(X)].all()


def test_decision_path_without_scipy_is_a_dense_indicator(monkeypatch):
    import sys
    X, y = _data("classification", n=60)
    tree = DecisionTreeClassifier(max_depth=3).fit(X, y)
    sparse = tree.decision_path(X).toarray()
    monkeypatch.setitem(sys.modules, "scipy.sparse", None)  # an import of it now fails, as in a browser
    dense = tree.decision_path(X)
    assert isinstance(dense, np.ndarray)
    np.testing.assert_array_equal(dense, sparse)
    np.testing.assert_array_equal(dense.sum(axis=1), tree.tree_.depth[tree.apply(X)] + 1)
