"""Compare learners through the bridge: each learner's per-fold scores are scikit-learn's cross_val_score
on the same folds (where its twin learns the same way), a split's score is the single `train` command's
held-out score, the ranking follows the metric, and bad choices are DataErrors naming them."""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
import sklearn
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pellucid.learners import registry
from pellucid.host import progress

from bridgekit import call, error, ok, session

KFOLD = {"method": "kfold", "k": 5, "stratify": True, "seed": 4}
SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 5}
RAW = {"standardize": False}  # the twins read the columns as they are


@pytest.fixture
def cancer():  # loaded for each test: the session keeps one table at a time
    info = ok("load_example", name="breast_cancer")
    return info["table_id"], info["suggested_target"]


def compare(table, learners, evaluation=KFOLD, **extra):
    table_id, target = table
    return ok("rank_learners", table_id=table_id, target=target, features=None, learners=learners,
              evaluation=evaluation, **extra)


def rows_by_model(reply):
    return {row["model"]: row for row in reply["rows"]}


def sklearn_data(table, evaluation):
    """X, y as scikit-learn reads them, and the (train, test) pairs of the folds a `train` run used."""
    table_id, target = table
    run = ok("train", table_id=table_id, target=target, features=None, model="GaussianNB", evaluation=evaluation,
             preprocessing=RAW)
    source = session.tables[table_id]
    X = np.column_stack([source.column(f).astype(float) for f in run["features"]])
    y = np.asarray(source.column(target).tolist())
    tests = [np.asarray(rows) - 1 for rows in run["cv"]["folds"]]
    return X, y, [(np.setdiff1d(np.arange(len(y)), test), test) for test in tests]


def twin(model, params, n_train, n_features):
    learner = registry.get(model)
    full = {**learner.estimator().get_params(), **params}
    return learner.sklearn.build(sklearn, full, {"n_train": n_train, "n_features": n_features})


def fold_scores(model, params, X, y, pairs, scoring, scaled):
    """scikit-learn's cross_val_score of the learner's twin (behind a StandardScaler when the run
    standardizes) on the same folds, fold by fold (a twin such as logistic regression's C depends on the
    fold's number of training rows)."""
    def estimator(n_train):
        model_twin = twin(model, params, n_train, X.shape[1])
        return make_pipeline(StandardScaler(), model_twin) if scaled else model_twin
    return np.concatenate([cross_val_score(estimator(len(train)), X, y, cv=[(train, test)], scoring=scoring)
                           for train, test in pairs])


@pytest.mark.parametrize("model, params, scaled, tolerance", [
    ("GaussianNB", {}, False, 1e-12),
    ("LogisticRegression", {"l2": 0.01}, True, 1e-6),
    ("KNeighborsClassifier", {"n_neighbors": 5}, True, 1e-12),
    ("DecisionTreeClassifier", {"criterion": "gini", "max_depth": 2}, False, 1e-12),
])
def test_per_fold_scores_are_scikit_learns_cross_val_score_on_the_same_folds(cancer, model, params, scaled,
                                                                              tolerance):
    X, y, pairs = sklearn_data(cancer, KFOLD)
    reply = compare(cancer, [model, "GaussianNB"] if model != "GaussianNB" else [model],
                    preprocessing={"standardize": scaled}, params={model: params})
    row = rows_by_model(reply)[model]
    expected = fold_scores(model, params, X, y, pairs, "accuracy", scaled)
    assert row["scores"]["accuracy"]["folds"] == pytest.approx(expected.tolist(), abs=tolerance)
    assert row["scores"]["accuracy"]["mean"] == pytest.approx(expected.mean(), abs=tolerance)
    assert row["scores"]["accuracy"]["std"] == pytest.approx(expected.std(), abs=tolerance)
    macro_f1 = fold_scores(model, params, X, y, pairs, "f1_macro", scaled)
    assert row["scores"]["f1_macro"]["folds"] == pytest.approx(macro_f1.tolist(), abs=tolerance)
    balanced = fold_scores(model, params, X, y, pairs, "balanced_accuracy", scaled)
    assert row["scores"]["balanced_accuracy"]["folds"] == pytest.approx(balanced.tolist(), abs=tolerance)
    assert reply["scored_on"] == "folds" and reply["n_rows"] == len(y)
    assert row["per_fold"] and row["fit_seconds"] > 0 and row["predict_seconds"] > 0


