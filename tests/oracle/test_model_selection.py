"""Splits, k-fold and curves: fold indices against scikit-learn's KFold/StratifiedKFold, scores against
sklearn's cross_val_score / validation_curve / learning_curve with the same folds, partition properties
(hypothesis), seeds, untouched caller data, and DataError messages.

The estimators here are small test-local ones (nearest centroid, closed-form ridge) written on
pellucid.core.base, so what is under test is the evaluation machinery. Where the definitions differ from
sklearn's: shuffled folds (np.random.default_rng instead of RandomState), cross_validate shuffles by
default (the notes partition randomly), and a class with fewer rows than folds is an error, not a warning.
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import model_selection as skms
from sklearn.datasets import load_diabetes, load_iris, load_wine
from sklearn.linear_model import Ridge
from sklearn.neighbors import NearestCentroid

from pellucid.core.base import ClassifierMixin, Estimator, RegressorMixin
from pellucid.core.errors import DataError
from pellucid.evaluation.curves import learning_curve, validation_curve
from pellucid.evaluation.model_selection import (KFold, StratifiedKFold, clone, cross_validate, train_test_split,
                                                 train_val_test_split)
from pellucid.core.params import Number
from pellucid.core.validation import check_X, check_X_y


class _Centroid(ClassifierMixin, Estimator):
    """Nearest class mean (Euclidean), for exercising the machinery."""

    _param_rules = {"shift": Number(help="added to every feature (does not change predictions)")}

    def __init__(self, shift=0.0):
        self.shift = shift

    def fit(self, X, y=None, feature_names=None):
        self._check_params()
        columns, y = check_X_y(X, y, feature_names, task="classification")
        X = columns.numeric_matrix() + self.shift
        self.classes_ = np.unique(y)
        self.centroids_ = np.array([X[y == c].mean(axis=0) for c in self.classes_])
        return self

    def _sq_distances(self, X):
        X = check_X(X).numeric_matrix() + self.shift
        return ((X[:, None, :] - self.centroids_[None]) ** 2).sum(axis=2)  # (n, k)

    def predict(self, X):
        self._check_fitted()
        return self.classes_[np.argmin(self._sq_distances(X), axis=1)]

    def predict_proba(self, X):
        d = -self._sq_distances(X)
        e = np.exp(d - d.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)


class _Ridge(RegressorMixin, Estimator):
    """Closed-form ridge regression with an unpenalised intercept (what sklearn's Ridge solves)."""

    _param_rules = {"alpha": Number(0, None, help="strength of the L2 penalty")}

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y=None, feature_names=None):
        self._check_params()
        columns, y = check_X_y(X, y, feature_names, task="regression")
        X = columns.numeric_matrix()
        x_mean, y_mean = X.mean(axis=0), y.mean()
        Xc = X - x_mean
        self.coef_ = np.linalg.solve(Xc.T @ Xc + self.alpha * np.eye(X.shape[1]), Xc.T @ (y - y_mean))
        self.intercept_ = float(y_mean - x_mean @ self.coef_)
        return self

    def predict(self, X):
        self._check_fitted()
        return check_X(X).numeric_matrix() @ self.coef_ + self.intercept_


def _same_folds(ours, theirs):
    ours, theirs = list(ours), list(theirs)
    assert len(ours) == len(theirs)
    for (a_train, a_test), (b_train, b_test) in zip(ours, theirs):
        np.testing.assert_array_equal(a_train, b_train)
        np.testing.assert_array_equal(a_test, b_test)


IRIS = load_iris(return_X_y=True)
DIABETES = load_diabetes(return_X_y=True)


# --- folds against sklearn ---------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 200), k=st.integers(2, 12))
def test_kfold_without_shuffle_equals_sklearn(n, k):
    k = min(k, n)
    _same_folds(KFold(k).split(np.zeros((n, 1))), skms.KFold(k).split(np.zeros((n, 1))))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(2, 6), n_classes=st.integers(2, 4))
def test_stratified_kfold_without_shuffle_equals_sklearn(seed, k, n_classes):
    rng = np.random.default_rng(seed)
    y = np.r_[np.repeat(np.arange(n_classes), k), rng.integers(0, n_classes, rng.integers(0, 80))]
    y = rng.permutation(y)  # every class has at least k rows
    X = np.zeros((len(y), 1))
    _same_folds(StratifiedKFold(k).split(X, y), skms.StratifiedKFold(k).split(X, y))


