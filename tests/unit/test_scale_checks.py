"""The scale checks every fit runs read the largest and the smallest value of X: a column is judged by
its largest magnitude whichever its sign."""

import numpy as np
import pytest

import pellucid
from pellucid.core.errors import DataError
from pellucid.core.validation import workable_scale
from pellucid.learners.shared.distances import square_safe_scale, unit_scale


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_column_beyond_1e150_of_either_sign_is_refused_by_name(sign):
    X = np.random.default_rng(0).normal(size=(30, 3))
    X[7, 1] = sign * 1e151
    assert not workable_scale(X)
    with pytest.raises(DataError, match=r"'x1'.*1e\+151"):
        pellucid.PCA().fit(X, feature_names=["x0", "x1", "x2"])


def test_values_up_to_1e150_are_workable():
    X = np.array([[1e150, -1e150], [0.0, 1.0]])
    assert workable_scale(X)


@pytest.mark.parametrize("values, expected", [
    ([[0.3, -5.0], [2.0, 1.0]], 8.0),  # the most negative value decides
    ([[0.3, 5.0], [2.0, -1.0]], 8.0),
    ([[-0.75]], 1.0),
    ([[0.0, 0.0]], 1.0),
    ([[1.0, np.inf]], 1.0),
    ([[1.0, np.nan]], 1.0),
])
def test_unit_scale_is_the_power_of_two_above_the_largest_magnitude(values, expected):
    assert unit_scale(np.array(values)) == expected


@pytest.mark.parametrize("top, expected", [(5.0, 1.0), (1e-50, 1.0), (1e50, 1.0), (1e-70, 2.0 ** -232),
                                           (1e70, 2.0 ** 233)])
def test_only_data_too_large_or_too_small_to_square_is_divided_before_squaring(top, expected):
    assert square_safe_scale(np.array([[top, -top / 3]])) == expected
