"""A numeric column's profile counts from one sort: its distinct values and its histogram are those numpy's
np.unique and np.histogram give, with missing values and infinities among the numbers."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pellucid.tabular.profile import profile
from pellucid.tabular.table import Table

VALUES = st.lists(st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 1.5, np.nan, np.inf, -np.inf]),
                            st.integers(-5, 5).map(float)), min_size=1, max_size=200)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_distinct_count_and_histogram_are_numpys(values):
    entry = profile(Table({"x": values}, kinds={"x": "numeric"}))[0]
    array = np.array(values)
    assert entry["unique"] == len(np.unique(array[~np.isnan(array)]))
    finite = array[np.isfinite(array)]
    histogram = entry["histogram"]
    if len(finite) and len(np.unique(finite)) > 1:
        counts, edges = np.histogram(finite, bins=np.array(histogram["edges"]))
        assert histogram["counts"] == counts.tolist()
    assert sum(histogram["counts"]) == len(finite)
