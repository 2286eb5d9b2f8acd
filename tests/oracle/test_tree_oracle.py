"""Decision trees against scikit-learn on its bundled datasets: numeric thresholds, accuracy, regression
trees, probabilities, export layout and prediction speed."""


import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import datasets
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier as SkTree
from sklearn.tree import DecisionTreeRegressor as SkRegressor
from sklearn.tree import export_text as sk_export_text

from pellucid.learners.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text

NAMES = ("iris", "wine", "breast_cancer")


def _load(name):
    return getattr(datasets, f"load_{name}")(return_X_y=True)


@pytest.mark.parametrize("name", NAMES)
def test_root_split_matches_sklearn(name):
    X, y = _load(name)
    ours = DecisionTreeClassifier(max_depth=1).fit(X, y).tree_
    theirs = SkTree(criterion="entropy", max_depth=1, random_state=0).fit(X, y).tree_
    # Both measure entropy in bits; sklearn picks among equally good columns at random, we the first.
    theirs_gain = theirs.impurity[0] - (theirs.n_node_samples[1:] @ theirs.impurity[1:]) / len(y)
    assert ours.gain[0] == pytest.approx(theirs_gain, rel=1e-12)
    best = np.flatnonzero(ours.candidates[0] >= ours.gain[0] - 1e-12)
    assert ours.feature[0] == best[0] and theirs.feature[0] in best
    if len(best) == 1:  # sklearn stores float32 values, so its threshold is the float32 midpoint
        assert ours.threshold[0] == pytest.approx(theirs.threshold[0], rel=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_cross_validated_accuracy_close_to_sklearn(name):
    X, y = _load(name)
    ours, theirs = [], []
    for train, test in StratifiedKFold(10, shuffle=True, random_state=0).split(X, y):
        ours.append(DecisionTreeClassifier().fit(X[train], y[train]).score(X[test], y[test]))
        sk = SkTree(criterion="entropy", random_state=0).fit(X[train], y[train])
        theirs.append(sk.score(X[test], y[test]))
    assert np.mean(ours) == pytest.approx(np.mean(theirs), abs=0.04)
    assert np.mean(ours) > 0.88


@pytest.mark.parametrize("name", ["wine", "breast_cancer"])
def test_fully_grown_tree_fits_training_data(name):
    X, y = _load(name)  # no two rows alike
    ours = DecisionTreeClassifier().fit(X, y)
    theirs = SkTree(criterion="entropy", random_state=0).fit(X, y)
    assert ours.score(X, y) == theirs.score(X, y) == 1.0
    assert ours.get_n_leaves() == pytest.approx(theirs.get_n_leaves(), abs=3)


def assert_best_splits_are_unique(X, y, depth, criterion):
    """Down to `depth`, every node's best splits (by information gain or Gini decrease, to 1e-12) cut its
    rows one way only. Where splits that cut differently tie, the two libraries break the tie
    differently (the earlier column here, a random feature order in scikit-learn)."""
    def impurity(labels):
        p = np.bincount(labels) / len(labels)
        p = p[p > 0]
        return float(-(p * np.log2(p)).sum()) if criterion == "entropy" else float(1 - (p ** 2).sum())

    def visit(rows, level):
        if level == depth or len(np.unique(y[rows])) == 1:
            return
        splits = []  # (gain, which rows go left)
        for j in range(X.shape[1]):
            values = np.unique(X[rows, j])
            for threshold in (values[:-1] + values[1:]) / 2:
                left = X[rows, j] <= threshold
                after = left.mean() * impurity(y[rows][left]) + (~left).mean() * impurity(y[rows][~left])
                splits.append((impurity(y[rows]) - after, left))
        best = max(gain for gain, _ in splits)
        cut = next(left for gain, left in splits if gain == best)
        for gain, left in splits:
            if gain >= best - 1e-12:
                assert np.array_equal(left, cut), (level, best, gain)
        visit(rows[cut], level + 1)
        visit(rows[~cut], level + 1)

    visit(np.arange(len(y)), 0)


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_shallow_trees_predict_like_sklearn(criterion):
    X, y = _load("iris")
    for depth in (2, 3):
        assert_best_splits_are_unique(X, y, depth, criterion)
        ours = DecisionTreeClassifier(criterion=criterion, max_depth=depth).fit(X, y)
        theirs = SkTree(criterion=criterion, max_depth=depth, random_state=0).fit(X, y)
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


def test_export_text_has_sklearns_layout():
    X, y = _load("wine")
    X = X.astype(np.float32).astype(float)  # the values sklearn sees, so thresholds print alike
    names = [f"x{j}" for j in range(X.shape[1])]
    assert_best_splits_are_unique(X, y, 2, "entropy")
    ours = DecisionTreeClassifier(max_depth=2).fit(X, y)
    theirs = SkTree(criterion="entropy", max_depth=2, random_state=0).fit(X, y)
    assert export_text(ours) == sk_export_text(theirs, feature_names=names)
    X, y = datasets.load_diabetes(return_X_y=True)
    X = X.astype(np.float32).astype(float)
    names = [f"x{j}" for j in range(X.shape[1])]
    ours = DecisionTreeRegressor(max_depth=2).fit(X, y)
    theirs = SkRegressor(max_depth=2, random_state=0).fit(X, y)
    assert ours.export_text(decimals=3) == sk_export_text(theirs, feature_names=names, decimals=3)


@pytest.mark.parametrize("depth, scale", [(2, 1.0), (4, 1.0), (None, 1.0), (4, 1e-9)])
def test_regression_tree_matches_sklearn_on_diabetes(depth, scale):
    X, y = datasets.load_diabetes(return_X_y=True)
    y = y * scale  # the tree must not depend on the target's units
    ours = DecisionTreeRegressor(max_depth=depth).fit(X, y)
    theirs = SkRegressor(max_depth=depth, random_state=0).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-10, atol=1e-9 * scale)
    assert ours.tree_.node_count == theirs.tree_.node_count
    root = ours.to_dict()["tree"]
    assert root["impurity"] == pytest.approx(np.var(y)) and root["value"] == pytest.approx(np.mean(y))
    assert ours.score(X, y) == pytest.approx(theirs.score(X, y), abs=1e-10)


