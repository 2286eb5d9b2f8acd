"""Neural networks: multi-layer perceptrons trained by backpropagation (scikit-learn's MLPs)."""

from .mlp import MLPClassifier, MLPRegressor

__all__ = ["MLPClassifier", "MLPRegressor"]
