"""Built-in example datasets from the course notes, read from the package's data files.

`load_restaurant()`: the 12 restaurant examples of notes 000 ("Decision Trees"; also notes 004), with the
notes' attribute names and value spellings (notes 000 gives x4 Rain = Yes). `load_play_tennis()`: the
14 Saturday mornings of Quinlan's play-tennis data. `load_iris()`, `load_wine()`, `load_breast_cancer()`:
the UCI data sets as distributed with scikit-learn, with its feature names and the class names as the
target (sources and licences: data/README.md). `EXAMPLES` lists them for the page's data menu. Files are
read with importlib.resources, so they are found inside an installed wheel and in Pyodide alike.
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
    return resources.files("pellucid").joinpath("data", filename).read_text(encoding="utf-8")


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
    """The restaurant data (notes 000): will we wait for a table? Target WillWait (Yes/No)."""
    return load_csv_dataset("restaurant.csv")


def load_play_tennis():
    """Quinlan's play-tennis data: Outlook, Temperature, Humidity, Wind; target PlayTennis (Yes/No)."""
    return load_csv_dataset("play_tennis.csv")


def load_iris():
    """Fisher's iris: four measurements (cm) of 150 flowers; target species (setosa/versicolor/virginica)."""
    return load_csv_dataset("iris.csv")


def load_wine():
    """UCI wine recognition: 13 chemical measurements of 178 wines; target class (class_0..class_2)."""
    return load_csv_dataset("wine.csv")


def load_breast_cancer():
    """UCI breast cancer Wisconsin (diagnostic): 30 cell-nucleus features of 569 samples; target diagnosis
    (malignant/benign)."""
    return load_csv_dataset("breast_cancer.csv")


@dataclass(frozen=True)
class Example:
    """One entry of the data menu: `loader()` gives the Dataset; `target` is the suggested target column."""

    name: str
    label: str
    description: str
    target: str
    loader: object


# The first opens the page: 150 rows, so its 30% test split (45 rows) gives a score that means something;
# the notes' small worked examples follow, one choice away.
EXAMPLES = {e.name: e for e in [
    Example("iris", "Iris flowers",
            "150 iris flowers of three species, told apart by the length and width of their sepals and "
            "petals.", "species", load_iris),
    Example("restaurant", "Restaurant (waiting for a table)",
            "The course notes' 12 restaurant visits: will we wait for a table, from ten yes/no and "
            "categorical attributes?", "WillWait", load_restaurant),
    Example("play_tennis", "Play tennis",
            "Quinlan's 14 Saturday mornings: is the weather good for tennis, from outlook, temperature, "
            "humidity and wind?", "PlayTennis", load_play_tennis),
    Example("wine", "Wine",
            "178 Italian wines from three cultivars, with 13 chemical measurements each.", "class", load_wine),
    Example("breast_cancer", "Breast cancer (Wisconsin)",
            "569 breast tissue samples, malignant or benign, described by 30 measurements of their cell "
            "nuclei.", "diagnosis", load_breast_cancer),
]}
