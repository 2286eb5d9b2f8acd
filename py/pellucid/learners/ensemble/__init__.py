"""Ensembles of the notes' trees: bagging (every tree on a bootstrap sample of the rows) and random forests
(bagging whose trees are also offered a random subset of the features at each node).

`growers.py` makes the trees, `draws.py` the randomness (each tree's seed and bootstrap counts),
`votes.py` combines the trees' answers (a soft vote, a mean, and the same after each number of trees),
`size.py` refuses a forest too large for memory before training, `model_file.py` writes and checks the
model file, `forest.py` is the estimators. Every tree is grown by the tree's fast path (no trace).

Boosting grows its trees one after another, each on what the ones before got wrong: `adaboost.py`
(SAMME: rows reweighted toward the mistakes), `gradient_boosting.py` (trees on the loss's negative
gradient) with `losses.py` (squared error, log-loss) and `leaf_steps.py` (the loss's Newton step in
each node), and `boosting_file.py` their model file.
"""

from .adaboost import AdaBoostClassifier
from .forest import BaggingClassifier, BaggingRegressor, RandomForestClassifier, RandomForestRegressor
from .gradient_boosting import GradientBoostingClassifier, GradientBoostingRegressor

__all__ = ["AdaBoostClassifier", "BaggingClassifier", "BaggingRegressor", "RandomForestClassifier",
           "RandomForestRegressor", "GradientBoostingClassifier", "GradientBoostingRegressor"]
