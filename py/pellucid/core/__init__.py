"""The contracts every part relies on: the estimator base class, hyperparameter rules, input
validation, the errors pellucid raises, and the JSON encoding of fitted state."""
