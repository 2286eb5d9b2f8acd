"""Tuning one or two hyperparameters: the cells' cross-validated scores and the best cell equal
scikit-learn's GridSearchCV on the same folds, the folds keep the test rows out, and bad grids are refused."""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
import sklearn
from sklearn.impute import SimpleImputer
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pellucid.learners import registry
from pellucid.tabular.table import Table
from pellucid.host import progress
from pellucid.workbench import tuning

from bridgekit import error, ok

KFOLD = {"method": "kfold", "k": 5, "stratify": True, "seed": 3}


def two_class_table(n, seed, d=3):
    """Continuous features (no two rows at the same distance) and a class drawn from a curved rule."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))  # (n, d)
    signal = X[:, 0] + 0.8 * X[:, 1] ** 2 + rng.normal(scale=0.6, size=n)  # further features are noise
    y = np.where(signal > np.median(signal), "yes", "no")
    columns = {f"x{j}": X[:, j] for j in range(d)}
    return Table({**columns, "label": y.astype(object)}), X, y


def cv_pairs(reply, n):
    """GridSearchCV's cv: the tuned folds as (train, test) 0-based index pairs."""
    tests = [np.array(rows) - 1 for rows in reply["folds"]]
    return [(np.setdiff1d(np.arange(n), test), test) for test in tests]


def grid_search(estimator, grid, X, y, cv, scoring=None):
    return GridSearchCV(estimator, grid, cv=cv, refit=False, return_train_score=True, scoring=scoring).fit(X, y)


def assert_same_cells(reply, search, to_sklearn, sign=1):
    """Every cell's mean validation and training score equals GridSearchCV's for the same params, within
    1e-9, and so does the best cell. sign -1: scikit-learn's scorer is the negated loss ("neg_...")."""
    theirs = {tuple(sorted(p.items())): i for i, p in enumerate(search.cv_results_["params"])}
    assert len(theirs) == len(reply["cells"])
    for cell in reply["cells"]:
        i = theirs[tuple(sorted(to_sklearn(cell["params"]).items()))]
        assert cell["validation_mean"] == pytest.approx(sign * search.cv_results_["mean_test_score"][i], abs=1e-9)
        assert cell["validation_std"] == pytest.approx(search.cv_results_["std_test_score"][i], abs=1e-9)
        assert cell["train_mean"] == pytest.approx(sign * search.cv_results_["mean_train_score"][i], abs=1e-9)
    assert to_sklearn(reply["best"]["params"]) == search.best_params_


def assert_one_best(reply):
    """The premise that no tie decides the best cell: it is strictly ahead of every other cell."""
    means = sorted((cell["validation_mean"] for cell in reply["cells"]), reverse=reply.get("greater_is_better", True))
    assert abs(means[0] - means[1]) > 1e-6, "the data must give one best cell for the parity to mean anything"


def twin(model, params, n_train):
    learner = registry.get(model)
    defaults = {**learner.estimator().get_params(), **params}
    return learner.sklearn.build(sklearn, defaults, {"n_train": n_train})


def test_tree_depth_and_leaf_size_match_grid_search_cv():
    table, X, y = two_class_table(200, seed=0)
    depths, leaves = [1, 2, 3, 4, 5], [5, 10, 20, 40]  # leaves of 5 rows or more: few equally good splits
    grid = [{"name": "max_depth", "values": depths}, {"name": "min_samples_leaf", "values": leaves}]
    reply = tuning.tune(table, "label", None, "DecisionTreeClassifier", {}, KFOLD, None, grid)
    assert len(reply["cells"]) == 20 and reply["splitter"] == "StratifiedKFold"
    cv = cv_pairs(reply, len(y))
    sk_grid = {"max_depth": depths, "min_samples_leaf": leaves}
    search = grid_search(twin("DecisionTreeClassifier", {}, 160), sk_grid, X, y, cv)
    # The premise: no equally good split is broken by scikit-learn's random feature order (other orders
    # give every cell the same scores), and one cell is best.
    for seed in (7, 13):
        other_order = grid_search(twin("DecisionTreeClassifier", {"random_state": seed}, 160), sk_grid, X, y, cv)
        np.testing.assert_allclose(other_order.cv_results_["mean_test_score"], search.cv_results_["mean_test_score"])
    assert_one_best(reply)
    assert_same_cells(reply, search, lambda p: p)