def test_stratified_kfold_on_wine_text_labels_equals_sklearn():
    X, y = load_wine(return_X_y=True)
    names = np.array(["barolo", "grignolino", "barbera"])[y]
    _same_folds(StratifiedKFold(10).split(X, names), skms.StratifiedKFold(10).split(X, names))


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(2, 8), shuffle=st.booleans())
def test_stratified_folds_keep_class_shares_within_one_row(seed, k, shuffle):
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.r_[np.repeat([0, 1, 2], k), rng.choice(3, rng.integers(0, 120), p=[0.6, 0.3, 0.1])])
    class_counts = np.bincount(y)
    folds = list(StratifiedKFold(k, shuffle=shuffle, seed=seed).split(np.zeros(len(y)), y))
    for _, test in folds:
        in_fold = np.bincount(y[test], minlength=3)
        assert np.all(np.abs(in_fold - class_counts / k) < 1)  # floor or ceil of the even share


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 150), k=st.integers(2, 10), shuffle=st.booleans(), seed=st.integers(0, 99),
       stratified=st.booleans())
def test_folds_cover_every_row_exactly_once_as_test(n, k, shuffle, seed, stratified):
    k = min(k, n)
    if stratified:
        y = np.arange(n) % 2 if n >= 2 * k else None
        if y is None:
            return
        splits = list(StratifiedKFold(k, shuffle=shuffle, seed=seed).split(np.zeros(n), y))
    else:
        splits = list(KFold(k, shuffle=shuffle, seed=seed).split(list(range(n))))
    assert len(splits) == k
    tests = np.concatenate([test for _, test in splits])
    np.testing.assert_array_equal(np.sort(tests), np.arange(n))
    for train, test in splits:
        assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == n
        assert abs(len(test) - n / k) < 1 or stratified


def test_shuffled_kfold_is_seeded():
    a = [t.tolist() for _, t in KFold(5, shuffle=True, seed=7).split(np.zeros(50))]
    b = [t.tolist() for _, t in KFold(5, shuffle=True, seed=7).split(np.zeros(50))]
    c = [t.tolist() for _, t in KFold(5, shuffle=True, seed=8).split(np.zeros(50))]
    assert a == b and a != c


# --- train / validation / test -----------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(n=st.integers(3, 300), val=st.floats(0.05, 0.4), test=st.floats(0.05, 0.4), seed=st.integers(0, 999),
       stratify=st.booleans())
def test_train_val_test_split_partitions_the_rows(n, val, test, seed, stratify):
    y = np.arange(n) % 3 if stratify and n >= 9 else None
    rows = np.arange(n)
    try:
        train_rows, val_rows, test_rows = train_val_test_split(rows, val_size=val, test_size=test,
                                                               stratify=y, seed=seed)
    except DataError as exc:
        assert "leaving none for training" in str(exc)
        assert np.ceil(val * n) + np.ceil(test * n) >= n
        return
    assert len(val_rows) == np.ceil(val * n) and len(test_rows) == np.ceil(test * n)
    assert len(train_rows) == n - len(val_rows) - len(test_rows)
    together = np.concatenate([train_rows, val_rows, test_rows])
    np.testing.assert_array_equal(np.sort(together), rows)  # disjoint and everything


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 300), test=st.one_of(st.floats(0.01, 0.99), st.integers(1, 299)), seed=st.integers(0, 99))
def test_train_test_split_sizes_equal_sklearn(n, test, seed):
    if isinstance(test, int) and test >= n:
        with pytest.raises(DataError, match=rf"test_size must be .* in \[1, {n - 1}\]; got {test}"):
            train_test_split(np.arange(n), test_size=test)
        return
    try:
        theirs = skms.train_test_split(np.arange(n), test_size=test, random_state=seed)
    except ValueError:  # sklearn refuses an empty training set; so do we
        with pytest.raises(DataError, match="leaving none for training"):
            train_test_split(np.arange(n), test_size=test, seed=seed)
        return
    ours = train_test_split(np.arange(n), test_size=test, seed=seed)
    assert [len(a) for a in ours] == [len(a) for a in theirs]
    np.testing.assert_array_equal(np.sort(np.concatenate(ours)), np.arange(n))


