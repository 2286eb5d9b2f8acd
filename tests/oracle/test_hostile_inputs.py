"""No silent wrong answer, no foreign crash: every estimator, fitted on hostile input, either gives the
answer it gives on tame input (or simply a finite one, where there is no tame twin) or raises DataError.

Then one regression test per way input used to be misread.
"""

import warnings

import numpy as np
import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_iris
from sklearn.metrics import accuracy_score
from sklearn.exceptions import NotFittedError as SklearnNotFittedError

import pellucid
from pellucid import DataError

ESTIMATORS = pellucid.all_estimators()
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

# Estimators whose predictions do not change when every feature is multiplied by the same factor.
SCALE_FREE = {"AgglomerativeClustering", "BernoulliNB", "CategoricalNB", "DecisionTreeClassifier",
              "DecisionTreeRegressor", "GaussianNB", "KMeans", "KNeighborsClassifier", "KNeighborsRegressor",
              "LinearRegression", "PCA"}



def tame():
    X, y = load_iris(return_X_y=True)
    rows = np.r_[0:15, 50:65, 100:115]
    return X[rows] / X.max(), y[rows]


def supervised(cls):
    return getattr(cls.task, "value", cls.task) in ("classification", "regression")


def outputs(model, X):
    """What the fitted model says about X: predictions, or the projection (up to sign)."""
    if hasattr(model, "predict"):
        return np.asarray(model.predict(X))
    return np.abs(model.transform(X))


def hostile_cases():
    X, y = tame()
    constant = X.copy()
    constant[:, 1] = 3.0
    with_nan, with_inf = X.copy(), X.copy()
    with_nan[3, 2], with_inf[3, 2] = np.nan, np.inf
    mixed = X.astype(object)
    mixed[::2, 0] = "a"
    yield from ((f"scale {s:g}", X * s, y) for s in (1e-200, 1e-100, 1e-10, 1e10, 1e100, 1e200))
    yield "constant column", constant, y
    yield "every column constant", np.ones_like(X), y
    yield "one row", X[:1], y[:1]
    yield "one class", X, np.zeros(len(y))
    yield "NaN", with_nan, y
    yield "infinity", with_inf, y
    yield "labels at 2^63 and 1e300", X, np.where(y == 0, 2.0 ** 63, y * 1e300)
    yield "infinite label", X, np.where(y == 0, np.inf, y)
    yield "mixed types", mixed, y
    yield "complex", X + 1j, y
    yield "labels 1 and 1.0 as objects", X, np.array([[1, 1.0, 2][int(v)] for v in y], dtype=object)
    yield "labels that read as missing in a CSV", X, np.array(["NA", "?", "null"], dtype=object)[y.astype(int)]


CASES = list(hostile_cases())


@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("case", range(len(CASES)), ids=[c[0] for c in CASES])
def test_hostile_input_gives_a_right_answer_or_a_data_error(name, case):
    cls = ESTIMATORS[name]
    label, X, y = CASES[case]
    if name == "MultinomialNB" and X.dtype != object:
        X = np.abs(X)  # counts; negative values are refused by design
    y = y if supervised(cls) else None
    try:
        model = cls().fit(X, y)
        result = outputs(model, X)
    except DataError:
        return
    if result.dtype.kind == "f":
        assert np.isfinite(result).all(), f"{name} gave non-finite outputs on {label}"
    if hasattr(model, "predict_proba"):
        assert np.isfinite(model.predict_proba(X)).all()
    if hasattr(model, "classes_"):
        assert set(np.unique(result)) <= set(model.classes_)
        assert len(model.classes_) == len(np.unique(y))
    if label.startswith("scale") and name in SCALE_FREE:
        X_tame, y_tame = tame()
        expected = outputs(cls().fit(X_tame, y_tame if y is not None else None), X_tame)
        if result.dtype.kind == "f" and name == "PCA":
            result = result / float(label.split()[1])
        np.testing.assert_allclose(result, expected, rtol=1e-6, atol=1e-9)


def test_huge_float_labels_stay_distinct_classes():
    X, y = tame()
    labels = np.where(y == 0, 2.0 ** 63, np.where(y == 1, 1e300, 5.0))
    model = pellucid.GaussianNB().fit(X, labels)
    assert sorted(model.classes_.tolist()) == [5.0, 2.0 ** 63, 1e300]
    same_with_small_labels = pellucid.GaussianNB().fit(X, y).predict(X)
    np.testing.assert_array_equal(model.predict(X), np.array([2.0 ** 63, 1e300, 5.0])[same_with_small_labels])


