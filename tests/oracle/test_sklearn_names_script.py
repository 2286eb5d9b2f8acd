"""A scikit-learn script runs unchanged with pellucid's classes: only its import line is changed.

For every learner with a twin of the same name, a script written for scikit-learn, with scikit-learn's
parameter names, runs once as written and once with `from pellucid import ...`, and the two results
agree: to rounding where the two compute the same thing, by the score where the algorithms are allowed
to differ (see each case). Defaults stay the notes' where they differ (k-means' k = 3, the tree's
entropy, single link), so each script sets what it relies on, as a careful script does.
"""

import numpy as np
import pytest

pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.datasets import load_iris, make_blobs, make_regression
from sklearn.metrics import adjusted_rand_score

SCRIPT = """
from {module} import {name}
model = {call}
model.fit(X_train{y})
result = model.{method}(X_test)
"""


def classification():
    X, y = load_iris(return_X_y=True)
    rng = np.random.default_rng(0)
    X = X + rng.normal(0, 1e-3, X.shape)  # no two distances, or split candidates, tie
    order = rng.permutation(len(X))
    return X[order[:100]], y[order[:100]], X[order[100:]]


def regression():
    X, y = make_regression(n_samples=150, n_features=4, noise=5.0, random_state=0)
    return X[:100], y[:100], X[100:]


def counts():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 150)
    X = np.minimum(rng.poisson(1 + y[:, None] * np.array([1, 0, 2, 0.5]), size=(150, 4)), 3)  # 0..3 in both
    return X[:100], y[:100], X[100:]


def blobs():
    X, _ = make_blobs(n_samples=150, centers=3, cluster_std=0.6, random_state=2)
    return X, None, X


def same_numbers(tolerance):
    def check(ours, theirs):
        np.testing.assert_allclose(ours, theirs, rtol=tolerance, atol=tolerance)
    return check


def same_labels(ours, theirs):
    assert np.array_equal(ours, theirs)


def same_clusters(ours, theirs):
    assert adjusted_rand_score(theirs, ours) == pytest.approx(1.0)


def same_components(ours, theirs):
    signs = np.sign(np.sum(ours * theirs, axis=0))  # a component is defined up to its sign
    np.testing.assert_allclose(ours * signs, theirs, atol=1e-8)


def nearly_as_accurate(y_test_of):
    def check(ours, theirs):
        truth = y_test_of()
        assert np.mean(ours == truth) >= np.mean(theirs == truth) - 0.05
    return check


def iris_test_labels():
    X, y = load_iris(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(X))
    return y[order[100:]]


CASES = {  # id: (module, class, constructor call, data, method, how the two results compare)
    "tree": ("sklearn.tree", "DecisionTreeClassifier",
             'DecisionTreeClassifier(criterion="entropy", max_depth=3, min_samples_leaf=2, random_state=0)',
             classification, "predict", same_labels),
    "tree regressor": ("sklearn.tree", "DecisionTreeRegressor",
                       "DecisionTreeRegressor(max_depth=3, min_samples_split=4, min_samples_leaf=2)",
                       regression, "predict", same_numbers(1e-9)),
    "linear": ("sklearn.linear_model", "LinearRegression", "LinearRegression()", regression, "predict",
               same_numbers(1e-8)),
    "logistic": ("sklearn.linear_model", "LogisticRegression", "LogisticRegression(C=0.5, tol=1e-10, max_iter=1000)",
                 classification, "predict_proba", same_numbers(1e-5)),
    "perceptron": ("sklearn.linear_model", "Perceptron", "Perceptron(max_iter=50, shuffle=True, random_state=0)",
                   classification, "predict", nearly_as_accurate(iris_test_labels)),
    "gaussian nb": ("sklearn.naive_bayes", "GaussianNB", "GaussianNB(var_smoothing=1e-9)", classification,
                    "predict_proba", same_numbers(1e-9)),
    "multinomial nb": ("sklearn.naive_bayes", "MultinomialNB", "MultinomialNB(alpha=0.5)", counts,
                       "predict_proba", same_numbers(1e-9)),
    "bernoulli nb": ("sklearn.naive_bayes", "BernoulliNB", "BernoulliNB(alpha=0.5, binarize=1.5)", counts,
                     "predict_proba", same_numbers(1e-9)),
    "categorical nb": ("sklearn.naive_bayes", "CategoricalNB", "CategoricalNB(alpha=2.0)", counts,
                       "predict_proba", same_numbers(1e-9)),
    "k-nn": ("sklearn.neighbors", "KNeighborsClassifier",
             'KNeighborsClassifier(n_neighbors=7, weights="distance", metric="manhattan")', classification,
             "predict_proba", same_numbers(1e-9)),
    "k-nn regressor": ("sklearn.neighbors", "KNeighborsRegressor", "KNeighborsRegressor(n_neighbors=5)",
                       regression, "predict", same_numbers(1e-9)),
    "k-means": ("sklearn.cluster", "KMeans", "KMeans(n_clusters=3, n_init=10, random_state=0)", blobs,
                "predict", same_clusters),
    "k-means auto": ("sklearn.cluster", "KMeans", 'KMeans(n_clusters=3, n_init="auto", random_state=0)', blobs,
                     "predict", same_clusters),
    "ward": ("sklearn.cluster", "AgglomerativeClustering", 'AgglomerativeClustering(n_clusters=3, linkage="ward")',
             blobs, "fit_predict", same_clusters),
    "pca fraction": ("sklearn.decomposition", "PCA", "PCA(n_components=0.95)", classification,
                     "transform", same_components),
}


def run(script, data):
    X_train, y_train, X_test = data
    namespace = {"X_train": X_train, "y_train": y_train, "X_test": X_test}
    exec(script, namespace)  # noqa: S102 - the script is this file's own text
    return namespace["result"]


def script_for(module, name, call, supervised, method):
    return SCRIPT.format(module=module, name=name, call=call, y=", y_train" if supervised else "", method=method)


@pytest.mark.filterwarnings("ignore::pellucid.ConvergenceWarning")
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_same_script_with_pellucid_s_import_gives_the_same_result(case):
    module, name, call, make, method, agree = CASES[case]
    data = make()
    written = script_for(module, name, call, data[1] is not None, method)
    if method == "fit_predict":  # clustering that labels its own rows
        written = written.replace("model.fit(X_train)\n", "").replace("fit_predict(X_test)", "fit_predict(X_train)")
    ported = written.replace(f"from {module} import {name}", f"from pellucid import {name}")
    assert ported != written and ported.count("\n") == written.count("\n")
    agree(run(ported, data), run(written, data))
