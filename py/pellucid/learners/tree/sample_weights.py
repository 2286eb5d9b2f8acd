"""sample_weight in a tree (checked by core.sample_weight: one finite weight per row, none negative, not all
zero).

A weight w makes a row count as w rows in every impurity, gain, leaf value and importance, as in
scikit-learn: integer weights grow the tree that repeating each row that many times grows, and a row of
weight 0 is left out, as if it were not there (it neither moves a threshold nor counts toward a leaf's
size). Leaf sizes (min_samples_split, min_samples_leaf) count the other rows, as scikit-learn's do.
"""




def drop_weightless(X, y, sample_weight):
    """(X, y, sample_weight) without the rows of weight 0: scikit-learn grows its tree without them."""
    if sample_weight is None or (sample_weight > 0).all():
        return X, y, sample_weight
    keep = sample_weight > 0
    return X[keep], y[keep], sample_weight[keep]
