"""Metrics: every one equals scikit-learn's on random and edge inputs; notes 004's 0-1 and perceptron
losses on scores; the confusion details list the right rows; DataError messages."""

import json
import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import metrics as sk
from sklearn.datasets import load_diabetes, load_iris

from pellucid.core.errors import DataError
from pellucid.evaluation.metrics import (accuracy_score, classification_report_dict, confusion_details,
                              confusion_matrix, log_loss, margin_zero_one_loss, mean_absolute_error, mean_squared_error,
                              perceptron_loss, precision_recall_f1, r2_score, regression_report_dict,
                              zero_one_loss)


def _labels_case(seed, n=60, k=4, text=False):
    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(0, k, n), rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.5, y_true, y_pred)  # about half right
    if text:
        names = np.array(["cat", "dog", "emu", "fox", "gnu"])
        return names[y_true], names[y_pred]
    return y_true, y_pred


CASES = [_labels_case(s) for s in range(5)] + [_labels_case(s, text=True) for s in range(5, 8)] + [
    (np.array([1, 1, 1]), np.array([1, 1, 1])),  # one class, all right
    (np.array([0, 0, 1, 1]), np.array([0, 0, 0, 0])),  # class 1 never predicted: precision 0/0
    (np.array([0, 1, 2, 2]), np.array([3, 3, 3, 3])),  # predicted label never true: recall 0/0
    (np.array(["a", "b"]), np.array(["b", "a"])),  # all wrong
    (np.array([True, False, True]), np.array([True, True, True])),
]


@pytest.mark.filterwarnings("ignore:A single label was found")
@pytest.mark.parametrize("y_true, y_pred", CASES)
def test_classification_metrics_equal_sklearn(y_true, y_pred):
    assert accuracy_score(y_true, y_pred) == pytest.approx(sk.accuracy_score(y_true, y_pred))
    assert accuracy_score(y_true, y_pred, normalize=False) == sk.accuracy_score(y_true, y_pred, normalize=False)
    assert zero_one_loss(y_true, y_pred) == pytest.approx(sk.zero_one_loss(y_true, y_pred))
    matrix, labels = confusion_matrix(y_true, y_pred)
    np.testing.assert_array_equal(matrix, sk.confusion_matrix(y_true, y_pred))
    assert labels == np.unique(np.r_[y_true, y_pred]).tolist()
    ours = precision_recall_f1(y_true, y_pred)
    p, r, f, s = sk.precision_recall_fscore_support(y_true, y_pred, average=None, zero_division=0)
    np.testing.assert_allclose(ours["precision"], p)
    np.testing.assert_allclose(ours["recall"], r)
    np.testing.assert_allclose(ours["f1"], f)
    np.testing.assert_array_equal(ours["support"], s)
    for average in ("macro", "weighted"):
        p, r, f, _ = sk.precision_recall_fscore_support(y_true, y_pred, average=average, zero_division=0)
        assert [ours[average][m] for m in ("precision", "recall", "f1")] == pytest.approx([p, r, f])
    json.dumps(ours, allow_nan=False)


def test_explicit_labels_order_subset_and_absent_label_equal_sklearn():
    y_true, y_pred = _labels_case(11, k=3)
    for labels in ([2, 0, 1], [1, 2], [0, 1, 2, 7]):
        matrix, got = confusion_matrix(y_true, y_pred, labels=labels)
        np.testing.assert_array_equal(matrix, sk.confusion_matrix(y_true, y_pred, labels=labels))
        assert got == labels
        ours = precision_recall_f1(y_true, y_pred, labels=labels)
        p, r, f, _ = sk.precision_recall_fscore_support(y_true, y_pred, labels=labels, zero_division=0)
        np.testing.assert_allclose(ours["f1"], f)
        np.testing.assert_allclose(ours["precision"], p)
        np.testing.assert_allclose(ours["recall"], r)
    assert precision_recall_f1(y_true, y_pred, labels=[0, 1, 2, 7])["zero_division"] == {
        "precision": [7], "recall": [7]}


def test_zero_division_is_reported():
    out = precision_recall_f1([0, 0, 1, 1], [0, 0, 0, 0])
    assert out["precision"] == [0.5, 0.0] and out["zero_division"]["precision"] == [1]


