"""Clustering: k-means and agglomerative clustering, and their scikit-learn twins."""

from ...core.descriptor import Learner, SklearnTwin, Task
from ..agglomerative.agglomerative import MAX_ROWS as AGGLOMERATIVE_MAX_ROWS, AgglomerativeClustering
from ..kmeans.kmeans import KMeans


def _kmeans(sk, p, ctx):
    return sk.cluster.KMeans(n_clusters=p["n_clusters"], init=p["init"], n_init=p["n_init"], max_iter=p["max_iter"],
                             tol=p["tol"], random_state=p["random_state"])


def _kmeans_notes(p):
    trials = p.get("n_local_trials")
    seeding = ("the same greedy k-means++ seeding (each next centre the best of 2 + ln k draws with "
               "probability proportional to D(x)^2)" if trials is None else
               f"k-means++ with {trials} candidate(s) per centre here, 2 + ln k in scikit-learn's KMeans")
    return [f"The same assign/update iterations and {seeding}; their random generators differ, so they "
            "start from different centres and may end in different local minima."]


def _agglomerative(sk, p, ctx):
    return sk.cluster.AgglomerativeClustering(n_clusters=p["n_clusters"], linkage=p["linkage"])


def _agglomerative_notes(p):
    return ["The same merges (Euclidean distance, the same linkage) up to ties. scikit-learn only labels "
            "the rows it was fitted on, so other rows take the cluster of their nearest training row, as "
            "in pellucid."]


# AGGLOMERATIVE_MAX_ROWS: the row limit fit keeps (agglomerative/agglomerative.py); a larger table is
# offered a seeded sample of this many rows instead (workbench/training.py).

LEARNERS = (
    Learner(KMeans, "k-means", "Clustering", Task.CLUSTERING, {"clusters", "steps", "exercises", "explain"},
            steps="kmeans", exercise="kmeans_centre", explain="centres", summary="clusters",
            scale_sensitive=True, sklearn=SklearnTwin(_kmeans, _kmeans_notes)),
    Learner(AgglomerativeClustering, "Agglomerative clustering", "Clustering", Task.CLUSTERING,
            {"clusters", "dendrogram", "steps"}, steps="agglomerative", summary="clusters", scale_sensitive=True,
            max_rows=AGGLOMERATIVE_MAX_ROWS, sklearn=SklearnTwin(_agglomerative, _agglomerative_notes)),
)
