"""Ensembles of the notes' trees: bagging (every tree on a bootstrap sample of the rows) and random forests
(bagging whose trees are also offered a random subset of the features at each node).

`growers.py` makes the trees, `draws.py` the randomness (each tree's seed and bootstrap counts),
`votes.py` combines the trees' answers (a soft vote, a mean, and the same after each number of trees),
`size.py` refuses a forest too large for memory before training, `model_file.py` writes and checks the
model file, `forest.py` is the estimators. Every tree is grown by the tree's fast path (no trace).
"""

from .forest import BaggingClassifier, BaggingRegressor, RandomForestClassifier, RandomForestRegressor

__all__ = ["BaggingClassifier", "BaggingRegressor", "RandomForestClassifier", "RandomForestRegressor"]
