"""Cross-validated accuracy (classifiers) and R^2 (regressors) of every pellucid learner next to its
scikit-learn counterpart, both fitted and scored on exactly the same folds.

Folds: scikit-learn's StratifiedKFold(n_splits=10, shuffle=True, random_state=0) on iris, wine and
breast_cancer; KFold(n_splits=10, shuffle=True, random_state=0) on diabetes. Each fold's pellucid model
is fitted on the fold's training rows and scored on its test rows, and so is the scikit-learn model;
both are scored by the same function (accuracy, or R^2), and the table reports the mean over the folds.

Every pair has a `kind`:
  "same"      the two compute the same mathematics (same objective, same data, same tie-free decisions);
              the means must agree to within `tolerance`.
  "tree"      the same tree-growing rule, but ties between equally good splits may be broken differently
              (pellucid: the earlier column; scikit-learn: a random feature order), so trees can differ.
  "reference" no exact counterpart: a close relative shown for orientation only (loose `tolerance`).
  "different" the algorithms differ on this dataset (not held to any tolerance): the perceptron on
              three classes, where pellucid runs the notes' multiclass perceptron (one weight vector per
              class, argmax) and scikit-learn trains one binary perceptron per class (one-vs-rest). On two
              classes the two perceptrons make the same updates (both visit the rows in order, no
              shuffling, learning rate 1, no stopping test), except that a score of exactly 0 is a
              mistake for scikit-learn and the positive class for the notes, so they are "same" with a
              looser tolerance there.

Usage: python3 -m benchmarks.cv_table   or   python3 benchmarks/cv_table.py   (prints a Markdown table).
"""

import pathlib
import sys
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

import pellucid  # noqa: E402
from sklearn import datasets as skdata  # noqa: E402
from sklearn import ensemble, linear_model, naive_bayes, neighbors, neural_network, svm, tree  # noqa: E402
from sklearn.kernel_ridge import KernelRidge  # noqa: E402
from sklearn.metrics import r2_score  # noqa: E402
from sklearn.model_selection import KFold, StratifiedKFold  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

FOREST_TREES = 30  # trees of each forest: enough for a stable mean, few enough for ten folds
BOOSTING_ROUNDS = 30  # rounds of each boosted model: enough to learn, few enough for ten folds
CLASSIFICATION_SETS = ("iris", "wine", "breast_cancer")
REGRESSION_SETS = ("diabetes",)
PERCEPTRON_EPOCHS = 20  # both perceptrons run this many passes at most
# The networks: one hidden layer, Adam, on standardised features; each library draws its own start and order.
NETWORK = {"hidden_layer_sizes": (32,), "learning_rate_init": 0.01, "max_iter": 300, "random_state": 0}
# KernelRidge's default alpha. KernelRegression's gradient descent with l2 = alpha has the same fixed point,
# (K + alpha I) beta = y; with its default l2 = 0 it would fit the training targets instead (R^2 0.31 here).
KERNEL_RIDGE_ALPHA = 1.0


# ---------------------------------------------------------------- data preparation (same for both sides)

def load(name):
    """(X, y) of a scikit-learn bundled dataset."""
    bunch = getattr(skdata, f"load_{name}")()
    return np.asarray(bunch.data, dtype=float), np.asarray(bunch.target)


def quantile_codes(X, n_bins=3):
    """(n, d) int codes 0..m_j-1: each feature cut at its 1/3 and 2/3 quantiles (of the whole dataset),
    the codes renumbered so every feature's codes are consecutive (ties can merge bins)."""
    cuts = np.quantile(X, np.linspace(0, 1, n_bins + 1)[1:-1], axis=0)  # (n_bins - 1, d)
    raw = np.stack([np.searchsorted(cuts[:, j], X[:, j], side="right") for j in range(X.shape[1])], axis=1)
    return np.stack([np.unique(col, return_inverse=True)[1] for col in raw.T], axis=1)  # (n, d)


def standardize(train, test):
    """Both parts scaled with the training part's mean and (population) standard deviation."""
    scaler = StandardScaler().fit(train)
    return scaler.transform(train), scaler.transform(test)


