"""Class weights for imbalanced targets: "balanced" gives every class the same total weight; a dict
{label: weight} gives chosen classes chosen weights.

scikit-learn's meaning: with "balanced" the examples of class c weigh n / (K * n_c) (n examples, K
classes, n_c of them in class c), so a rare class counts as much as a common one in the learner's loss
or impurity, and the weights of all n examples still add up to n. With a dict, the examples of a class
named in it weigh its number and those of any other class weigh 1. The tree, logistic regression and
the perceptron take `class_weight` (None, "balanced" or such a dict) with this rule. The page offers
None and "balanced"; a dict is for the Python API, and a model file keeps it (core.serialize writes a
dict whose keys are not all texts as a list of [label, weight] pairs).
"""

import math
import numbers

import numpy as np

from ...core.errors import DataError
from ...core.file_fields import damaged
from ...core.params import Choice


class ClassWeightRule(Choice):
    """None, "balanced", or a dict {class label: weight}: labels are texts or numbers, weights positive
    finite numbers. Described to the page as the choice of None or "balanced" (a dict is typed in Python);
    whether each label is a class is known only at fit (`class_weights`)."""

    def __init__(self, **kwargs):
        super().__init__("balanced", none_ok=True, **kwargs)

    def _check_value(self, name, value):
        if not isinstance(value, dict):
            super()._check_value(name, value)
            return
        for label, weight in value.items():
            if not _is_label(label):
                raise DataError(f"Parameter {name!r} must name classes by their labels (texts or numbers); "
                                f"got the key {label!r}.", field=f"params.{name}")
            if not _is_weight(weight):
                raise DataError(f"Parameter {name!r} must give each class a positive number; got {weight!r} "
                                f"for class {label!r}.", field=f"params.{name}")

    def expectation(self):
        return "'balanced', a dict {class label: positive weight} or None"


def _is_label(label):
    if isinstance(label, (str, np.str_)):
        return True
    return isinstance(label, (numbers.Real, np.bool_)) and math.isfinite(label)


def _is_weight(weight):
    ok = isinstance(weight, numbers.Real) and not isinstance(weight, (bool, np.bool_))
    return ok and math.isfinite(weight) and weight > 0


CLASS_WEIGHT_RULE = ClassWeightRule(help="none: every example counts once; balanced: each class's examples weigh "
                                         "n / (classes x its count), so rare and common classes count alike")


def class_weights(class_weight, y_codes, classes, sample_weight=None):
    """(K,) weight of each class for class codes 0..K-1 of `classes` (the fitted classes_), or None when
    class_weight is None. A dict's label that is not one of `classes` is a DataError naming it: a
    misspelt or mistyped label (1 for the text "1") would otherwise weigh nothing, silently. With
    `sample_weight` (n,), "balanced" counts each class by its rows' total weight (scikit-learn's)."""
    if class_weight is None:
        return None
    n_classes = len(classes)
    if isinstance(class_weight, dict):
        return _weights_of_dict(class_weight, list(np.asarray(classes).tolist()))
    codes = np.asarray(y_codes, dtype=np.intp)
    counts = np.bincount(codes, weights=sample_weight, minlength=n_classes)  # (K,)
    total = len(codes) if sample_weight is None else float(np.sum(sample_weight))
    return total / (n_classes * np.where(counts > 0, counts, 1.0))


def _weights_of_dict(class_weight, labels):
    unknown = [k for k in class_weight if not any(_same_label(k, c) for c in labels)]
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise DataError(f"class_weight gives a weight to {names}, which {'is' if len(unknown) == 1 else 'are'} "
                        f"not a class of the target; its classes are {', '.join(map(repr, labels))}.",
                        field="params.class_weight")
    return np.array([float(next((w for k, w in class_weight.items() if _same_label(k, c)), 1.0)) for c in labels])


def _same_label(key, label):
    """A dict key names a class when they are equal and of one kind (text or number): the key 1 does not
    name the class "1", as in scikit-learn, whose classes are looked up in the dict."""
    return isinstance(key, str) == isinstance(label, str) and key == label


def check_saved_weights(class_weight, classes, weights, path="state.class_weights_"):
    """A model file's class weights (`weights`, (K,) or None) must be what its class_weight parameter gives
    for its classes when that parameter is a dict (with "balanced" they depend on the training rows, which
    the file does not hold): a DataError about the model file otherwise."""
    if class_weight is None and weights is not None:
        raise damaged(path, "must be absent when the parameter class_weight is None")
    if not isinstance(class_weight, dict):
        return
    try:
        expected = class_weights(class_weight, None, classes)
    except DataError as exc:
        raise damaged("params.class_weight", f"does not fit the model's classes: {exc}") from None
    if weights is None or not np.allclose(weights, expected, rtol=1e-12, atol=0):
        raise damaged(path, "must be the weights the parameter class_weight gives each class")