def test_unshuffled_split_equals_sklearn_and_keeps_kinds():
    X, y = IRIS
    ours = train_test_split(X, list(y), test_size=0.2, shuffle=False)
    theirs = skms.train_test_split(X, list(y), test_size=0.2, shuffle=False)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert isinstance(ours[2], list) and ours[3] == theirs[3]


def test_stratified_split_keeps_class_shares_and_subsets_tables():
    X, y = IRIS
    columns = check_X(X, feature_names=["sl", "sw", "pl", "pw"])
    c_train, c_test, y_train, y_test = train_test_split(columns, y, test_size=0.3, stratify=y, seed=3)
    assert np.bincount(y_test).tolist() == [15, 15, 15] and np.bincount(y_train).tolist() == [35, 35, 35]
    assert c_train.n_rows == 105 and c_test.names == ["sl", "sw", "pl", "pw"]
    # The rows travel together: each test row of the table is the X row with the same label.
    np.testing.assert_array_equal(c_test.numeric_matrix(), X[_rows_of(X, c_test.numeric_matrix())])
    np.testing.assert_array_equal(y[_rows_of(X, c_test.numeric_matrix())], y_test)


def _rows_of(X, sub):
    return np.array([np.flatnonzero((X == row).all(axis=1))[0] for row in sub])


def test_same_seed_same_split_and_caller_data_unchanged():
    X, y = IRIS
    X_before, y_before, y_list = X.copy(), y.copy(), list(y)
    a = train_val_test_split(X, y, val_size=0.2, test_size=0.2, stratify=y, seed=11)
    b = train_val_test_split(X, y, val_size=0.2, test_size=0.2, stratify=y, seed=11)
    c = train_val_test_split(X, y, val_size=0.2, test_size=0.2, stratify=y, seed=12)
    for p, q in zip(a, b):
        np.testing.assert_array_equal(p, q)
    assert not np.array_equal(a[5], c[5]) or not np.array_equal(a[2], c[2])
    train_test_split(X, y_list, seed=1)
    model = _Centroid()
    cross_validate(model, X, y, k=5)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)
    assert y_list == list(y_before)
    assert model.fitted_attributes() == []  # the caller's model stays unfitted


@pytest.mark.parametrize("call, message", [
    (lambda: train_test_split(np.arange(10), stratify=np.r_[np.zeros(9, dtype=int), 1]),
     r"Class 1 has only 1 row\(s\); a stratified split into 2 parts needs at least 2 rows"),
    (lambda: train_val_test_split(np.arange(10), stratify=np.array(list("aaaaaaaabb"))),
     r"Class 'b' has only 2 row\(s\); a stratified split into 3 parts"),
    (lambda: train_test_split(np.arange(10), test_size=1.5), r"test_size must be a fraction in \(0, 1\)"),
    (lambda: train_test_split(np.arange(10), test_size=0), r"or a number of rows in \[1, 9\]; got 0"),
    (lambda: train_val_test_split(np.arange(10), val_size=0.5, test_size=0.5), "leaving none for training"),
    (lambda: train_test_split(np.arange(10), np.arange(9)), "array 1 has 10, array 2 has 9"),
    (lambda: train_test_split(np.arange(10), stratify=np.arange(10) % 2, shuffle=False), "shuffle=True"),
    (lambda: list(KFold(11).split(np.zeros(10))), r"Cannot make k=11 folds from 10 rows"),
    (lambda: list(KFold(1).split(np.zeros(10))), "k must be an integer >= 2"),
    (lambda: list(StratifiedKFold(5).split(np.zeros(12), ["x"] * 9 + ["rare"] * 3)),
     r"Class 'rare' has only 3 row\(s\), fewer than k=5 folds"),
    (lambda: list(StratifiedKFold(2).split(np.zeros(4))), "needs the labels y"),
])
def test_bad_splits_raise_a_data_error_that_explains(call, message):
    with pytest.raises(DataError, match=message):
        call()


# --- clone, cross_validate ----------------------------------------------------------------------

