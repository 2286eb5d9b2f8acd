"""The corrected resampled t-test against an independent computation with scipy: the statistic
t = d̄ / sqrt((1/n + n_test/n_train) σ²) and its two-sided p-value from scipy.stats.t, on random paired
fold scores and on the fold scores Compare learners actually produced on the breast cancer table (5-fold
repeated 3 times), where every row's verdict against the best must be the one scipy's p-value gives."""

import numpy as np
import pytest

from pellucid.evaluation.significance import LEVEL, corrected_resampled_t_test, t_cdf, t_sf

from bridgekit import ok

stats = pytest.importorskip("scipy.stats", reason="an oracle test: it compares with scipy")


def scipy_test(a, b, n_train, n_test):
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    n = len(d)
    ratio = np.sum(n_test) / np.sum(n_train)
    t = d.mean() / np.sqrt((1 / n + ratio) * np.var(d, ddof=1))
    return t, 2 * stats.t.sf(abs(t), n - 1)


@pytest.mark.parametrize("case", range(300))
def test_random_fold_scores_give_scipys_statistic_and_p_value(case):
    rng = np.random.default_rng(case)
    k, repeats = int(rng.integers(2, 21)), int(rng.integers(1, 11))
    n_rows = int(rng.integers(k * 3, 5000))
    test = np.tile(np.full(k, n_rows // k) + (np.arange(k) < n_rows % k), repeats)  # (r k,)
    train = n_rows - test
    a = rng.uniform(0.5, 1.0, k * repeats)
    b = np.clip(a - rng.normal(rng.normal(0, 0.03), rng.uniform(0.001, 0.1), k * repeats), 0, 1)
    t, p = scipy_test(a, b, train, test)
    out = corrected_resampled_t_test(a, b, train, test)
    assert out["t"] == pytest.approx(t, rel=1e-10) and out["df"] == k * repeats - 1
    assert out["p_value"] == pytest.approx(p, rel=1e-10, abs=1e-300)
    assert out["significant"] == (p < LEVEL)


@pytest.mark.parametrize("case", range(200))
def test_the_t_distribution_is_scipys(case):
    rng = np.random.default_rng(1000 + case)
    df = float(rng.choice([rng.integers(1, 200), rng.uniform(0.2, 5), 10 ** rng.uniform(2, 6)]))
    t = float(rng.standard_normal() * 10 ** rng.uniform(-2, 1.5))
    assert t_cdf(t, df) == pytest.approx(stats.t.cdf(t, df), rel=1e-10, abs=1e-300)
    assert t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-10, abs=1e-300)


def test_the_comparisons_marks_are_scipys_on_its_own_fold_scores():
    info = ok("load_example", name="breast_cancer")
    learners = ["GaussianNB", "DecisionTreeClassifier", "KNeighborsClassifier", "LogisticRegression"]
    reply = ok("rank_learners", table_id=info["table_id"], target=info["suggested_target"], features=None,
               learners=learners, evaluation={"method": "kfold", "k": 5, "seed": 3, "repeats": 3})
    checked = 0
    for metric in ("accuracy", "f1_macro", "balanced_accuracy"):
        rows = reply["rows"] + [reply["baseline"]]
        best = next(r for r in reply["rows"] if r["scores"][metric]["versus_best"]["verdict"] == "best")
        greater = {m["name"]: m["greater_is_better"] for m in reply["metrics"]}[metric]
        means = [r["scores"][metric]["mean"] for r in reply["rows"]]
        assert best["scores"][metric]["mean"] == (max(means) if greater else min(means))
        for row in rows:
            if row is best:
                continue
            versus = row["scores"][metric]["versus_best"]
            sizes = best["fold_sizes"]
            assert len(row["scores"][metric]["folds"]) == len(sizes["test"]) == 15
            t, p = scipy_test(row["scores"][metric]["folds"], best["scores"][metric]["folds"], sizes["train"],
                              sizes["test"])
            assert versus["t"] == pytest.approx(t, rel=1e-10) and versus["p_value"] == pytest.approx(p, rel=1e-10)
            ratio = np.sum(sizes["test"]) / np.sum(sizes["train"])
            assert versus["test_train_ratio"] == pytest.approx(ratio, rel=1e-15)
            assert versus["verdict"] == ("not_significant" if p >= LEVEL else "worse")
            checked += 1
    assert checked == 3 * len(learners)  # three learners and the baseline against the best, per metric
    assert reply["baseline"]["scores"]["accuracy"]["versus_best"]["verdict"] == "worse"
