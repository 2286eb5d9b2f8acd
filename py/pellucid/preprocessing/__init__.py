"""Preparing a table for a model, each step fitted on the training rows only: `SimpleImputer` (missing
cells), `StandardScaler` (numeric columns to mean 0, sd 1), `OneHotEncoder` (categories to 0/1 columns),
`Preprocessor` (impute, then standardise) and `Pipeline` (a preprocessor and a model as one estimator).
Each matches its scikit-learn namesake on the same rows."""

from .chain import Preprocessor
from .imputer import SimpleImputer
from .onehot import OneHotEncoder
from .pipeline import Pipeline
from .scaler import StandardScaler

__all__ = ["SimpleImputer", "StandardScaler", "OneHotEncoder", "Preprocessor", "Pipeline"]