def test_clone_is_unfitted_with_equal_params():
    model = _Ridge(alpha=[1.0, 2.0]).set_params(alpha=3.5).fit(*DIABETES)
    copy = clone(model)
    assert type(copy) is _Ridge and copy.get_params() == {"alpha": 3.5} and copy.fitted_attributes() == []
    listy = _Ridge(alpha=[1.0])
    assert clone(listy).alpha == [1.0] and clone(listy).alpha is not listy.alpha  # deep copy
    with pytest.raises(DataError, match="expects a pellucid estimator; got Ridge"):
        clone(Ridge())


def test_cross_validate_equals_sklearn_cross_val_score_on_the_same_folds():
    X, y = IRIS
    ours = cross_validate(_Centroid(), X, y, k=10, shuffle=False)
    theirs = skms.cross_val_score(NearestCentroid(), X, y, cv=skms.StratifiedKFold(10))
    np.testing.assert_allclose(ours["test_scores"], theirs)
    assert ours["splitter"] == "StratifiedKFold" and ours["scoring"] == "accuracy"
    # Notes 003: the error estimate is the average of the observed fold errors.
    assert ours["mean_error"] == pytest.approx(np.mean(1 - theirs))
    assert ours["mean"] == pytest.approx(theirs.mean()) and ours["std"] == pytest.approx(theirs.std())
    assert len(ours["fit_times"]) == 10 and all(t >= 0 for t in ours["fit_times"])
    assert all(f == {"train": 135, "test": 15} for f in ours["fold_sizes"])
    json.dumps(ours, allow_nan=False)


def test_cross_validate_regression_scorings_equal_sklearn():
    X, y = DIABETES
    cv = skms.KFold(5)
    for scoring, sk_scoring, sign in (("r2", "r2", 1), (None, "r2", 1),
                                      ("mean_squared_error", "neg_mean_squared_error", -1),
                                      ("mean_absolute_error", "neg_mean_absolute_error", -1)):
        ours = cross_validate(_Ridge(alpha=0.5), X, y, k=5, shuffle=False, scoring=scoring)
        theirs = sign * skms.cross_val_score(Ridge(alpha=0.5), X, y, cv=cv, scoring=sk_scoring)
        np.testing.assert_allclose(ours["test_scores"], theirs, rtol=1e-8)
        assert ours["splitter"] == "KFold" and ours["greater_is_better"] == (sign == 1)


def test_cross_validate_shuffled_is_seeded_and_records_test_rows():
    X, y = IRIS
    a = cross_validate(_Centroid(), X, y, k=5, seed=4, return_indices=True, return_train_score=True)
    b = cross_validate(_Centroid(), X, y, k=5, seed=4, return_indices=True)
    assert a["test_rows"] == b["test_rows"] and a["test_scores"] == b["test_scores"]
    assert sorted(sum(a["test_rows"], [])) == list(range(150))
    assert a["test_rows"][0] != list(range(30))  # shuffled (the notes partition randomly)
    for rows, score in zip(a["test_rows"], a["test_scores"]):  # each score is the fold model's accuracy
        train = np.setdiff1d(np.arange(150), rows)
        assert score == pytest.approx(_Centroid().fit(X[train], y[train]).score(X[rows], y[rows]))
    assert len(a["train_scores"]) == 5


def test_cross_validate_probability_and_macro_scorings():
    X, y = IRIS
    out = cross_validate(_Centroid(), X, y, k=3, shuffle=False, scoring="log_loss")
    theirs = []
    for train, test in skms.StratifiedKFold(3).split(X, y):
        proba = _Centroid().fit(X[train], y[train]).predict_proba(X[test])
        theirs.append(-np.mean(np.log(np.clip(proba[np.arange(len(test)), y[test]], 2.2e-16, 1))))
    np.testing.assert_allclose(out["test_scores"], theirs, rtol=1e-6)
    assert out["greater_is_better"] is False
    f1 = cross_validate(_Centroid(), X, y, k=3, shuffle=False, scoring="f1_macro")
    sk_f1 = skms.cross_val_score(NearestCentroid(), X, y, cv=skms.StratifiedKFold(3), scoring="f1_macro")
    np.testing.assert_allclose(f1["test_scores"], sk_f1)
    with pytest.raises(DataError, match="Unknown scoring 'auc'; choose one of: accuracy"):
        cross_validate(_Centroid(), X, y, scoring="auc")


# --- validation and learning curves -------------------------------------------------------------

