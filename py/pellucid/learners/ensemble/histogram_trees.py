"""Gradient boosting's trees when max_bins is set: the features binned once per fit (binning.py), each
round's trees grown from histograms (histogram_growth.py) and handed back as the fitted
DecisionTreeRegressor the exact path makes, so predict, the steps and the model file read them alike."""

import numpy as np

from ...core.errors import DataError
from ...core.validation import CATEGORICAL, Columns
from ..tree.columns import encode
from ..tree.criteria import Values
from ..tree.feature_draw import n_offered
from ..tree.leaf_budget import limit_leaves
from .binning import Bins
from .histogram_growth import BinnedRows, grow, route


def binned_rows(model, data):
    """The BinnedRows of a fit's X as read_fit read it (`data`): numeric columns only, gaps allowed."""
    if isinstance(data, Columns):
        if CATEGORICAL in data.kinds:
            raise DataError("max_bins bins numeric features only: X has categorical columns; set max_bins=None "
                            "to grow the exact trees, which split them.")
        data = encode(data.kinds, data.data, [None] * len(data.kinds))
    bins = Bins(data, model.max_bins)
    return BinnedRows(bins, bins.transform(data))


def histogram_tree(tree, model, data, y, weights):
    """(tree fitted to y (n,) on the BinnedRows `data` with sample weights (n,) or None, (n,) the node each
    row ends in): what tree.fit gives on the exact path, grown from histograms. Rows of weight 0 are left
    out of the growth, as the exact tree leaves them out, and routed afterwards."""
    rows = None if weights is None else np.flatnonzero(weights > 0)
    y_in, w_in = (y, None) if rows is None else (y[rows], weights[rows])
    total = len(y_in) if w_in is None else float(w_in.sum())
    grown, row_node, criterion = grow(data, rows, y_in, w_in, max_depth=tree.max_depth,
                           min_samples_split=tree.min_samples_split, min_samples_leaf=tree.min_samples_leaf,
                           min_weight_leaf=tree.min_weight_fraction_leaf * total,
                           n_offered=n_offered(tree.max_features, data.n_features), seed=tree._seed())
    grown.impurity = criterion.impurity(grown.stats)
    if w_in is not None:  # the statistics a model file keeps: of rows, with each node's weighted mean
        grown.stats, grown.weighted = Values(y_in, w_in).parts(grown.stats)
    if tree.max_leaf_nodes is not None:
        grown = limit_leaves(grown, tree.max_leaf_nodes)
    _fitted(tree, model, grown, criterion.offset)
    leaves = row_node if rows is None and tree.max_leaf_nodes is None else route(grown, data)
    return tree, leaves


def _fitted(tree, model, grown, offset):
    """Give `tree` the fitted state DecisionTreeRegressor.fit sets: the model's numeric columns, `grown`,
    and each node's mean target (its statistics are of the target less `offset`)."""
    d = model.n_features_in_
    tree.feature_names_in_, tree.feature_kinds_ = list(model.feature_names_in_), list(model.feature_kinds_)
    tree.n_features_in_, tree._feature_names_from = d, model._feature_names_from
    tree.categories_, tree.categorical_splits_ = [None] * d, [None] * d
    tree.tree_ = grown
    count, total = grown.stats[0], grown.stats[1]
    tree._set_node_values(offset + np.where(count > 0, total / np.where(count > 0, count, 1.0), 0.0))
