"""class_weight="balanced" against scikit-learn on imbalanced tables (90/10, and 80/15/5 over three
classes): the tree's splits, probabilities and impurity importance, logistic regression's weights and
the perceptron's weights; and the setting's round trip, scikit-learn twin and bad values."""

import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
import sklearn
from sklearn import linear_model as sk_linear
from sklearn import tree as sk_tree
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.preprocessing import StandardScaler
from sklearn.utils.class_weight import compute_class_weight

import pellucid
from pellucid import bridge
from pellucid.core.errors import DataError
from pellucid.evaluation.importance import impurity_importance
from pellucid.learners import registry
from pellucid.learners.shared.class_weights import class_weights
from pellucid.learners.tree.criteria import entropy
from pellucid.tabular.csvio import read_csv
from pellucid.workbench import exercises, steps
from pellucid.workbench.twin_source import twin_source

LEARNERS = (pellucid.DecisionTreeClassifier, pellucid.LogisticRegression, pellucid.Perceptron)


def imbalanced_table(shares, seed, n=600, d=4):
    """(X, y): n rows of d float32-exact features, labels 0..K-1 in about these shares, each class
    shifted along the first two features (learnable, with overlap). Row 0 is of class 0."""
    rng = np.random.default_rng(seed)
    y = rng.choice(len(shares), size=n, p=shares)
    y[0] = 0
    X = rng.normal(size=(n, d))
    X[:, 0] += 1.5 * y
    X[:, 1] -= 0.8 * y
    return X.astype(np.float32).astype(float), y  # scikit-learn's trees read float32


TABLES = {"90/10": ((0.9, 0.1), 0), "80/15/5": ((0.8, 0.15, 0.05), 1)}


def test_balanced_weights_are_scikit_learns():
    _, y = imbalanced_table((0.8, 0.15, 0.05), seed=3)
    ours = class_weights("balanced", y, np.arange(3))
    np.testing.assert_allclose(ours, compute_class_weight("balanced", classes=np.arange(3), y=y), rtol=1e-15)
    assert ours @ np.bincount(y) == pytest.approx(len(y))  # the weights of all rows add up to n
    assert class_weights(None, y, np.arange(3)) is None


# --- the decision tree ----------------------------------------------------------------------------

def weighted_impurity(counts, criterion):
    """Entropy (bits) or Gini impurity of nodes with these weighted class counts (..., K)."""
    p = counts / counts.sum(axis=-1, keepdims=True)
    if criterion == "gini":
        return 1 - (p ** 2).sum(axis=-1)
    return -(p * np.log2(np.where(p > 0, p, 1.0))).sum(axis=-1)


def assert_weighted_best_splits_are_unique(model, X, y, criterion, min_leaf=1):
    """The premise of comparing trees: at every inner node of the fitted tree, the splits whose weighted
    gain ties the best (to 1e-9) cut its rows one way only; otherwise the two libraries may break the
    tie differently. Weighted class counts of the rows, as both libraries weigh them; every cut
    x <= t between distinct values of every feature is scored, all of a feature at once."""
    onehot = (y[:, None] == np.arange(len(model.classes_))) * model.class_weights_  # (n, K) weighted
    tree = model.tree_

    def visit(node, rows):
        if tree.feature[node] < 0:
            return
        parent = onehot[rows].sum(axis=0)  # (K,)
        splits = []  # (gain, rows going left)
        for j in range(X.shape[1]):
            order = np.argsort(X[rows, j], kind="stable")
            v = X[rows, j][order]
            left = np.cumsum(onehot[rows][order], axis=0)[:-1]  # (m - 1, K) each cut's left counts
            right = parent - left
            n_left = np.arange(1, len(rows))
            ok = (v[:-1] < v[1:]) & (n_left >= min_leaf) & (len(rows) - n_left >= min_leaf)
            after = (left.sum(axis=1) * weighted_impurity(left, criterion)
                     + right.sum(axis=1) * weighted_impurity(right, criterion)) / parent.sum()
            gains = weighted_impurity(parent, criterion) - after
            splits += [(g, X[rows, j] <= (a + b) / 2) for g, a, b in zip(gains[ok], v[:-1][ok], v[1:][ok])]
        best = max(g for g, _ in splits)
        chosen = [left for g, left in splits if g >= best - 1e-9]
        assert all(np.array_equal(c, chosen[0]) for c in chosen), f"tied best splits at node {node}"
        assert tree.gain[node] == pytest.approx(best, rel=1e-9, abs=1e-12)
        inside = X[rows, tree.feature[node]] <= tree.threshold[node]
        visit(tree.child_start[node], rows[inside])
        visit(tree.child_start[node] + 1, rows[~inside])

    visit(0, np.arange(len(y)))


