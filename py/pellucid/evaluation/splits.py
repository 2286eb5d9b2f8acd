"""Splitting rows honestly: train/validation/test splits and the k folds of cross-validation.

Notes 000 ("Training, Validation, Testing"): fit on training data, choose hyperparameters by accuracy on
validation data, and touch the test set once at the end. Notes 003 (section 2.1): partition the sample
randomly into k equal parts S_1..S_k. Names follow scikit-learn; every random choice is made by
`np.random.default_rng(seed)`, and the caller's arrays are never changed. Fitting on the folds is in
`model_selection`.
"""

import math
import numbers

import numpy as np

from ..core.errors import DataError


# --- rows of any container -----------------------------------------------------------------------

def n_rows(data):
    """Number of rows of a numpy array, a list, or a table-like object (`n_rows`, `shape` or `len`)."""
    if isinstance(data, np.ndarray):
        if data.ndim == 0:
            raise DataError("Expected rows of data; got a single value.")
        return data.shape[0]
    for attr in ("n_rows", "shape"):
        if hasattr(data, attr):
            value = getattr(data, attr)
            return value[0] if attr == "shape" else value
    return len(data)


def take_rows(data, rows):
    """The given rows of `data`, of the same kind: array -> array, list -> list, table -> its `.take(rows)`.
    A new object each time (the caller's data are not touched)."""
    if isinstance(data, np.ndarray):
        return data[rows]
    if isinstance(data, (list, tuple)):
        return [data[i] for i in rows.tolist()]
    if hasattr(data, "take"):
        return data.take(rows)
    return np.asarray(data)[rows]


def _check_same_rows(arrays, names=None):
    counts = [n_rows(a) for a in arrays]
    if len(set(counts)) > 1:
        labels = names or [f"array {i + 1}" for i in range(len(arrays))]
        found = ", ".join(f"{lab} has {c}" for lab, c in zip(labels, counts))
        raise DataError(f"Found input variables with inconsistent numbers of samples: {found}.")
    if not counts or counts[0] == 0:
        raise DataError("There are no rows to split.")
    return counts[0]


def _labels(y, n, what="The labels to stratify by"):
    """y as a 1-D array of n labels (mixed objects as text, so they sort); `what` names y in the error."""
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1 or len(y) != n:
        raise DataError(f"{what} must be 1-D with one value per row ({n}); got shape {y.shape}.")
    return np.array([str(v) for v in y.tolist()]) if y.dtype.kind == "O" else y


