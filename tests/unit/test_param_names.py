"""Parameters carry scikit-learn's names; files, links and scripts written with the former names still work.

Each renamed parameter is declared once, in its estimator's `_renamed_params` (core/param_names.py reads
it): the constructor, `from_dict`, the page's requests (`make_estimator`) and the page's form (the models
menu's "was") all follow that one table.
"""

import warnings

import numpy as np
import pytest

import pellucid
from pellucid.core.param_names import current_names
from pellucid.workbench import menus
from pellucid.workbench.runs import make_estimator

RENAMED = {name: cls for name, cls in pellucid.all_estimators().items() if getattr(cls, "_renamed_params", None)}
# Old settings of each renamed estimator, away from the defaults, and what they read as.
OLD_SETTINGS = {
    "KNeighborsClassifier": ({"k": 3}, {"n_neighbors": 3}),
    "KNeighborsRegressor": ({"k": 3}, {"n_neighbors": 3}),
    "KMeans": ({"k": 2, "seed": 7}, {"n_clusters": 2, "random_state": 7}),
    "AgglomerativeClustering": ({"k": 3}, {"n_clusters": 3}),
    "BernoulliNB": ({"k": 0.5}, {"alpha": 0.5}),
    "MultinomialNB": ({"k": 0.5}, {"alpha": 0.5}),
    "CategoricalNB": ({"k": 0.5}, {"alpha": 0.5}),
    "DecisionTreeClassifier": ({"seed": 4}, {"random_state": 4}),
    "Perceptron": ({"max_epochs": 3, "seed": 2}, {"max_iter": 3, "random_state": 2}),
    "KernelPerceptron": ({"max_epochs": 3, "c": 2.0}, {"max_iter": 3, "coef0": 2.0}),
    "KernelRegression": ({"c": 2.0}, {"coef0": 2.0}),
    "PCA": ({"variance": 0.9}, {"n_components": 0.9}),
}
SUPERVISED = {"classification", "regression"}


def small_data(cls):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(40, 3)).astype(float)  # counts: every learner takes them
    y = np.where(X[:, 0] + rng.normal(0, 0.5, 40) > 1.5, "yes", "no")
    return X, (X[:, 1] + X[:, 2] if cls.task == "regression" else y)


def test_every_renamed_estimator_is_covered_here():
    assert set(OLD_SETTINGS) == set(RENAMED)


@pytest.mark.parametrize("name", sorted(RENAMED))
def test_the_table_names_real_parameters(name):
    cls = RENAMED[name]
    params = cls._param_names()
    for old, new in cls._renamed_params.items():
        new = new[0] if isinstance(new, tuple) else new
        assert new in params and new in cls._param_rules
        assert old not in params


@pytest.mark.parametrize("name", sorted(RENAMED))
def test_an_old_name_in_a_script_still_works_and_says_the_new_one(name):
    cls = RENAMED[name]
    old, new = OLD_SETTINGS[name]
    with pytest.warns(FutureWarning, match=f"now called '{next(iter(new))}'"):
        model = cls(**old)
    assert {k: model.get_params()[k] for k in new} == new


def test_an_old_and_a_new_name_that_disagree_are_refused():
    with pytest.raises(pellucid.DataError, match="both k=3 and n_neighbors=4"):
        pellucid.KNeighborsClassifier(k=3, n_neighbors=4)


def test_scikit_learns_clone_sees_the_new_signature():
    sklearn_base = pytest.importorskip("sklearn.base")
    model = pellucid.KMeans(n_clusters=4, random_state=3)
    copy = sklearn_base.clone(model)
    assert copy.get_params() == model.get_params()
    assert "n_clusters" in copy.get_params() and "k" not in copy.get_params()


@pytest.mark.parametrize("name", sorted(RENAMED))
def test_a_model_file_written_with_the_old_names_reads_and_predicts_the_same(name):
    cls = RENAMED[name]
    old, new = OLD_SETTINGS[name]
    X, y = small_data(cls)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence, and the like: not what this test is about
        model = cls(**new).fit(X, y if cls.task in SUPERVISED else None)
    d = model.to_dict()
    params = {k: v for k, v in d["params"].items() if k not in new}
    written_before = {**d, "params": {**params, **old}}
    again = pellucid.from_dict(written_before)
    assert {k: again.get_params()[k] for k in new} == new
    if cls.task == "projection":
        np.testing.assert_allclose(again.transform(X), model.transform(X))
    else:
        assert np.array_equal(again.predict(X), model.predict(X))


def test_a_pca_file_of_both_former_parameters_reads_the_one_that_was_set():
    assert current_names(pellucid.PCA, {"n_components": None, "variance": 0.8}) == {"n_components": 0.8}
    assert current_names(pellucid.PCA, {"n_components": 3, "variance": None}) == {"n_components": 3}
    assert current_names(pellucid.PCA, {"n_components": None, "variance": 1.0}) == {"n_components": None}


@pytest.mark.parametrize("name", sorted(RENAMED))
def test_the_page_s_requests_with_old_names_still_build_the_model(name):
    learner = next(item for item in menus.models() if item["name"] == name)
    old, new = OLD_SETTINGS[name]
    model = make_estimator(learner["name"], old)
    assert {k: model.get_params()[k] for k in new} == new


def test_the_form_keeps_the_notes_symbols_and_knows_the_former_names():
    params = {item["name"]: {p["name"]: p for p in item["params"]} for item in menus.models()}
    assert params["KNeighborsClassifier"]["n_neighbors"]["label"] == "k"
    assert params["KNeighborsClassifier"]["n_neighbors"]["was"] == "k"
    assert params["KMeans"]["n_clusters"]["label"] == "k"
    assert params["KMeans"]["random_state"]["label"] == "seed"
    assert params["KMeans"]["random_state"]["was"] == "seed"
    assert params["PCA"]["n_components"]["was"] == "variance"
    assert params["DecisionTreeClassifier"]["max_depth"]["was"] is None