def test_regression_tree_with_a_categorical_column():
    X = np.array([["a", 1.0], ["a", 2.0], ["b", 1.0], ["b", 2.0], ["c", 5.0], ["c", 6.0]], dtype=object)
    y = np.array([1.0, 1.0, 10.0, 10.0, 3.0, 6.0])
    model = DecisionTreeRegressor(trace=True).fit(X, y, feature_names=["kind", "size"])
    root = model.to_dict()["tree"]
    assert root["feature"] == "kind"
    assert {k: v["value"] for k, v in root["branches"].items()} == {"a": 1.0, "b": 10.0, "c": 4.5}
    gain = np.var(y) - (4 / 6) * 0 - (2 / 6) * np.var([3.0, 6.0])
    assert root["gain"] == pytest.approx(gain)
    rows = np.array([["c", 5.5], ["c", 5.6], ["z", 0.0]], dtype=object)
    assert model.predict(rows).tolist() == [3.0, 6.0, pytest.approx(np.mean(y))]
    assert model.trace_[0]["value"] == pytest.approx(np.mean(y))


def test_a_deep_tree_predicts_a_grid_like_sklearn():
    # How fast belongs to benchmarks/ ("grid predict 200x200: decision tree"), not to a test.
    X, y = datasets.make_classification(n_samples=4000, n_features=2, n_redundant=0, n_informative=2,
                                        n_clusters_per_class=2, flip_y=0.2, random_state=0)
    model = DecisionTreeClassifier(max_depth=10).fit(X, y)
    assert model.get_depth() == 10
    gx, gy = np.meshgrid(np.linspace(-4, 4, 200), np.linspace(-4, 4, 200))
    grid = np.column_stack([gx.ravel(), gy.ravel()])  # (40000, 2)
    labels = model.predict(grid)
    assert labels.shape == (40000,)
    sk = SkTree(criterion="entropy", max_depth=10, random_state=0).fit(X, y)
    assert np.mean(labels == sk.predict(grid)) > 0.95


def _distinct_improvements(model):
    """The premise of a best-first comparison: the splits best-first growth orders (samples * gain of
    every inner node of the fully grown tree) differ, so no tie decides which is made first."""
    inner = model.tree_.feature >= 0
    priority = np.sort(model.tree_.samples[inner] * model.tree_.gain[inner])
    return bool(np.all(np.diff(priority) > 1e-9 * priority[-1]))


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_min_samples_leaf_grows_sklearns_tree(criterion):
    X, y = _load("iris")
    assert_best_splits_are_unique(X, y, 2, criterion)
    ours = DecisionTreeClassifier(criterion=criterion, max_depth=2, min_samples_leaf=5).fit(X, y)
    theirs = SkTree(criterion=criterion, max_depth=2, min_samples_leaf=5, random_state=0).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize("cap", [6, 8])
def test_max_leaf_nodes_grows_best_first_like_sklearn(criterion, cap):
    X, y = _load("wine")
    grown = DecisionTreeClassifier(criterion=criterion).fit(X, y)
    assert _distinct_improvements(grown)
    assert_best_splits_are_unique(X, y, 2, criterion)  # deeper, the ties isolate single rows
    ours = DecisionTreeClassifier(criterion=criterion, max_leaf_nodes=cap).fit(X, y)
    theirs = SkTree(criterion=criterion, max_leaf_nodes=cap, random_state=0).fit(X, y)
    assert ours.get_n_leaves() == theirs.get_n_leaves() == cap
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


@pytest.mark.parametrize("leaf, cap", [(10, None), (1, 10), (20, 16)])
def test_regression_leaf_size_and_leaf_cap_match_sklearn_on_diabetes(leaf, cap):
    X, y = datasets.load_diabetes(return_X_y=True)  # continuous columns and target: no ties
    ours = DecisionTreeRegressor(min_samples_leaf=leaf, max_leaf_nodes=cap).fit(X, y)
    theirs = SkRegressor(min_samples_leaf=leaf, max_leaf_nodes=cap, random_state=0).fit(X, y)
    assert ours.get_n_leaves() == theirs.get_n_leaves()
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-10)
