"""The preparation a table goes through between the data and a model: missing cells imputed, numeric
columns standardised, then categorical columns one-hot encoded (for a learner that needs numbers), each
fitted on the training rows only and applied the same way to every row the model later reads
(predictions, grids, exports).
"""

from ..core.base import Estimator
from ..core.errors import DataError
from ..core.file_fields import (damaged, require_bool, require_dict, require_key, require_names, require_number,
                                require_text)
from .imputer import STRATEGIES, SimpleImputer
from .onehot import OneHotEncoder
from .scaler import StandardScaler

KEEP = "keep"  # missing numbers kept for a model that takes them (a tree); missing categories filled
IMPUTES = (*STRATEGIES, KEEP)


class Preprocessor(Estimator):
    """impute: None (no cell is filled), a SimpleImputer strategy, or "keep" (missing numbers are kept for
    a model that takes them, a tree; missing categories get their most frequent value); standardize:
    whether numeric columns are scaled to mean 0 and standard deviation 1; one_hot: whether categorical
    columns become 0/1 columns. Fitted parts: `imputer_`, `scaler_` and `encoder_` (or None)."""

    def __init__(self, impute=None, standardize=False, one_hot=False):
        self.impute = impute
        self.standardize = standardize
        self.one_hot = one_hot

    def fit(self, X, y=None):
        if self.impute not in (None, *IMPUTES):
            raise DataError(f"impute must be null or one of {', '.join(IMPUTES)}; got {self.impute!r}.")
        self.imputer_ = _imputer(self.impute).fit(X) if self.impute else None
        filled = self.imputer_.transform(X) if self.imputer_ else X
        self.scaler_ = StandardScaler().fit(filled) if self.standardize else None
        self.encoder_ = OneHotEncoder().fit(filled) if self.one_hot else None
        return self

    def transform(self, X):
        """X imputed, standardised, then one-hot encoded, as fitted (a Table or an array, as given)."""
        self._check_fitted()
        for part in (self.imputer_, self.scaler_, self.encoder_):
            if part is not None:
                X = part.transform(X)
        return X

    def fit_transform(self, X, y=None):
        return self.fit(X).transform(X)

    def to_dict(self):
        """What was fitted, as plain JSON: {impute, standardize, one_hot, columns, statistics, mean, scale,
        categories}."""
        self._check_fitted()
        parts = [p for p in (self.imputer_, self.scaler_, self.encoder_) if p is not None]
        return {"impute": self.impute, "standardize": bool(self.standardize), "one_hot": bool(self.one_hot),
                "categories": self.encoder_.categories_ if self.encoder_ else None,
                "columns": parts[0].feature_names_in_ if parts else None,
                "statistics": self.imputer_.statistics_ if self.imputer_ else None,
                "mean": self.scaler_.mean_ if self.scaler_ else None,
                "scale": self.scaler_.scale_ if self.scaler_ else None}

    @classmethod
    def from_dict(cls, d, path="workbench.preprocessing"):
        """The fitted Preprocessor `to_dict` described, every field checked first: a DataError about the
        model file naming the field when the description is damaged."""
        d = require_dict(d, path)
        impute = require_key(d, "impute", path)  # null when no cell is filled
        if impute is not None:
            require_text(impute, f"{path}.impute", IMPUTES)
        prep = cls(impute, require_bool(require_key(d, "standardize", path), f"{path}.standardize"),
                   require_bool(d.get("one_hot", False), f"{path}.one_hot"))
        prep.imputer_ = prep.scaler_ = prep.encoder_ = None
        if not (prep.impute or prep.standardize or prep.one_hot):
            return prep
        columns = require_names(require_key(d, "columns", path), f"{path}.columns")
        if prep.impute:
            prep.imputer_ = _imputer(prep.impute)
            prep.imputer_.feature_names_in_ = columns
            prep.imputer_.statistics_ = _by_column(d, "statistics", path, columns, _statistic,
                                                   every=prep.imputer_.fill_numbers)
        if prep.standardize:
            prep.scaler_ = StandardScaler()
            prep.scaler_.feature_names_in_ = columns
            prep.scaler_.mean_ = _by_column(d, "mean", path, columns, require_number)
            prep.scaler_.scale_ = _by_column(d, "scale", path, columns, _positive)
            if sorted(prep.scaler_.mean_) != sorted(prep.scaler_.scale_):
                raise damaged(f"{path}.scale", "must give a scale for each column with a mean, and no other")
        if prep.one_hot:
            prep.encoder_ = OneHotEncoder()
            prep.encoder_.feature_names_in_ = columns
            prep.encoder_.categories_ = _by_column(d, "categories", path, columns, _categories)
            if prep.scaler_ is not None and set(prep.scaler_.mean_) & set(prep.encoder_.categories_):
                raise damaged(f"{path}.categories", "names a column that is also standardised as a number")
        return prep


def _imputer(impute):
    """The SimpleImputer of an `impute` choice: "keep" fills categories only, with their most frequent value."""
    return SimpleImputer("most_frequent", fill_numbers=False) if impute == KEEP else SimpleImputer(impute)


def _by_column(d, key, path, columns, check, every=False):
    """{column: check(value, path)} from d[key], whose columns must be among `columns` (all of them when
    `every`)."""
    values = require_dict(require_key(d, key, path), f"{path}.{key}")
    if not set(values) <= set(columns) or (every and len(values) != len(columns)):
        raise damaged(f"{path}.{key}", "must name " + ("each of" if every else "only") + " the columns in "
                      f"{path}.columns")
    return {name: check(value, f"{path}.{key}.{name}") for name, value in values.items()}


def _statistic(value, path):
    """What fills a column's gaps: a finite number, or a category's text."""
    return value if isinstance(value, str) else require_number(value, path)


def _positive(value, path):
    scale = require_number(value, path)
    if scale <= 0:
        raise damaged(path, f"must be a positive scale; got {scale}")
    return scale


def _categories(value, path):
    return require_names(value, path)
