"""Naive Bayes (notes 000 "Naive Bayes"; notes 004): `base` (what every variant shares: fitting per class,
predicting by log-probabilities), `discrete` (Bernoulli, multinomial and categorical), `gaussian` and
`estimates` (counting and smoothed estimates)."""
