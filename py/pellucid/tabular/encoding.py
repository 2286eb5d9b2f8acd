"""Turn mixed columns into the numeric matrix that linear models, k-NN and kernels need.

Categorical columns are one-hot encoded (one 0/1 column per category seen in training; an unseen
category encodes as all zeros). Numeric columns pass through, or are standardised to mean 0 and
standard deviation 1 when asked. The encoder is part of the fitted model, so predictions encode new
rows exactly as the training rows were.
"""

import numpy as np

from ..core import serialize
from ..core.file_fields import (KINDS, damaged, require_bool, require_dict, require_key, require_list, require_names,
                                require_number)
from ..core.validation import CATEGORICAL, Columns


def _mean_std(values, weights):
    if weights is None:
        return float(values.mean()), float(values.std())
    mean = float(np.average(values, weights=weights))
    return mean, float(np.sqrt(np.average((values - mean) ** 2, weights=weights)))


class FeatureEncoder:
    """Fitted one-hot + optional standardisation; `output_names` name the encoded columns."""

    def __init__(self, standardize=False):
        self.standardize = standardize

    def fit(self, columns: Columns, sample_weight=None):
        """Learn the categories and, when standardising, each numeric column's mean and sd (weighted by
        `sample_weight` when given, so weights that are whole numbers standardise as the rows repeated)."""
        self.input_names = list(columns.names)
        self.input_kinds = list(columns.kinds)
        self.categories = {}
        self.means, self.scales = {}, {}
        for name, kind, col in zip(columns.names, columns.kinds, columns.data):
            if kind == CATEGORICAL:
                self.categories[name] = sorted(set(col.tolist()))
            elif self.standardize:
                mean, std = _mean_std(col.astype(float), sample_weight)
                self.means[name] = mean
                self.scales[name] = std if std > 0 else 1.0
        return self

    @property
    def output_names(self):
        names = []
        for name in self.input_names:
            if name in self.categories:
                names.extend(f"{name}={c}" for c in self.categories[name])
            else:
                names.append(name)
        return names

    def transform(self, columns: Columns):
        """(n, d_out) float64 matrix of the encoded columns, read by position as in training."""
        out = np.empty((columns.n_rows, len(self.output_names)))  # (n, d_out)
        start = 0
        for name, col in zip(self.input_names, columns.data):
            if name in self.categories:
                cats = np.array(self.categories[name], dtype=object)
                out[:, start:start + len(cats)] = col[:, None] == cats[None, :]
                start += len(cats)
            else:
                out[:, start] = col
                if name in self.means:
                    out[:, start] -= self.means[name]
                    out[:, start] /= self.scales[name]
                start += 1
        return out

    def to_dict(self):
        return {"standardize": self.standardize, "input_names": self.input_names,
                "input_kinds": self.input_kinds, "categories": self.categories,
                "means": self.means, "scales": self.scales}

    @classmethod
    def from_dict(cls, d):
        """The encoder `to_dict` described, each field checked (`check_against` ties it to its model)."""
        path = "state.encoder_"
        d = require_dict(d, path)
        encoder = cls(require_bool(require_key(d, "standardize", path), f"{path}.standardize"))
        encoder.input_names = require_names(require_key(d, "input_names", path), f"{path}.input_names")
        encoder.input_kinds = require_names(require_key(d, "input_kinds", path), f"{path}.input_kinds",
                                            len(encoder.input_names), unique=False)
        if any(k not in KINDS for k in encoder.input_kinds):
            raise damaged(f"{path}.input_kinds", f"must hold only {' or '.join(KINDS)}")
        categorical = [n for n, k in zip(encoder.input_names, encoder.input_kinds) if k == CATEGORICAL]
        numeric = [n for n, k in zip(encoder.input_names, encoder.input_kinds) if k != CATEGORICAL]
        categories = require_dict(require_key(d, "categories", path), f"{path}.categories")
        if sorted(categories) != sorted(categorical):
            raise damaged(f"{path}.categories", "must list the values of each categorical column, and no other")
        encoder.categories = {k: _values(v, f"{path}.categories.{k}") for k, v in categories.items()}
        standardised = numeric if encoder.standardize else []
        encoder.means = _numbers(d, "means", standardised, path)
        encoder.scales = _numbers(d, "scales", standardised, path)
        if any(v <= 0 for v in encoder.scales.values()):
            raise damaged(f"{path}.scales", "must hold positive numbers")
        return encoder

    def check_against(self, names, kinds, path="state.encoder_"):
        """DataError unless the encoder reads the model's columns `names` of `kinds`."""
        if self.input_names != list(names) or self.input_kinds != list(kinds):
            raise damaged(path, "does not read the columns the model was fitted on")


def _values(values, path):
    values = require_list(values, path)
    if not values or not all(isinstance(v, (str, int, float, bool)) for v in values) or len(set(values)) < len(values):
        raise damaged(path, "must list a column's different values")
    return values


def _numbers(d, key, names, path):
    """{column: finite number} under d[key], one for each of `names`."""
    numbers = require_dict(require_key(d, key, path), f"{path}.{key}")
    if sorted(numbers) != sorted(names):
        raise damaged(f"{path}.{key}", "must give one number for each standardised column")
    return {k: require_number(v, f"{path}.{key}.{k}") for k, v in numbers.items()}


serialize.register_tagged("__encoder__", FeatureEncoder)  # a fitted model's encoder_ in its model file