def test_a_split_scores_what_the_train_command_shows(cancer):
    table_id, target = cancer
    reply = compare(cancer, ["DecisionTreeClassifier", "LogisticRegression", "GaussianNB"], evaluation=SPLIT)
    assert reply["scored_on"] == "test"
    for model, row in rows_by_model(reply).items():
        single = ok("train", table_id=table_id, target=target, features=None, model=model, evaluation=SPLIT)
        assert row["scores"]["accuracy"]["mean"] == pytest.approx(single["metrics"]["test"]["accuracy"])
        assert row["scores"]["accuracy"]["std"] is None and row["n_rows"] == len(single["splits"]["test"])
        assert row["fit_seconds"] > 0 and row["per_fold"] is False
        assert row["fit_rows"] == len(single["splits"]["train"]) and row["predict_rows"] == 569


def test_without_test_rows_the_validation_rows_score(cancer):
    evaluation = {"method": "split", "train": 60, "validation": 40, "test": 0, "seed": 1}
    reply = compare(cancer, ["GaussianNB"], evaluation=evaluation)
    assert reply["scored_on"] == "validation" and reply["rows"][0]["n_rows"] == round(0.4 * 569)


def test_rows_are_ranked_by_the_chosen_metric_best_first(cancer):
    learners = ["DecisionTreeClassifier", "GaussianNB", "KNeighborsClassifier", "Perceptron"]
    for metric in ("accuracy", "recall_macro"):
        reply = compare(cancer, learners, metric=metric)
        means = [row["scores"][metric]["mean"] for row in reply["rows"]]
        assert means == sorted(means, reverse=True) and reply["metric"] == metric
        assert [row["rank"] for row in reply["rows"]] == [1, 2, 3, 4]
        assert sorted(row["model"] for row in reply["rows"]) == sorted(learners)


def test_a_loss_ranks_lowest_first():
    info = ok("load_example", name="line", n=150, noise=0.5, seed=3)
    reply = compare((info["table_id"], "y"), ["LinearRegression", "DecisionTreeRegressor", "KNeighborsRegressor"],
                    evaluation={"method": "kfold", "k": 4, "seed": 0}, metric="mean_squared_error")
    errors = [row["scores"]["mean_squared_error"]["mean"] for row in reply["rows"]]
    assert errors == sorted(errors) and reply["task"] == "regression"
    assert {m["name"]: m["greater_is_better"] for m in reply["metrics"]}["mean_squared_error"] is False


def test_the_current_models_settings_are_used_and_the_others_defaults(cancer):
    reply = compare(cancer, ["DecisionTreeClassifier", "KNeighborsClassifier"],
                    params={"DecisionTreeClassifier": {"max_depth": 1}})
    rows = rows_by_model(reply)
    assert rows["DecisionTreeClassifier"]["params"]["max_depth"] == 1
    assert rows["KNeighborsClassifier"]["params"] == {
        k: v for k, v in registry.get("KNeighborsClassifier").estimator().get_params().items() if k != "trace"}
    table_id, target = cancer
    stump = ok("train", table_id=table_id, target=target, features=None, model="DecisionTreeClassifier",
               params={"max_depth": 1}, evaluation=KFOLD)
    assert rows["DecisionTreeClassifier"]["scores"]["accuracy"]["folds"] == pytest.approx(stump["cv"]["scores"])


def test_a_learner_that_fails_is_listed_last_with_its_reason():
    info = ok("load_example", name="moons", n=200, noise=0.2, seed=1)  # negative values: no counts
    reply = compare((info["table_id"], info["suggested_target"]), ["MultinomialNB", "GaussianNB"])
    assert [row["model"] for row in reply["rows"]] == ["GaussianNB", "MultinomialNB"]
    failed = reply["rows"][1]
    assert failed["rank"] is None and "Negative values" in failed["error"] and "scores" not in failed
    only = call("rank_learners", table_id=info["table_id"], target=info["suggested_target"], features=None,
                learners=["MultinomialNB"], evaluation=KFOLD)
    assert only["ok"] is False and "Negative values" in only["error"]["message"]


