"""The perceptron's passes read [1, x] in visiting order from one buffer (perceptron.bias_rows_in_order)
and one-vs-rest counts a pass's mistakes with a flag per row: the same fits as when every pass gathered
with_bias(X)[order] and the mistakes were a set of row numbers."""

import warnings

import numpy as np
import pytest

from pellucid import Perceptron
from pellucid.learners.linear import perceptron, perceptron_fast
from pellucid.tabular.features import with_bias


@pytest.mark.parametrize("n,d", [(0, 3), (1, 1), (37, 5), (5000, 7), (3, 40_000)])
def test_bias_rows_in_order_are_with_bias_rows_gathered(n, d):
    rng = np.random.default_rng(n + d)
    X = rng.normal(size=(n, d))
    for order in (rng.permutation(n), np.arange(n), rng.permutation(n)[: n // 2]):
        expected = with_bias(X)[order]
        np.testing.assert_array_equal(perceptron.bias_rows_in_order(X, order), expected)
        out = np.full((len(order), d + 1), np.nan)  # a buffer reused from an earlier pass
        assert perceptron.bias_rows_in_order(X, order, out) is out
        np.testing.assert_array_equal(out, expected)
    Xf = np.asfortranarray(X[:, ::-1])  # any layout reads the same
    np.testing.assert_array_equal(perceptron.bias_rows_in_order(Xf, np.arange(n)[::-1]), with_bias(Xf)[::-1])


def _one_vs_rest_with_a_set(run, F, targets, steps):
    wrong, loss = set(), 0.0
    for c in range(len(run.w)):
        own = targets == c
        step = steps if steps.ndim == 1 else steps[:, c]
        positions, class_loss = perceptron_fast._binary(run, run.w[c], run.weighted_updates[c], F, own,
                                                        np.where(own, step, -step))
        wrong.update(positions.tolist())
        loss += class_loss
    return wrong, loss


def _fit(params, X, y, fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = Perceptron(**params).fit(X, y, **fit)
        return model.partial_fit(X[::2], y[::2])  # and a later pass from the kept run


@pytest.mark.parametrize("classes,multiclass", [(2, "ovr"), (3, "ovr"), (4, "joint")])
@pytest.mark.parametrize("extra", [{}, {"averaged": True, "shuffle": False}, {"class_weight": {0: 2.0, 1: 0.5}},
                                   {"sample_weight": True, "tol": 0.01, "n_iter_no_change": 2}])
def test_fit_is_that_of_gathering_each_pass(classes, multiclass, extra, monkeypatch):
    rng = np.random.default_rng(classes)
    X = rng.normal(size=(400, 6))
    y = np.digitize(X[:, 0] + 0.8 * X[:, 1] + 0.4 * rng.normal(size=400),
                    np.quantile(X[:, 0], np.linspace(0, 1, classes + 1)[1:-1]))
    params, fit = {"max_iter": 8, "multiclass": multiclass, "random_state": 3, **extra}, {}
    if params.pop("sample_weight", False):
        fit["sample_weight"] = rng.choice([0.0, 0.5, 1.0, 2.0], size=len(y))  # 0: left out of the passes
    now = _fit(params, X, y, fit)
    monkeypatch.setattr(perceptron, "bias_rows_in_order", lambda X, order, out=None: with_bias(X)[order])
    monkeypatch.setattr(perceptron_fast, "_one_vs_rest", _one_vs_rest_with_a_set)
    before = _fit(params, X, y, fit)
    assert now.mistakes_ == before.mistakes_ and now.n_iter_ == before.n_iter_
    np.testing.assert_array_equal(now.weights_, before.weights_)
    np.testing.assert_array_equal(now.coef_, before.coef_)
    np.testing.assert_array_equal(now.intercept_, before.intercept_)
