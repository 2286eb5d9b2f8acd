"""Turn mixed columns into the numeric matrix that linear models, k-NN and kernels need.

Categorical columns are one-hot encoded (one 0/1 column per category seen in training; an unseen
category encodes as all zeros). Numeric columns pass through, or are standardised to mean 0 and
standard deviation 1 when asked. The encoder is part of the fitted model, so predictions encode new
rows exactly as the training rows were.
"""

import numpy as np

from ..core import serialize
from ..core.validation import CATEGORICAL, Columns


class FeatureEncoder:
    """Fitted one-hot + optional standardisation; `output_names` name the encoded columns."""

    def __init__(self, standardize=False):
        self.standardize = standardize

    def fit(self, columns: Columns):
        self.input_names = list(columns.names)
        self.input_kinds = list(columns.kinds)
        self.categories = {}
        self.means, self.scales = {}, {}
        for name, kind, col in zip(columns.names, columns.kinds, columns.data):
            if kind == CATEGORICAL:
                self.categories[name] = sorted(set(col.tolist()))
            elif self.standardize:
                std = float(col.std())
                self.means[name] = float(col.mean())
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
        encoder = cls(d["standardize"])
        encoder.input_names, encoder.input_kinds = list(d["input_names"]), list(d["input_kinds"])
        encoder.categories = {k: list(v) for k, v in d["categories"].items()}
        encoder.means, encoder.scales = dict(d["means"]), dict(d["scales"])
        return encoder


serialize.register_tagged("__encoder__", FeatureEncoder)  # a fitted model's encoder_ in its model file
