"""pellucid's splits written with numpy alone, for the scikit-learn script to carry (workbench.sklearn_script
copies these functions' source into it), so the script trains and scores on exactly the page's rows.

Each function draws from `np.random.default_rng(seed)` in the same order as `evaluation.model_selection`
(train_test_split, train_val_test_split, KFold and StratifiedKFold, all shuffled), which
tests/oracle/test_sklearn_script.py checks row for row. scikit-learn's own splitters draw from another
generator, so they would pick other rows. Keep these free of pellucid: the script has no pellucid.
"""

import numpy as np


def shuffled_parts(n, sizes, seed):
    """Rows 0..n-1 in a seeded random order, cut into consecutive parts of `sizes` (training first)."""
    order = np.random.default_rng(seed).permutation(n)
    return np.split(order, np.cumsum(sizes)[:-1])


def stratified_parts(labels, sizes, seed):
    """Parts of `sizes` (training first) that keep each class's share to within a row: each held-out
    part, last first, takes floor(share) rows of each class plus one for the largest remainders (ties at
    random); the rows of a class are shuffled and dealt to the parts; each part is shuffled."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels)
    if labels.dtype.kind == "O":
        labels = labels.astype(str)
    classes, y = np.unique(labels, return_inverse=True)
    left = np.bincount(y)  # rows of each class not yet dealt, (k,)
    per_part = []
    for size in sizes[:0:-1]:
        share = left * size / left.sum()  # (k,)
        draw = np.floor(share).astype(int)
        order = np.lexsort((rng.random(len(share)), -(share - draw)))  # largest remainder first
        draw[order[:size - draw.sum()]] += 1
        per_part.append(draw)
        left = left - draw
    per_part = [left] + per_part[::-1]  # (parts, k)
    parts = [[] for _ in sizes]
    for c in range(len(classes)):
        rows = rng.permutation(np.flatnonzero(y == c))
        bounds = np.cumsum([part[c] for part in per_part])[:-1]
        for part, chunk in zip(parts, np.split(rows, bounds)):
            part.append(chunk)
    return [rng.permutation(np.concatenate(part)) for part in parts]


def kfold_folds(n, k, seed):
    """The fold (0..k-1) of each row: k folds of equal size (the first n % k one row larger) over a
    seeded random order of the rows."""
    order = np.random.default_rng(seed).permutation(n)
    sizes = np.full(k, n // k)
    sizes[:n % k] += 1
    folds = np.empty(n, dtype=int)
    folds[order] = np.repeat(np.arange(k), sizes)
    return folds


def stratified_kfold_folds(labels, k, seed):
    """The fold (0..k-1) of each row, keeping each class's share in every fold to within a row: the
    class-sorted rows are dealt round-robin to the folds, then each class's folds are shuffled."""
    labels = np.asarray(labels)
    if labels.dtype.kind == "O":
        labels = labels.astype(str)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    y = np.argsort(np.argsort(first))[inverse]  # classes numbered in the order they first appear, (n,)
    n, n_classes = len(y), int(y.max()) + 1
    dealt = np.bincount((np.arange(n) % k) * n_classes + np.sort(y), minlength=k * n_classes)
    allocation = dealt.reshape(k, n_classes)  # rows of each class in each fold
    rng = np.random.default_rng(seed)
    folds = np.empty(n, dtype=int)
    for c in range(n_classes):
        folds[y == c] = rng.permutation(np.repeat(np.arange(k), allocation[:, c]))
    return folds
