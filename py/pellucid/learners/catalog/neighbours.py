"""k-nearest neighbours for classes and for values, and their scikit-learn twins."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..neighbors.neighbors import KNeighborsClassifier, KNeighborsRegressor


def _twin(kind):
    def build(sk, p, ctx):
        cls = getattr(sk.neighbors, f"KNeighbors{kind}")
        return cls(n_neighbors=p["n_neighbors"], metric=p["metric"], weights=p["weights"], algorithm="brute")
    return build


def _notes(p):
    return ["The same k nearest training rows, metric and weighting (brute-force search). Rows at equal "
            "distance, and tied votes, may be resolved differently."]


LEARNERS = (
    Learner(KNeighborsClassifier, "k-nearest neighbours", "Neighbours", Task.CLASSIFICATION,
            {"probabilities", "boundary", "steps", "explain"}, steps="knn", explain="neighbours",
            summary="stored_rows", predict_is_argmax_proba=True, scale_sensitive=True,
            sklearn=SklearnTwin(_twin("Classifier"), _notes)),
    Learner(KNeighborsRegressor, "k-nearest neighbours regression", "Neighbours", Task.REGRESSION,
            {"boundary", "regression_fit", "steps", "explain"}, steps="knn", explain="neighbours",
            summary="stored_rows", scale_sensitive=True, sklearn=SklearnTwin(_twin("Regressor"), _notes)),
)