def assert_same_tree(ours, theirs, X, y):
    """The same tree: walking both from the root with the training rows, every node is a leaf in both
    or splits its rows the same way in both, with the same test where both chose the same feature
    (a tie between features that cut the rows alike is broken differently: the first column here, a
    random order in scikit-learn). A node whose rows are all of one class counts as a leaf: scikit-
    learn may split one when rounding in its weight sums leaves its impurity above machine epsilon,
    and such a split changes no prediction."""
    t, s = ours.tree_, theirs.tree_
    same_feature = []

    def walk(a, b, rows):
        pure = len(np.unique(y[rows])) <= 1
        assert (t.feature[a] < 0 or pure) == (s.children_left[b] < 0 or pure), f"leaf or not at node {a}"
        if t.feature[a] < 0 or pure:
            return
        ours_left = X[rows, t.feature[a]] <= t.threshold[a]
        assert np.array_equal(ours_left, X[rows, s.feature[b]] <= s.threshold[b]), f"split at node {a}"
        if t.feature[a] == s.feature[b]:
            assert t.threshold[a] == pytest.approx(s.threshold[b], rel=1e-6)
        same_feature.append(t.feature[a] == s.feature[b])
        walk(t.child_start[a], s.children_left[b], rows[ours_left])
        walk(t.child_start[a] + 1, s.children_right[b], rows[~ours_left])

    walk(0, 0, np.arange(len(y)))
    assert same_feature[0] and np.mean(same_feature) > 0.8


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize("limits", [{"max_depth": 4}, {"max_leaf_nodes": 12, "min_samples_leaf": 5}])
def test_balanced_tree_equals_scikit_learns(table, criterion, limits):
    shares, seed = TABLES[table]
    X, y = imbalanced_table(shares, seed)
    ours = pellucid.DecisionTreeClassifier(criterion=criterion, class_weight="balanced", **limits).fit(X, y)
    assert_weighted_best_splits_are_unique(ours, X, y, criterion, limits.get("min_samples_leaf", 1))
    theirs = sk_tree.DecisionTreeClassifier(criterion=criterion, class_weight="balanced", random_state=0,
                                            **limits).fit(X, y)
    assert_same_tree(ours, theirs, X, y)
    assert np.array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    importance = impurity_importance(ours)["importances"]
    np.testing.assert_allclose(importance, theirs.feature_importances_, atol=1e-12)


def test_balanced_weights_change_the_tree_and_favour_the_rare_class():
    X, y = imbalanced_table((0.9, 0.1), seed=0)
    plain = pellucid.DecisionTreeClassifier(max_depth=2).fit(X, y)
    balanced = pellucid.DecisionTreeClassifier(max_depth=2, class_weight="balanced").fit(X, y)
    rare = y == 1
    assert (balanced.predict(X)[rare] == 1).mean() > (plain.predict(X)[rare] == 1).mean()
    # The nodes still count rows: the root holds every row, split by class.
    assert balanced.to_dict()["tree"]["counts"] == {"0": int((~rare).sum()), "1": int(rare.sum())}


def test_traced_tree_with_class_weights_is_the_fast_tree():
    X, y = imbalanced_table((0.8, 0.15, 0.05), seed=1)
    fast = pellucid.DecisionTreeClassifier(class_weight="balanced", max_depth=5).fit(X, y)
    traced = pellucid.DecisionTreeClassifier(class_weight="balanced", max_depth=5, trace=True).fit(X, y)
    assert np.array_equal(fast.tree_.feature, traced.tree_.feature)
    np.testing.assert_allclose(fast.predict_proba(X), traced.predict_proba(X), atol=1e-12)


@pytest.mark.parametrize("learner", LEARNERS)
def test_balanced_weights_on_a_balanced_table_change_nothing(learner):
    """With equal class counts every weight is exactly 1, so the fit is the unweighted one."""
    X, y = imbalanced_table((0.5, 0.5), seed=4, n=200)
    y = np.arange(len(y)) % 2
    X[:, 0] += 1.5 * y
    extra = {"max_iter": 5} if learner is pellucid.Perceptron else {}
    plain = _fit_quietly(learner(**extra), X, y)
    balanced = _fit_quietly(learner(class_weight="balanced", **extra), X, y)
    assert np.array_equal(balanced.class_weights_, [1.0, 1.0])
    assert np.array_equal(plain.predict(X), balanced.predict(X))
    if hasattr(plain, "coef_"):
        assert np.array_equal(plain.coef_, balanced.coef_)


