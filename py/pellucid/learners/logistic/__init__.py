"""Logistic regression (notes 004): `logistic` is the estimator and the losses as the formulas (the steps
view's path); `logistic_fast` the same losses in fewer passes over the rows, with `indicator_gram` (one-hot
blocks of the Hessian), started from `sample_start` (the fit on a sample of the rows) and stepped by
`newton_kept_hessian`, reading the rows through `row_blocks` (a block at a time on large tables): all
four serve the fast path only. `LogisticRegression.fit` chooses the path."""