def test_knn_k_matches_grid_search_cv_with_standardizing_inside_each_fold():
    table, X, y = two_class_table(150, seed=4)
    ks = [1, 3, 5, 7, 9, 13, 21, 31]  # odd: two classes never tie a uniform vote
    reply = tuning.tune(table, "label", None, "KNeighborsClassifier", {}, KFOLD, None,
                        [{"name": "n_neighbors", "values": ks}])
    assert reply["preprocessing"]["standardize"] is True  # k-NN is scale-sensitive: scaled in every fold
    cv = cv_pairs(reply, len(y))
    # The premise: in every fold, after scaling on its training rows, no two training rows are at the same
    # distance from a held-out row near the k-th place, so each k picks the same neighbours in both.
    for train, test in cv:
        scaler = StandardScaler().fit(X[train])
        A, B = scaler.transform(X[test]), scaler.transform(X[train])
        distances = np.sort(np.sqrt(((A[:, None, :] - B[None, :, :]) ** 2).sum(-1)), axis=1)  # (m, n_train)
        for k in ks:
            assert np.min(distances[:, k] - distances[:, k - 1]) > 1e-9
    model = make_pipeline(StandardScaler(), twin("KNeighborsClassifier", {}, 120))
    search = grid_search(model, {"kneighborsclassifier__n_neighbors": ks}, X, y, cv)
    assert_one_best(reply)
    assert_same_cells(reply, search, lambda p: {"kneighborsclassifier__n_neighbors": p["n_neighbors"]})


def test_logistic_l2_matches_grid_search_cv_through_the_descriptors_c():
    table, X, y = two_class_table(150, seed=11)
    l2s = [0.0005, 0.005, 0.05, 0.5, 2.0]
    reply = tuning.tune(table, "label", None, "LogisticRegression", {}, KFOLD, None,
                        [{"name": "l2", "values": l2s}])
    cv = cv_pairs(reply, len(y))
    assert {len(train) for train, _ in cv} == {120}  # C = 1/(n l2) is then one value per l2 in every fold
    C_of = {l2: twin("LogisticRegression", {"l2": l2}, 120).C for l2 in l2s}
    model = make_pipeline(StandardScaler(), twin("LogisticRegression", {"l2": 1.0}, 120))
    search = grid_search(model, {"logisticregression__C": list(C_of.values())}, X, y, cv)
    # The premise: no held-out row lies so near a fold's boundary that solver tolerance could flip it.
    for train, test in cv:
        fitted = make_pipeline(StandardScaler(), twin("LogisticRegression", {"l2": 1.0}, 120))
        for C in C_of.values():
            fitted.set_params(logisticregression__C=C).fit(X[train], y[train])
            assert np.min(np.abs(fitted.decision_function(X[test]))) > 1e-4
    assert_one_best(reply)
    assert_same_cells(reply, search, lambda p: {"logisticregression__C": C_of[p["l2"]]})


def test_knn_regression_with_missing_cells_matches_grid_search_cv_imputing_inside_each_fold():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(120, 3))  # (n, 3)
    y = X[:, 0] - 2 * np.sin(X[:, 1]) + rng.normal(scale=0.3, size=120)
    holes = [(4, 0), (17, 1), (40, 2), (77, 0), (101, 1)]  # one missing cell in each of five rows
    for row, column in holes:
        X[row, column] = np.nan
    table = Table({**{f"x{j}": X[:, j] for j in range(3)}, "y": y})
    ks = [1, 2, 4, 8, 16]
    reply = tuning.tune(table, "y", None, "KNeighborsRegressor", {}, {"method": "kfold", "k": 4, "seed": 1}, None,
                        [{"name": "n_neighbors", "values": ks}])
    assert reply["splitter"] == "KFold" and reply["scoring"] == "r2"
    cv = cv_pairs(reply, len(y))
    model = make_pipeline(SimpleImputer(strategy="mean"), StandardScaler(), twin("KNeighborsRegressor", {}, 90))
    for train, test in cv:  # the premise: no distance ties near any k-th place in any fold
        prepared = model[:-1].fit(X[train])
        A, B = prepared.transform(X[test]), prepared.transform(X[train])
        distances = np.sort(np.sqrt(((A[:, None, :] - B[None, :, :]) ** 2).sum(-1)), axis=1)  # (m, n_train)
        assert min(np.min(distances[:, k] - distances[:, k - 1]) for k in ks) > 1e-9
    search = grid_search(model, {"kneighborsregressor__n_neighbors": ks}, X, y, cv)
    assert_one_best(reply)
    assert_same_cells(reply, search, lambda p: {"kneighborsregressor__n_neighbors": p["n_neighbors"]})