# --- logistic regression and the perceptron -------------------------------------------------------

def breast_cancer_90_10():
    X, y = load_breast_cancer(return_X_y=True)
    rows = np.r_[np.flatnonzero(y == 0)[:36], np.flatnonzero(y == 1)[:324]]  # 10% malignant
    return StandardScaler().fit_transform(X[rows]), y[rows]


def iris_80_15_5():
    X, y = load_iris(return_X_y=True)
    rows = np.r_[0:50, 50:59, 100:103]  # 50 / 9 / 3 rows
    return X[rows], y[rows]


@pytest.mark.parametrize("data", [breast_cancer_90_10, iris_80_15_5])
@pytest.mark.parametrize("l2", [1e-2, 1e-1])
def test_balanced_logistic_regression_equals_scikit_learns(data, l2):
    X, y = data()
    ours = pellucid.LogisticRegression(l2=l2, class_weight="balanced", tol=1e-10).fit(X, y)
    # The descriptor's twin mapping: the same objective with C = 1 / (n * l2); Newton's method in
    # scikit-learn too, so both reach the optimum to rounding.
    theirs = sk_linear.LogisticRegression(C=1.0 / (len(y) * l2), class_weight="balanced", solver="newton-cholesky",
                                          tol=1e-12, max_iter=1000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-6)
    unweighted = pellucid.LogisticRegression(l2=l2).fit(X, y)
    assert np.abs(unweighted.coef_ - ours.coef_).max() > 1e-3  # the weights matter here


@pytest.mark.parametrize("epochs", [1, 7])
@pytest.mark.parametrize("class_weight", [None, "balanced"])
def test_perceptron_weights_equal_scikit_learns(epochs, class_weight):
    """The same rows in the same order for the same epochs: equal weights. Row 0 is of the negative
    class, so both update on it (scikit-learn counts a score of 0 as a mistake for either class, the
    notes classify it positive); after it no score is exactly 0."""
    X, y = imbalanced_table((0.9, 0.1), seed=0, d=3)
    ours = _fit_quietly(pellucid.Perceptron(max_iter=epochs, class_weight=class_weight), X, y)
    theirs = _fit_quietly(sk_linear.Perceptron(max_iter=epochs, tol=None, shuffle=False,
                                               class_weight=class_weight), X, y)
    assert ours.n_iter_ == epochs  # the premise: no pass was free of mistakes, so both ran every epoch
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("averaged", [False, True])
def test_multiclass_perceptron_scales_the_update_by_the_class_weight(averaged):
    X, y = imbalanced_table((0.8, 0.15, 0.05), seed=1, d=3)
    fast = _fit_quietly(pellucid.Perceptron(max_iter=3, class_weight="balanced", averaged=averaged), X, y)
    traced = _fit_quietly(pellucid.Perceptron(max_iter=3, class_weight="balanced", averaged=averaged,
                                              trace=True), X, y)
    np.testing.assert_allclose(fast.weights_, traced.weights_, rtol=1e-12, atol=1e-12)
    label_moved = (row for row in traced.trace_ if any(np.array(row["update"])[int(row["y"])]))
    step = next(label_moved)  # one-vs-rest: the true class's own perceptron was wrong
    label = int(step["y"])
    weight = traced.class_weights_[label]
    np.testing.assert_allclose(np.array(step["update"])[label], weight * np.array(step["x"]))


# --- round trip, twin, bad values -----------------------------------------------------------------

@pytest.mark.parametrize("learner", LEARNERS)
def test_round_trip_keeps_the_weighted_model(learner):
    X, y = imbalanced_table((0.8, 0.15, 0.05), seed=2)
    model = _fit_quietly(learner(class_weight="balanced"), X, y)
    back = pellucid.from_dict(model.to_dict())
    assert back.get_params()["class_weight"] == "balanced"
    np.testing.assert_allclose(back.class_weights_, model.class_weights_)
    assert np.array_equal(back.predict(X), model.predict(X))
    if hasattr(model, "predict_proba"):
        np.testing.assert_allclose(back.predict_proba(X), model.predict_proba(X), atol=1e-12)


def test_damaged_tree_class_weights_are_refused():
    X, y = imbalanced_table((0.9, 0.1), seed=0)
    d = pellucid.DecisionTreeClassifier(max_depth=2, class_weight="balanced").fit(X, y).to_dict()
    d["class_weights"] = [1.0]
    with pytest.raises(DataError, match="class_weights"):
        pellucid.from_dict(d)


