"""What every learner's `partial_fit` shares, after scikit-learn's: the classes are named on the first
call (a chunk may not show them all), later calls may repeat them but not change them, and a later chunk's
labels must be among them."""

import numpy as np

from ...core.errors import DataError
from ...core.validation import check_classes


def first_classes(classes):
    """The sorted classes of a first call to partial_fit, which must name them."""
    if classes is None:
        raise DataError("classes must be passed on the first call to partial_fit: the labels of every "
                        "class the chunks will hold, as a chunk may not show them all.")
    return check_classes(np.asarray(classes))


def check_same_classes(classes, fitted):
    """A later call may pass classes again, the same ones."""
    if classes is None:
        return
    given = np.unique(np.asarray(classes))
    if len(given) != len(fitted) or not bool(np.all(given == fitted)):
        raise DataError(f"classes={given.tolist()} is not the same as on the first call to partial_fit, "
                        f"which was {np.asarray(fitted).tolist()}.")


def class_codes(classes, y):
    """(n,) the index in `classes` of each label of y; a label that is not a class is a DataError (a
    later partial_fit may only bring the classes named on the first call)."""
    codes = np.minimum(np.searchsorted(classes, y), len(classes) - 1)
    unknown = classes[codes] != y
    if np.any(unknown):
        labels = np.unique(y[unknown])
        extra = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in labels[:5])
        raise DataError(f"The target holds {extra}, which {'is' if len(labels) == 1 else 'are'} not among the "
                        f"classes {list(classes.tolist())} named on the first call to partial_fit.", field="target")
    return codes