def identity(train, test):
    return train, test


def as_text(train, test):
    """Integer codes -> strings, so pellucid reads every column as categorical."""
    return np.char.mod("b%d", train), np.char.mod("b%d", test)


# ---------------------------------------------------------------- the pairs

class Pair:
    """One pellucid learner and its scikit-learn counterpart.

    `ours(n_train)` and `theirs()` build fresh unfitted models; `prep` maps (train, test) feature blocks
    to what each side is given ((ours_train, ours_test), (theirs_train, theirs_test)); `view` picks the
    raw matrix ("raw" or "codes": the quantile-binned integer codes)."""

    def __init__(self, learner, ours, theirs, kind, tolerance, view="raw", prep=None, note="",
                 multiclass=None):
        self.learner, self.ours, self.theirs = learner, ours, theirs
        self.kind, self.tolerance, self.view, self.note = kind, tolerance, view, note
        self.multiclass = multiclass  # (kind, tolerance, note) that replace the above on 3+ classes
        self.prep = prep or (lambda tr, te: (identity(tr, te), identity(tr, te)))

    @property
    def estimator(self):
        """The pellucid class name."""
        return type(self.ours(1)).__name__

    def judged(self, n_classes):
        """(kind, tolerance, note) for a dataset with n_classes classes (0 for regression)."""
        if n_classes > 2 and self.multiclass is not None:
            return self.multiclass
        return self.kind, self.tolerance, self.note


def _prep_both(fn):
    return lambda tr, te: (fn(tr, te), fn(tr, te))


def classifier_pairs(perceptron_epochs=PERCEPTRON_EPOCHS):
    """The classifier pairs, in table order."""
    def codes_prep(tr, te):
        return as_text(tr, te), identity(tr, te)

    return [
        *forest_pairs(pellucid.RandomForestClassifier, ensemble.RandomForestClassifier,
                      pellucid.BaggingClassifier, ensemble.BaggingClassifier),
        *boosting_pairs(pellucid.GradientBoostingClassifier, ensemble.GradientBoostingClassifier),
        *boosting_pairs(pellucid.AdaBoostClassifier, ensemble.AdaBoostClassifier),
        Pair("DecisionTreeClassifier(entropy)",
             lambda n: pellucid.DecisionTreeClassifier(criterion="entropy"),
             lambda: tree.DecisionTreeClassifier(criterion="entropy", random_state=0), "tree", 0.04),
        Pair("DecisionTreeClassifier(gini)", lambda n: pellucid.DecisionTreeClassifier(criterion="gini"),
             lambda: tree.DecisionTreeClassifier(criterion="gini", random_state=0), "tree", 0.04),
        Pair("LogisticRegression", lambda n: pellucid.LogisticRegression(l2=1.0 / n, standardize=True),
             lambda: make_pipeline(StandardScaler(), linear_model.LogisticRegression(C=1.0, max_iter=5000)),
             "same", 0.005, note="l2 = 1/n_train is C = 1"),
        Pair("Perceptron", lambda n: pellucid.Perceptron(standardize=True, max_iter=perceptron_epochs),
             lambda: make_pipeline(StandardScaler(), linear_model.Perceptron(
                 max_iter=perceptron_epochs, tol=None, shuffle=False, random_state=0)),
             "same", 0.02, note="score exactly 0: positive for pellucid, a mistake for scikit-learn",
             multiclass=("different", None, "multiclass perceptron vs one-vs-rest binary perceptrons")),
        Pair("GaussianNB", lambda n: pellucid.GaussianNB(), lambda: naive_bayes.GaussianNB(), "same", 0.005),
        Pair("KNeighborsClassifier(n_neighbors=5)",
             lambda n: pellucid.KNeighborsClassifier(n_neighbors=5, standardize=True),
             lambda: make_pipeline(StandardScaler(), neighbors.KNeighborsClassifier(5)), "same", 0.005),
        Pair("CategoricalNB (3 quantile bins)", lambda n: pellucid.CategoricalNB(alpha=1.0),
             lambda: naive_bayes.CategoricalNB(alpha=1.0), "same", 0.005, view="codes", prep=codes_prep,
             note="strings vs integer codes"),
        Pair("BernoulliNB (standardised, > 0)", lambda n: pellucid.BernoulliNB(alpha=1.0, binarize=0.0),
             lambda: naive_bayes.BernoulliNB(alpha=1.0, binarize=0.0), "same", 0.005,
             prep=_prep_both(standardize)),
        Pair("MultinomialNB", lambda n: pellucid.MultinomialNB(alpha=1.0),
             lambda: naive_bayes.MultinomialNB(alpha=1.0), "same", 0.005),
        *network_pair(pellucid.MLPClassifier, neural_network.MLPClassifier),
        Pair("KernelPerceptron(rbf) vs SVC(rbf)", lambda n: pellucid.KernelPerceptron(
                 kernel="rbf", max_iter=perceptron_epochs),
             lambda: svm.SVC(kernel="rbf"), "reference", 0.05, prep=_prep_both(standardize),
             note="different algorithms; both on standardised features"),
    ]


