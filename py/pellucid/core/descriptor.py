"""What a learner is, told once: its task, what it can show, what input it needs, and its scikit-learn twin.

Every part of the system that must know what a model can do (the page's model menu, evaluation, the
views, the steps and exercises, the exports, the comparison with scikit-learn) asks a learner's
descriptor, never its class name. Descriptors are collected in `pellucid.learners.registry`.
"""

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
