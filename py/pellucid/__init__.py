"""Pellucid: machine learning you can see through.

The classic algorithms of the course notes, in numpy, each faithful to the notes' math and able to
record its steps (`trace=True`), so a result seen in the browser can be reproduced in a script.
"""

from . import cluster_metrics, curves, datasets, estimation, metrics, model_selection
from .agglomerative import AgglomerativeClustering
from .base import all_estimators, from_dict
from .csvio import read_csv
from .errors import ConvergenceWarning, DataError, NotFittedError
from .estimation import laplace, map_estimate, mle
from .likelihood_curves import log_likelihood_curve
from .kernels import KernelPerceptron, KernelRegression, is_psd
from .kmeans import KMeans
from .linear import LinearRegression
from .logistic import LogisticRegression
from .curves import learning_curve, validation_curve
from .model_selection import KFold, StratifiedKFold, cross_validate, train_test_split, train_val_test_split
from .naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB
from .neighbors import KNeighborsClassifier, KNeighborsRegressor
from .pca import PCA
from .perceptron import Perceptron
from .table import Table
from .tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text

__version__ = "0.1.0"

__all__ = [
    "DataError", "NotFittedError", "ConvergenceWarning", "all_estimators", "from_dict", "read_csv", "Table",
    "DecisionTreeClassifier", "DecisionTreeRegressor", "export_text",
    "LinearRegression", "LogisticRegression", "Perceptron",
    "BernoulliNB", "MultinomialNB", "CategoricalNB", "GaussianNB",
    "KNeighborsClassifier", "KNeighborsRegressor", "KernelRegression", "KernelPerceptron", "is_psd",
    "KMeans", "AgglomerativeClustering", "PCA",
    "mle", "map_estimate", "laplace", "log_likelihood_curve",
    "train_test_split", "train_val_test_split", "KFold", "StratifiedKFold", "cross_validate",
    "validation_curve", "learning_curve",
    "cluster_metrics", "curves", "datasets", "estimation", "metrics", "model_selection",
]
