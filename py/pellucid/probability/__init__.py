"""Estimating a distribution's parameters from data: maximum likelihood, MAP, Laplace smoothing, and
the likelihood curves that show them."""
