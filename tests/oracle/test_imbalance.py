"""Imbalanced targets: balanced accuracy and balanced class weights, by their definitions and against
scikit-learn's balanced_accuracy_score and compute_class_weight("balanced")."""

import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.metrics import balanced_accuracy_score as sk_balanced_accuracy
from sklearn.utils.class_weight import compute_class_weight

from pellucid import DataError
from pellucid.evaluation.imbalance import balanced_accuracy_score, balanced_class_weights, balanced_sample_weights


def test_always_predicting_the_common_class_scores_one_over_k():
    y = np.array(["ok"] * 95 + ["fraud"] * 5)
    always_ok = np.array(["ok"] * 100)
    assert balanced_accuracy_score(y, always_ok) == pytest.approx(0.5)  # accuracy would be 0.95
    assert balanced_accuracy_score(y, always_ok, adjusted=True) == pytest.approx(0.0)
    assert balanced_accuracy_score(y, y, adjusted=True) == pytest.approx(1.0)


@pytest.mark.parametrize("adjusted", [False, True])
def test_balanced_accuracy_matches_sklearn(adjusted):
    rng = np.random.default_rng(0)
    for _ in range(50):
        k = int(rng.integers(2, 6))
        y_true = rng.choice(k, int(rng.integers(5, 200)), p=rng.dirichlet(np.ones(k)))
        y_pred = rng.integers(0, k + 1, len(y_true))  # k + 1: a label that may only be predicted
        if len(np.unique(y_true)) < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # sklearn warns about labels that are only predicted
            expected = sk_balanced_accuracy(y_true, y_pred, adjusted=adjusted)
        assert balanced_accuracy_score(y_true, y_pred, adjusted=adjusted) == pytest.approx(expected, abs=1e-12)


def test_class_weights_match_sklearn_and_give_each_class_the_same_total():
    rng = np.random.default_rng(1)
    y = rng.choice(["bronze", "silver", "gold"], 20_000, p=[0.8, 0.15, 0.05])
    weights = balanced_class_weights(y)
    classes = np.unique(y)
    np.testing.assert_allclose([weights[c] for c in classes],
                               compute_class_weight("balanced", classes=classes, y=y))
    per_row = balanced_sample_weights(y)
    assert per_row.sum() == pytest.approx(len(y))
    for c in classes:
        assert per_row[y == c].sum() == pytest.approx(len(y) / 3)


def test_class_weights_in_a_given_order():
    weights = balanced_class_weights([2, 1, 1, 1], classes=[2, 1])
    assert list(weights) == [2, 1] and weights == pytest.approx({2: 2.0, 1: 4 / 6})
    with pytest.raises(DataError, match="not among the classes"):
        balanced_class_weights([2, 1, 3], classes=[2, 1])
    with pytest.raises(DataError, match="has no rows"):
        balanced_class_weights([2, 1], classes=[2, 1, 3])


def test_bad_input_is_a_data_error():
    with pytest.raises(DataError, match="inconsistent numbers"):
        balanced_accuracy_score([0, 1, 1], [0, 1])
    with pytest.raises(DataError, match="missing"):
        balanced_class_weights(["a", None, "b"])