def test_validation_curve_by_kfold_equals_sklearn():
    X, y = DIABETES
    alphas = [0.001, 0.1, 1.0, 10.0]
    ours = validation_curve(_Ridge(), "alpha", alphas, X, y, k=5, shuffle=False)
    train, val = skms.validation_curve(Ridge(), X, y, param_name="alpha", param_range=alphas, cv=skms.KFold(5))
    np.testing.assert_allclose(ours["val_scores"], val.mean(axis=1), rtol=1e-8)
    np.testing.assert_allclose(ours["train_scores"], train.mean(axis=1), rtol=1e-8)
    np.testing.assert_allclose(ours["val_std"], val.std(axis=1), rtol=1e-6)
    assert ours["best_value"] == alphas[int(np.argmax(val.mean(axis=1)))] and ours["method"] == "k-fold"
    json.dumps(ours, allow_nan=False)


def test_validation_curve_on_held_out_data_the_notes_way():
    X, y = DIABETES
    X_train, X_val, _X_test, y_train, y_val, _y_test = train_val_test_split(X, y, val_size=0.2, test_size=0.2)
    alphas = [0.0, 0.01, 1.0, 100.0]
    ours = validation_curve(_Ridge(), "alpha", alphas, X_train, y_train, X_val=X_val, y_val=y_val,
                            scoring="mean_squared_error")
    expected = [np.mean((Ridge(alpha=a).fit(X_train, y_train).predict(X_val) - y_val) ** 2) for a in alphas]
    np.testing.assert_allclose(ours["val_scores"], expected, rtol=1e-8)
    assert ours["best_index"] == int(np.argmin(expected))  # a loss: lower is better
    assert ours["method"] == "holdout" and ours["greater_is_better"] is False


def test_validation_curve_errors():
    X, y = IRIS
    with pytest.raises(DataError, match="_Centroid has no parameter 'depth'; valid parameters are: shift"):
        validation_curve(_Centroid(), "depth", [1, 2], X, y)
    with pytest.raises(DataError, match="either validation data"):
        validation_curve(_Centroid(), "shift", [1], X, y, X_val=X, y_val=y, k=3)
    with pytest.raises(DataError, match="at least one value"):
        validation_curve(_Centroid(), "shift", [], X, y)
    with pytest.raises(DataError, match=r"Fitting with alpha=-1 failed: Parameter 'alpha' must be a number >= 0"):
        validation_curve(_Ridge(), "alpha", [1, -1], X, y, X_val=X, y_val=y)


def test_learning_curve_by_kfold_equals_sklearn():
    X, y = DIABETES
    sizes = [0.1, 0.5, 1.0]
    ours = learning_curve(_Ridge(alpha=0.1), X, y, sizes=sizes, k=5, shuffle=False)
    n_abs, train, val = skms.learning_curve(Ridge(alpha=0.1), X, y, train_sizes=sizes, cv=skms.KFold(5))
    assert ours["sizes"] == n_abs.tolist()
    np.testing.assert_allclose(ours["val_scores"], val.mean(axis=1), rtol=1e-8)
    np.testing.assert_allclose(ours["train_scores"], train.mean(axis=1), rtol=1e-8)
    json.dumps(ours, allow_nan=False)


def test_learning_curve_on_held_out_data_and_its_errors():
    X, y = IRIS
    X_train, X_val, y_train, y_val = train_test_split(X, y, stratify=y, seed=2)
    out = learning_curve(_Centroid(), X_train, y_train, sizes=[30, 1.0], X_val=X_val, y_val=y_val)
    assert out["sizes"] == [30, len(X_train)] and out["method"] == "holdout"
    full = _Centroid().fit(X_train, y_train).score(X_val, y_val)
    assert out["val_scores"][-1] == pytest.approx(full)
    with pytest.raises(DataError, match=r"fractions in \(0, 1\] or row counts in \[1, 112\]; got 500"):
        learning_curve(_Centroid(), X_train, y_train, sizes=[500], X_val=X_val, y_val=y_val)
    with pytest.raises(DataError, match=r"got 0.0"):
        learning_curve(_Centroid(), X_train, y_train, sizes=[0.0], X_val=X_val, y_val=y_val)
    with pytest.raises(DataError, match="need both X_val and y_val"):
        learning_curve(_Centroid(), X_train, y_train, X_val=X_val)
