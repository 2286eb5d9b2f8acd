"""Every learner the workbench offers, by name: the built-in catalog, plus any registered later.

The menu, the evaluation, the views, the exports and the comparison with scikit-learn look a learner up
here (`get(name)`, or `of(estimator)` for a fitted one) and ask its descriptor what it can do. A new
learner is one module (the estimator) and one descriptor, registered here; `registered(learner)` adds
one for the duration of a `with` block (what a test does).
"""

from contextlib import contextmanager

from ..core.base import register_estimator, unregister_estimator
from ..core.descriptor import Learner
from ..core.errors import DataError
from .catalog import LEARNERS

_LEARNERS = {learner.name: learner for learner in LEARNERS}


def learners():
    """The descriptors in menu order."""
    return list(_LEARNERS.values())


def names():
    return list(_LEARNERS)


def get(name):
    """The descriptor of the learner called `name` (its class name); a DataError lists the known ones."""
    try:
        return _LEARNERS[name]
    except (KeyError, TypeError):
        raise DataError(f"Unknown model {name!r}; choose one of: {', '.join(_LEARNERS)}.", field="model") from None


def of(estimator):
    """The descriptor of an estimator (an instance or its class)."""
    cls = estimator if isinstance(estimator, type) else type(estimator)
    learner = _LEARNERS.get(cls.__name__)
    if learner is None or learner.estimator is not cls:
        raise DataError(f"{cls.__name__} models cannot be used here; the known ones: {', '.join(_LEARNERS)}.")
    return learner


def register(learner):
    """Add a learner at the end of the menu (its name must be new)."""
    if not isinstance(learner, Learner):
        raise TypeError(f"register takes a pellucid.core.descriptor.Learner; got {learner!r}.")
    if learner.name in _LEARNERS:
        raise ValueError(f"A learner called {learner.name!r} is already registered.")
    register_estimator(learner.estimator)
    _LEARNERS[learner.name] = learner
    return learner


def unregister(name):
    """Remove the learner called `name` (a missing one: a DataError)."""
    unregister_estimator(get(name).estimator)
    del _LEARNERS[name]


@contextmanager
def registered(learner):
    """`with registered(learner):` the learner is offered inside the block and gone after it."""
    register(learner)
    try:
        yield learner
    finally:
        unregister(learner.name)
