"""Which scikit-learn estimator matches each pellucid learner, built from our hyperparameters, with
notes on how the two correspond and where they differ. `EQUIVALENTS` is the one table; the comparison
itself is in compare.py. Builders receive the scikit-learn modules, so nothing here imports it.
"""

from dataclasses import dataclass

import numpy as np


@dataclass
class Equivalent:
    """build(sk, params, ctx) -> the scikit-learn estimator; prepare: "onehot" or "ordinal";
    notes(params) -> [text]: how the two models correspond and where they differ."""

    build: object
    notes: object
    prepare: str = "onehot"


# --- the estimators, one builder per pellucid class --------------------------------------------------

def _tree_notes(p):
    notes = ["Both grow a tree by the best impurity decrease (entropy or Gini) with midpoint thresholds on "
             "numeric features. A categorical column splits many ways in pellucid, but on one-hot columns "
             "(one yes/no test per category) in scikit-learn.",
             "scikit-learn visits the features in a random order (random_state = seed) and keeps the first "
             "best split it meets, so equally good splits are broken at random; pellucid takes the first "
             "feature in column order."]
    if p.get("prune"):
        notes.append(f"pellucid prunes the tree ({p['prune']}); scikit-learn has no such pruning here and "
                     "keeps the fully grown tree.")
    if p.get("min_gain"):
        notes.append("min_gain is not passed on: scikit-learn's min_impurity_decrease weighs the decrease by "
                     "the node's share of the rows.")
    return notes


def _tree_classifier(sk, p, ctx):
    return sk.tree.DecisionTreeClassifier(criterion=p["criterion"], max_depth=p["max_depth"],
                                          min_samples_split=p["min_samples_split"], random_state=p["seed"])


def _tree_regressor(sk, p, ctx):
    return sk.tree.DecisionTreeRegressor(max_depth=p["max_depth"], min_samples_split=p["min_samples_split"],
                                         random_state=0)


def _linear(sk, p, ctx):
    if p["l2"] == 0:
        return sk.linear_model.LinearRegression()
    return sk.linear_model.Ridge(alpha=ctx["n_train"] * p["l2"])  # J = 1/(2n)|r|^2 + l2/2 |w|^2


def _linear_notes(p):
    notes = ["The same least-squares objective: l2 = 0 is LinearRegression, l2 > 0 is Ridge(alpha = n · l2) "
             "(n training rows); neither penalises the bias."]
    if p["solver"] == "gd":
        notes.append("pellucid runs gradient descent, which may stop before the exact minimum; scikit-learn "
                     "solves it exactly.")
    return notes


def _logistic(sk, p, ctx):
    C = np.inf if p["l2"] == 0 else 1.0 / (ctx["n_train"] * p["l2"])  # the same objective
    return sk.linear_model.LogisticRegression(C=C, tol=1e-8, max_iter=1000)


def _logistic_notes(p):
    return ["The same objective: mean log-loss + (l2/2)|w|^2 is scikit-learn's C = 1/(n · l2) (n training "
            "rows; l2 = 0 is C = ∞); sigmoid for two classes, softmax for more; biases not penalised. "
            "pellucid uses Newton's method (or gradient ascent), scikit-learn L-BFGS.",
            "With l2 = 0 and separable classes the weights grow without bound and the two stop at "
            "different places."]


def _perceptron(sk, p, ctx):
    return sk.linear_model.SGDClassifier(loss="perceptron", penalty=None, learning_rate="constant", eta0=1.0,
                                         max_iter=p["max_epochs"], tol=None, shuffle=bool(p["shuffle"]),
                                         random_state=p["seed"], average=bool(p["averaged"]))


def _perceptron_notes(p):
    notes = ["Both add the misclassified example to the weights (step 1, bias included, no penalty). For "
             "three or more classes scikit-learn trains one binary perceptron per class (one-vs-rest); "
             "pellucid's multiclass perceptron keeps one weight vector per class and updates two of them "
             "on a mistake.",
             "scikit-learn runs all max_epochs passes; pellucid stops after a pass with no mistake. Their "
             "shuffled orders differ (different random generators)."]
    if p.get("initial_weights") is not None:
        notes.append("initial_weights are not passed on: scikit-learn starts from zero.")
    return notes


def _gaussian_nb_notes(p):
    return ["The same model: maximum-likelihood class priors and per-class normal densities, with "
            "var_smoothing times the largest feature variance added to every variance."]


def _gaussian_nb(sk, p, ctx):
    return sk.naive_bayes.GaussianNB(var_smoothing=p["var_smoothing"])


def _categorical_nb(sk, p, ctx):
    return sk.naive_bayes.CategoricalNB(alpha=p["k"], force_alpha=True, min_categories=ctx["n_categories"])


def _categorical_nb_notes(p):
    return ["The same Laplace estimate (count + k)/(N_y + k |X|) with k = alpha. scikit-learn needs integer "
            "codes, so every column's values (categories, or a numeric column's distinct values) are "
            "numbered over all rows; a value never seen in training then still counts in |X| there, "
            "while pellucid's |X| is the values seen in training."]


