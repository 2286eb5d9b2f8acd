"""Pellucid: machine learning you can see through.

The classic algorithms of the course notes, in numpy, each faithful to the notes' math and able to
record its steps (`trace=True`), so a result seen in the browser can be reproduced in a script.

The package is in layers, and a module imports only from its own layer or lower ones (LAYERS, lowest
first; tests/unit/test_layers.py checks it, and that no modules import one another in a circle):
core (the estimator contract, errors, parameters), host (what talks to the page's worker), tabular
(tables, CSV, encoding), probability, preprocessing, learners, evaluation (metrics, splits, curves),
workbench (what the page's commands do), bridge (the one module the page calls). This module only
gathers the public names.
"""

from .evaluation import cluster_metrics, curves, metrics, model_selection
from .tabular import datasets
from .probability import estimation
from .learners.agglomerative.agglomerative import AgglomerativeClustering
from .core.base import all_estimators, from_dict
from .tabular.csvio import read_csv
from .tabular.arff import read_arff
from .tabular.xlsx import read_xlsx
from .core.errors import ConvergenceWarning, DataError, NotFittedError
from .probability.estimation import laplace, map_estimate, mle
from .probability.likelihood_curves import log_likelihood_curve
from .learners.kernels.kernel_functions import is_psd
from .learners.kernels.kernel_perceptron import KernelPerceptron
from .learners.kernels.kernel_regression import KernelRegression
from .learners.kmeans.kmeans import KMeans
from .learners.linear.linear_regression import LinearRegression
from .learners.logistic.logistic import LogisticRegression
from .evaluation.curves import learning_curve, validation_curve
from .evaluation.model_selection import KFold, StratifiedKFold, cross_validate, train_test_split, train_val_test_split
from .learners.naive_bayes.discrete import BernoulliNB, CategoricalNB, MultinomialNB
from .learners.naive_bayes.gaussian import GaussianNB
from .learners.neighbors.neighbors import KNeighborsClassifier, KNeighborsRegressor
from .learners.projection.pca import PCA
from .learners.linear.perceptron import Perceptron
from .tabular.table import Table
from .learners.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text
from .learners.ensemble import (AdaBoostClassifier, BaggingClassifier, BaggingRegressor, GradientBoostingClassifier,
                                GradientBoostingRegressor, RandomForestClassifier, RandomForestRegressor)
from .learners.network import MLPClassifier, MLPRegressor

__version__ = "0.1.0"

LAYERS = ("core", "host", "tabular", "probability", "preprocessing", "learners", "evaluation", "workbench",
          "bridge")

__all__ = [
    "DataError", "NotFittedError", "ConvergenceWarning", "all_estimators", "from_dict", "read_csv", "read_arff",
    "read_xlsx", "Table",
    "DecisionTreeClassifier", "DecisionTreeRegressor", "export_text",
    "RandomForestClassifier", "RandomForestRegressor", "BaggingClassifier", "BaggingRegressor",
    "GradientBoostingClassifier", "GradientBoostingRegressor", "AdaBoostClassifier",
    "LinearRegression", "LogisticRegression", "Perceptron",
    "BernoulliNB", "MultinomialNB", "CategoricalNB", "GaussianNB",
    "KNeighborsClassifier", "KNeighborsRegressor", "KernelRegression", "KernelPerceptron", "is_psd",
    "KMeans", "AgglomerativeClustering", "PCA", "MLPClassifier", "MLPRegressor",
    "mle", "map_estimate", "laplace", "log_likelihood_curve",
    "train_test_split", "train_val_test_split", "KFold", "StratifiedKFold", "cross_validate",
    "validation_curve", "learning_curve",
    "cluster_metrics", "curves", "datasets", "estimation", "metrics", "model_selection",
]
