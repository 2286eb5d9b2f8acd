"""What a learner is, told once: its task, what it can show, what input it needs, and its scikit-learn twin.

Every part of the system that must know what a model can do (the page's model menu, evaluation, the
views, the steps and exercises, the exports, the comparison with scikit-learn) asks a learner's
descriptor, never its class name. Descriptors are collected in `pellucid.learners.registry`; the
built-in ones live in `pellucid.learners.catalog`, one module per family.

A descriptor holds keys, not code from the workbench: `steps`, `exercise`, `explain` and `summary` name
a family the workbench keeps a table for (so the model layer never imports the views).
"""

from dataclasses import dataclass
from enum import Enum


class Task(str, Enum):
    """What a learner does with the data, one name end to end (Python, JSON, the page)."""

    CLASSIFICATION = "classification"
    REGRESSION = "regression"
    CLUSTERING = "clustering"
    PROJECTION = "projection"

    def __str__(self):
        return self.value

    @property
    def supervised(self):
        """Whether the learner learns a target column."""
        return self in (Task.CLASSIFICATION, Task.REGRESSION)


# The closed set of capabilities, each a promise the workbench and the page rely on.
CAPABILITIES = {
    "probabilities": "predict_proba gives a probability per class (exports add P(class) columns)",
    "boundary": "its predictions over a plane of two features are drawn as the Boundary view",
    "tree": "its fitted model is a tree drawn in the Tree view",
    "clusters": "it labels every row with a cluster, drawn (with its regions) in the Clusters view",
    "dendrogram": "it records its merges (`merges_`, `n_leaves_`), drawn as a dendrogram",
    "projection": "it maps rows onto components (`transform`), drawn in the PCA view",
    "regression_fit": "its fitted line or curve along one feature is drawn in the Regression view",
    "forest": "it is an ensemble of trees (`estimators_`, each answering predict), drawn in the Forest view",
    "staged": "`staged_predict` gives its predictions after each stage, drawn as the Staged score view",
    "trees_apart": "its trees grow independently of one another (`grow_trees`, `fit_from_trees`): the pool of "
                   "workers grows ranges of them side by side",
    "network": "it is a network of units (`coefs_`, `intercepts_`, `loss_curve_`) drawn in the Network view",
    "steps": "trace=True records steps the workbench replays as frames (family key: `steps`)",
    "exercises": "the workbench makes seeded exercises from it (kind: `exercise`)",
    "explain": "the workbench explains one row's prediction term by term (kind: `explain`)",
}
STEP_FAMILIES = ("tree", "perceptron", "descent", "kernel_descent", "epochs", "kmeans", "agglomerative",
                 "naive_bayes", "knn", "pca", "ensemble", "boosting", "adaboost", "network")
EXERCISE_KINDS = ("gain", "perceptron_update", "nb_posterior", "kmeans_centre", "linear_prediction",
                  "logistic_probability", "network_unit")
EXPLAIN_KINDS = ("path", "neighbours", "naive_bayes", "scores", "centres", "prediction")
SUMMARY_KINDS = ("weights", "priors", "components", "clusters", "stored_rows", "tree", "forest", None)
NEEDS = ("numbers", "categories")  # numbers: categorical columns are one-hot encoded before it reads them


@dataclass(frozen=True)
class SklearnTwin:
    """The scikit-learn estimator that learns the same way. build(sk, params, ctx) -> the estimator, given
    the scikit-learn module (so nothing here imports it), our params and ctx (n_train, n_features, gamma,
    n_categories); notes(params) -> [text]: how the two correspond and where they differ; prepare: how
    its input is made ("onehot": categorical columns one-hot, "ordinal": every column numbered);
    trained(estimator) -> {attribute: [array, ...]}: the fitted state a script sets on the twin after its
    fit, so that the script predicts as the page's model (the first array of the first attribute has one
    row per model input, put in the order of the script's columns); None: the script's fit stands."""

    build: object
    notes: object
    prepare: str = "onehot"
    trained: object = None


