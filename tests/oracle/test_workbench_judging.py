"""Judging a run through the bridge on rows its model did not see: curves (ROC, precision-recall,
calibration, the threshold table), permutation and impurity importance, and the out-of-fold predictions
of a k-fold run in the export, each against scikit-learn on the same rows."""

import io

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.calibration import calibration_curve
from sklearn.inspection import permutation_importance as sk_permutation_importance
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.model_selection import cross_val_predict as sk_cross_val_predict
from sklearn.neighbors import KNeighborsClassifier as SkKNN

from pellucid import read_csv

from bridgekit import call, error, ok, session
from realistic_tables import churn_csv

SPLIT = {"method": "split", "train": 70, "validation": 0, "test": 30, "seed": 7}
KFOLD = {"method": "kfold", "k": 5, "seed": 3}
RAW = {"standardize": False, "impute": "mean"}


@pytest.fixture
def cancer():  # loaded for each test: the session keeps one table at a time
    info = ok("load_example", name="breast_cancer")
    return info["table_id"], info["suggested_target"]


def train(table, model, evaluation, **extra):
    table_id, target = table
    return ok("train", table_id=table_id, target=target, features=None, model=model, evaluation=evaluation,
              **extra)


def exported(model_id):
    """The predictions export read back as a pellucid Table."""
    return read_csv(io.BytesIO(ok("export_predictions", model_id=model_id)["csv"].encode()))


def test_split_curves_match_scikit_learn_on_the_test_rows(cancer):
    result = train(cancer, "LogisticRegression", SPLIT)
    reply = ok("curves", model_id=result["model_id"])
    table = exported(result["model_id"])
    test = np.flatnonzero(table.column("split") == "test")
    y = (table.column(result["target"])[test] == reply["pos_label"]).astype(int)
    p = table.column(f"P({reply['pos_label']})")[test]
    assert reply["rows"] == "test" and reply["n_rows"] == len(test) and not reply["in_sample"]
    assert reply["curves"]["roc"]["auc"] == pytest.approx(roc_auc_score(y, p))
    assert reply["curves"]["precision_recall"]["average_precision"] == pytest.approx(average_precision_score(y, p))
    prob_true, prob_pred = calibration_curve(y, p, n_bins=10)
    assert reply["curves"]["calibration"]["prob_true"] == pytest.approx(prob_true.tolist())
    assert reply["curves"]["calibration"]["prob_pred"] == pytest.approx(prob_pred.tolist())
    assert sum(reply["curves"]["calibration"]["count"]) == len(test)


def test_threshold_table_counts_every_test_row_at_every_threshold(cancer):
    result = train(cancer, "GaussianNB", SPLIT)
    thresholds = ok("curves", model_id=result["model_id"])["thresholds"]
    totals = {sum(t) for t in zip(thresholds["tn"], thresholds["fp"], thresholds["fn"], thresholds["tp"])}
    assert totals == {len(result["splits"]["test"])}
    assert np.all(np.diff(thresholds["thresholds"]) < 0)  # decreasing: the slider moves one way
    assert np.all(np.diff(thresholds["tp"]) >= 0)  # a lower threshold predicts more positives


def test_multiclass_curves_average_one_vs_rest_as_scikit_learn(tmp_path):
    info = ok("load_example", name="iris")
    result = ok("train", table_id=info["table_id"], target=info["suggested_target"], features=None,
                model="GaussianNB", evaluation={**SPLIT, "test": 40, "train": 60})
    reply = ok("curves", model_id=result["model_id"])
    table = exported(result["model_id"])
    test = np.flatnonzero(table.column("split") == "test")
    classes = reply["classes"]
    proba = np.column_stack([table.column(f"P({c})")[test] for c in classes])
    y = table.column(result["target"])[test]
    assert not reply["binary"] and len(reply["per_class"]) == 3
    assert reply["roc_auc"]["macro"] == pytest.approx(
        roc_auc_score(y, proba, multi_class="ovr", average="macro", labels=classes))


def test_kfold_curves_and_export_are_out_of_fold_as_scikit_learn(cancer):
    result = train(cancer, "KNeighborsClassifier", KFOLD, preprocessing=RAW)
    table_id, target = cancer
    source = session.tables[table_id]
    features = result["features"]
    X = np.column_stack([source.column(f) for f in features])
    y = np.asarray(source.column(target).tolist())
    folds = [np.asarray(rows) - 1 for rows in result["cv"]["folds"]]
    everything = np.arange(len(y))
    pairs = [(np.setdiff1d(everything, test), test) for test in folds]
    sk_proba = sk_cross_val_predict(SkKNN(n_neighbors=5), X, y, cv=pairs, method="predict_proba")
    sk_labels = sk_cross_val_predict(SkKNN(n_neighbors=5), X, y, cv=pairs)

    table = exported(result["model_id"])
    classes = sorted(set(y.tolist()))
    assert table.column("prediction").tolist() == sk_labels.tolist()
    assert np.column_stack([table.column(f"P({c})") for c in classes]) == pytest.approx(sk_proba)
    fold_of_row = np.empty(len(y), dtype=int)
    for i, test in enumerate(folds):
        fold_of_row[test] = i + 1
    assert table.column("fold").tolist() == fold_of_row.tolist()

    reply = ok("curves", model_id=result["model_id"])
    positive = classes.index(reply["pos_label"])
    assert reply["rows"] == "out_of_fold" and reply["n_rows"] == len(y)
    assert reply["curves"]["roc"]["auc"] == pytest.approx(roc_auc_score(y == reply["pos_label"], sk_proba[:, positive]))


