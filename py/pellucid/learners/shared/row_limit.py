"""The row limit of a learner whose time and memory grow as the square of the rows (the kernel methods'
n x n kernel matrix, agglomerative clustering's pairs of rows): fit refuses more rows before making the
matrix, saying the limit and the way out, the same limit the page states and samples to
(the learner's descriptor carries it; workbench.training applies it to a table before fitting).
"""

from ...core.errors import DataError


def check_row_limit(model, n_rows, limit, what):
    """A DataError when `n_rows` is above `limit`; `what` says what grows as the square of the rows."""
    if n_rows <= limit:
        return
    gigabytes = 8 * float(n_rows) ** 2 / 1e9
    name = type(model).__name__
    raise DataError(f"{name} works on up to {limit:,} rows; X has {n_rows:,}. {what} would hold "
                    f"{n_rows:,} x {n_rows:,} numbers ({gigabytes:,.0f} GB). Fit it on a random sample of "
                    f"{limit:,} rows, for example rows = np.random.default_rng(0).choice(len(X), {limit}, "
                    "replace=False), as the page's sample option does.", field="sample")
