"""A grid's predictions (what the decision boundary and the fitted curve draw) equal the model's predict on
the whole grid prepared as the training rows were: with categorical columns held at a category (seen or
unseen), missing cells imputed, standardising, class weights, for the learners with a fast path (trees,
logistic regression) and those without."""

import numpy as np
import pytest

from pellucid.tabular.table import Table
from pellucid.workbench import grid, training

SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 0}


def _table(seed, n=400):
    """Two numeric features that decide the class, a third with gaps, two categorical ones (one with gaps)."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(scale=50.0, size=n)
    colour = rng.choice(["red", "green", "blue", "amber"], size=n).astype(object)
    size = rng.choice(["S", "M", "L"], size=n).astype(object)
    label = np.where(a + b / 50 > 0.4, "high", np.where(colour == "red", "red", "low"))
    label[rng.random(n) < 0.1] = "low"  # noise
    c = rng.normal(size=n)
    c[rng.random(n) < 0.1] = np.nan
    size[rng.random(n) < 0.1] = None
    value = 3 * a + b / 10 + (colour == "blue") + rng.normal(scale=0.1, size=n)
    return Table({"a": a, "b": b, "c": c, "colour": colour, "size": size, "label": label, "value": value})


def _whole_grid(run, varying, held):
    """The grid as one table of all its rows, prepared as the training rows were (the plain way)."""
    m = len(next(iter(varying.values())))
    kinds = run.table.kinds
    columns = [np.asarray(varying[f], dtype=float) if f in varying else
               np.full(m, held[f], dtype=float if kinds[f] == "numeric" else object) for f in run.features]
    return run.prepare(Table(dict(zip(run.features, columns)), kinds={f: kinds[f] for f in run.features}))


def _lattice(run, x, y, size=60):
    xs = np.linspace(np.nanmin(run.table.column(x)), np.nanmax(run.table.column(x)), size)
    ys = np.linspace(np.nanmin(run.table.column(y)), np.nanmax(run.table.column(y)), size + 7)
    gx, gy = np.meshgrid(xs, ys)
    return {x: gx.ravel(), y: gy.ravel()}


CASES = [
    ("DecisionTreeClassifier", "label", {}),
    ("DecisionTreeClassifier", "label", {"categorical_split": "binary", "class_weight": "balanced"}),
    ("DecisionTreeClassifier", "label", {"max_depth": 3}),
    ("DecisionTreeRegressor", "value", {}),
    ("LogisticRegression", "label", {}),
    ("LogisticRegression", "label", {"class_weight": "balanced", "l2": 0.01}),
    ("GaussianNB", "label", {}),
    ("KNeighborsClassifier", "label", {"n_neighbors": 3}),
    ("KNeighborsClassifier", "label", {"n_neighbors": 7, "weights": "distance", "metric": "manhattan"}),
    ("CategoricalNB", "label", {}),
    ("KernelRegression", "value", {}),
    ("KernelRegression", "value", {"kernel": "rbf", "gamma": 4.0}),
    ("KernelRegression", "value", {"kernel": "poly", "degree": 3, "c": 0.5}),
    ("KernelRegression", "value", {"kernel": "linear"}),
    ("RandomForestClassifier", "label", {"n_estimators": 5}),
    ("RandomForestRegressor", "value", {"n_estimators": 5, "max_depth": 6}),
    ("BaggingClassifier", "label", {"n_estimators": 4, "class_weight": "balanced"}),
]
FAST = ("DecisionTree", "Logistic", "KNeighbors", "CategoricalNB", "KernelRegression", "RandomForest", "Bagging")


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("model,target,params", CASES)
@pytest.mark.parametrize("held_colour", [None, "violet"])  # the training mode, or a colour never seen
def test_grid_predictions_equal_predict_on_the_whole_grid(seed, model, target, params, held_colour):
    table = _table(seed)
    features = ["a", "b", "c", "colour", "size"]
    run, _ = training.train(table, target, features, model, params, SPLIT,
                              preprocessing={"standardize": seed == 0, "impute": "mean"})
    assert (grid._fast_path(run.estimator) is not None) == model.startswith(FAST)
    held = grid.held_values(run, exclude=["a", "b"])
    if held_colour is not None:
        held["colour"] = held_colour
    varying = _lattice(run, "a", "b")
    predicted, proba = grid.predict_grid(run.estimator, run.features, varying, held, table.kinds, proba=True,
                                         prepare=run.prepare)
    X = _whole_grid(run, varying, held)
    expected = run.estimator.predict(X)
    if model == "LogisticRegression":  # float rounding may differ: labels differ only on near-ties
        scores = run.estimator.decision_function(X)
        top2 = np.sort(scores, axis=1)[:, -2:]
        near_tie = (top2[:, 1] - top2[:, 0]) < 1e-9
        assert np.array_equal(predicted[~near_tie], expected[~near_tie])
        np.testing.assert_allclose(proba, run.estimator.predict_proba(X), rtol=1e-9, atol=1e-12)
    elif model == "KernelRegression":  # sums in another order (and split into factors): rounding apart
        np.testing.assert_allclose(predicted, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
    else:
        assert np.array_equal(predicted, expected)
        if proba is not None:
            np.testing.assert_allclose(proba, run.estimator.predict_proba(X), rtol=1e-12, atol=0)
    if held_colour is None:  # (an unseen colour may stop a tree's rows at its test of colour)
        assert len(np.unique(expected)) > 1  # the premise: the grid crosses the boundary


@pytest.mark.parametrize("model, params", [("DecisionTreeRegressor", {}), ("LogisticRegression", {}),
                                           ("KernelRegression", {}), ("KernelRegression", {"kernel": "poly"})])
def test_a_curve_over_one_feature_is_predict_along_it(model, params):
    """The fitted curve's grid: one numeric feature varies, every other is held."""
    table = _table(2)
    target = "label" if model == "LogisticRegression" else "value"
    run, _ = training.train(table, target, ["a", "b", "c", "colour", "size"], model, params, SPLIT)
    held = grid.held_values(run, exclude=["b"])
    varying = {"b": np.linspace(-150, 150, 200)}
    predicted = grid.predict_grid(run.estimator, run.features, varying, held, table.kinds, prepare=run.prepare)
    expected = run.estimator.predict(_whole_grid(run, varying, held))
    if model == "KernelRegression":  # one axis of kernel_lattice: sums in another order
        np.testing.assert_allclose(predicted, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
    else:
        assert np.array_equal(predicted, expected)


@pytest.mark.parametrize("k", [0.0, 1.0])
def test_categorical_nb_grid_over_counted_values_is_predict(k):
    """Categorical naive Bayes reads numbers as categories: on a lattice of whole numbers some grid values
    were seen in training and some not, and with k = 0 some estimates are 0 (log 0 counted apart)."""
    rng = np.random.default_rng(3)
    n = 300
    a, b = rng.integers(0, 6, n).astype(float), rng.integers(0, 9, n).astype(float)
    colour = rng.choice(["red", "green", "blue"], size=n).astype(object)
    label = np.where(a + b > 6, "high", np.where(colour == "red", "red", "low")).astype(object)
    table = Table({"a": a, "b": b, "colour": colour, "label": label})
    run, _ = training.train(table, "label", ["a", "b", "colour"], "CategoricalNB", {"alpha": k}, SPLIT)
    held = grid.held_values(run, exclude=["a", "b"])
    gx, gy = np.meshgrid(np.arange(-1.0, 8.0), np.arange(-1.0, 11.0, 0.5))  # seen, unseen, between
    varying = {"a": gx.ravel(), "b": gy.ravel()}
    predicted, proba = grid.predict_grid(run.estimator, run.features, varying, held, table.kinds, proba=True,
                                         prepare=run.prepare)
    X = _whole_grid(run, varying, held)
    assert np.array_equal(predicted, run.estimator.predict(X))
    np.testing.assert_allclose(proba, run.estimator.predict_proba(X), rtol=1e-12, atol=0)
    assert len(np.unique(predicted)) > 1