def boosting_pairs(ours, theirs):
    """A boosted model of BOOSTING_ROUNDS rounds: the same algorithm on the notes' trees, so the two differ only
    where equally good splits tie (column order vs random feature order) and scikit-learn's float32 X."""
    note = "equally good splits broken differently"
    return [Pair(f"{ours.__name__}({BOOSTING_ROUNDS} rounds)", lambda n: ours(n_estimators=BOOSTING_ROUNDS),
                 lambda: theirs(n_estimators=BOOSTING_ROUNDS, random_state=0), "tree", 0.04, note=note)]


def forest_pairs(our_forest, their_forest, our_bagging, their_bagging):
    """A random forest and bagged trees of FOREST_TREES trees each: their samples and feature draws come from
    other generators, so the two agree on average, not fold by fold."""
    note = "other random samples and feature draws: the same on average"
    return [Pair(f"{our_forest.__name__}({FOREST_TREES} trees)", lambda n: our_forest(FOREST_TREES, random_state=0),
                 lambda: their_forest(FOREST_TREES, random_state=0), "ensemble", 0.05, note=note),
            Pair(f"{our_bagging.__name__}({FOREST_TREES} trees)", lambda n: our_bagging(FOREST_TREES, random_state=0),
                 lambda: their_bagging(n_estimators=FOREST_TREES, random_state=0), "ensemble", 0.05, note=note)]


def network_pair(ours, theirs):
    """A network of one hidden layer of 32 units: the same training from other random starting weights and
    orders (numpy's generator, scikit-learn's RandomState), so the two agree on average, not fold by fold."""
    return [Pair(f"{ours.__name__}(32 units)", lambda n: ours(**NETWORK), lambda: theirs(**NETWORK), "network", 0.05,
                 prep=_prep_both(standardize), note="other random starting weights and order: the same on average")]


def regressor_pairs():
    """The regressor pairs, in table order."""
    return [
        Pair("LinearRegression", lambda n: pellucid.LinearRegression(),
             lambda: linear_model.LinearRegression(), "same", 0.005),
        Pair("DecisionTreeRegressor", lambda n: pellucid.DecisionTreeRegressor(),
             lambda: tree.DecisionTreeRegressor(random_state=0), "tree", 0.04),
        *forest_pairs(pellucid.RandomForestRegressor, ensemble.RandomForestRegressor,
                      pellucid.BaggingRegressor, ensemble.BaggingRegressor),
        *boosting_pairs(pellucid.GradientBoostingRegressor, ensemble.GradientBoostingRegressor),
        Pair("KNeighborsRegressor(n_neighbors=5)",
             lambda n: pellucid.KNeighborsRegressor(n_neighbors=5, standardize=True),
             lambda: make_pipeline(StandardScaler(), neighbors.KNeighborsRegressor(5)), "same", 0.005),
        *network_pair(pellucid.MLPRegressor, neural_network.MLPRegressor),
        Pair("KernelRegression(rbf) vs KernelRidge(rbf)", lambda n: pellucid.KernelRegression(
                 kernel="rbf", l2=KERNEL_RIDGE_ALPHA),
             lambda: KernelRidge(kernel="rbf", alpha=KERNEL_RIDGE_ALPHA), "reference", 0.05,
             prep=_prep_both(standardize),
             note="gradient descent vs exact solve of (K + I) beta = y; standardised features"),
    ]


