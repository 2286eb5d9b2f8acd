"""The ensemble's randomness, all from one generator seeded by random_state: for each tree, in order, the
seed of the features its nodes are offered, then its bootstrap sample of the rows.

A bootstrap sample draws n rows with replacement; a tree is fitted with each row's count in the sample
as its sample_weight, which grows the tree of the sample itself (scikit-learn's forests do the same). The
rows a tree did not draw (count 0) are its out-of-bag rows.

Every draw comes from the seed, in tree order, so tree i's draws can be made again without growing the
trees before it (`draws`): workers each growing a range of the trees, and the worker assembling them, all
replay the same draws from the same seed."""

import numpy as np

SEED_LIMIT = 2 ** 31 - 1  # trees' seeds are drawn below this


def generator(random_state):
    """The ensemble's generator: seeded by random_state, or fresh when it is None."""
    return np.random.default_rng(random_state)


def fit_seed(random_state):
    """The seed one fit draws everything from: random_state, or for None one fresh seed, drawn once, so
    the fit can replay its own draws."""
    return random_state if random_state is not None else int(np.random.SeedSequence().entropy)


def draws(seed, n_rows, bootstrap, stop):
    """(seed, counts) of trees 0 .. stop - 1 in turn (a generator), as tree_draw draws them from `seed`."""
    rng = generator(seed)
    for _ in range(stop):
        yield tree_draw(rng, n_rows, bootstrap)


def tree_draw(rng, n_rows, bootstrap):
    """(seed, counts) for the next tree: its seed, and how many times each of the n rows is in its sample
    (n,) ints, or None without bootstrap (every row once)."""
    seed = int(rng.integers(SEED_LIMIT))
    if not bootstrap:
        return seed, None
    drawn = rng.integers(0, n_rows, n_rows)  # int64 everywhere, so the same rows natively and in the page
    return seed, np.bincount(drawn.astype(np.intp), minlength=n_rows)  # wasm32's bincount takes 32-bit indices
