"""Filling missing cells with a value learned from the training rows, as scikit-learn's SimpleImputer.

Numeric columns get their mean, median or most frequent value; a categorical column always gets its most
frequent value (the mean of text is not defined). Ties go to the smallest value, as in scikit-learn. With
fill_numbers=False only categorical columns are filled: a tree takes missing numbers itself.
"""

import numpy as np

from ..core.base import Estimator
from ..core.errors import DataError
from .columns import NUMERIC, as_table, back, check_columns, missing, replace

STRATEGIES = ("mean", "median", "most_frequent")


def most_frequent(values):
    """The value seen most often; among equally frequent ones, the smallest."""
    distinct, counts = np.unique(values, return_counts=True)  # sorted, so argmax takes the smallest
    return distinct[np.argmax(counts)]


class SimpleImputer(Estimator):
    """fit learns `statistics_` ({column: fill value}) from the rows it sees; transform fills every missing
    cell of that column with it."""

    def __init__(self, strategy="mean", fill_numbers=True):
        self.strategy = strategy
        self.fill_numbers = fill_numbers

    def fit(self, X, y=None):
        if self.strategy not in STRATEGIES:
            raise DataError(f"strategy must be one of {', '.join(STRATEGIES)}; got {self.strategy!r}.")
        table, _ = as_table(X)
        self.feature_names_in_ = list(table.columns)
        self.statistics_ = {name: self._statistic(name, table.column(name), table.kinds[name])
                            for name in table.columns if self.fill_numbers or table.kinds[name] != NUMERIC}
        return self

    def _statistic(self, name, values, kind):
        present = values[~missing(values, kind)]
        if len(present) == 0:
            raise DataError(f"Column {name!r} has no values at all in the training rows, so there is nothing "
                            "to fill it with: leave it out, or drop the rows instead.")
        if kind != NUMERIC or self.strategy == "most_frequent":
            value = most_frequent(present)
            return float(value) if kind == NUMERIC else str(value)
        return float(np.mean(present) if self.strategy == "mean" else np.median(present))

    def transform(self, X):
        """X with every missing cell filled by its column's statistic (a Table or an array, as given)."""
        self._check_fitted()
        table, was_table = as_table(X)
        check_columns(self, table)
        changed = {}
        for name in table.columns:
            if name not in self.statistics_:  # a number left missing (fill_numbers=False)
                continue
            values, kind = table.column(name), table.kinds[name]
            gaps = missing(values, kind)
            if gaps.any():
                filled = values.copy()
                filled[gaps] = self.statistics_[name]
                changed[name] = (filled, kind)
        return back(replace(table, changed) if changed else table, was_table)

    def fit_transform(self, X, y=None):
        return self.fit(X).transform(X)
