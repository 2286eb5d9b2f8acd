"""Built-in example datasets from the course notes, read from the package's data files.

`load_restaurant()`: the 12 restaurant examples of seed 000 ("Decision Trees"; also seed 004), with the
notes' attribute names and value spellings (seed 000 gives x4 Rain = Yes). `load_play_tennis()`: the
14 Saturday mornings of Quinlan's play-tennis data. Files are read with importlib.resources, so they are
found inside an installed wheel and in Pyodide alike.
"""

import csv
import io
from dataclasses import dataclass
from importlib import resources

import numpy as np


@dataclass(frozen=True)
class Dataset:
    """X: (n, d) object array of the feature values; y: (n,) target; csv_text: the file as shipped."""

    X: np.ndarray
    y: np.ndarray
    feature_names: list
    target_name: str
    csv_text: str


def _read_text(filename):
    return resources.files(__package__).joinpath("data", filename).read_text(encoding="utf-8")


def load_csv_dataset(filename):
    """A Dataset from a packaged CSV whose last column is the target."""
    text = _read_text(filename)
    header, *rows = list(csv.reader(io.StringIO(text)))
    X = np.empty((len(rows), len(header) - 1), dtype=object)  # (n, d)
    for i, row in enumerate(rows):
        X[i] = row[:-1]
    y = np.array([row[-1] for row in rows])  # (n,)
    return Dataset(X=X, y=y, feature_names=header[:-1], target_name=header[-1], csv_text=text)


def load_restaurant():
    """The restaurant data (seed 000): will we wait for a table? Target WillWait (Yes/No)."""
    return load_csv_dataset("restaurant.csv")


def load_play_tennis():
    """Quinlan's play-tennis data: Outlook, Temperature, Humidity, Wind; target PlayTennis (Yes/No)."""
    return load_csv_dataset("play_tennis.csv")
