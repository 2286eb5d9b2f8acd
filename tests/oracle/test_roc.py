"""ROC and precision-recall curves, their areas, and the confusion counts behind a threshold slider: the
definitions on hand-checkable examples, and scikit-learn's numbers on the same rows (tied scores,
one-vs-rest averages, a fitted model's probabilities, a large table with heavily rounded scores)."""

import json
import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn import metrics as sk
from sklearn.datasets import load_breast_cancer, load_wine

from pellucid import DataError, GaussianNB, LogisticRegression
from pellucid.evaluation.metrics import confusion_matrix
from pellucid.evaluation.precision_recall import average_precision_score, precision_recall_curve
from pellucid.evaluation.probability_report import probability_report
from pellucid.evaluation.ranking import confusion_at_thresholds
from pellucid.evaluation.roc import auc, roc_auc_score, roc_curve


def _pairs_ranked_right(y, s):
    """P(score of a random positive > score of a random negative), ties counting one half."""
    pos, neg = s[y == 1][:, None], s[y == 0][None, :]
    return float(np.mean((pos > neg) + 0.5 * (pos == neg)))


def _random_binary(rng, n, decimals):
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]  # both classes present
    return y, np.round(rng.random(n), decimals)  # rounding makes tied scores


def test_small_example_by_hand():
    y, s = np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8])
    fpr, tpr, thresholds = roc_curve(y, s)
    # t=0.8 catches one positive; t=0.4 adds a negative; t=0.35 the other positive; t=0.1 the last negative.
    assert fpr.tolist() == [0, 0, 0.5, 0.5, 1] and tpr.tolist() == [0, 0.5, 0.5, 1, 1]
    assert thresholds.tolist() == [np.inf, 0.8, 0.4, 0.35, 0.1]
    assert roc_auc_score(y, s) == pytest.approx(0.75)  # 3 of the 4 (positive, negative) pairs in order
    precision, recall, pr_thresholds = precision_recall_curve(y, s)
    assert precision.tolist() == pytest.approx([2 / 4, 2 / 3, 1 / 2, 1, 1])
    assert recall.tolist() == [1, 1, 0.5, 0.5, 0]
    assert pr_thresholds.tolist() == [0.1, 0.35, 0.4, 0.8]
    # AP: recall rises 0.5 at precision 1 (t=0.8) and 0.5 at precision 2/3 (t=0.35).
    assert average_precision_score(y, s) == pytest.approx(0.5 * 1 + 0.5 * 2 / 3)


def test_auc_is_the_share_of_pairs_ranked_right_with_ties_as_half():
    rng = np.random.default_rng(1)
    for _ in range(30):
        y, s = _random_binary(rng, int(rng.integers(5, 80)), 1)
        assert roc_auc_score(y, s) == pytest.approx(_pairs_ranked_right(y, s), abs=1e-12)


@pytest.mark.parametrize("drop", [True, False])
def test_curves_match_sklearn_with_tied_scores(drop):
    rng = np.random.default_rng(2)
    for _ in range(40):
        y, s = _random_binary(rng, int(rng.integers(3, 120)), int(rng.integers(1, 3)))
        for ours, theirs in zip(roc_curve(y, s, drop_intermediate=drop), sk.roc_curve(y, s, drop_intermediate=drop)):
            np.testing.assert_allclose(ours, theirs, rtol=1e-12)
        pr_ours = precision_recall_curve(y, s, drop_intermediate=drop)
        pr_theirs = sk.precision_recall_curve(y, s, drop_intermediate=drop)
        for ours, theirs in zip(pr_ours, pr_theirs):
            np.testing.assert_allclose(ours, theirs, rtol=1e-12)
        assert roc_auc_score(y, s) == pytest.approx(sk.roc_auc_score(y, s), rel=1e-12)
        assert average_precision_score(y, s) == pytest.approx(sk.average_precision_score(y, s), rel=1e-12)


