"""Projections (notes 004): `pca`, principal component analysis."""
