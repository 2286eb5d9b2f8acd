"""scikit-learn's metadata routing reaches pellucid's learners: with enable_metadata_routing=True and
`set_fit_request(sample_weight=True)`, scikit-learn's cross_validate, GridSearchCV and Pipeline hand each
fit the weights of its rows, as they do to their own estimators; and the other parts of scikit-learn's
contract added beside it (predict_log_proba, PCA's output names and set_output, n_clusters_) answer as
scikit-learn's twins do."""

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
import sklearn
from sklearn.base import clone
from sklearn.cluster import AgglomerativeClustering as SKAgglomerative
from sklearn.datasets import load_iris, load_wine
from sklearn.decomposition import PCA as SKPCA
from sklearn.exceptions import UnsetMetadataPassedError
from sklearn.linear_model import LogisticRegression as SKLogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from pellucid import AgglomerativeClustering, KMeans, LinearRegression, LogisticRegression, PCA

WINE = StandardScaler().fit_transform(load_wine().data)[:, :6]
WINE_Y = load_wine().target
WEIGHTS = np.random.default_rng(0).integers(1, 5, size=len(WINE_Y)).astype(float)
FOLDS = KFold(4, shuffle=True, random_state=0)


@pytest.fixture(autouse=True)
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


def by_hand(make, X, y, w):
    """The test scores of fits on each fold's training rows with their weights."""
    return [make().fit(X[train], y[train], sample_weight=w[train]).score(X[test], y[test])
            for train, test in FOLDS.split(X)]


@pytest.mark.parametrize("make", [lambda: LogisticRegression(l2=0.01),
                                  lambda: LinearRegression(l2=0.01, standardize=True)], ids=["logistic", "linear"])
def test_cross_validate_routes_the_weights_to_every_fold(make):
    y = WINE_Y if make().task == "classification" else WINE[:, 0] * 2 + WINE_Y
    X = WINE[:, 1:]
    result = cross_validate(make().set_fit_request(sample_weight=True), X, y, cv=FOLDS,
                            params={"sample_weight": WEIGHTS})
    np.testing.assert_allclose(result["test_score"], by_hand(make, X, y, WEIGHTS), rtol=1e-12)
    unweighted = cross_validate(make(), X, y, cv=FOLDS)["test_score"]
    assert not np.allclose(result["test_score"], unweighted)  # the weights made a difference


def test_kmeans_in_cross_validate_is_fitted_with_the_weights():
    result = cross_validate(KMeans(k=3).set_fit_request(sample_weight=True), WINE, cv=FOLDS,
                            params={"sample_weight": WEIGHTS}, return_estimator=True)
    for model, (train, _) in zip(result["estimator"], FOLDS.split(WINE)):
        again = KMeans(k=3).fit(WINE[train], sample_weight=WEIGHTS[train])
        np.testing.assert_allclose(model.cluster_centers_, again.cluster_centers_)


def test_an_unrequested_weight_is_an_error_as_for_scikit_learns_own():
    for model in (LogisticRegression(), SKLogisticRegression()):
        with pytest.raises(UnsetMetadataPassedError):
            cross_validate(model, WINE, WINE_Y, cv=FOLDS, params={"sample_weight": WEIGHTS})


def test_a_request_under_another_name_is_routed_by_that_name():
    model = LogisticRegression(l2=0.01).set_fit_request(sample_weight="row_weight")
    result = cross_validate(model, WINE, WINE_Y, cv=FOLDS, params={"row_weight": WEIGHTS})
    np.testing.assert_allclose(result["test_score"], by_hand(lambda: LogisticRegression(l2=0.01), WINE, WINE_Y,
                                                             WEIGHTS), rtol=1e-12)


def test_a_request_set_to_false_leaves_the_weights_out():
    """The scaler takes the weights, the model is told not to: it is fitted as without them."""
    pipe = make_pipeline(StandardScaler().set_fit_request(sample_weight=True),
                         LogisticRegression(l2=0.01).set_fit_request(sample_weight=False))
    pipe.fit(WINE, WINE_Y, sample_weight=WEIGHTS)
    scaled = StandardScaler().fit(WINE, sample_weight=WEIGHTS).transform(WINE)
    np.testing.assert_allclose(pipe[-1].coef_, LogisticRegression(l2=0.01).fit(scaled, WINE_Y).coef_)


def test_scikit_learns_clone_keeps_the_request():
    model = LogisticRegression().set_fit_request(sample_weight=True)
    assert clone(model).get_metadata_routing().fit.requests == {"sample_weight": True}
    assert LogisticRegression().get_metadata_routing().fit.requests == {"sample_weight": None}