def test_text_labels_with_a_named_positive_class():
    rng = np.random.default_rng(3)
    y = rng.choice(["churned", "stayed"], 200, p=[0.1, 0.9])
    s = np.round(rng.random(200) * 0.5 + 0.5 * (y == "churned"), 2)
    for ours, theirs in zip(roc_curve(y, s, pos_label="churned"), sk.roc_curve(y, s, pos_label="churned")):
        np.testing.assert_allclose(ours, theirs)
    assert average_precision_score(y, s, pos_label="churned") == pytest.approx(
        sk.average_precision_score(y, s, pos_label="churned"))
    with pytest.raises(DataError, match="pos_label"):
        roc_curve(y, s)
    with pytest.raises(DataError, match="not one of the labels"):
        roc_curve(y, s, pos_label="left")


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_one_vs_rest_averages_match_sklearn(average):
    rng = np.random.default_rng(4)
    for _ in range(20):
        n, k = int(rng.integers(10, 90)), int(rng.integers(3, 6))
        y = np.r_[np.arange(k), rng.integers(0, k, n - k)]
        raw = rng.random((n, k))
        proba = np.round(raw / raw.sum(axis=1, keepdims=True), 2)
        proba[:, -1] = 1 - proba[:, :-1].sum(axis=1)
        np.testing.assert_allclose(roc_auc_score(y, proba, average=average),
                                   sk.roc_auc_score(y, proba, multi_class="ovr", average=average), rtol=1e-12)
        np.testing.assert_allclose(average_precision_score(y, proba, average=average),
                                   sk.average_precision_score(y, proba, average=average), rtol=1e-12)