def test_confusion_details_lists_every_row_in_its_cell():
    y_true, y_pred = _labels_case(3, n=40, text=True)
    details = confusion_details(y_true, y_pred)
    labels = details["labels"]
    seen = []
    for i, t in enumerate(labels):
        for j, p in enumerate(labels):
            rows = details["rows"][i][j]
            assert len(rows) == details["matrix"][i][j]
            assert rows == sorted(rows)
            assert all(y_true[r] == t and y_pred[r] == p for r in rows)
            seen += rows
    assert sorted(seen) == list(range(40))
    np.testing.assert_array_equal(details["matrix"], sk.confusion_matrix(y_true, y_pred))
    json.dumps(details, allow_nan=False)


def test_confusion_details_small_worked_case():
    details = confusion_details(["spam", "ham", "spam", "ham"], ["spam", "spam", "ham", "ham"])
    assert details == {"labels": ["ham", "spam"], "matrix": [[1, 1], [1, 1]],
                       "rows": [[[3], [1]], [[2], [0]]]}


# --- log loss ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_log_loss_equals_sklearn_multiclass_with_hard_zeros(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 50)
    proba = rng.dirichlet([1, 1, 1], size=50)
    proba[:5] = np.eye(3)[(y[:5] + 1) % 3]  # confidently wrong: p = 0, clipped to eps
    proba[5:10] = np.eye(3)[y[5:10]]  # confidently right: p = 1, clipped to 1 - eps
    assert log_loss(y, proba) == pytest.approx(sk.log_loss(y, proba), rel=1e-12)


def test_log_loss_binary_text_labels_and_explicit_labels_equal_sklearn():
    y = ["spam", "ham", "ham", "spam"]
    proba = [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]
    assert log_loss(y, proba) == pytest.approx(0.21616, abs=1e-5)  # sklearn's docstring example
    assert log_loss(y, proba) == pytest.approx(sk.log_loss(y, proba))
    p1 = np.array([0.9, 0.1, 0.2, 0.65])
    assert log_loss(y, p1) == pytest.approx(sk.log_loss(y, p1))  # 1-D: probability of the second label
    three = np.array([[.2, .5, .3], [.6, .3, .1]])
    assert log_loss([1, 1], three, labels=[0, 1, 2]) == pytest.approx(sk.log_loss([1, 1], three, labels=[0, 1, 2]))


def test_log_loss_errors():
    with pytest.raises(DataError, match="one label only"):
        log_loss([1, 1], [[0.5, 0.5], [0.5, 0.5]])
    with pytest.raises(DataError, match="3 columns but there are 2 labels"):
        log_loss([0, 1], [[0.2, 0.5, 0.3], [0.2, 0.5, 0.3]])
    with pytest.raises(DataError, match=r"probabilities in \[0, 1\]"):
        log_loss([0, 1], [[1.2, -0.2], [0.5, 0.5]])
    with pytest.raises(DataError, match=r"y_true holds \[5\], not among the labels"):
        log_loss([0, 5], [[0.5, 0.5], [0.5, 0.5]], labels=[0, 1])


# --- regression --------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_regression_metrics_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=30) * 10
    pred = y + rng.normal(size=30) * (seed + 1)
    assert mean_squared_error(y, pred) == pytest.approx(sk.mean_squared_error(y, pred))
    assert mean_absolute_error(y, pred) == pytest.approx(sk.mean_absolute_error(y, pred))
    assert r2_score(y, pred) == pytest.approx(sk.r2_score(y, pred))


def test_regression_metrics_on_diabetes_and_edge_cases_equal_sklearn():
    X, y = load_diabetes(return_X_y=True)
    pred = X @ np.linalg.lstsq(np.c_[np.ones(len(X)), X], y, rcond=None)[0][1:] + y.mean()
    for ours, theirs in ((mean_squared_error, sk.mean_squared_error), (mean_absolute_error, sk.mean_absolute_error),
                         (r2_score, sk.r2_score)):
        assert ours(y, pred) == pytest.approx(theirs(y, pred))
        assert ours([3, 3, 3], [3, 3, 3]) == pytest.approx(theirs([3, 3, 3], [3, 3, 3]))  # constant, perfect
        assert ours([3, 3, 3], [1, 3, 3]) == pytest.approx(theirs([3, 3, 3], [1, 3, 3]))  # constant, imperfect
    assert mean_squared_error([1.5], [2.0]) == sk.mean_squared_error([1.5], [2.0])
    report = regression_report_dict(y, pred)
    assert report["rmse"] == pytest.approx(np.sqrt(sk.mean_squared_error(y, pred)))
    json.dumps(report, allow_nan=False)


# --- notes 004: losses on scores ---------------------------------------------------------------