@pytest.mark.parametrize("learners, metric, named", [
    ([], None, "at least one learner"),
    ("GaussianNB", None, "at least one learner"),
    (["GaussianNB", "NoSuchLearner"], None, "NoSuchLearner"),
    (["GaussianNB", "LinearRegression"], None, "Linear regression (LinearRegression) is a regression learner"),
    (["KMeans"], None, "k-means is a clustering learner"),
    (["GaussianNB", "GaussianNB"], None, "GaussianNB is chosen more than once"),
    (["GaussianNB"], "r2", "metric 'r2'"),
])
def test_bad_choices_are_data_errors_naming_them(cancer, learners, metric, named):
    table_id, target = cancer
    message = error("rank_learners", table_id=table_id, target=target, features=None, learners=learners,
                    evaluation=KFOLD, metric=metric)
    assert named in message


def test_progress_is_reported_per_learner_across_the_whole_bar(cancer, monkeypatch):
    seen = []
    monkeypatch.setattr(progress, "_host_progress", lambda fraction, label: seen.append((fraction, label)))
    compare(cancer, ["GaussianNB", "DecisionTreeClassifier"])
    fractions = [f for f, _ in seen]
    assert all(0 <= f <= 1 for f in fractions) and fractions == sorted(fractions)
    assert any(label.startswith("Gaussian naive Bayes (1 of 2)") for _, label in seen)
    assert any(label.startswith("Decision tree (2 of 2): Cross-validating, fold 5 of 5") for _, label in seen)
    assert all(f >= 0.5 for f, label in seen if label.startswith("Decision tree"))


@pytest.mark.parametrize("evaluation", [KFOLD, SPLIT], ids=["kfold", "split"])
def test_the_baseline_is_scikit_learns_most_frequent_dummy_on_the_same_rows(cancer, evaluation):
    from sklearn.dummy import DummyClassifier
    from sklearn.model_selection import cross_validate

    X, y, pairs = sklearn_data(cancer, KFOLD)
    if evaluation is SPLIT:
        table_id, target = cancer
        run = ok("train", table_id=table_id, target=target, features=None, model="GaussianNB", evaluation=SPLIT)
        pairs = [(np.asarray(run["splits"]["train"]) - 1, np.asarray(run["splits"]["test"]) - 1)]
    reply = compare(cancer, ["GaussianNB"], evaluation=evaluation)
    baseline = reply["baseline"]
    assert baseline["baseline"] is True and baseline["model"] is None
    scoring = {"accuracy": "accuracy", "balanced_accuracy": "balanced_accuracy", "f1_macro": "f1_macro",
               "recall_macro": "recall_macro"}
    expected = cross_validate(DummyClassifier(strategy="most_frequent"), X, y, cv=pairs, scoring=scoring)
    for name in scoring:
        assert baseline["scores"][name]["folds"] == pytest.approx(expected[f"test_{name}"].tolist(), abs=1e-12)
    assert baseline["scores"]["balanced_accuracy"]["mean"] == pytest.approx(0.5)  # one class always: chance
    assert reply["rows"][0]["scores"]["accuracy"]["mean"] > baseline["scores"]["accuracy"]["mean"]


def test_the_regression_baseline_is_the_mean_targets_dummy_regressor():
    from sklearn.dummy import DummyRegressor
    from sklearn.model_selection import cross_validate

    info = ok("load_example", name="line", n=150, noise=0.5, seed=3)
    evaluation = {"method": "kfold", "k": 4, "seed": 0}
    reply = compare((info["table_id"], "y"), ["LinearRegression"], evaluation=evaluation)
    run = ok("train", table_id=info["table_id"], target="y", features=None, model="LinearRegression",
             evaluation=evaluation)
    y = np.asarray(session.tables[info["table_id"]].column("y"), dtype=float)
    tests = [np.asarray(rows) - 1 for rows in run["cv"]["folds"]]
    pairs = [(np.setdiff1d(np.arange(len(y)), test), test) for test in tests]
    expected = cross_validate(DummyRegressor(), np.zeros((len(y), 1)), y, cv=pairs,
                              scoring=("r2", "neg_mean_squared_error", "neg_mean_absolute_error"))
    scores = reply["baseline"]["scores"]
    assert scores["r2"]["folds"] == pytest.approx(expected["test_r2"].tolist(), abs=1e-12)
    assert scores["mean_squared_error"]["folds"] == pytest.approx((-expected["test_neg_mean_squared_error"]).tolist())
    assert scores["mean_absolute_error"]["folds"] == pytest.approx((-expected["test_neg_mean_absolute_error"]).tolist())