def test_fitted_models_probabilities_match_sklearns_areas():
    X, y = load_breast_cancer(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        proba = LogisticRegression().fit(X[::2], y[::2]).predict_proba(X[1::2])
    assert roc_auc_score(y[1::2], proba) == pytest.approx(sk.roc_auc_score(y[1::2], proba[:, 1]), rel=1e-12)
    assert average_precision_score(y[1::2], proba) == pytest.approx(
        sk.average_precision_score(y[1::2], proba[:, 1]), rel=1e-12)
    Xw, yw = load_wine(return_X_y=True)
    proba = GaussianNB().fit(Xw[::2], yw[::2]).predict_proba(Xw[1::2])
    assert roc_auc_score(yw[1::2], proba, average="weighted") == pytest.approx(
        sk.roc_auc_score(yw[1::2], proba, multi_class="ovr", average="weighted"), rel=1e-12)


def test_large_imbalanced_table_with_rounded_scores_matches_sklearn():
    rng = np.random.default_rng(5)
    n = 40_000
    y = (rng.random(n) < 0.03).astype(int)  # 3% positives
    s = np.round(np.clip(rng.normal(0.3 + 0.3 * y, 0.15), 0, 1), 2)  # 101 distinct scores
    fpr, tpr, thresholds = roc_curve(y, s, drop_intermediate=False)
    assert len(thresholds) == len(np.unique(s)) + 1
    assert roc_auc_score(y, s) == pytest.approx(sk.roc_auc_score(y, s), rel=1e-12)
    assert average_precision_score(y, s) == pytest.approx(sk.average_precision_score(y, s), rel=1e-12)


def _sklearn_confusion_at_thresholds(y, s, pos_label=None):
    """scikit-learn's counts (tn, fp, fn, tp, thresholds) at each distinct score, highest first: its own
    function where it has one (1.8 and later), else its confusion_matrix at each cut."""
    if hasattr(sk, "confusion_matrix_at_thresholds"):
        return sk.confusion_matrix_at_thresholds(y, s, pos_label=pos_label)
    y, s = np.asarray(y), np.asarray(s)
    positive = (y == pos_label) if pos_label is not None else (y == np.unique(y)[-1])
    thresholds = np.unique(s)[::-1]
    counts = np.array([sk.confusion_matrix(positive, s >= t, labels=[False, True]).ravel() for t in thresholds])
    return (*counts.T, thresholds)


def test_confusion_at_thresholds_is_the_confusion_matrix_of_each_cut():
    rng = np.random.default_rng(6)
    y, s = _random_binary(rng, 300, 2)
    counts = confusion_at_thresholds(y, s)
    theirs = _sklearn_confusion_at_thresholds(y, s)
    for name, expected in zip(("tn", "fp", "fn", "tp", "thresholds"), theirs):
        np.testing.assert_array_equal(counts[name], expected)
    for i in (0, len(counts["thresholds"]) // 2, len(counts["thresholds"]) - 1):
        matrix, _ = confusion_matrix(y, (s >= counts["thresholds"][i]).astype(int), labels=[0, 1])
        assert matrix.ravel().tolist() == [counts["tn"][i], counts["fp"][i], counts["fn"][i], counts["tp"][i]]


def test_auc_of_any_monotonic_polyline():
    assert auc([0, 1, 2], [0, 1, 1]) == pytest.approx(1.5)
    assert auc([2, 1, 0], [1, 1, 0]) == pytest.approx(1.5)
    with pytest.raises(DataError, match="monotonic"):
        auc([0, 2, 1], [0, 1, 1])


@pytest.mark.parametrize("call, message", [
    (lambda: roc_auc_score([1, 1, 1], [0.2, 0.5, 0.9]), "one class"),
    (lambda: roc_curve([0, 0, 0], [0.2, 0.5, 0.9]), "no positive rows"),
    (lambda: precision_recall_curve([0, 0, 0], [0.2, 0.5, 0.9]), "no positive rows"),
    (lambda: roc_curve([0, 1, 1], [0.2, np.nan, 0.9]), "missing or infinite"),
    (lambda: roc_curve([0, 1, 1], [0.2, 0.9]), "inconsistent numbers"),
    (lambda: roc_curve([0, 1, 1], ["low", "high", "high"]), "must be numbers"),
    (lambda: roc_auc_score([0, 1, 2], [[0.5, 0.5, 0.5]] * 3), "sum to 1"),
    (lambda: roc_auc_score([0, 1, 2], [[0.5, 0.5]] * 3), "2 columns but there are 3 classes"),
    (lambda: roc_auc_score([0, 1, 2], np.eye(3), labels=[0, 1, 3]), "not among the labels"),
    (lambda: roc_auc_score([0, 1, 2], np.eye(3), average="samples"), "average must be"),
])
def test_bad_input_is_a_data_error_naming_the_problem(call, message):
    with pytest.raises(DataError, match=message):
        call()


# --- the page's reply: everything drawn from a classifier's probabilities -------------------------

def test_probability_report_for_two_text_classes_is_json_and_matches_sklearn():
    X, y = load_breast_cancer(return_X_y=True)
    names = np.array(["benign", "malignant"])[1 - y]  # sorted classes: benign, malignant
    model = GaussianNB().fit(X[::2], names[::2])
    proba = model.predict_proba(X[1::2])
    truth = names[1::2]
    report = probability_report(truth, proba, model.classes_, max_points=50)
    json.dumps(report, allow_nan=False)  # the +inf threshold became null
    assert report["binary"] and report["pos_label"] == "malignant"
    curves = report["curves"]
    assert curves["roc"]["auc"] == pytest.approx(sk.roc_auc_score(truth == "malignant", proba[:, 1]), rel=1e-12)
    assert curves["precision_recall"]["average_precision"] == pytest.approx(
        sk.average_precision_score(truth == "malignant", proba[:, 1]), rel=1e-12)
    assert len(report["thresholds"]["tp"]) <= 50 and len(curves["roc"]["fpr"]) <= 50
    full = probability_report(truth, proba, model.classes_, max_points=None)["thresholds"]
    assert full["comparison"] == "above"  # the second class wins only above 0.5, as predict's argmax
    for i in range(0, len(full["thresholds"]), 7):
        called = np.where(proba[:, 1] > full["thresholds"][i], "malignant", "benign")
        matrix = sk.confusion_matrix(truth, called, labels=["benign", "malignant"])
        assert matrix.ravel().tolist() == [full[name][i] for name in ("tn", "fp", "fn", "tp")]
    at_half = full["default_index"]
    assert full["thresholds"][at_half] == 0.5
    assert sk.confusion_matrix(truth, model.predict(X[1::2]), labels=["benign", "malignant"]).ravel().tolist() == [
        full[name][at_half] for name in ("tn", "fp", "fn", "tp")]
    other = probability_report(truth, proba, model.classes_, pos_label="benign")
    assert other["curves"]["roc"]["auc"] == pytest.approx(curves["roc"]["auc"])  # same ranking, reversed


def test_probability_report_for_three_classes_averages_like_sklearn():
    X, y = load_wine(return_X_y=True)
    model = GaussianNB().fit(X[::2], y[::2])
    proba = model.predict_proba(X[1::2])
    report = probability_report(y[1::2], proba, model.classes_)
    assert [c["class"] for c in report["per_class"]] == [0, 1, 2]
    for average in ("macro", "weighted"):
        assert report["roc_auc"][average] == pytest.approx(
            sk.roc_auc_score(y[1::2], proba, multi_class="ovr", average=average), rel=1e-12)
        assert report["average_precision"][average] == pytest.approx(
            sk.average_precision_score(y[1::2], proba, average=average), rel=1e-12)
    few = probability_report(y[1::2][y[1::2] < 2], proba[y[1::2] < 2], model.classes_)
    assert few["per_class"][2]["support"] == 0 and "no rows" in few["per_class"][2]["note"]
    with pytest.raises(DataError, match="one column per class"):
        probability_report(y[1::2], proba[:, :2], model.classes_)