def test_permutation_importance_matches_scikit_learn_with_the_same_seed(cancer):
    result = train(cancer, "KNeighborsClassifier", SPLIT, preprocessing=RAW)
    reply = ok("importance", model_id=result["model_id"])
    table_id, target = cancer
    source, run = session.tables[table_id], session.runs[result["model_id"]]
    test = np.asarray(result["splits"]["test"]) - 1
    X = np.column_stack([source.column(f)[test] for f in result["features"]])
    y = np.asarray(source.column(target).tolist())[test]
    expected = sk_permutation_importance(run.estimator, X, y, scoring="accuracy", n_repeats=5,
                                         random_state=SPLIT["seed"])
    ours = dict(zip(reply["permutation"]["features"], reply["permutation"]["mean"]))
    assert [ours[f] for f in result["features"]] == pytest.approx(expected.importances_mean.tolist())
    assert reply["rows"] == "test" and reply["n_rows"] == len(test) and not reply["sampled"]
    assert reply["impurity"] is None  # not a tree
    means = reply["permutation"]["mean"]
    assert means == sorted(means, reverse=True)  # largest first, for the bars


def test_tree_importance_has_impurity_beside_permutation_and_kfold_reads_every_fold(cancer):
    result = train(cancer, "DecisionTreeClassifier", KFOLD, params={"max_depth": 4})
    reply = ok("importance", model_id=result["model_id"])
    assert reply["rows"] == "out_of_fold" and reply["n_rows"] == 569
    assert sum(reply["impurity"]["importances"]) == pytest.approx(1.0)
    assert set(reply["impurity"]["features"]) == set(reply["permutation"]["features"]) == set(result["features"])
    # every fold's repeats are in the spread: 5 folds x 5 repeats per feature
    assert all(s >= 0 for s in reply["permutation"]["std"])


def test_real_table_importance_samples_held_out_rows_and_says_so(tmp_path):
    path = tmp_path / "churn.csv"
    path.write_bytes(churn_csv(n=8000, seed=1))
    info = ok("load_csv", path=str(path), name="churn.csv")
    result = ok("train", table_id=info["table_id"], target="churned",
                features=["plan", "monthly_fee", "discount", "tenure_months", "signup"],
                model="LogisticRegression", evaluation=SPLIT)
    reply = ok("importance", model_id=result["model_id"])
    assert reply["sampled"] and reply["n_rows"] == 2000 and reply["n_held_out"] == len(result["splits"]["test"])
    top = reply["permutation"]["features"][0]
    assert top == "tenure_months"  # churn is driven by tenure in this table
    curves = ok("curves", model_id=result["model_id"])
    assert curves["curves"]["roc"]["auc"] > 0.8


def test_no_held_out_rows_is_said_to_be_in_sample(cancer):
    result = train(cancer, "GaussianNB", {"method": "none"})
    assert ok("curves", model_id=result["model_id"])["in_sample"] is True
    assert ok("importance", model_id=result["model_id"])["rows"] == "training"


def test_what_cannot_be_judged_says_why(cancer):
    table_id, target = cancer
    perceptron = train(cancer, "Perceptron", SPLIT)
    assert "no class probabilities" in error("curves", model_id=perceptron["model_id"])
    clusters = ok("train", table_id=table_id, target=None, features=None, model="KMeans")
    assert "learns no target" in error("importance", model_id=clusters["model_id"])
    model = ok("export_model", model_id=perceptron["model_id"])["json"]
    imported = ok("import_model", json=model)
    assert "imported without its data" in error("importance", model_id=imported["model_id"])
    assert call("curves", model_id="m999")["error"]["code"] == "data_error"


def test_kfold_out_of_fold_models_are_prepared_as_the_run_was(tmp_path):
    # k-NN needs numbers: each fold's model must see the text column one-hot encoded, standardized and
    # gap-filled exactly as the run's own cross-validation prepared it.
    path = tmp_path / "churn.csv"
    path.write_bytes(churn_csv(n=600, seed=2))
    info = ok("load_csv", path=str(path), name="churn.csv")
    result = ok("train", table_id=info["table_id"], target="churned",
                features=["plan", "monthly_fee", "tenure_months"], model="KNeighborsClassifier", evaluation=KFOLD)
    run = session.runs[result["model_id"]]
    from pellucid.workbench import judging
    prepared = judging._fold_pipeline(run).preprocessor
    assert (prepared.one_hot, prepared.standardize, prepared.impute) == (True, True, "mean")
    predicted = exported(result["model_id"]).column("prediction")
    y = np.asarray(session.tables[info["table_id"]].column("churned").tolist())
    assert np.mean(np.asarray(predicted.tolist()) == y) == pytest.approx(result["cv"]["mean"], abs=1e-12)


@pytest.mark.parametrize("evaluation", [SPLIT, KFOLD], ids=["split", "kfold"])
def test_importance_reports_progress_after_every_feature(cancer, evaluation, monkeypatch):
    from pellucid.host import progress

    model_id = train(cancer, "GaussianNB", evaluation)["model_id"]
    seen = []
    monkeypatch.setattr(progress, "_host_progress", lambda fraction, label: seen.append((fraction, label)))
    ok("importance", model_id=model_id)
    fractions = [f for f, _ in seen]
    n_parts = evaluation.get("k", 1)
    per_feature = [label for _, label in seen if "of the features shuffled" in label]
    assert all(0 <= f <= 1 for f in fractions) and fractions == sorted(fractions)
    assert len(per_feature) == 30 * n_parts  # breast_cancer has 30 features, each reported once per fold
    assert fractions[-1] == pytest.approx(1.0)
    if evaluation is KFOLD:
        assert any(label.startswith("Permutation importance, fold 5 of 5: ") for label in per_feature)