# ---------------------------------------------------------------- cross-validation

def accuracy(y_true, y_pred):
    return float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))


def fold_scores(pair, X, y, folds, metric):
    """(pellucid scores, scikit-learn scores), one per fold."""
    ours, theirs = [], []
    for train, test in folds:
        (a_tr, a_te), (b_tr, b_te) = pair.prep(X[train], X[test])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # perceptrons that do not separate the data warn
            model = pair.ours(len(train)).fit(a_tr, y[train])
            ours.append(metric(y[test], model.predict(a_te)))
            ref = pair.theirs().fit(b_tr, y[train])
            theirs.append(metric(y[test], ref.predict(b_te)))
    return np.array(ours), np.array(theirs)


def _row(pair, dataset, metric_name, ours, theirs, folds, n_classes=0):
    kind, tolerance, note = pair.judged(n_classes)
    return {"learner": pair.learner, "estimator": pair.estimator, "dataset": dataset, "metric": metric_name,
            "pellucid": float(ours.mean()), "sklearn": float(theirs.mean()),
            "difference": float(ours.mean() - theirs.mean()),
            "fold_pellucid": ours.tolist(), "fold_sklearn": theirs.tolist(),
            "fold_sizes": [int(len(test)) for _, test in folds],
            "n_classes": n_classes, "kind": kind, "tolerance": tolerance, "note": note}


def cv_rows(perceptron_epochs=PERCEPTRON_EPOCHS):
    """One dict per (learner, dataset): "learner" (table label), "estimator" (pellucid class), "dataset",
    "metric" ("accuracy" or "R^2"), the fold-mean "pellucid" and "sklearn" scores, "difference"
    (pellucid - sklearn), the per-fold scores "fold_pellucid"/"fold_sklearn", the test-fold sizes
    "fold_sizes", "n_classes" (0: regression), "kind" ("same" / "tree" / "reference" / "different"), the
    "tolerance" the difference is held to (None: not held to one) and a "note"."""
    rows = []
    for name in CLASSIFICATION_SETS:
        X, y = load(name)
        views = {"raw": X, "codes": quantile_codes(X)}
        folds = list(StratifiedKFold(n_splits=10, shuffle=True, random_state=0).split(X, y))
        for pair in classifier_pairs(perceptron_epochs):
            ours, theirs = fold_scores(pair, views[pair.view], y, folds, accuracy)
            rows.append(_row(pair, name, "accuracy", ours, theirs, folds, len(np.unique(y))))
    for name in REGRESSION_SETS:
        X, y = load(name)
        folds = list(KFold(n_splits=10, shuffle=True, random_state=0).split(X))
        for pair in regressor_pairs():
            ours, theirs = fold_scores(pair, X, y.astype(float), folds, r2_score)
            rows.append(_row(pair, name, "R^2", ours, theirs, folds))
    return rows


def markdown(rows):
    """The rows as a Markdown table (classifiers: mean accuracy; regressors: mean R^2)."""
    lines = ["| learner | dataset | pellucid mean acc | sklearn mean acc | difference |",
             "|---|---|---|---|---|"]
    for r in rows:
        suffix = " (R^2)" if r["metric"] == "R^2" else ""
        lines.append(f"| {r['learner']}{suffix} | {r['dataset']} | {r['pellucid']:.4f} | {r['sklearn']:.4f} "
                     f"| {r['difference']:+.4f} |")
    return "\n".join(lines)


def main():
    print(markdown(cv_rows()))


if __name__ == "__main__":
    main()
