"""The fast grower's (F, m) matrix of row orders (growth_fast.py): row f lists the rows of a level's open
nodes, grouped by node and sorted by numeric column f within each node. Here: reading a matrix through
it, and regrouping it by child after a split.

Memory. On a large table every (F, m) array is as large as the data, so the work goes a few columns at
a time: `columns_at_once` says how many columns keep a temporary within CELLS_AT_ONCE cells, the orders
are int32 and regrouped in place. Smaller levels go at once, which is faster. Each column's result
depends on that column alone, so the chunks change no number (tests/unit/test_fast_paths.py grows
trees both ways).
"""

import numpy as np

CELLS_AT_ONCE = 1 << 20  # cells (of 8 bytes) of a temporary made at once: 8 MB


def columns_at_once(rows, per_row=1):
    """How many columns of `rows` rows (each taking `per_row` cells, e.g. one per class) fit the budget."""
    return max(1, CELLS_AT_ONCE // max(1, rows * per_row))


def chunks(n_columns, rows, per_row=1):
    """Slices covering the columns, each within the budget."""
    step = columns_at_once(rows, per_row)
    return [slice(a, min(a + step, n_columns)) for a in range(0, n_columns, step)]


def index_type(n_columns, n):
    """The integer type of the orders: int32 on a large table (half the memory), else numpy's own index type
    (intp), which it adds and gathers with fastest."""
    large = n_columns * n > 4 * CELLS_AT_ONCE
    return np.int32 if large and n < 2 ** 31 else np.intp


def sorted_orders(XT):
    """(F, n) each column's rows in ascending order of its values (ties by row number)."""
    F, n = XT.shape
    orders = np.empty((F, n), dtype=index_type(F, n))
    for part in chunks(F, n):
        orders[part] = np.argsort(XT[part], axis=1, kind="stable")
    return orders


def take_rows(A, orders):
    """A[f, orders[f, i]] for every f, i: (F, m) from (F, n) by a 1-D take (faster than take_along_axis)."""
    offsets = np.arange(orders.shape[0])[:, None] * A.shape[1]  # (F, 1) intp: np.take in wasm32 takes no int64
    return np.take(A.ravel(), orders + offsets)


def partition(orders, child_of_row, open_):
    """The orders of the children that expand further: each row of orders, grouped by node, regrouped by
    child (children of a node are consecutive) keeping the order within a child. child_of_row: (n,)
    child of each row within the level; open_: (C,) children still to expand. A stable radix sort on
    the small child index does it in linear time; rows of finished children sort last and are cut.
    On a large level the result is written over `orders` (a view of its first columns): each chunk of
    columns is regrouped from its own rows only, so no second (F, m) matrix is made."""
    n_open = int(open_.sum())
    key_type = np.uint16 if n_open < 2 ** 16 else np.int64
    rank = np.where(open_, np.cumsum(open_) - 1, n_open).astype(key_type)  # (C,)
    m_open = int((rank[child_of_row[orders[0]]] < n_open).sum())
    F, m = orders.shape
    parts = chunks(F, m)
    if len(parts) == 1:  # small enough to regroup every column at once, into a new matrix
        order = np.argsort(rank[child_of_row[orders]], axis=1, kind="stable")
        return take_rows(orders, order[:, :m_open])
    for part in parts:
        key = rank[child_of_row[orders[part]]]  # (f, m)
        order = np.argsort(key, axis=1, kind="stable")[:, :m_open]
        orders[part, :m_open] = take_rows(np.ascontiguousarray(orders[part]), order)
    return orders[:, :m_open]
