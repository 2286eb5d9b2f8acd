"""Class weights for imbalanced targets: "balanced" gives every class the same total weight.

scikit-learn's meaning: the examples of class c weigh n / (K * n_c) (n examples, K classes, n_c of them
in class c), so a rare class counts as much as a common one in the learner's loss or impurity, and the
weights of all n examples still add up to n. The tree, logistic regression and the perceptron take
`class_weight` (None or "balanced") with this rule.
"""

import numpy as np

from ...core.params import Choice

CLASS_WEIGHT_RULE = Choice("balanced", none_ok=True,
                           help="none: every example counts once; balanced: each class's examples weigh "
                                "n / (classes x its count), so rare and common classes count alike")


def class_weights(class_weight, y_codes, n_classes):
    """(K,) weight of each class for class codes 0..K-1, or None when class_weight is None."""
    if class_weight is None:
        return None
    counts = np.bincount(np.asarray(y_codes, dtype=np.intp), minlength=n_classes)  # (K,)
    return len(y_codes) / (n_classes * np.maximum(counts, 1.0))
