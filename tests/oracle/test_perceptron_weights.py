"""The perceptron and scikit-learn's contract: row weights scale the update, partial_fit continues the
weights one pass per call, each against scikit-learn's Perceptron on the same rows in the same order."""

import json
import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import linear_model as sk_linear

import pellucid
from pellucid.core.errors import DataError


def _table(seed=0, n=400, d=3):
    """(X, y) of two overlapping classes (never separable, so every pass makes mistakes); row 0 is of
    class 0, so both perceptrons update on it (scikit-learn counts a score of 0 as a mistake, the notes
    classify it positive), after which no score is exactly 0."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[0] = 0
    X = rng.normal(size=(n, d))
    X[:, 0] += 1.5 * y
    return X, y


def _quietly(fit, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pellucid.ConvergenceWarning)
        return fit(*args, **kwargs)


def _sklearn(epochs, **kwargs):
    return sk_linear.Perceptron(max_iter=epochs, tol=None, shuffle=False, **kwargs)


@pytest.mark.parametrize("class_weight", [None, "balanced"])
def test_weights_scale_the_update_as_scikit_learns(class_weight):
    X, y = _table()
    w = np.random.default_rng(1).choice([0.5, 1.0, 2.0, 3.0], len(y))
    ours = _quietly(pellucid.Perceptron(max_iter=5, class_weight=class_weight).fit, X, y, sample_weight=w)
    theirs = _quietly(_sklearn(5, class_weight=class_weight).fit, X, y, sample_weight=w)
    assert ours.n_iter_ == 5
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-9)
    plain = _quietly(pellucid.Perceptron(max_iter=5, class_weight=class_weight).fit, X, y)
    assert np.abs(plain.coef_ - ours.coef_).max() > 1e-3  # the weights matter here


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("averaged", [False, True])
def test_a_row_of_weight_zero_is_as_if_it_were_not_there(shuffle, averaged):
    X, y = _table(seed=2, n=300)
    w = np.random.default_rng(3).integers(0, 3, len(y)).astype(float)
    params = dict(max_iter=4, shuffle=shuffle, random_state=5, averaged=averaged)
    weighted = _quietly(pellucid.Perceptron(**params).fit, X, y, sample_weight=np.minimum(w, 1))
    removed = _quietly(pellucid.Perceptron(**params).fit, X[w > 0], y[w > 0])
    np.testing.assert_array_equal(weighted.weights_, removed.weights_)
    assert weighted.mistakes_ == removed.mistakes_


def test_whole_weights_are_steps_not_repeated_rows():
    """A row of weight 2 makes one update of 2 f(x), as in scikit-learn; two copies of it make two
    updates of f(x) only when the first leaves the second still wrong, so the two can differ."""
    traced = _quietly(pellucid.Perceptron(max_iter=1, trace=True).fit, [[1.0], [3.0]], [0, 1],
                      sample_weight=[2.0, 1.0])
    first = traced.trace_[0]
    assert first["sample_weight"] == 2.0 and first["update"] == [-2.0, -2.0]
    assert "class_weight" not in first


def test_multiclass_trace_records_both_scales():
    X, y = _table(seed=4)
    y[::7] = 2
    w = np.full(len(y), 0.5)
    model = _quietly(pellucid.Perceptron(max_iter=2, class_weight="balanced", trace=True).fit, X, y,
                     sample_weight=w)
    step = next(r for r in model.trace_ if not r["correct"])
    scale = step["class_weight"] * step["sample_weight"]
    assert step["sample_weight"] == 0.5 and step["class_weight"] == model.class_weights_[step["y"]]
    # each wrong class moves by y*_c times its scale times f: s_y w for the row's own class, w for the rest
    expected = [(t * (scale if t > 0 else step["sample_weight"]) * np.array(step["x"]) if (s >= 0) != (t > 0)
                 else np.zeros(len(step["x"]))) for s, t in zip(step["score"], step["targets"])]
    np.testing.assert_allclose(step["update"], expected)


def test_partial_fit_is_one_pass_per_call_as_scikit_learns():
    X, y = _table(seed=6)
    w = np.random.default_rng(7).choice([0.5, 1.0, 2.0], len(y))
    ours, theirs = pellucid.Perceptron(), sk_linear.Perceptron(shuffle=False)
    chunks = np.array_split(np.arange(len(y)), 3)
    for _ in range(2):
        for rows in chunks:
            ours.partial_fit(X[rows], y[rows], classes=[0, 1], sample_weight=w[rows])
            theirs.partial_fit(X[rows], y[rows], classes=[0, 1], sample_weight=w[rows])
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-9)
    assert ours.n_iter_ == 6 and len(ours.mistakes_) == 6
    # passes over the whole table by partial_fit are fit's epochs
    whole = pellucid.Perceptron()
    for _ in range(3):
        whole.partial_fit(X, y, classes=[0, 1], sample_weight=w)
    fitted = _quietly(pellucid.Perceptron(max_iter=3).fit, X, y, sample_weight=w)
    np.testing.assert_array_equal(whole.weights_, fitted.weights_)
    assert whole.mistakes_ == fitted.mistakes_


@pytest.mark.parametrize("averaged", [False, True])
def test_partial_fit_continues_a_fitted_or_saved_model(averaged):
    X, y = _table(seed=8)
    y[::5] = 2  # three classes
    params = dict(max_iter=2, averaged=averaged)
    fitted = _quietly(pellucid.Perceptron(**params).fit, X, y)
    fitted.partial_fit(X, y)
    three = _quietly(pellucid.Perceptron(max_iter=3, averaged=averaged).fit, X, y)
    np.testing.assert_allclose(fitted.weights_, three.weights_, atol=1e-12)
    saved = pellucid.from_dict(json.loads(json.dumps(_quietly(pellucid.Perceptron(**params).fit, X, y).to_dict())))
    if averaged:
        with pytest.raises(DataError, match="running sum"):
            saved.partial_fit(X, y)
    else:
        np.testing.assert_allclose(saved.partial_fit(X, y).weights_, three.weights_, atol=1e-12)


def test_partial_fit_needs_the_classes_and_dict_class_weights():
    X, y = _table()
    with pytest.raises(DataError, match="classes must be passed on the first call"):
        pellucid.Perceptron().partial_fit(X, y)
    with pytest.raises(DataError, match="balanced"):
        pellucid.Perceptron(class_weight="balanced").partial_fit(X, y, classes=[0, 1])
    model = pellucid.Perceptron(class_weight={1: 2.0}).partial_fit(X[y == 0], y[y == 0], classes=[0, 1])
    assert model.class_weights_.tolist() == [1.0, 2.0]
    with pytest.raises(DataError, match="not among the classes"):
        model.partial_fit(X, y + 1)
    with pytest.raises(DataError, match="not the same as on the first call"):
        model.partial_fit(X, y, classes=[0, 1, 2])


@pytest.mark.parametrize("weights, message", [
    (lambda n: -np.ones(n), "sample_weight must not be negative"),
    (lambda n: np.ones(n + 1), r"X has 400 rows, sample_weight has shape \(401,\)"),
    (lambda n: np.zeros(n), "zero for every row"),
    (lambda n: np.ones((n, 1)), "one number per row"),
])
def test_bad_weights_are_refused_naming_sample_weight(weights, message):
    X, y = _table()
    with pytest.raises(DataError, match=message):
        pellucid.Perceptron().fit(X, y, sample_weight=weights(len(y)))
