"""Decision trees (notes 000, "Decision Trees"; notes 004, decision-tree slides): ID3 classification and
regression trees with information gain, Gini or variance reduction, chi-squared and reduced-error pruning."""

from .classifier import DecisionTreeClassifier
from .export import export_text
from .regressor import DecisionTreeRegressor

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor", "export_text"]
