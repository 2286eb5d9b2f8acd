"""Repeated k-fold: each repeat a partition of the rows into k folds, reshuffled with a seed drawn from the
evaluation's seed, the same on every run; one repeat is exactly plain k-fold, so a comparison with
repeats 1 scores as it always has, and more repeats add folds without changing the first k."""

import numpy as np
import pytest

from pellucid import DataError
from pellucid.evaluation.splits import (KFold, RepeatedKFold, RepeatedStratifiedKFold, StratifiedKFold,
                                        repeat_seed)
from pellucid.workbench import leaderboard
from pellucid.workbench.judging import fold_pairs
from pellucid.workbench.repeated_folds import repeat_pairs
from pellucid.workbench import training

from bridgekit import ok, session



def load_iris():
    """The built-in iris table, as the page loads it."""
    return session.tables[ok("load_example", name="iris")["table_id"]]


Y = np.array(["a"] * 23 + ["b"] * 14 + ["c"] * 9)  # (46,)
X = np.arange(len(Y)).reshape(-1, 1)


def folds_of(splitter, y=Y):
    return [test for _, test in splitter.split(X, y)]


@pytest.mark.parametrize("kind", [RepeatedKFold, RepeatedStratifiedKFold])
def test_each_repeat_partitions_the_rows_and_the_repeats_differ(kind):
    folds = folds_of(kind(5, 3, seed=7))
    assert len(folds) == 15 == kind(5, 3).get_n_splits()
    repeats = [folds[r * 5:(r + 1) * 5] for r in range(3)]
    for repeat in repeats:
        assert np.array_equal(np.sort(np.concatenate(repeat)), np.arange(len(Y)))  # each row tested once
    assignments = [tuple(np.concatenate([np.full(len(t), i) for i, t in enumerate(r)])[np.argsort(np.concatenate(r))])
                   for r in repeats]
    assert len(set(assignments)) == 3  # three different partitions
    for train, test in kind(5, 3, seed=7).split(X, Y):
        assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(len(Y)))


@pytest.mark.parametrize("kind", [RepeatedKFold, RepeatedStratifiedKFold])
def test_the_folds_are_the_same_for_a_seed_and_differ_between_seeds(kind):
    first, again, other = folds_of(kind(4, 2, seed=3)), folds_of(kind(4, 2, seed=3)), folds_of(kind(4, 2, seed=4))
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))


@pytest.mark.parametrize("kind, plain", [(RepeatedKFold, KFold), (RepeatedStratifiedKFold, StratifiedKFold)])
def test_one_repeat_and_every_first_repeat_are_plain_k_fold(kind, plain):
    expected = folds_of(plain(5, shuffle=True, seed=11))
    for repeats in (1, 3):
        got = folds_of(kind(5, repeats, seed=11))[:5]
        assert all(np.array_equal(a, b) for a, b in zip(got, expected))


def test_a_later_repeat_is_not_the_first_repeat_of_the_next_seed():
    assert repeat_seed(5, 0) == 5 and repeat_seed(0, 1) != 1 and repeat_seed(0, 1) == repeat_seed(0, 1)
    assert len({repeat_seed(s, r) for s in range(20) for r in range(10)}) == 200
    assert all(0 <= repeat_seed(s, r) < 2 ** 32 for s in (0, 2 ** 32 - 1) for r in range(1, 10))


def test_stratified_repeats_keep_each_class_in_every_fold():
    for test in folds_of(RepeatedStratifiedKFold(3, 4, seed=0)):
        assert set(Y[test]) == {"a", "b", "c"}


@pytest.mark.parametrize("repeats", [0, -1, 1.5, True])
def test_a_repeat_count_that_is_not_a_positive_whole_number_is_refused(repeats):
    with pytest.raises(DataError, match="number of repeats") as caught:
        folds_of(RepeatedKFold(3, repeats))
    assert caught.value.field == "evaluation.repeats"


def test_the_workbench_folds_of_the_first_repeat_are_the_runs_own():
    table = load_iris()
    run, _ = training.train(table, "species", None, "GaussianNB", None, {"method": "kfold", "k": 5, "seed": 2})
    pairs = repeat_pairs(run, 3)
    assert len(pairs) == 15 and all(p.dtype == np.intp for pair in pairs for p in pair)
    for (train, test), (own_train, own_test) in zip(pairs[:5], fold_pairs(run)):
        assert np.array_equal(train, own_train) and np.array_equal(test, own_test)


def test_repeats_one_ranks_exactly_as_plain_k_fold_and_more_repeats_keep_the_first_folds():
    table = load_iris()
    learners = ["GaussianNB", "DecisionTreeClassifier"]
    plain = leaderboard.rank_learners(table, "species", None, learners, {"method": "kfold", "k": 5, "seed": 1})
    once = leaderboard.rank_learners(table, "species", None, learners, {"method": "kfold", "k": 5, "seed": 1,
                                                                        "repeats": 1})
    thrice = leaderboard.rank_learners(table, "species", None, learners, {"method": "kfold", "k": 5, "seed": 1,
                                                                          "repeats": 3})
    for a, b, c in zip(plain["rows"], once["rows"], thrice["rows"]):
        for name, scores in a["scores"].items():
            assert scores["folds"] == b["scores"][name]["folds"] and len(scores["folds"]) == 5
            assert c["scores"][name]["folds"][:5] == scores["folds"] and len(c["scores"][name]["folds"]) == 15
            assert c["scores"][name]["mean"] == pytest.approx(np.mean(c["scores"][name]["folds"]))
        assert c["fold_sizes"] == {"train": [120] * 15, "test": [30] * 15}
    assert plain["evaluation"]["repeats"] == 1 and thrice["evaluation"]["repeats"] == 3
    assert len(thrice["baseline"]["scores"]["accuracy"]["folds"]) == 15
    assert thrice["significance"]["n_folds"] == 15 and thrice["significance"]["level"] == 0.05


def test_a_trained_run_is_cross_validated_once():
    with pytest.raises(DataError, match="comparing learners") as caught:
        training.train(load_iris(), "species", None, "GaussianNB", None,
                       {"method": "kfold", "k": 5, "repeats": 2})
    assert caught.value.field == "evaluation.repeats"
    text = training.evaluation_text(training.check_evaluation({"method": "kfold", "k": 5, "repeats": 2}), "regression")
    assert text == "5-fold cross-validation repeated 2 times, seed 0"