@pytest.mark.parametrize("labels, message", [
    (lambda y: np.where(y == 0, np.inf, y), "infinite"),
    (lambda y: y + 0.5 * (y == 1), "continuous"),
])
def test_infinite_or_fractional_labels_are_refused(labels, message):
    X, y = tame()
    with pytest.raises(DataError, match=message):
        pellucid.KNeighborsClassifier().fit(X, labels(y.astype(float)))


def test_complex_x_is_refused_not_truncated():
    X, y = tame()
    with pytest.raises(DataError, match="[Cc]omplex"):
        pellucid.LinearRegression().fit(X + 1e-3j, y)


def test_sparse_and_1d_x_say_what_to_do():
    sparse = pytest.importorskip("scipy.sparse")
    X, y = tame()
    with pytest.raises(DataError, match="sparse.*toarray"):
        pellucid.GaussianNB().fit(sparse.csr_matrix(X), y)
    model = pellucid.GaussianNB().fit(X, y)
    with pytest.raises(DataError, match="reshape"):
        model.predict(X[0])


def test_column_vector_y_warns_and_is_read_as_one_value_per_row():
    X, y = tame()
    with pytest.warns(UserWarning, match="column-vector y"):
        model = pellucid.DecisionTreeClassifier().fit(X, y[:, None])
    np.testing.assert_array_equal(model.predict(X), pellucid.DecisionTreeClassifier().fit(X, y).predict(X))


def test_not_fitted_error_is_also_scikit_learns():
    with pytest.raises(SklearnNotFittedError):
        pellucid.KMeans().predict(np.ones((2, 2)))
    with pytest.raises(pellucid.NotFittedError):
        pellucid.KMeans().predict(np.ones((2, 2)))


def test_tree_predicts_plain_lists_of_rows():
    X, y = tame()
    model = pellucid.DecisionTreeClassifier().fit(X, y)
    np.testing.assert_array_equal(model.predict(X.tolist()), model.predict(X))


def test_knn_predict_leaves_the_model_unchanged():
    X, y = tame()
    model = pellucid.KNeighborsClassifier().fit(X, y)
    before = dict(vars(model))
    model.predict(X)
    assert vars(model).keys() == before.keys()


# --- DataFrames --------------------------------------------------------------------------------------

def frame():
    pd = pytest.importorskip("pandas")
    X, y = tame()
    return pd, pd.DataFrame(X, columns=["sepal_l", "sepal_w", "petal_l", "petal_w"]), y


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_a_frame_names_the_features_and_must_come_back_the_same(name):
    pd, X, y = frame()
    cls = ESTIMATORS[name]
    if name == "AgglomerativeClustering":
        pytest.skip("agglomerative clustering labels its training rows only; it has no predict")
    model = cls().fit(X, y if supervised(cls) else None)
    assert model.feature_names_in_ == list(X.columns)
    assert model.n_features_in_ == 4
    np.testing.assert_allclose(outputs(model, X), outputs(model, X.to_numpy()))
    with pytest.raises(DataError, match="same order as they were in fit"):
        outputs(model, X[X.columns[::-1]])
    with pytest.raises(DataError, match="unseen at fit time:\n- width"):
        outputs(model, X.rename(columns={"sepal_w": "width"}))
    with pytest.raises(DataError, match="yet now missing:\n- petal_w"):
        outputs(model, X.drop(columns="petal_w"))


def test_pandas_missing_values_are_missing_not_a_category():
    pd, X, y = frame()
    X["colour"] = pd.array(["red", "blue", None] * 15, dtype="string")
    X["count"] = pd.array([1, None, 3] * 15, dtype="Int64")
    with pytest.raises(DataError, match="'colour' has 15 missing"):
        pellucid.DecisionTreeClassifier().fit(X.drop(columns="count"), y)
    with pytest.raises(DataError, match="'count' has 15 missing"):
        pellucid.GaussianNB().fit(X.drop(columns="colour"), y)
    # A tree reads the missing counts as missing numbers (NaN), as scikit-learn's trees take them.
    tree = pellucid.DecisionTreeClassifier().fit(X.drop(columns="colour"), y)
    as_nan = X.drop(columns="colour").astype({"count": float})
    assert np.isnan(as_nan["count"]).sum() == 15
    same = pellucid.DecisionTreeClassifier().fit(as_nan, y)
    np.testing.assert_array_equal(tree.predict(as_nan), same.predict(as_nan))


def test_a_date_column_is_refused():
    pd, X, y = frame()
    X["day"] = pd.date_range("2024-01-01", periods=len(X))
    with pytest.raises(DataError, match="'day' holds dates"):
        pellucid.DecisionTreeClassifier().fit(X, y)


