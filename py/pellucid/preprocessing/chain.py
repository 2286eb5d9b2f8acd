"""The preparation a table goes through between the data and a model: missing cells imputed, numeric
columns standardised, then categorical columns one-hot encoded (for a learner that needs numbers), each
fitted on the training rows only and applied the same way to every row the model later reads
(predictions, grids, exports).
"""

from ..core.base import Estimator
from ..core.errors import DataError
from .imputer import STRATEGIES, SimpleImputer
from .onehot import OneHotEncoder
from .scaler import StandardScaler


class Preprocessor(Estimator):
    """impute: None (no cell is filled) or a SimpleImputer strategy; standardize: whether numeric columns
    are scaled to mean 0 and standard deviation 1; one_hot: whether categorical columns become 0/1
    columns. Fitted parts: `imputer_`, `scaler_` and `encoder_` (or None)."""

    def __init__(self, impute=None, standardize=False, one_hot=False):
        self.impute = impute
        self.standardize = standardize
        self.one_hot = one_hot

    def fit(self, X, y=None):
        if self.impute not in (None, *STRATEGIES):
            raise DataError(f"impute must be null or one of {', '.join(STRATEGIES)}; got {self.impute!r}.")
        self.imputer_ = SimpleImputer(self.impute).fit(X) if self.impute else None
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
    def from_dict(cls, d):
        """The fitted Preprocessor `to_dict` described; a DataError when the description is damaged."""
        try:
            prep = cls(d["impute"], bool(d["standardize"]), bool(d.get("one_hot")))
            prep.imputer_ = prep.scaler_ = prep.encoder_ = None
            if prep.impute:
                prep.imputer_ = SimpleImputer(prep.impute)
                prep.imputer_.feature_names_in_ = list(d["columns"])
                prep.imputer_.statistics_ = dict(d["statistics"])
            if prep.standardize:
                prep.scaler_ = StandardScaler()
                prep.scaler_.feature_names_in_ = list(d["columns"])
                prep.scaler_.mean_ = {k: float(v) for k, v in d["mean"].items()}
                prep.scaler_.scale_ = {k: float(v) for k, v in d["scale"].items()}
            if prep.one_hot:
                prep.encoder_ = OneHotEncoder()
                prep.encoder_.feature_names_in_ = list(d["columns"])
                prep.encoder_.categories_ = {k: [str(c) for c in v] for k, v in d["categories"].items()}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise DataError(f"The preprocessing in this model description is damaged ({exc}).") from None
        return prep
