"""What several learners use: `distances` (squared distances and feature scales), `gram_fast` (Gram matrices
X^T X with or without BLAS), `optim` (gradient descent, Newton's method, L-BFGS and their traces) and
`class_weights` (the class_weight hyperparameter). Nothing here imports a learner."""