@pytest.mark.parametrize("factor", [2.0 ** -660, 2.0 ** -1000])  # near 1e-199 and 1e-301: exact multiples
def test_distance_learners_report_in_the_data_units_at_any_scale(factor):
    """They work on rows divided by a power of two; what they report is multiplied back."""
    X, y = tame()
    tiny = X * factor
    kmeans, kmeans_tiny = pellucid.KMeans(n_clusters=3).fit(X), pellucid.KMeans(n_clusters=3).fit(tiny)
    np.testing.assert_allclose(kmeans_tiny.cluster_centers_, kmeans.cluster_centers_ * factor, rtol=1e-12)
    np.testing.assert_allclose(kmeans_tiny.transform(tiny), kmeans.transform(X) * factor, rtol=1e-9)
    knn = pellucid.KNeighborsClassifier(n_neighbors=4).fit(X, y)
    knn_tiny = pellucid.KNeighborsClassifier(n_neighbors=4).fit(tiny, y)
    (dist, idx), (dist_tiny, idx_tiny) = knn.kneighbors(X), knn_tiny.kneighbors(tiny)
    np.testing.assert_array_equal(idx_tiny, idx)
    np.testing.assert_allclose(dist_tiny, dist * factor, rtol=1e-12)
    links = pellucid.AgglomerativeClustering(n_clusters=3).fit(X)
    links_tiny = pellucid.AgglomerativeClustering(n_clusters=3).fit(tiny)
    np.testing.assert_allclose(links_tiny.distances_, links.distances_ * factor, rtol=1e-12)
    pca, pca_tiny = pellucid.PCA().fit(X), pellucid.PCA().fit(tiny)
    np.testing.assert_allclose(pca_tiny.explained_variance_ratio_, pca.explained_variance_ratio_, rtol=1e-9)
    np.testing.assert_allclose(pca_tiny.singular_values_, pca.singular_values_ * factor, rtol=1e-9)


# --- labels held as Python objects, and pandas' own dtypes ----------------------------------------------

CLASSIFIERS = [name for name, cls in ESTIMATORS.items() if getattr(cls.task, "value", cls.task) == "classification"]


def object_labels(cells, n):
    y = np.empty(n, dtype=object)
    y[:] = [cells[i % len(cells)] for i in range(n)]
    return y


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_labels_held_as_objects_keep_their_values_and_equality(name):
    """1 and 1.0 are one class, as np.unique has them; predictions are the labels' own values, so the
    model's score on its training data is the accuracy of its predictions."""
    X, _ = tame()
    y = object_labels([1, 1.0, 2, 7], len(X))
    model = ESTIMATORS[name]().fit(X, y)
    assert model.classes_.tolist() == np.unique(y).tolist() == [1, 2, 7]
    assert model.classes_.dtype.kind == "i"
    predicted = model.predict(X)
    assert set(predicted.tolist()) <= {1, 2, 7}
    assert model.score(X, y) == pytest.approx(accuracy_score(y.astype(np.int64), predicted))


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_an_object_series_of_numbers_is_a_target_its_model_scores_on(name):
    pd = pytest.importorskip("pandas")
    X, y = tame()
    labels = pd.Series(y.astype(int), dtype=object)
    model = ESTIMATORS[name]().fit(X, labels)
    plain = ESTIMATORS[name]().fit(X, y.astype(int))
    np.testing.assert_array_equal(model.predict(X), plain.predict(X))
    assert model.score(X, labels) == pytest.approx(accuracy_score(y.astype(int), plain.predict(X)))


def test_text_beside_numbers_in_a_target_is_refused_as_scikit_learn_refuses_it():
    from sklearn.utils.multiclass import unique_labels

    X, _ = tame()
    y = object_labels([1, "1", 2], len(X))
    with pytest.raises(ValueError, match=r"Mix of label input types \(string and number\)"):
        unique_labels(list(y))
    with pytest.raises(DataError, match=r"Mix of label input types \(string and number\).*'1'") as caught:
        pellucid.GaussianNB().fit(X, y)
    assert caught.value.field == "target"


NULLABLE_TARGETS = {
    "Int64": ([0, 1, 2], "Int64"),
    "boolean": ([True, False], "boolean"),
    "category of text": (["NA", "EU", "AS"], "category"),
    "category of numbers": ([3, 1, 2], "category"),
    "string": (["NA", "EU", "AS"], "string"),
}


