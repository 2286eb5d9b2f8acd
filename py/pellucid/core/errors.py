"""The errors and warnings pellucid raises, so callers (and the page) can tell bad input from bugs."""


class DataError(ValueError):
    """Bad input: the message names the column, row or parameter, what was expected and what was found."""


class NotFittedError(DataError, AttributeError):
    """A model was asked to predict or describe itself before `fit` was called."""


class ConvergenceWarning(UserWarning):
    """An iterative solver stopped at its iteration limit before meeting its tolerance."""
