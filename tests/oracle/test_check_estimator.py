"""scikit-learn's own estimator checks, run on every pellucid estimator.

Where an estimator departs from a check by design, the departure is declared through scikit-learn's
mechanism for it (`expected_failed_checks`) with the reason; such a check then must still fail (strict
xfail, where the installed scikit-learn offers it), so the list cannot go stale.
"""

import inspect

import pytest
pytest.importorskip("sklearn", reason="an oracle test: it compares with scikit-learn")
from sklearn.utils.estimator_checks import parametrize_with_checks

import pellucid

ESTIMATORS = pellucid.all_estimators()

# scikit-learn 1.6 runs this check on every estimator whose fit takes sample_weight, and passes only a
# TypeError for refused sparse input; pellucid refuses sparse X with a DataError (a ValueError) that says
# to pass X.toarray(). Later versions run the check only where sparse input is taken (not yielded here).
# It is declared for every estimator whose fit takes sample_weight and refuses sparse X (expected_failures).
SPARSE_WEIGHTS = {
    "check_sample_weight_equivalence_on_sparse_data":
        "scikit-learn 1.6 wants a TypeError for sparse X; pellucid's refusal is a DataError (ValueError).",
}

# A weight of 2 and a repeated row are the same row to a tree, but not to a bootstrap, which draws n rows
# from the rows it is given.
BOOTSTRAP_WEIGHTS = {
    "check_sample_weight_equivalence_on_dense_data":
        "the bootstrap draws n rows from the rows it is given: other samples from weighted rows than from their "
        "repeats, so other trees (scikit-learn declares the same of its forests and bagging).",
}

EXPECTED_FAILURES = {
    "RandomForestClassifier": BOOTSTRAP_WEIGHTS,
    "RandomForestRegressor": BOOTSTRAP_WEIGHTS,
    "BaggingClassifier": BOOTSTRAP_WEIGHTS,
    "BaggingRegressor": BOOTSTRAP_WEIGHTS,
    "LinearRegression": {
        "check_non_transformer_estimators_n_iter":
            "n_iter_ is 0 for the default solver='normal': the normal equation is solved in closed form, "
            "with no iterations; max_iter bounds gradient descent (solver='gd') only.",
    },
    # The check fits on 15 rows of 30 columns with whole-number weights (some 0) and on the rows repeated.
    "KMeans": {
        "check_sample_weight_equivalence_on_dense_data":
            "the seeding draws from the rows it is given, so the same seed picks other starting centres among "
            "15 weighted rows than among their repeats (scikit-learn declares the same of its KMeans); from "
            "the same centres the weighted and the repeated fit agree (tests/oracle/test_sample_weight_twins.py).",
    },
    "LogisticRegression": {
        "check_sample_weight_equivalence_on_dense_data":
            "with the default l2=0 and more columns than rows the classes are separable: the likelihood has no "
            "maximum and where the solver stops depends on the path, not the weights. With l2 > 0 the weighted "
            "and the repeated fit agree (tests/oracle/test_sample_weight_twins.py).",
    },
    "Perceptron": {
        "check_sample_weight_equivalence_on_dense_data":
            "a row's weight scales the perceptron's step after a mistake, as in scikit-learn's Perceptron "
            "(which declares the same failure): one step of 2 f(x) is not two steps of f(x), the second of "
            "which a copy of the row may no longer take.",
    },
}


# scikit-learn >= 1.7 can make an expected failure that passes an error.
STRICT = {"xfail_strict": True} if "xfail_strict" in inspect.signature(parametrize_with_checks).parameters else {}


def refuses_sparse_weighted_fit(estimator):
    takes_weights = "sample_weight" in inspect.signature(type(estimator).fit).parameters
    return takes_weights and not estimator.__sklearn_tags__().input_tags.sparse


def expected_failures(estimator):
    declared = EXPECTED_FAILURES.get(type(estimator).__name__, {})
    return {**SPARSE_WEIGHTS, **declared} if refuses_sparse_weighted_fit(estimator) else declared


def test_expected_failures_name_real_estimators():
    assert set(EXPECTED_FAILURES) <= set(ESTIMATORS)


@pytest.mark.filterwarnings("ignore::pellucid.ConvergenceWarning")
@pytest.mark.filterwarnings("ignore::UserWarning")
@parametrize_with_checks([cls() for cls in ESTIMATORS.values()], expected_failed_checks=expected_failures,
                         **STRICT)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