def test_grid_search_scores_each_value_on_weighted_fits():
    grid = {"l2": [0.001, 0.05, 0.5]}
    search = GridSearchCV(LogisticRegression().set_fit_request(sample_weight=True), grid, cv=FOLDS)
    search.fit(WINE, WINE_Y, sample_weight=WEIGHTS)
    means = [np.mean(by_hand(lambda a=a: LogisticRegression(l2=a), WINE, WINE_Y, WEIGHTS)) for a in grid["l2"]]
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], means, rtol=1e-12)
    refit = LogisticRegression(**search.best_params_).fit(WINE, WINE_Y, sample_weight=WEIGHTS)
    np.testing.assert_allclose(search.best_estimator_.coef_, refit.coef_)


def test_scikit_learns_pipeline_gives_the_last_step_the_weights():
    pipe = make_pipeline(StandardScaler().set_fit_request(sample_weight=False),
                         LogisticRegression(l2=0.01).set_fit_request(sample_weight=True))
    pipe.fit(WINE, WINE_Y, sample_weight=WEIGHTS)
    alone = LogisticRegression(l2=0.01).fit(StandardScaler().fit_transform(WINE), WINE_Y, sample_weight=WEIGHTS)
    np.testing.assert_allclose(pipe[-1].coef_, alone.coef_)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_logistic_log_probabilities_equal_scikit_learns(n_classes):
    keep = WINE_Y < n_classes
    X, y = WINE[keep], WINE_Y[keep]
    l2 = 0.01
    ours = LogisticRegression(l2=l2, tol=1e-10).fit(X, y)
    twin = SKLogisticRegression(C=1 / (len(y) * l2), tol=1e-12, max_iter=10_000).fit(X, y)
    far = X * 1e3  # where probabilities round to 0 and 1
    np.testing.assert_allclose(ours.predict_log_proba(X), twin.predict_log_proba(X), rtol=1e-5, atol=1e-6)
    with np.errstate(divide="ignore"):  # scikit-learn takes the logarithm of its rounded probabilities
        ours_far, twin_far = ours.predict_log_proba(far), twin.predict_log_proba(far)
    assert np.all(np.isfinite(ours_far))
    finite = np.isfinite(twin_far)
    np.testing.assert_allclose(ours_far[finite], twin_far[finite], rtol=1e-4, atol=1e-8)


def test_pca_names_and_pandas_output_are_scikit_learns():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(load_iris().data, columns=["sl", "sw", "pl", "pw"], index=[f"r{i}" for i in range(150)])
    ours = PCA(n_components=3).set_output(transform="pandas")
    twin = SKPCA(n_components=3).set_output(transform="pandas")
    Z, T = ours.fit_transform(frame), twin.fit_transform(frame)
    assert list(ours.get_feature_names_out()) == list(twin.get_feature_names_out())
    assert isinstance(Z, pd.DataFrame) and list(Z.columns) == list(T.columns) and list(Z.index) == list(T.index)
    np.testing.assert_allclose(np.abs(Z.to_numpy()), np.abs(T.to_numpy()), rtol=1e-8, atol=1e-10)
    assert isinstance(ours.set_output(transform="default").transform(frame), np.ndarray)


def test_pca_follows_scikit_learns_global_output_setting():
    pd = pytest.importorskip("pandas")
    X = load_iris().data
    with sklearn.config_context(transform_output="pandas"):
        Z = PCA(n_components=2).fit(X).transform(X)
        kept = PCA(n_components=2).set_output(transform="default").fit(X).transform(X)
    assert isinstance(Z, pd.DataFrame) and list(Z.columns) == ["pca0", "pca1"]
    assert isinstance(kept, np.ndarray)


def test_pca_in_a_pandas_pipeline_names_the_columns_the_next_step_sees():
    pytest.importorskip("pandas")
    pipe = make_pipeline(StandardScaler(), PCA(n_components=2)).set_output(transform="pandas")
    assert list(pipe.fit_transform(load_iris().data).columns) == ["pca0", "pca1"]


@pytest.mark.parametrize("linkage", ["single", "complete", "average"])
def test_agglomerative_n_clusters_is_scikit_learns(linkage):
    X = load_iris().data
    for k in (1, 3, 7):
        ours = AgglomerativeClustering(k=k, linkage=linkage).fit(X)
        twin = SKAgglomerative(n_clusters=k, linkage=linkage).fit(X)
        assert ours.n_clusters_ == twin.n_clusters_ == k


def test_pellucids_pipeline_asks_for_what_its_model_asks_for():
    from pellucid.preprocessing.chain import Preprocessor
    from pellucid.preprocessing.pipeline import Pipeline

    pipe = Pipeline(Preprocessor(standardize=True), LogisticRegression(l2=0.01)).set_fit_request(sample_weight=True)
    result = cross_validate(pipe, WINE, WINE_Y, cv=FOLDS, params={"sample_weight": WEIGHTS})
    expected = by_hand(lambda: Pipeline(Preprocessor(standardize=True), LogisticRegression(l2=0.01)), WINE, WINE_Y,
                       WEIGHTS)
    np.testing.assert_allclose(result["test_score"], expected, rtol=1e-12)