@dataclass(frozen=True)
class Learner:
    """One learner, described once. `estimator` is the class; `name` (its class name) is the id the page,
    the exports and `from_dict` use."""

    estimator: type
    label: str
    group: str
    task: Task
    capabilities: frozenset = frozenset()
    steps: str = None  # a STEP_FAMILIES key when "steps" is a capability
    exercise: str = None  # an EXERCISE_KINDS key when "exercises" is a capability
    explain: str = "prediction"  # an EXPLAIN_KINDS key: how one row's prediction is explained
    summary: str = None  # a SUMMARY_KINDS key: the facts shown first after training
    predict_is_argmax_proba: bool = False  # predict == first class of highest predict_proba (one pass)
    needs: str = "numbers"
    scale_sensitive: bool = False  # distances or gradients change when a feature is rescaled
    max_rows: int = None  # the most rows it trains on (time or memory grows as their square); None: any
    tune: tuple = ()  # ((name, values), ...): the grid the Tune panel starts on, one or two hyperparameters
    form_defaults: tuple = ()  # ((name, value), ...): the page's form starts here rather than at the class default
    sklearn: SklearnTwin = None
    no_twin: str = "scikit-learn has no model that learns the same way."

    def __post_init__(self):
        object.__setattr__(self, "capabilities", frozenset(self.capabilities))
        object.__setattr__(self, "task", Task(self.task))
        _check(self)

    @property
    def name(self):
        return self.estimator.__name__

    def can(self, capability):
        """Whether the learner has `capability` (one of CAPABILITIES)."""
        if capability not in CAPABILITIES:
            raise ValueError(f"Unknown capability {capability!r}; the known ones: {', '.join(CAPABILITIES)}.")
        return capability in self.capabilities

    @property
    def script_import(self):
        """The module a script imports the estimator from: the package itself for its own learners."""
        module = self.estimator.__module__
        return "pellucid" if module.split(".")[0] == "pellucid" else module


def _check(learner):
    """A descriptor that contradicts itself fails when it is written, not when a view asks it."""
    problems = []
    if learner.task != getattr(learner.estimator, "task", None):
        problems.append(f"task {learner.task} differs from the estimator's {learner.estimator.task}")
    unknown = sorted(learner.capabilities - set(CAPABILITIES))
    if unknown:
        problems.append(f"unknown capabilities {unknown}")
    for key, capability, known in (("steps", "steps", STEP_FAMILIES), ("exercise", "exercises", EXERCISE_KINDS)):
        value = getattr(learner, key)
        if (value is not None) != (capability in learner.capabilities) or value not in known + (None,):
            problems.append(f"{key}={value!r} does not match capability {capability!r}")
    if learner.explain not in EXPLAIN_KINDS or learner.summary not in SUMMARY_KINDS:
        problems.append(f"explain={learner.explain!r} or summary={learner.summary!r} is not a known kind")
    problems += _tune_problems(learner)
    if learner.needs not in NEEDS:
        problems.append(f"needs={learner.needs!r} is not one of {NEEDS}")
    if problems:
        raise ValueError(f"The descriptor of {learner.name}: " + "; ".join(problems) + ".")


def _tune_problems(learner):
    """What is wrong with the descriptor's starting grid: an unknown hyperparameter, or a value its rule
    refuses (the grid is tried as it stands when the user presses Tune)."""
    if len(learner.tune) > 2:
        return [f"tune lists {len(learner.tune)} hyperparameters; the Tune panel takes one or two"]
    rules = learner.estimator._param_rules
    problems = []
    for name, value in learner.form_defaults:
        if name not in rules:
            problems.append(f"form_defaults names {name!r}, which it does not have")
            continue
        try:
            rules[name].check(name, value)
        except ValueError as exc:
            problems.append(f"form default {value!r} of {name!r}: {exc}")
    for name, values in learner.tune:
        if name not in rules or not values:
            problems.append(f"tune names {name!r} with values {values!r}")
            continue
        for value in values:
            try:
                rules[name].check(name, value)
            except ValueError as exc:  # DataError is a ValueError
                problems.append(f"tune value {value!r} of {name!r}: {exc}")
    return problems
