"""Standardising numeric columns, as scikit-learn's StandardScaler: z = (x - mean) / scale, with the mean
and the population standard deviation (ddof = 0) of the training rows. A constant column keeps scale 1
(so it becomes 0, not a division by zero); categorical columns pass through unchanged."""

import numpy as np

from ..core.base import Estimator
from .columns import NUMERIC, as_table, back, check_columns, replace


class StandardScaler(Estimator):
    """fit learns `mean_` and `scale_` ({column: number}) of each numeric column, missing cells left out."""

    def fit(self, X, y=None):
        table, _ = as_table(X)
        self.feature_names_in_ = list(table.columns)
        self.mean_, self.scale_, self.constant_ = {}, {}, []
        for name in table.columns:
            if table.kinds[name] != NUMERIC:
                continue
            values = table.column(name).astype(float)
            std = float(np.nanstd(values))
            self.mean_[name] = float(np.nanmean(values))
            self.scale_[name] = std if std > 0 else 1.0
            if not std > 0:
                self.constant_.append(name)  # one value on the training rows: it standardises to 0
        return self

    def transform(self, X):
        """X with each numeric column standardised (a Table or an array, as given)."""
        self._check_fitted()
        table, was_table = as_table(X)
        check_columns(self, table)
        changed = {name: ((table.column(name) - self.mean_[name]) / self.scale_[name], NUMERIC)
                   for name in self.mean_}
        return back(replace(table, changed), was_table)

    def inverse_transform(self, X):
        """Standardised values back in the original units: x = z * scale + mean."""
        self._check_fitted()
        table, was_table = as_table(X)
        changed = {name: (table.column(name) * self.scale_[name] + self.mean_[name], NUMERIC)
                   for name in self.mean_}
        return back(replace(table, changed), was_table)

    def fit_transform(self, X, y=None):
        return self.fit(X).transform(X)
