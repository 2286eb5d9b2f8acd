"""Pruning: the chi-squared test of notes 000 (with a chi-squared survival function checked against
scipy) and reduced-error pruning on validation data of notes 004."""

import numpy as np
import pytest
pytest.importorskip("scipy", reason="an oracle test: it compares with scipy")
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

from pellucid.learners.tree import DecisionTreeClassifier
from pellucid.learners.tree.chi2 import chi2_sf, deviation, gammaincc
from pellucid.learners.tree.classifier import stratified_holdout


def test_chi2_sf_matches_scipy_over_a_grid():
    xs = np.concatenate([[0.0, 1e-8, 1e-3], np.linspace(0.05, 60, 240), [80.0, 120.0, 250.0, 700.0]])
    for dof in list(range(1, 41)) + [55, 100, 300]:
        ours = chi2_sf(xs, dof)
        theirs = stats.chi2.sf(xs, dof)
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-10)
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-12)  # the 5% critical value
    assert isinstance(chi2_sf(2.0, 3), float)


def test_upper_incomplete_gamma_matches_scipy():
    from scipy.special import gammaincc as scipy_gammaincc
    for a in (0.5, 1.0, 2.5, 7.0, 30.0):
        for x in (0.0, 0.1, 1.0, a, a + 1.0, 3 * a + 5):
            assert gammaincc(a, x) == pytest.approx(scipy_gammaincc(a, x), rel=1e-10, abs=1e-12)


def test_deviation_is_pearsons_statistic():
    table = np.array([[10, 2, 0], [3, 9, 1], [0, 0, 0], [4, 4, 6]])
    delta, dof = deviation(table)
    kept = table[table.sum(axis=1) > 0]  # an empty branch is no cell of the table
    chi2, p, expected_dof, _ = stats.chi2_contingency(kept, correction=False)
    assert delta == pytest.approx(chi2) and dof == expected_dof == 4


def _noisy(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.choice(np.array(["a", "b", "c"], dtype=object), size=(n, 4))
    y = rng.choice(["no", "yes"], size=n)  # unrelated to X
    return X, y


def test_chi2_pruning_removes_splits_on_noise():
    X, y = _noisy()
    full = DecisionTreeClassifier().fit(X, y)
    pruned = DecisionTreeClassifier(prune="chi2", trace=True).fit(X, y)
    assert full.tree_.node_count > 50
    assert pruned.tree_.node_count < full.tree_.node_count / 5
    tests = [s for s in pruned.trace_ if s["step"] == "prune"]
    assert tests and any(s["pruned"] for s in tests)
    for step in tests:
        assert step["p_value"] == pytest.approx(stats.chi2.sf(step["statistic"], step["dof"]), abs=1e-10)
        assert step["pruned"] == (step["p_value"] >= 0.05)


def test_chi2_pruning_keeps_a_strong_split():
    rng = np.random.default_rng(1)
    x = rng.choice(np.array(["left", "right"], dtype=object), size=300)
    noise = rng.choice(np.array(["u", "v"], dtype=object), size=300)
    y = np.where(rng.random(300) < 0.9, x == "right", x == "left").astype(int)
    X = np.column_stack([noise, x])
    model = DecisionTreeClassifier(prune="chi2", trace=True).fit(X, y, feature_names=["noise", "signal"])
    root = model.to_dict()["tree"]
    assert root["feature"] == "signal"
    assert all("feature" not in child for child in root["branches"].values())  # noise below is gone
    root_test = [s for s in model.trace_ if s["step"] == "prune" and s["node"] == "root"]
    assert root_test[0]["pruned"] is False and root_test[0]["p_value"] < 1e-20 and root_test[0]["dof"] == 1


def test_reduced_error_pruning_example_of_seed_004():
    # Training: one red success, two blue failures; validation: three red failures, one blue success.
    X = np.array([["red"], ["blue"], ["blue"]], dtype=object)
    y = np.array(["success", "failure", "failure"])
    X_val = np.array([["red"]] * 3 + [["blue"]], dtype=object)
    y_val = np.array(["failure"] * 3 + ["success"])
    model = DecisionTreeClassifier(prune="reduced_error", trace=True).fit(X, y, ["colour"], X_val, y_val)
    step = model.trace_[-1]
    # The subtree misclassifies all four validation examples; a leaf predicting failure only the blue
    # success (the slide counts 2 errors after the replacement).
    assert step == {"step": "prune", "node": "root", "error_before": 4, "error_after": 1, "pruned": True}
    assert model.tree_.node_count == 1
    assert model.predict(X_val).tolist() == ["failure"] * 4


def test_reduced_error_pruning_never_increases_validation_error():
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    full = DecisionTreeClassifier().fit(X_train, y_train)
    pruned = DecisionTreeClassifier(prune="reduced_error", trace=True).fit(X_train, y_train, None, X_val, y_val)
    assert pruned.score(X_val, y_val) >= full.score(X_val, y_val)
    assert pruned.tree_.node_count < full.tree_.node_count
    for step in pruned.trace_:
        if step["step"] == "prune":
            assert step["pruned"] == (step["error_after"] <= step["error_before"])
    root = [s for s in pruned.trace_ if s["step"] == "prune" and s["node"] == "root"][0]
    assert root["error_before"] == round((1 - pruned.score(X_val, y_val)) * len(y_val))


def test_reduced_error_holds_out_a_stratified_seeded_share():
    y = np.array([0] * 60 + [1] * 40)
    grow, val = stratified_holdout(y, 0.25, seed=3)
    assert np.bincount(y[val]).tolist() == [15, 10]
    assert sorted(np.concatenate([grow, val]).tolist()) == list(range(100))
    assert np.array_equal(val, stratified_holdout(y, 0.25, seed=3)[1])
    assert not np.array_equal(val, stratified_holdout(y, 0.25, seed=4)[1])
    X, y = load_breast_cancer(return_X_y=True)
    a = DecisionTreeClassifier(prune="reduced_error", random_state=1).fit(X, y)
    b = DecisionTreeClassifier(prune="reduced_error", random_state=1).fit(X, y)
    assert a.to_dict() == b.to_dict()
    assert a.tree_.samples[0] == len(y) - round(0.2 * 212) - round(0.2 * 357)  # grown on the rest
