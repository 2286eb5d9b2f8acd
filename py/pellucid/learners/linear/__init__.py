"""Linear models (notes 000, 001, 004): `linear_regression` (least squares by the normal equation or
gradient descent) and `perceptron`. Logistic regression has its own package (`learners.logistic`)."""
