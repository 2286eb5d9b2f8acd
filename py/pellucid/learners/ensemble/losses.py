"""The losses gradient boosting fits, as the notes write them, each with its start F_0, its negative
gradient r (what the next tree is grown on), the value a leaf predicts, and the loss a round ends on.

Squared error, L = (y - F)^2 / 2: r = y - F; F_0 = the (weighted) mean of y. A regression tree grown on r
already predicts in each leaf the mean of its r, the step that lowers the loss most, so its values are
kept. Its train_score_ is the mean squared error.

Log-loss, two classes (y = 1 for the second class of classes_, else 0): p = 1 / (1 + e^-F), r = y - p;
F_0 = log(q / (1 - q)), q the weighted share of the second class. A leaf predicts one Newton step,
sum(w r) / sum(w p (1 - p)) over its rows. train_score_ is the binomial deviance, twice the mean
log-loss (scikit-learn's scale).

Log-loss, K > 2 classes (one tree per class and round, y_k = 1 for class k): p = softmax(F),
r_k = y_k - p_k; F_0,k = log q_k - mean_j log q_j (the log of the priors, centred as scikit-learn
centres them: softmax is the same for any shift); a leaf of class k's tree predicts
(K - 1) / K * sum(w r_k) / sum(w p_k (1 - p_k)). train_score_ is the mean log-loss.

A Newton step whose denominator is below 1e-150 (every p exactly 0 or 1) is 0, as scikit-learn's."""

import numpy as np

EPS = np.finfo(np.float64).eps  # priors are clipped to [EPS, 1 - EPS] so their log-odds stay finite
TINY_HESSIAN = 1e-150  # a Newton step with a smaller denominator is 0


def _mean(values, weights):
    return float(np.average(values, weights=weights)) if weights is not None else float(np.mean(values))


def _sigmoid(f):
    """1 / (1 + e^-f), the probability of the second class at log-odds f."""
    return 1.0 / (1.0 + np.exp(-f))


class SquaredError:
    """The regressor's loss; y is the (n,) target."""

    name = "squared_error"
    newton = False  # the tree's leaf means are the loss's step

    def n_trees(self, n_classes):
        return 1

    def start(self, y, weights):
        """(1,) F_0: the mean target."""
        return np.array([_mean(y, weights)])

    def negative_gradient(self, y, F):
        """(n, 1) r = y - F."""
        return (y - F[:, 0]).reshape(-1, 1)

    def score(self, y, F, weights):
        """The mean squared error of F."""
        return _mean((y - F[:, 0]) ** 2, weights)


class BinomialLoss:
    """Log-loss of two classes; y is (n,) class indices 0 or 1."""

    name = "log_loss"
    newton = True

    def n_trees(self, n_classes):
        return 1

    def start(self, y, weights):
        """(1,) F_0: the log-odds of the second class's weighted share."""
        q = np.clip(_mean(y == 1, weights), EPS, 1 - EPS)
        return np.array([np.log(q / (1 - q))])

    def negative_gradient(self, y, F):
        """(n, 1) r = y - p."""
        return (y - _sigmoid(F[:, 0])).reshape(-1, 1)

    def step_terms(self, y, r, k):
        """Each row's part of a leaf's Newton step, numerator r and denominator p (1 - p), p = y - r."""
        p = (y == 1) - r
        return r, p * (1 - p), 1.0

    @staticmethod
    def proba(F):
        """(n, 2) the probabilities of the two classes, p = 1 / (1 + e^-F) of the second."""
        p = _sigmoid(F[:, 0])
        return np.column_stack([1 - p, p])

    def score(self, y, F, weights):
        """The binomial deviance: twice the mean of log(1 + e^F) - y F."""
        f = F[:, 0]
        return 2 * _mean(np.logaddexp(0, f) - (y == 1) * f, weights)


class MultinomialLoss:
    """Log-loss of K > 2 classes; y is (n,) class indices 0..K-1."""

    name = "log_loss"
    newton = True

    def __init__(self, n_classes):
        self.K = n_classes

    def n_trees(self, n_classes):
        return n_classes

    def start(self, y, weights):
        """(K,) F_0: the log of each class's weighted share, less their mean."""
        shares = np.array([_mean(y == k, weights) for k in range(self.K)])
        log_q = np.log(np.clip(shares, EPS, 1 - EPS))
        return log_q - log_q.mean()

    def negative_gradient(self, y, F):
        """(n, K) r_k = y_k - p_k."""
        return (y[:, None] == np.arange(self.K)) - self.proba(F)

    def step_terms(self, y, r, k):
        """Each row's part of a leaf's Newton step for class k's tree, and the (K - 1) / K factor."""
        p = (y == k) - r
        return r, p * (1 - p), (self.K - 1) / self.K

    @staticmethod
    def proba(F):
        """(n, K) softmax(F)."""
        e = np.exp(F - F.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def score(self, y, F, weights):
        """The mean log-loss, log sum_j e^F_j - F_y."""
        top = F.max(axis=1)
        log_sum = top + np.log(np.exp(F - top[:, None]).sum(axis=1))
        return _mean(log_sum - F[np.arange(len(y)), y], weights)


def loss_for(n_classes):
    """The loss of a target with n_classes classes (0: a regression target)."""
    if n_classes == 0:
        return SquaredError()
    return BinomialLoss() if n_classes <= 2 else MultinomialLoss(n_classes)