def _bernoulli_nb(sk, p, ctx):
    return sk.naive_bayes.BernoulliNB(alpha=p["k"], binarize=p["binarize"], force_alpha=True)


def _multinomial_nb(sk, p, ctx):
    return sk.naive_bayes.MultinomialNB(alpha=p["k"], force_alpha=True)


def _nb_notes(p):
    return ["The same model: maximum-likelihood class priors and Laplace-smoothed likelihoods (alpha = k)."]


def _knn(kind):
    def build(sk, p, ctx):
        cls = getattr(sk.neighbors, f"KNeighbors{kind}")
        return cls(n_neighbors=p["k"], metric=p["metric"], weights=p["weights"], algorithm="brute")
    return build


def _knn_notes(p):
    return ["The same k nearest training rows, metric and weighting (brute-force search). Rows at equal "
            "distance, and tied votes, may be resolved differently."]


def _kernel_regression(sk, p, ctx):
    kernel = {"linear": "linear", "poly": "poly", "rbf": "rbf"}[p["kernel"]]
    gamma = 1.0 if kernel == "poly" else ctx["gamma"]  # ours: (x.z + c)^degree, exp(-gamma |x - z|^2)
    return sk.kernel_ridge.KernelRidge(alpha=p["l2"], kernel=kernel, degree=p["degree"], coef0=p["c"],
                                       gamma=gamma)


def _kernel_regression_notes(p):
    return ["Both minimise the squared error plus (l2/2) βᵀKβ with the same kernel and no intercept. "
            "scikit-learn's KernelRidge solves (K + l2 I)β = y exactly; pellucid takes max_iter "
            "gradient steps from β = 0, which stops early (a kind of regularisation, most visible when "
            "l2 = 0, where the exact solution interpolates the training rows)."]


def _kmeans(sk, p, ctx):
    return sk.cluster.KMeans(n_clusters=p["k"], init=p["init"], n_init=p["n_init"], max_iter=p["max_iter"],
                             tol=p["tol"], random_state=p["seed"])


def _kmeans_notes(p):
    return ["The same assign/update iterations. scikit-learn's k-means++ is greedy (it draws 2 + ln k "
            "candidates for each centre and keeps the best), pellucid draws one; their random generators "
            "differ, so they start from different centres and may end in different local minima."]


def _agglomerative(sk, p, ctx):
    return sk.cluster.AgglomerativeClustering(n_clusters=p["k"], linkage=p["linkage"])


def _agglomerative_notes(p):
    return ["The same merges (Euclidean distance, the same linkage) up to ties. scikit-learn only labels "
            "the rows it was fitted on, so other rows take the cluster of their nearest training row, as "
            "in pellucid."]


def _pca(sk, p, ctx):
    n = p["n_components"]
    if p.get("variance") is not None:
        n = float(p["variance"]) if p["variance"] < 1 else None
    if n is not None and not isinstance(n, float):
        n = min(int(n), ctx["n_features"], ctx["n_train"])
    return sk.decomposition.PCA(n_components=n, svd_solver="full")


def _pca_notes(p):
    return ["The same principal components (eigenvectors of the covariance, by SVD in scikit-learn); a "
            "variance fraction keeps the fewest components whose cumulative share reaches it."]


EQUIVALENTS = {
    "DecisionTreeClassifier": Equivalent(_tree_classifier, _tree_notes),
    "DecisionTreeRegressor": Equivalent(_tree_regressor, _tree_notes),
    "LinearRegression": Equivalent(_linear, _linear_notes),
    "LogisticRegression": Equivalent(_logistic, _logistic_notes),
    "Perceptron": Equivalent(_perceptron, _perceptron_notes),
    "GaussianNB": Equivalent(_gaussian_nb, _gaussian_nb_notes),
    "CategoricalNB": Equivalent(_categorical_nb, _categorical_nb_notes, prepare="ordinal"),
    "BernoulliNB": Equivalent(_bernoulli_nb, _nb_notes),
    "MultinomialNB": Equivalent(_multinomial_nb, _nb_notes),
    "KNeighborsClassifier": Equivalent(_knn("Classifier"), _knn_notes),
    "KNeighborsRegressor": Equivalent(_knn("Regressor"), _knn_notes),
    "KernelRegression": Equivalent(_kernel_regression, _kernel_regression_notes),
    "KMeans": Equivalent(_kmeans, _kmeans_notes),
    "AgglomerativeClustering": Equivalent(_agglomerative, _agglomerative_notes),
    "PCA": Equivalent(_pca, _pca_notes),
}
NO_EQUIVALENT = {
    "KernelPerceptron": "scikit-learn has no kernel perceptron (its Perceptron is linear only, and SVC "
                        "maximises a margin instead of correcting mistakes), so there is nothing to compare "
                        "it with.",
}