@pytest.mark.parametrize("learner", LEARNERS)
def test_twin_and_script_pass_the_class_weight_on(learner):
    twin = registry.of(learner()).sklearn
    params = learner(class_weight="balanced").get_params()
    ctx = {"n_train": 100, "n_features": 4, "gamma": None, "n_categories": [0] * 4}
    assert twin.build(sklearn, params, ctx).get_params()["class_weight"] == "balanced"
    source, _ = twin_source(twin, params, ctx)
    assert "class_weight='balanced'" in source


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("value", ["auto", {0: -2.0}, 1])
def test_other_class_weights_are_refused_by_name(learner, value):
    X, y = imbalanced_table((0.9, 0.1), seed=0, n=50)
    with pytest.raises(DataError, match="class_weight"):
        learner(class_weight=value).fit(X, y)


def test_params_form_offers_none_and_balanced():
    for learner in LEARNERS:
        rule = learner._param_rules["class_weight"].describe()
        assert rule["kind"] == "choice" and rule["none_ok"] and rule["options"] == ["balanced"]


def _fit_quietly(model, X, y):
    """fit, without the perceptron's warning that the data are not separable."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pellucid.ConvergenceWarning)
        return model.fit(X, y)


def test_tree_steps_show_the_weighted_counts_the_gains_were_computed_from():
    """The steps view's formulas use the class counts times the class weights, so each formula's
    numbers give the gain and impurity written after it; counts of rows stay in the breakdown."""

    session = bridge.Session()
    table = session.handle("load_example", {"name": "play_tennis"})["result"]
    reply = session.handle("train", {"table_id": table["table_id"], "target": "PlayTennis", "features": None,
                                     "model": "DecisionTreeClassifier", "params": {"class_weight": "balanced"}})
    assert reply["ok"], reply
    timeline = steps.timeline(session.runs[reply["result"]["model_id"]])
    classes, root = timeline["classes"], timeline["frames"][0]
    weights = session.runs[reply["result"]["model_id"]].estimator.class_weights_
    assert not np.allclose(weights, 1.0)  # the premise: the classes are imbalanced on the training rows
    weighted = np.array([root["counts"][c] for c in classes]) * weights
    assert root["impurity"] == pytest.approx(entropy(weighted))
    assert root["math"][0]["text"].endswith(f"= {root['impurity']:.3f}")
    chosen = root["breakdown"][root["chosen"]]
    rows = np.array([b["counts"] for b in chosen["branches"]])  # rows per branch and class
    assert rows.sum(axis=0).tolist() == [root["counts"][c] for c in classes]
    parts = rows * weights
    gain = entropy(weighted) - sum(p.sum() / weighted.sum() * entropy(p) for p in parts if p.sum() > 0)
    assert gain == pytest.approx(root["candidates"][root["chosen"]])
    assert chosen["text"].endswith(f"= {gain:.3f}")
    question = exercises.exercise(session.runs[reply["result"]["model_id"]], seed=0)
    assert question["given"]["class weights"] == pytest.approx(dict(zip(classes, weights.tolist())))


def test_perceptron_steps_write_the_class_weight_into_the_update():

    session = bridge.Session()
    csv = b"f1,f2,y\n1,1,-1\n3,2,1\n2,4,-1\n3,4,-1\n2,3,-1\n4,1,-1\n1,3,-1\n5,5,-1\n"  # 7 to 1
    info = session.keep_table(read_csv(csv), "imbalanced.csv")
    reply = session.handle("train", {"table_id": info["table_id"], "target": "y", "features": None,
                                     "model": "Perceptron", "evaluation": {"method": "none"},
                                     "params": {"max_iter": 2, "class_weight": "balanced"},
                                     "preprocessing": {"standardize": False}})
    assert reply["ok"], reply
    run = session.runs[reply["result"]["model_id"]]
    frames = steps.timeline(run)["frames"]
    mistake = next(f for f in frames if not f["correct"] and f["y"] == 1)  # the rare class: weight 8/2
    assert mistake["class_weight"] == pytest.approx(4.0)
    after = np.array(mistake["weights"]) + 4.0 * np.array(mistake["x"])
    np.testing.assert_allclose(mistake["weights_after"], after)
    assert "+ 4·f(x)" in mistake["math"][-1]["text"]
    question = exercises.exercise(run, seed=0)  # a binary perceptron's step: the weight is given
    assert question["kind"] == "perceptron_update"
    assert min(abs(question["given"]["class weight"] - w) for w in (4.0, 4 / 7)) < 1e-12
