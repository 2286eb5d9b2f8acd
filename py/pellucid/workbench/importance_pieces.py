"""A permutation importance's pieces as they cross between the page's workers: one piece goes from the pool
worker that shuffled its features, through the page, to the page's worker, which merges them all
(workbench.judging's importance_piece and merge_importance).

As a comparison's pieces do (ranking_pieces), a piece keeps a number that is not finite (the drop of an R²
that is not a number on a fold of one target value) as its tag ("nan", "inf", "-inf") rather than the null a
reply would make of it, and it is read back to the very float before the merge.
"""

from ..core.errors import DataError
from ..core.jsonable import tagged, untag

KEYS = ("index", "blocks", "fold", "features", "drops", "baseline", "scoring", "n_rows", "n_held_out", "rows",
        "n_repeats", "seed")


def sent(piece):
    """`piece` ready for the wire: plain data with its non-finite numbers tagged."""
    return tagged(piece)


def received(pieces):
    """The pieces as the merge needs them: every drop and baseline a float again."""
    if not isinstance(pieces, list) or not all(isinstance(piece, dict) and set(KEYS) <= set(piece) for piece in pieces):
        raise DataError("pieces must be the list of importance_piece replies, every piece of the model's importance.")
    for piece in pieces:
        if not isinstance(piece["drops"], list) or not all(isinstance(row, list) for row in piece["drops"]):
            raise DataError("A piece's drops must be a list of every shuffled feature's drops.")
        piece["drops"] = [[untag(value) for value in row] for row in piece["drops"]]
        piece["baseline"] = untag(piece["baseline"])
    return pieces