def test_under_a_split_the_folds_cover_the_training_and_validation_rows_only():
    table_id = ok("load_example", name="iris")["table_id"]
    split = {"method": "split", "train": 60, "validation": 20, "test": 20, "stratify": True, "seed": 5, "k": 4}
    trained = ok("train", table_id=table_id, target="species", features=None, model="DecisionTreeClassifier",
                 params={}, evaluation=split)
    reply = ok("tune", table_id=table_id, target="species", features=None, model="DecisionTreeClassifier",
               grid=[{"name": "max_depth", "values": [1, 2, 3]}], evaluation=split)
    tuned_rows = sorted(row for fold in reply["folds"] for row in fold)
    assert tuned_rows == sorted(trained["splits"]["train"] + trained["splits"]["validation"])
    assert not set(tuned_rows) & set(trained["splits"]["test"])
    assert reply["k"] == 4 and reply["test_rows_left_out"] == 30 and reply["n_rows"] == 120


def test_the_best_cell_is_the_first_highest_mean_and_the_fixed_params_are_kept():
    table, _, _ = two_class_table(120, seed=2)
    reply = tuning.tune(table, "label", None, "DecisionTreeClassifier", {"criterion": "gini"}, KFOLD, None,
                        [{"name": "max_depth", "values": [1, 2, 3, 4]}])
    means = [cell["validation_mean"] for cell in reply["cells"]]
    assert reply["best"]["index"] == means.index(max(means))
    assert reply["best"]["params"] == {"max_depth": [1, 2, 3, 4][reply["best"]["index"]]}
    assert reply["fixed_params"]["criterion"] == "gini" and "max_depth" not in reply["fixed_params"]
    for cell in reply["cells"]:
        assert cell["validation_mean"] == pytest.approx(np.mean(cell["validation_scores"]))


def test_progress_is_reported_after_every_fit(monkeypatch):
    reports = []
    monkeypatch.setattr(progress, "_host_progress", lambda fraction, label: reports.append((fraction, label)))
    table, _, _ = two_class_table(60, seed=0)
    grid = [{"name": "max_depth", "values": [1, 2]}, {"name": "criterion", "values": ["entropy", "gini"]}]
    tuning.tune(table, "label", None, "DecisionTreeClassifier", {}, {**KFOLD, "k": 3}, None, grid)
    fractions = [fraction for fraction, _ in reports]
    assert len(reports) == 4 * 3 and fractions == sorted(fractions) and fractions[-1] == 1.0
    assert "max_depth = 2, criterion = gini, fold 3 of 3" in reports[-1][1]


def test_two_parameters_make_a_row_major_grid():
    table, _, _ = two_class_table(80, seed=0)
    grid = [{"name": "max_depth", "values": [1, None]}, {"name": "criterion", "values": ["entropy", "gini"]}]
    reply = tuning.tune(table, "label", None, "DecisionTreeClassifier", {}, KFOLD, None, grid)
    assert [cell["params"] for cell in reply["cells"]] == [
        {"max_depth": 1, "criterion": "entropy"}, {"max_depth": 1, "criterion": "gini"},
        {"max_depth": None, "criterion": "entropy"}, {"max_depth": None, "criterion": "gini"}]


@pytest.fixture
def iris():
    return ok("load_example", name="iris")["table_id"]


def tune_error(table_id, grid, model="DecisionTreeClassifier", **extra):
    return error("tune", table_id=table_id, target=extra.pop("target", "species"), features=None, model=model,
                 grid=grid, evaluation=KFOLD, **extra)