def test_seed004_zero_one_and_perceptron_loss_on_scores():
    scores = np.array([2.0, -1.0, 0.0, 0.5, -3.0])
    y = np.array([1, 1, 1, -1, -1])
    # y * w.x = 2, -1, 0, -0.5, 3: mistakes where <= 0 (a score of 0 counts as a mistake).
    assert margin_zero_one_loss(scores, y) == pytest.approx(3 / 5)
    assert margin_zero_one_loss(scores, y, normalize=False) == 3
    # L_P = -y w.x on mistakes: 1 + 0 + 0.5
    assert perceptron_loss(scores, y, normalize=False) == pytest.approx(1.5)
    assert perceptron_loss(scores, y) == pytest.approx(1.5 / 5)
    assert perceptron_loss(scores, (y > 0).astype(int)) == pytest.approx(1.5 / 5)  # 0/1 read as -1/+1
    assert perceptron_loss(scores, y) == pytest.approx(np.mean(np.maximum(0, -y * scores)))


def test_perceptron_loss_is_sklearn_hinge_with_threshold_zero():
    rng = np.random.default_rng(5)
    scores, y = rng.normal(size=40), rng.choice([-1, 1], 40)
    # The perceptron loss is the hinge loss with its margin at 0: max(0, 0 - y w.x).
    # hinge: max(0, 1 - y * d) with d = s + y gives max(0, -y s), since y^2 = 1.
    assert perceptron_loss(scores, y) == pytest.approx(sk.hinge_loss(y, scores + y))
    with pytest.raises(DataError, match=r"labels -1 and \+1 \(or 0 and 1\); found \[0, 1, 2\]"):
        perceptron_loss([1, 2, 3], [0, 1, 2])
    with pytest.raises(DataError, match="scores has 2 values, y has 3"):
        perceptron_loss([1, 2], [1, -1, 1])


# --- reports and input errors -----------------------------------------------------------------

def test_classification_report_on_iris_nearest_mean():
    X, y = load_iris(return_X_y=True)
    means = np.array([X[y == c].mean(axis=0) for c in range(3)])
    pred = np.argmin(((X[:, None, :] - means) ** 2).sum(axis=2), axis=1)
    proba = np.exp(-((X[:, None, :] - means) ** 2).sum(axis=2))
    proba /= proba.sum(axis=1, keepdims=True)
    report = classification_report_dict(y, pred, proba=proba)
    theirs = sk.classification_report(y, pred, output_dict=True)
    assert report["accuracy"] == pytest.approx(theirs["accuracy"])
    assert report["macro"]["f1"] == pytest.approx(theirs["macro avg"]["f1-score"])
    assert report["weighted"]["recall"] == pytest.approx(theirs["weighted avg"]["recall"])
    for row in report["per_class"]:
        assert row["precision"] == pytest.approx(theirs[str(row["label"])]["precision"])
        assert row["support"] == theirs[str(row["label"])]["support"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert report["log_loss"] == pytest.approx(sk.log_loss(y, proba))
    assert report["zero_one_loss"] == pytest.approx(1 - report["accuracy"])
    json.dumps(report, allow_nan=False)


@pytest.mark.parametrize("call, message", [
    (lambda: accuracy_score([1, 2, 3], [1, 2]), "y_true has 3 values, y_pred has 2"),
    (lambda: accuracy_score([], []), "y_true is empty"),
    (lambda: accuracy_score(["a", "b"], [1, 2]), "different kinds of labels"),
    (lambda: accuracy_score([[1, 2], [3, 4]], [1, 2]), r"y_true must be 1-D .* got shape \(2, 2\)"),
    (lambda: confusion_matrix([1, 2], [1, 2], labels=[1, 1]), "must not repeat"),
    (lambda: confusion_matrix([1, 2], [1, 2], labels=["a"]), "different kinds"),
    (lambda: mean_squared_error([1.0, np.nan], [1.0, 2.0]), r"y_true has missing values \(NaN\)"),
    (lambda: r2_score(["a", "b"], [1.0, 2.0]), "must be numbers"),
    (lambda: mean_absolute_error([1.0, np.inf], [1.0, 2.0]), "infinite"),
])
def test_bad_input_raises_a_data_error_that_explains(call, message):
    with pytest.raises(DataError, match=message):
        call()


def test_inputs_are_not_changed():
    y_true, y_pred = _labels_case(9)
    before = (y_true.copy(), y_pred.copy())
    classification_report_dict(y_true, y_pred)
    np.testing.assert_array_equal(y_true, before[0])
    np.testing.assert_array_equal(y_pred, before[1])
