"""A forest reports each tree it grows to the page's progress bar, inside the share the command gives its
fit: training's fit, a fold of k-fold, a cell of Tune, one learner of Compare learners."""

import pytest

from pellucid.host import progress

from bridgekit import ok

TREES = 4


@pytest.fixture
def seen(monkeypatch):
    reports = []
    monkeypatch.setattr(progress, "_host_progress", lambda fraction, label: reports.append((fraction, label)))
    return reports


@pytest.fixture
def iris():
    info = ok("load_example", name="iris")
    return info["table_id"], info["suggested_target"]


def _never_back(seen):
    """The bar never goes back (but for the last bit of a sum of shares)."""
    fractions = [f for f, _ in seen]
    return all(b >= a - 1e-12 for a, b in zip(fractions, fractions[1:]))


def _tree_reports(seen, prefix):
    return [(f, label) for f, label in seen if label.startswith(prefix) and ": tree " in label]


def test_training_reports_every_tree_within_the_fit_share(iris, seen):
    table_id, target = iris
    ok("train", table_id=table_id, target=target, features=None, model="RandomForestClassifier",
       params={"n_estimators": TREES}, evaluation={"method": "split", "train": 70, "validation": 0, "test": 30,
                                                   "seed": 1})
    trees = _tree_reports(seen, "Training: ")
    assert [label for _, label in trees] == [f"Training: tree {i} of {TREES}" for i in range(1, TREES + 1)]
    fractions = [f for f, _ in trees]
    assert fractions == sorted(fractions) and 0.1 < fractions[0] and fractions[-1] == pytest.approx(0.95)
    assert _never_back(seen)


def test_each_fold_reports_its_trees_in_its_own_share_of_the_bar(iris, seen):
    table_id, target = iris
    ok("train", table_id=table_id, target=target, features=None, model="RandomForestClassifier",
       params={"n_estimators": TREES}, evaluation={"method": "kfold", "k": 3, "stratify": True, "seed": 2})
    for fold in (1, 2, 3):
        trees = _tree_reports(seen, f"Fold {fold} of 3: ")
        assert len(trees) == TREES
        assert all(0.8 * (fold - 1) / 3 < f <= 0.8 * fold / 3 + 1e-12 for f, _ in trees)
    assert _never_back(seen)


def test_tune_reports_each_cells_trees_without_going_back(iris, seen):
    table_id, target = iris
    ok("tune", table_id=table_id, target=target, features=None, model="RandomForestClassifier",
       params={"n_estimators": TREES}, evaluation={"method": "kfold", "k": 3, "stratify": True, "seed": 2},
       grid=[{"name": "max_depth", "values": [1, 2]}])
    assert len(_tree_reports(seen, "Tuning: ")) == 2 * 3 * TREES
    assert _never_back(seen)
