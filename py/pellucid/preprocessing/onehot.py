"""One-hot encoding of categorical columns, as scikit-learn's OneHotEncoder(handle_unknown="ignore"):
each categorical column becomes one 0/1 column per category seen in the training rows (sorted), named
"column=category"; a category never seen in training, or a missing cell, encodes as all zeros. Numeric
columns pass through. It is the same encoding the learners that need numbers apply to categorical
columns themselves (pellucid.tabular.encoding)."""

import numpy as np

from ..core.base import Estimator
from ..tabular.table import Table
from .columns import NUMERIC, as_table, back, check_columns, missing


class OneHotEncoder(Estimator):
    """fit learns `categories_` ({column: sorted categories}) of each categorical column."""

    def fit(self, X, y=None):
        table, _ = as_table(X)
        self.feature_names_in_ = list(table.columns)
        self.categories_ = {}
        for name in table.columns:
            if table.kinds[name] != NUMERIC:
                values = table.column(name)
                self.categories_[name] = sorted(set(values[~missing(values, table.kinds[name])].tolist()))
        return self

    def get_feature_names_out(self):
        self._check_fitted()
        names = []
        for name in self.feature_names_in_:
            names += [f"{name}={c}" for c in self.categories_[name]] if name in self.categories_ else [name]
        return names

    def transform(self, X):
        """X with each categorical column replaced by its 0/1 columns (a Table or a numeric array)."""
        self._check_fitted()
        table, was_table = as_table(X)
        check_columns(self, table)
        columns = {}
        for name in table.columns:
            values = table.column(name)
            if name not in self.categories_:
                columns[name] = values
                continue
            values = np.asarray(values, dtype=object)
            for category in self.categories_[name]:  # elementwise == in numpy's loop, not a Python one
                columns[f"{name}={category}"] = np.equal(values, category).astype(float)
        return back(Table(columns, kinds={name: NUMERIC for name in columns}), was_table)

    def fit_transform(self, X, y=None):
        return self.fit(X).transform(X)
