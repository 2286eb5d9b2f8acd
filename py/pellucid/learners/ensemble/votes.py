"""How an ensemble answers: the mean of its trees' answers, and the same after each number of trees.

A classifier averages its trees' class probabilities (the soft vote, as scikit-learn) and predicts the
class of highest mean probability (the first in classes_ on a tie); a regressor predicts the mean of its
trees' predictions. The out-of-bag answer of a row averages only the trees that did not draw it."""

import numpy as np


def running_means(answers):
    """The mean of the first t answers, for t = 1..T, from T answers stacked on the first axis."""
    totals = np.cumsum(answers, axis=0)
    shape = (len(answers),) + (1,) * (answers.ndim - 1)
    return totals / np.arange(1, len(answers) + 1).reshape(shape)


def out_of_bag_mean(total, count):
    """Each row's mean out-of-bag answer from the sum of the answers of the trees that left it out
    (n, ...) and their number (n,): NaN for a row every tree drew, which has no such answer."""
    count = count.reshape(count.shape + (1,) * (total.ndim - 1)).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1.0), np.nan)