@pytest.mark.parametrize("grid, named", [
    ([{"name": "depth", "values": [1, 2]}], "'depth'"),
    ([{"name": "max_depth", "values": [0, 1]}], "'max_depth'"),
    ([{"name": "min_gain", "values": [-0.5]}], "'min_gain'"),
    ([{"name": "criterion", "values": ["entropy", "purity"]}], "'criterion'"),
    ([{"name": "max_depth", "values": [1]}, {"name": "min_samples_leaf", "values": [1]},
      {"name": "criterion", "values": ["gini"]}], "3 were given"),
    ([{"name": "max_depth", "values": list(range(1, 12))}, {"name": "min_samples_leaf", "values": list(range(1, 11))}],
     "110 cells"),
    ([{"name": "max_depth", "values": [2, 3, 2]}], "list 2 twice"),
    ([{"name": "max_depth", "values": []}], "'max_depth'"),
    ([{"name": "max_depth", "values": [1]}, {"name": "max_depth", "values": [2]}], "chosen twice"),
    ([{"name": "trace", "values": [True]}], "'trace'"),
    ([], "one or two hyperparameters"),
])
def test_a_bad_grid_is_refused_naming_the_problem(iris, grid, named):
    assert named in tune_error(iris, grid)


def test_a_learner_without_a_target_cannot_be_tuned(iris):
    message = tune_error(iris, [{"name": "n_clusters", "values": [2, 3]}], model="KMeans", target=None)
    assert "no target to score" in message


def test_k_outside_the_shared_range_is_refused(iris):
    message = error("tune", table_id=iris, target="species", features=None, model="DecisionTreeClassifier",
                    grid=[{"name": "max_depth", "values": [1, 2]}], evaluation={**KFOLD, "k": 1})
    assert "k must be a whole number" in message


def test_a_chosen_metric_scores_the_cells_as_grid_search_cv_scoring_it_does():
    """Balanced accuracy on a 85/15 table, where accuracy would favour the tree that predicts the majority."""
    rng = np.random.default_rng(21)
    X = rng.normal(size=(240, 3))  # (n, 3)
    y = np.where(X[:, 0] + 0.7 * X[:, 1] + rng.normal(scale=0.5, size=240) > 1.6, "rare", "common")
    assert 0.08 < np.mean(y == "rare") < 0.2
    table = Table({**{f"x{j}": X[:, j] for j in range(3)}, "label": y.astype(object)})
    depths, leaves = [1, 2, 3, 5], [5, 20]
    grid = [{"name": "max_depth", "values": depths}, {"name": "min_samples_leaf", "values": leaves}]
    reply = tuning.tune(table, "label", None, "DecisionTreeClassifier", {}, KFOLD, None, grid, "balanced_accuracy")
    assert reply["scoring"] == "balanced_accuracy" and reply["score_name"] == "Balanced accuracy"
    cv = cv_pairs(reply, len(y))
    search = grid_search(twin("DecisionTreeClassifier", {}, 192), {"max_depth": depths, "min_samples_leaf": leaves},
                         X, y, cv, scoring="balanced_accuracy")
    assert_one_best(reply)
    assert_same_cells(reply, search, lambda p: p)


def test_a_loss_picks_the_lowest_mean_as_grid_search_cv_picks_the_highest_negated_one():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(120, 2))  # (n, 2)
    y = X[:, 0] - 2 * np.sin(2 * X[:, 1]) + rng.normal(scale=0.3, size=120)
    table = Table({"x0": X[:, 0], "x1": X[:, 1], "y": y})
    ks = [1, 2, 4, 8, 16, 32]
    reply = tuning.tune(table, "y", None, "KNeighborsRegressor", {}, {"method": "kfold", "k": 4, "seed": 2},
                        {"standardize": False}, [{"name": "n_neighbors", "values": ks}], "mean_absolute_error")
    assert reply["greater_is_better"] is False and reply["score_name"] == "MAE"
    cv = cv_pairs(reply, len(y))
    for train, test in cv:  # the premise: no distance ties near any k-th place in any fold
        distances = np.sort(np.sqrt(((X[test][:, None, :] - X[train][None, :, :]) ** 2).sum(-1)), axis=1)
        assert min(np.min(distances[:, k] - distances[:, k - 1]) for k in ks) > 1e-9
    search = grid_search(twin("KNeighborsRegressor", {}, 90), {"n_neighbors": ks}, X, y, cv,
                         scoring="neg_mean_absolute_error")
    assert_one_best(reply)
    assert_same_cells(reply, search, lambda p: {"n_neighbors": p["n_neighbors"]}, sign=-1)
    assert reply["best"]["validation_mean"] == min(cell["validation_mean"] for cell in reply["cells"])


def test_a_metric_of_the_other_task_is_refused(iris):
    assert "does not rank classification learners" in error(
        "tune", table_id=iris, target="species", features=None, model="GaussianNB",
        grid=[{"name": "var_smoothing", "values": [1e-9, 1e-6]}], metric="r2")
