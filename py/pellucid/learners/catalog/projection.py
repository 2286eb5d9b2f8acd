"""Dimensionality reduction: principal component analysis, and its scikit-learn twin."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..projection.pca import PCA


def _twin(sk, p, ctx):
    n = p["n_components"]
    if n is not None and n >= 1:  # a count (a fraction below 1 means the same in both)
        n = min(int(n), ctx["n_features"], ctx["n_train"])
    return sk.decomposition.PCA(n_components=n, svd_solver="full")


def _notes(p):
    return ["The same principal components (eigenvectors of the covariance, by SVD in scikit-learn); a "
            "variance fraction keeps the fewest components whose cumulative share reaches it."]


LEARNERS = (
    Learner(PCA, "Principal component analysis", "Dimensionality reduction", Task.PROJECTION,
            {"projection", "steps"}, steps="pca", summary="components", scale_sensitive=True,
            sklearn=SklearnTwin(_twin, _notes)),
)
