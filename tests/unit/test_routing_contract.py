"""scikit-learn's contract beyond fit and predict, kept without scikit-learn: fit's metadata requests
(set_fit_request) that travel with a clone, sample_weight through pellucid's Pipeline and cross_validate,
predict_log_proba wherever predict_proba is, AgglomerativeClustering's n_clusters_ and PCA's output names."""

import numpy as np
import pytest

import pellucid
from pellucid import (AgglomerativeClustering, DataError, KMeans, LinearRegression, LogisticRegression, PCA,
                      cross_validate, from_dict)
from pellucid.core.sklearn_protocols import fit_metadata
from pellucid.evaluation.model_selection import clone
from pellucid.preprocessing.chain import Preprocessor
from pellucid.preprocessing.pipeline import Pipeline

ESTIMATORS = pellucid.all_estimators()


def data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
    w = rng.integers(1, 4, size=n).astype(float)
    return X, y, w


def test_the_learners_that_weigh_rows_say_so_and_only_learners_with_metadata_take_requests():
    weighing = {name for name, cls in ESTIMATORS.items() if "sample_weight" in fit_metadata(cls)}
    assert {"LinearRegression", "LogisticRegression", "KMeans"} <= weighing
    assert "feature_names" not in fit_metadata(LogisticRegression)  # about the columns, not the rows
    for name, cls in ESTIMATORS.items():
        assert hasattr(cls(), "set_fit_request") == bool(fit_metadata(cls)), name


def test_set_fit_request_records_the_request_and_refuses_what_fit_does_not_take():
    model = LogisticRegression()
    assert model.set_fit_request(sample_weight=True) is model
    assert model._fit_requests == {"sample_weight": True}
    model.set_fit_request(sample_weight="weights")  # an alias: the meta-estimator's name for it
    assert model._fit_requests == {"sample_weight": "weights"}
    with pytest.raises(TypeError, match="color"):
        model.set_fit_request(color=True)
    with pytest.raises(ValueError, match="alias"):
        model.set_fit_request(sample_weight="not a name")
    with pytest.raises(AttributeError):
        PCA().set_fit_request  # noqa: B018 (PCA's fit takes no weights)


def test_a_clone_keeps_the_requests_and_the_output_setting_but_not_the_fit():
    X, y, w = data()
    model = LogisticRegression(l2=0.1).set_fit_request(sample_weight=True).fit(X, y, sample_weight=w)
    copy = clone(model)
    assert copy._fit_requests == {"sample_weight": True} and copy.l2 == 0.1 and not copy.fitted_attributes()
    copy._fit_requests["sample_weight"] = False  # a copy, not the same dict
    assert model._fit_requests == {"sample_weight": True}
    assert clone(PCA().set_output(transform="default"))._sklearn_output_config == {"transform": "default"}


def test_cross_validate_gives_each_fold_the_weights_of_its_training_rows():
    X, y, w = data(90)
    result = cross_validate(LogisticRegression(l2=0.05), X, y, k=3, seed=4, params={"sample_weight": w},
                            return_indices=True)
    for test_rows, score in zip(result["test_rows"], result["test_scores"]):
        train = np.setdiff1d(np.arange(len(y)), test_rows)
        by_hand = LogisticRegression(l2=0.05).fit(X[train], y[train], sample_weight=w[train])
        assert score == pytest.approx(by_hand.score(X[test_rows], y[test_rows]))
    plain = cross_validate(LogisticRegression(l2=0.05), X, y, k=3, seed=4)
    assert plain["test_scores"] != result["test_scores"] or not np.any(w != 1)
    with pytest.raises(DataError, match="params"):
        cross_validate(LogisticRegression(), X, y, k=3, params=[w])


def test_cross_validate_passes_the_weights_through_a_pipeline():
    X, y, w = data(90)
    pipe = Pipeline(Preprocessor(standardize=True), LogisticRegression(l2=0.05))
    result = cross_validate(pipe, X, y, k=3, seed=1, params={"sample_weight": w}, return_indices=True)
    test_rows = result["test_rows"][0]
    train = np.setdiff1d(np.arange(len(y)), test_rows)
    by_hand = Pipeline(Preprocessor(standardize=True), LogisticRegression(l2=0.05)).fit(
        X[train], y[train], sample_weight=w[train])
    assert result["test_scores"][0] == pytest.approx(by_hand.score(X[test_rows], y[test_rows]))


