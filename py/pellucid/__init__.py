"""Pellucid: machine learning you can see through.

The classic algorithms of the course notes, in numpy, each faithful to the notes' math and able to
record its steps (`trace=True`), so a result seen in the browser can be reproduced in a script.
"""

from .base import all_estimators, from_dict
from .errors import ConvergenceWarning, DataError, NotFittedError

__version__ = "0.1.0"

__all__ = ["DataError", "NotFittedError", "ConvergenceWarning", "all_estimators", "from_dict"]