def _is_int(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


# --- train / validation / test ------------------------------------------------------------------

def _part_size(size, n, name):
    """Rows for a part: a fraction in (0, 1) of n, rounded up (as sklearn does for test_size), or a count."""
    if _is_int(size) and 1 <= size < n:
        return int(size)
    if isinstance(size, numbers.Real) and not _is_int(size) and not isinstance(size, bool) and 0 < size < 1:
        return int(math.ceil(size * n))
    raise DataError(f"{name} must be a fraction in (0, 1) or a number of rows in [1, {n - 1}]; got {size!r}.")


def _approximate_mode(class_counts, n_draws, rng):
    """Rows of each class to draw so a part of n_draws rows keeps the class proportions as closely as
    whole rows allow: floor of the share, then one more for the largest remainders (ties at random)."""
    share = class_counts * n_draws / class_counts.sum()  # (k,)
    counts = np.floor(share).astype(int)
    need = n_draws - counts.sum()
    order = np.lexsort((rng.random(len(share)), -(share - counts)))  # largest remainder first
    counts[order[:need]] += 1
    return counts


def _split_indices(n, sizes, stratify, seed, shuffle):
    """Row indices of consecutive parts with the given sizes (the first part takes the rest)."""
    rng = np.random.default_rng(seed)
    if stratify is None:
        order = rng.permutation(n) if shuffle else np.arange(n)
        return np.split(order, np.cumsum(sizes)[:-1])
    if not shuffle:
        raise DataError("A stratified split draws rows at random: use shuffle=True (or stratify=None).")
    classes, y = np.unique(_labels(stratify, n), return_inverse=True)
    class_counts = np.bincount(y)  # (k,)
    small = class_counts < len(sizes)
    if small.any():
        c = int(np.flatnonzero(small)[0])
        raise DataError(f"Class {classes[c].item()!r} has only {class_counts[c]} row(s); a stratified split "
                        f"into {len(sizes)} parts needs at least {len(sizes)} rows of every class: split "
                        "without stratifying, or drop the rare class.", field="evaluation.stratify")
    per_class, left = [], class_counts.copy()
    for size in sizes[:0:-1]:  # the held-out parts, last first; the training part takes what is left
        draw = _approximate_mode(left, size, rng)
        per_class.append(draw)
        left = left - draw
    per_class = [left] + per_class[::-1]  # (parts, k)
    parts = [[] for _ in sizes]
    for c in range(len(classes)):
        rows = rng.permutation(np.flatnonzero(y == c))
        bounds = np.cumsum([p[c] for p in per_class])[:-1]
        for part, chunk in zip(parts, np.split(rows, bounds)):
            part.append(chunk)
    return [rng.permutation(np.concatenate(p)) for p in parts]


def _split(arrays, sizes, stratify, seed, shuffle):
    if not arrays:
        raise DataError("Give at least one array to split.")
    n = _check_same_rows(arrays)
    parts = _split_indices(n, sizes(n), stratify, seed, shuffle)
    return [take_rows(a, rows) for a in arrays for rows in parts]


def train_test_split(*arrays, test_size=0.25, stratify=None, seed=0, shuffle=True):
    """Split arrays (numpy arrays, lists, or tables with `.take(rows)`) into training and test rows:
    returns [a_train, a_test, b_train, b_test, ...]. `test_size` is a fraction (rounded up) or a count.
    `stratify` (labels, one per row) keeps each class's share in both parts, to within a row. Without
    shuffling the test rows are the last ones, as in sklearn; with it the order comes from `seed`."""
    def sizes(n):
        n_test = _part_size(test_size, n, "test_size")
        if n_test >= n:
            raise DataError(f"test_size={test_size!r} takes all {n} rows, leaving none for training.")
        return [n - n_test, n_test]
    return _split(arrays, sizes, stratify, seed, shuffle)


def train_val_test_split(*arrays, val_size=0.2, test_size=0.2, stratify=None, seed=0, shuffle=True):
    """Split arrays into training, validation and test rows (notes 000): returns
    [a_train, a_val, a_test, b_train, b_val, b_test, ...]. Sizes are fractions of all rows (rounded up)
    or counts; at least one row must remain for training."""
    def sizes(n):
        n_val, n_test = _part_size(val_size, n, "val_size"), _part_size(test_size, n, "test_size")
        if n_val + n_test >= n:
            raise DataError(f"val_size and test_size take {n_val} + {n_test} of the {n} rows, leaving none "
                            "for training; make them smaller.")
        return [n - n_val - n_test, n_val, n_test]
    return _split(arrays, sizes, stratify, seed, shuffle)


# --- k-fold --------------------------------------------------------------------------------------

class KFold:
    """k-fold cross-validation splits (notes 003, section 2.1): k parts of equal size (the first n % k
    one row larger), each the test set once. Without shuffling the folds are consecutive rows and equal
    sklearn's KFold; with shuffling the rows are permuted by `np.random.default_rng(seed)` first (so the
    folds differ from sklearn's, which uses its own RandomState)."""

    def __init__(self, n_splits=10, shuffle=False, seed=0):
        self.n_splits, self.shuffle, self.seed = n_splits, shuffle, seed

    def __repr__(self):
        return f"{type(self).__name__}(n_splits={self.n_splits}, shuffle={self.shuffle}, seed={self.seed})"

    def get_n_splits(self, X=None, y=None):
        return self.n_splits

    def _check(self, n):
        if not _is_int(self.n_splits) or self.n_splits < 2:
            raise DataError(f"The number of folds k must be an integer >= 2; got {self.n_splits!r}.",
                            field="evaluation.k")
        if self.n_splits > n:
            raise DataError(f"Cannot make k={self.n_splits} folds from {n} rows: each fold needs a row; "
                            f"use k <= {n}.", field="evaluation.k")

    def _test_folds(self, n, y):
        order = np.random.default_rng(self.seed).permutation(n) if self.shuffle else np.arange(n)
        sizes = np.full(self.n_splits, n // self.n_splits)
        sizes[: n % self.n_splits] += 1
        folds = np.empty(n, dtype=int)
        folds[order] = np.repeat(np.arange(self.n_splits), sizes)  # fold number of each row
        return folds

    def split(self, X, y=None):
        """Yield (train_idx, test_idx) for each fold; both sorted, together all rows, test sets disjoint."""
        n = n_rows(X)
        self._check(n)
        folds = self._test_folds(n, y)
        rows = np.arange(n)
        for i in range(self.n_splits):
            yield rows[folds != i], rows[folds == i]


class StratifiedKFold(KFold):
    """k-fold splits that keep each class's share in every fold to within one row (sklearn's
    allocation: deal the class-sorted rows round-robin to the folds, then give each class its rows in
    order). Without shuffling the folds equal sklearn's StratifiedKFold; with shuffling each class's
    fold assignment is permuted by `np.random.default_rng(seed)`. Unlike sklearn, which only warns, a
    class with fewer rows than folds is an error: some test folds would have none of it."""

    def _test_folds(self, n, y):
        if y is None:
            raise DataError("StratifiedKFold needs the labels y to stratify by: split(X, y).")
        y = _labels(y, n)
        _, first, inverse = np.unique(y, return_index=True, return_inverse=True)
        classes_by_appearance = np.argsort(np.argsort(first))  # sklearn numbers classes as they appear
        y_enc = classes_by_appearance[inverse]  # (n,)
        counts = np.bincount(y_enc)
        small = counts < self.n_splits
        if small.any():
            c = int(np.flatnonzero(small)[0])
            label = y[np.flatnonzero(y_enc == c)[0]]
            if counts[c] < 2:  # no number of folds (at least 2) can hold it in each: stratifying is the problem
                raise DataError(f"Class {label.item()!r} has only 1 row, so no stratified folds can each hold "
                                "some of it: cross-validate without stratifying, or drop the rare class.",
                                field="evaluation.stratify")
            raise DataError(f"Class {label.item()!r} has only {counts[c]} row(s), fewer than k={self.n_splits} "
                            "folds, so some test folds would have none of it; use fewer folds.", field="evaluation.k")
        k, n_classes = self.n_splits, len(counts)
        dealt = np.bincount((np.arange(n) % k) * n_classes + np.sort(y_enc), minlength=k * n_classes)
        allocation = dealt.reshape(k, n_classes)  # rows of each class in each fold, (k, n_classes)
        rng = np.random.default_rng(self.seed)
        folds = np.empty(n, dtype=int)
        for c in range(n_classes):
            folds_for_class = np.repeat(np.arange(k), allocation[:, c])
            folds[y_enc == c] = rng.permutation(folds_for_class) if self.shuffle else folds_for_class
        return folds


# --- repeated k-fold -----------------------------------------------------------------------------

def repeat_seed(seed, repeat):
    """The seed of repeat `repeat` (0-based) of repeated k-fold: the evaluation's own seed for the first,
    so one repeat is plain k-fold with that seed; after it, a number numpy's SeedSequence draws from
    (seed, repeat), the same on every machine, so repeat 2 of seed 0 is not the first repeat of seed 1."""
    if repeat == 0:
        return seed
    return int(np.random.SeedSequence([seed, repeat]).generate_state(1, dtype=np.uint32)[0])


class RepeatedKFold:
    """r repeats of k-fold cross-validation (scikit-learn's RepeatedKFold): each repeat partitions the
    rows into k folds afresh, shuffled with `repeat_seed(seed, repeat)`, so the r * k scores see each row
    tested r times in different company. split yields the k folds of the first repeat, then the second's;
    its first k are exactly KFold(k, shuffle=True, seed=seed)'s."""

    fold_class = KFold

    def __init__(self, n_splits=10, n_repeats=10, seed=0):
        self.n_splits, self.n_repeats, self.seed = n_splits, n_repeats, seed

    def __repr__(self):
        return f"{type(self).__name__}(n_splits={self.n_splits}, n_repeats={self.n_repeats}, seed={self.seed})"

    def get_n_splits(self, X=None, y=None):
        return self.n_splits * self.n_repeats

    def repeats(self):
        """The k-fold splitter of each repeat, in order."""
        if not _is_int(self.n_repeats) or self.n_repeats < 1:
            raise DataError(f"The number of repeats must be an integer >= 1; got {self.n_repeats!r}.",
                            field="evaluation.repeats")
        return [self.fold_class(self.n_splits, shuffle=True, seed=repeat_seed(self.seed, r))
                for r in range(self.n_repeats)]

    def split(self, X, y=None):
        """Yield (train_idx, test_idx) for each fold of each repeat: r * k pairs, a repeat's k together."""
        for splitter in self.repeats():
            yield from splitter.split(X, y)


class RepeatedStratifiedKFold(RepeatedKFold):
    """Repeated k-fold whose every repeat is a StratifiedKFold (scikit-learn's RepeatedStratifiedKFold)."""

    fold_class = StratifiedKFold
