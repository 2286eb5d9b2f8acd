"""The errors and warnings pellucid raises, so callers (and the page) can tell bad input from bugs."""

import sys


class DataError(ValueError):
    """Bad input: the message names the column, row or parameter, what was expected and what was found.

    `field` says which setting it is about, from a small fixed vocabulary (core.settings.ERROR_FIELDS:
    "target", "feature:<column>", "params.<name>", "evaluation.k", ...), so the page can point at the
    control without reading the message; None when no one setting is to blame. `about(field)` sets it
    where a caller knows better than the raise site (a fold's failure is still its parameter's)."""

    def __init__(self, message="", field=None):
        super().__init__(message)
        self.field = field

    def about(self, field):
        """This error, about `field` unless it already names one."""
        if self.field is None:
            self.field = field
        return self


class NotLoadedError(DataError):
    """An optional package is not loaded yet: in the page it is loaded on demand, then the command is asked
    again. `package` names which ("scikit-learn" for the comparison, "openpyxl" for Excel workbooks)."""

    def __init__(self, message="", field=None, package="scikit-learn"):
        super().__init__(message, field)
        self.package = package


class NotFittedError(DataError, AttributeError):
    """A model was asked to predict or describe itself before `fit` was called.

    A ValueError and an AttributeError, as scikit-learn's NotFittedError is; raise it through
    `not_fitted`, so that code catching scikit-learn's class catches it too."""


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped at its iteration limit before meeting its tolerance."""


class DataConversionWarning(UserWarning):
    """Input was read in a form other than the one given (a column-vector y read as a 1-D target)."""


_TWINS = {}


def _with_sklearn_twin(cls):
    """cls, or while scikit-learn is loaded a subclass of both cls and scikit-learn's class of the same
    name, so code that catches or filters scikit-learn's (its pipelines, searches and checks) sees
    pellucid's too. scikit-learn is never imported here: pellucid runs without it."""
    sklearn_exceptions = sys.modules.get("sklearn.exceptions")
    foreign = getattr(sklearn_exceptions, cls.__name__, None)
    if foreign is None:
        return cls
    if (cls, foreign) not in _TWINS:
        _TWINS[cls, foreign] = type(cls.__name__, (cls, foreign), {"__module__": __name__, "__doc__": cls.__doc__})
    return _TWINS[cls, foreign]


def not_fitted(message):
    """The NotFittedError to raise, with `message`."""
    return _with_sklearn_twin(NotFittedError)(message)


def data_conversion_warning():
    """The DataConversionWarning class to warn with."""
    return _with_sklearn_twin(DataConversionWarning)