@pytest.mark.parametrize("kind", NULLABLE_TARGETS)
def test_pandas_targets_give_scikit_learns_classes_and_a_score_equal_to_accuracy(kind):
    pd = pytest.importorskip("pandas")
    from sklearn.naive_bayes import GaussianNB
    from sklearn.utils.multiclass import unique_labels

    X, _ = tame()
    cells, dtype = NULLABLE_TARGETS[kind]
    y = pd.Series([cells[i % len(cells)] for i in range(len(X))], dtype=dtype)
    model = pellucid.GaussianNB().fit(X, y)
    assert model.classes_.tolist() == unique_labels(y).tolist()
    assert model.predict(X).tolist() == GaussianNB().fit(X, y).predict(X).tolist()
    assert model.score(X, y) == pytest.approx(accuracy_score(y, model.predict(X)))
    with_na = pd.Series([None] + list(y[1:]), dtype=dtype)
    with pytest.raises(DataError, match="target has 1 missing"):
        pellucid.GaussianNB().fit(X, with_na)


# --- text is a value in an array; only None and NaN are missing ------------------------------------------

@pytest.mark.parametrize("word", ["NA", "?", "n/a", "null", "", "None"])
def test_in_an_array_the_csv_readers_missing_markers_are_values(word):
    """A region coded "NA" (North America) is a category and a class, not a gap."""
    X, y = tame()
    region = object_labels([word, "EU", "AS"], len(X))
    table = np.column_stack([X.astype(object), region])
    model = pellucid.DecisionTreeClassifier().fit(table, region)
    assert word in model.classes_.tolist()
    assert model.score(table, region) == 1.0  # the region column itself tells the classes apart
    renamed = np.where(region == word, "North America", region)
    same = pellucid.DecisionTreeClassifier().fit(np.column_stack([X.astype(object), renamed]), renamed)
    np.testing.assert_array_equal(np.where(model.predict(table) == word, "North America", model.predict(table)),
                                  same.predict(np.column_stack([X.astype(object), renamed])))


@pytest.mark.parametrize("gap", [None, float("nan")])
def test_none_and_nan_in_an_object_array_are_missing(gap):
    X, y = tame()
    region = object_labels(["NA", "EU", "AS"], len(X))
    region[4] = gap
    with pytest.raises(DataError, match="'x4' has 1 missing values"):
        pellucid.DecisionTreeClassifier().fit(np.column_stack([X.astype(object), region]), y)
    with pytest.raises(DataError, match="target has 1 missing values"):
        pellucid.DecisionTreeClassifier().fit(X, region)


# --- pandas' nullable, categorical and mixed columns in X -------------------------------------------------

def test_pandas_columns_of_every_dtype_read_as_their_values():
    pd, X, y = frame()
    numbers = X.copy()
    numbers["sepal_l"] = (X["sepal_l"] * 100).round().astype("Int64")
    numbers["sepal_w"] = X["sepal_w"].astype(object)
    plain = numbers.astype(float)
    model = pellucid.GaussianNB().fit(numbers, y)
    np.testing.assert_allclose(model.predict_proba(numbers), pellucid.GaussianNB().fit(plain, y).predict_proba(plain))
    from sklearn.naive_bayes import GaussianNB
    np.testing.assert_allclose(model.predict_proba(numbers), GaussianNB().fit(plain, y).predict_proba(plain),
                               rtol=1e-6, atol=1e-9)
    kinds = X.copy()
    kinds["colour"] = pd.Series(["red", "NA", "blue"] * 15, dtype="category")
    kinds["flag"] = pd.Series([True, False, False] * 15, dtype="boolean")
    as_text = kinds.assign(colour=kinds["colour"].astype(str), flag=kinds["flag"].astype(float))
    tree = pellucid.DecisionTreeClassifier().fit(kinds, y)
    assert tree.feature_kinds_ == ["numeric"] * 4 + ["categorical", "numeric"]
    same = pellucid.DecisionTreeClassifier().fit(as_text, y)
    np.testing.assert_array_equal(tree.predict(kinds), same.predict(as_text))
    kinds["flag"] = pd.Series([True, None, False] * 15, dtype="boolean")
    with pytest.raises(DataError, match="'flag' has 15 missing"):
        pellucid.LogisticRegression().fit(kinds, y)
    pellucid.DecisionTreeClassifier().fit(kinds, y)  # a tree takes the missing flags as missing numbers


# --- linear regression at any scale of the features -------------------------------------------------------

