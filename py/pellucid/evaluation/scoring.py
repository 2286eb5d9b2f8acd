"""Scorers: one number for how well a fitted model does on some rows, chosen by name and the model's task.

A scorer is called as scorer(model, X, y). By default a classifier is scored by accuracy and a
regressor by R^2 (what their `score` methods give). Losses (log loss, MSE, MAE, 0-1 loss) are reported
as they are, lower being better, and say so in `greater_is_better`, rather than negated as in
scikit-learn's "neg_..." scorers.
"""

from dataclasses import dataclass

import numpy as np

from ..core.descriptor import Task
from ..core.errors import DataError
from . import model_selection
from .imbalance import balanced_accuracy_score
from .precision_recall import average_precision_score
from .roc import roc_auc_score

DEFAULT_FOR_TASK = {Task.CLASSIFICATION: "accuracy", Task.REGRESSION: "r2"}


@dataclass(frozen=True)
class Scorer:
    """A named score of a fitted model on rows X with targets y."""

    name: str
    metric: object  # metric(y_true, predictions) -> float, or a callable scorer(model, X, y) -> float
    uses: str  # what the metric reads: the model's "predict", "predict_proba", "ranking" scores, or "model"
    greater_is_better: bool

    def __call__(self, model, X, y):
        if self.uses == "model":
            return float(self.metric(model, X, y))
        if self.uses == "predict":
            return float(self.metric(y, model.predict(X)))
        if self.uses == "ranking":
            return float(self.metric(y, _ranking_scores(model, X), model.classes_))
        proba = model.predict_proba(X)
        if proba.shape[1] == 2:  # as scikit-learn's scorers: the second class's column, the first 1 - it
            proba = proba[:, 1]
        return float(self.metric(y, proba, labels=getattr(model, "classes_", None)))


def _ranking_scores(model, X):
    """What a ranking metric (ROC AUC, average precision) reads, as scikit-learn's scorers do: for two
    classes one score per row for classes_[1] (decision_function where the model has one, else that
    class's probability); for more, the probability columns (one-vs-rest)."""
    if len(model.classes_) == 2:
        if hasattr(model, "decision_function"):
            return model.decision_function(X)
        return model.predict_proba(X)[:, 1]
    if not hasattr(model, "predict_proba"):
        raise DataError(f"One-vs-rest ranking scores need probabilities, which {type(model).__name__} "
                        "does not give; choose another scoring.")
    return model.predict_proba(X)


def _ranking_metric(metric):
    def score(y_true, scores, labels):
        if scores.ndim == 1:  # the positive class is the model's second class
            return metric(np.asarray(y_true) == labels[1], scores)
        return metric(y_true, scores, labels=labels)
    return score


def _table():
    table = {name: (metric, "predict_proba" if proba else "predict", greater)
             for name, (metric, proba, greater) in model_selection.SCORERS.items()}
    table["balanced_accuracy"] = (balanced_accuracy_score, "predict", True)
    table["roc_auc"] = (_ranking_metric(roc_auc_score), "ranking", True)
    table["average_precision"] = (_ranking_metric(average_precision_score), "ranking", True)
    return table


def scorer_names():
    """The names `get_scorer` accepts."""
    return list(_table())


def task_of(model):
    """The model's Task (a DataError for an object that is not a learner)."""
    try:
        return Task(getattr(getattr(model, "task", None), "value", getattr(model, "task", None)))
    except ValueError:
        raise DataError(f"{type(model).__name__} is not a pellucid learner with a task.") from None


def get_scorer(model, scoring=None):
    """The Scorer for `scoring` (a name from scorer_names(), or None: accuracy for a classifier, R^2 for
    a regressor). A callable scorer(model, X, y) -> float is wrapped as is, greater taken as better."""
    if callable(scoring):
        return Scorer(getattr(scoring, "__name__", "custom"), scoring, "model", True)
    task = task_of(model)
    if scoring is None:
        if task not in DEFAULT_FOR_TASK:
            raise DataError(f"A {task.value} model has no target to score; scoring needs a classifier or "
                            "a regressor.")
        scoring = DEFAULT_FOR_TASK[task]
    table = _table()
    if scoring not in table:
        raise DataError(f"Unknown scoring {scoring!r}; choose one of: {', '.join(table)}.")
    metric, uses, greater = table[scoring]
    _check_model_gives(model, task, scoring, uses)
    return Scorer(scoring, metric, uses, greater)


def _check_model_gives(model, task, scoring, uses):
    """A DataError when the model cannot give what the scoring reads."""
    if uses == "predict":
        return
    if task is not Task.CLASSIFICATION:
        raise DataError(f"{scoring} scores a classifier's probabilities; {type(model).__name__} is a "
                        f"{task.value} model.")
    gives = hasattr(model, "predict_proba") or (uses == "ranking" and hasattr(model, "decision_function"))
    if not gives:
        raise DataError(f"{scoring} needs probabilities, which {type(model).__name__} does not give; "
                        "choose another scoring.")
