"""Agglomerative clustering (notes 004): `agglomerative` is the estimator and its linkages; the pairwise
distance matrix it starts from comes from `agglomerative_fast` (one triangle computed and mirrored), the
speed-up of `shared.distances.squared_distances(M, M)`."""