@pytest.mark.parametrize("scale", [1e-155, 1e-157, 1e-160, 1e-300, 1e140])
@pytest.mark.parametrize("l2", [0.0, 0.05])
def test_linear_regression_at_a_tiny_or_huge_scale_is_scikit_learns(scale, l2):
    from sklearn.linear_model import LinearRegression, Ridge

    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 4)) * np.array([1.0, 10.0, 0.1, 3.0]) * scale
    y = X @ np.array([1.0, 2.0, 3.0, 4.0]) / scale + rng.normal(size=60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or underflow on the way
        ours = pellucid.LinearRegression(l2=l2).fit(X, y)
    theirs = (Ridge(alpha=len(X) * l2) if l2 else LinearRegression()).fit(X, y)
    if scale < 1e-300:  # scikit-learn's own solve underflows there; the answer is the one at scale 1 rescaled
        theirs = (Ridge(alpha=len(X) * l2 / scale ** 2) if l2 else LinearRegression()).fit(X / scale, y)
        theirs.coef_ = theirs.coef_ / scale
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9)
    assert ours.intercept_ == pytest.approx(theirs.intercept_, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("l2", [1, 10**30])
def test_a_whole_number_penalty_is_the_same_penalty_as_a_float(l2):
    from sklearn.linear_model import Ridge

    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 3))
    y = X @ np.array([1.0, -2.0, 0.5]) + rng.normal(size=40)
    ours = pellucid.LinearRegression(l2=l2).fit(X, y)  # a Python int, as a JSON parameter arrives
    np.testing.assert_allclose(ours.coef_, pellucid.LinearRegression(l2=float(l2)).fit(X, y).coef_, rtol=1e-12)
    np.testing.assert_allclose(ours.coef_, Ridge(alpha=len(X) * float(l2)).fit(X, y).coef_, rtol=1e-6, atol=1e-300)


# --- feature names: a DataFrame for a model fitted on an array, and the other way round --------------------

def sklearn_warnings(fitted, X):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        predicted = fitted.predict(X)
    return predicted, [str(w.message).replace(type(fitted).__name__, "<model>") for w in caught
                       if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("fit_on, predict_on", [("array", "frame"), ("frame", "array"), ("frame", "frame"),
                                                ("array", "array")])
def test_feature_names_on_one_side_only_warn_and_predict_as_scikit_learn(fit_on, predict_on):
    from sklearn.linear_model import LinearRegression

    pd, frame_X, y = frame()
    data = {"array": frame_X.to_numpy(), "frame": frame_X}
    ours, theirs = pellucid.LinearRegression().fit(data[fit_on], y), LinearRegression().fit(data[fit_on], y)
    got, our_warnings = sklearn_warnings(ours, data[predict_on])
    expected, their_warnings = sklearn_warnings(theirs, data[predict_on])
    assert our_warnings == their_warnings
    assert bool(our_warnings) == (fit_on != predict_on)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


# --- the learners whose work grows as the square of the rows ---------------------------------------------

@pytest.mark.parametrize("name, limit", [("KernelRegression", 2_000), ("KernelPerceptron", 2_000),
                                         ("AgglomerativeClustering", 5_000)])
def test_a_million_rows_are_refused_with_the_row_limit_before_any_matrix_is_made(name, limit):
    from pellucid.learners import registry

    assert registry.get(name).max_rows == limit  # the limit the page states and samples to
    X = np.random.default_rng(0).normal(size=(1_000_000, 2))
    y = None if name == "AgglomerativeClustering" else (X[:, 0] > 0).astype(int)
    with pytest.raises(DataError, match=f"works on up to {limit:,} rows; X has 1,000,000.*random sample") as caught:
        ESTIMATORS[name]().fit(X, y)
    assert caught.value.field == "sample"
    rows = np.random.default_rng(0).choice(len(X), limit, replace=False)
    fitted = ESTIMATORS[name](**({"max_iter": 3} if name == "KernelRegression" else {})).fit(
        X[rows], None if y is None else y[rows])
    assert fitted.fitted_attributes()


@pytest.mark.parametrize("name", ["MLPClassifier", "MLPRegressor"])
def test_a_network_whose_learning_rate_diverges_keeps_its_last_finite_weights(name):
    """A step size far too large: training stops at the epoch whose loss runs away, the network before it is
    kept (finite predictions), and the warning names the learning rate and the epoch."""
    X, y = tame()
    cls = ESTIMATORS[name]
    model = cls(hidden_layer_sizes=(10,), solver="sgd", learning_rate_init=50.0, momentum=0.9, max_iter=100)
    with pytest.warns(pellucid.ConvergenceWarning, match=r"diverged at epoch \d+: with learning_rate_init=50.0"):
        model.fit(X * 100, y * 1000 if name == "MLPRegressor" else y)
    assert not model.converged_ and model.n_iter_ < 100
    assert np.isfinite(model.predict(X * 100).astype(float)).all()
    if hasattr(model, "predict_proba"):
        assert np.isfinite(model.predict_proba(X * 100)).all()