def test_a_pipeline_gives_its_model_the_weights():
    X, y, w = data()
    pipe = Pipeline(Preprocessor(standardize=True), LinearRegression()).fit(X, X[:, 0] + y, sample_weight=w)
    prepared = Preprocessor(standardize=True).fit(X).transform(X)
    alone = LinearRegression().fit(prepared, X[:, 0] + y, sample_weight=w)
    np.testing.assert_allclose(pipe.model.coef_, alone.coef_)


def test_predict_log_proba_is_there_exactly_where_predict_proba_is():
    _, y, _ = data()
    X = np.abs(np.round(data()[0] * 2))  # small counts: every classifier takes them
    for name, cls in ESTIMATORS.items():
        model = cls()
        assert hasattr(model, "predict_log_proba") == hasattr(model, "predict_proba"), name
        if hasattr(model, "predict_log_proba") and cls.task == "classification":
            model.fit(X, y)
            with np.errstate(divide="ignore"):
                expected = np.log(model.predict_proba(X))
            np.testing.assert_allclose(model.predict_log_proba(X), expected, rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_logistic_log_probabilities_stay_finite_where_the_probabilities_round_to_zero(n_classes):
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 1, 2, 2]) if n_classes == 3 else np.array([0, 0, 0, 1, 1, 1])
    model = LogisticRegression(l2=0.01).fit(X, y)
    far = np.array([[1e4], [-1e4]])
    with np.errstate(divide="ignore"):
        assert np.isinf(np.log(model.predict_proba(far))).any()  # the logarithm of 0
    log_p = model.predict_log_proba(far)
    assert np.all(np.isfinite(log_p))
    np.testing.assert_allclose(np.logaddexp.reduce(log_p, axis=1), 0.0, atol=1e-12)  # still sums to 1
    near = model.predict_log_proba(X)
    np.testing.assert_allclose(near, np.log(model.predict_proba(X)), rtol=1e-12, atol=1e-13)


def test_agglomerative_n_clusters_is_k_and_survives_the_model_file():
    X, _, _ = data(30)
    with pytest.raises(AttributeError):
        AgglomerativeClustering(k=4).n_clusters_  # noqa: B018 (not fitted)
    model = AgglomerativeClustering(k=4).fit(X)
    assert model.n_clusters_ == 4 == len(np.unique(model.labels_))
    assert from_dict(model.to_dict()).n_clusters_ == 4
    assert "n_clusters_" not in model.to_dict()["state"]  # read from labels_, nothing new in the file


def test_pca_names_its_outputs_as_scikit_learn():
    X, _, _ = data()
    model = PCA(n_components=2).fit(X)
    assert list(model.get_feature_names_out()) == ["pca0", "pca1"]
    assert list(model.get_feature_names_out(["x0", "x1", "x2"])) == ["pca0", "pca1"]
    with pytest.raises(DataError, match="input_features"):
        model.get_feature_names_out(["a", "b", "c"])
    with pytest.raises(pellucid.NotFittedError):
        PCA().get_feature_names_out()


def test_pca_set_output_takes_scikit_learn_choices_only():
    X, _, _ = data()
    model = PCA(n_components=2)
    assert model.set_output(transform="default") is model
    assert isinstance(model.fit(X).transform(X), np.ndarray)
    assert model.set_output() is model and model._sklearn_output_config == {"transform": "default"}
    with pytest.raises(DataError, match="set_output"):
        model.set_output(transform="arrow")


def test_pca_set_output_needs_its_library_only_when_asked(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_polars(name, *args, **kwargs):
        if name == "polars":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    X, _, _ = data()
    monkeypatch.setattr(builtins, "__import__", no_polars)
    model = PCA(n_components=2).set_output(transform="polars").fit(X)
    with pytest.raises(DataError, match="needs polars"):
        model.transform(X)


def test_weighted_kmeans_model_keeps_no_weights():
    X, _, w = data()
    model = KMeans(k=2).fit(X, sample_weight=w)
    assert "sample_weight" not in str(model.to_dict()["state"].keys())
