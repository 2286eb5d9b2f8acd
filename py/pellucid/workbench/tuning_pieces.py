"""A tuning's pieces as they cross between the page's workers: one cell's piece goes from the worker that
scored it, through the page, to the worker that merges them all (workbench.tuning's tune_piece and
merge_tune).

As a comparison's pieces do (ranking_pieces), a cell's scores keep a value that is not a number as its tag
("nan", "inf", "-inf") rather than the null a reply would make of it, and are read back to the very float
before the merge, so the mean, the spread and the best cell come out as in one worker.
"""

from ..core.jsonable import tagged, untag
from ..core.errors import DataError

SCORES = ("validation_mean", "validation_std", "train_mean", "train_std")


def sent(piece):
    """`piece` ready for the wire: plain data with its non-finite scores tagged."""
    return tagged(piece)


def received(pieces):
    """The pieces as the merge needs them: every score a float again."""
    if not isinstance(pieces, list) or not all(isinstance(piece, dict) and "index" in piece for piece in pieces):
        raise DataError("pieces must be the list of tune_piece replies, one for every cell of the grid.", field="grid")
    for cell in (piece["cell"] for piece in pieces if isinstance(piece.get("cell"), dict)):
        cell["validation_scores"] = [untag(value) for value in cell["validation_scores"]]
        for name in SCORES:
            cell[name] = untag(cell[name])
    return pieces
