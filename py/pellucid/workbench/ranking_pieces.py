"""A comparison's pieces as they cross between the page's workers: one learner's piece goes from the worker
that trained it, through the page, to the worker that merges them all (workbench.leaderboard's rank_piece
and merge_pieces).

A reply turns a score that is not a number (an R² on a fold of one target value) into null, which the
merge could not average as the one worker does; a piece's scores keep such a value as its tag ("nan",
"inf", "-inf") instead, and are read back to the very float before the merge. Every other score crosses
as JSON's shortest text of the double, which reads back exactly.
"""

from ..core.jsonable import tagged, untag
from ..core.errors import DataError


def sent(piece):
    """`piece` ready for the wire: plain data with its non-finite scores tagged."""
    return tagged(piece)


def received(pieces):
    """The pieces as the merge needs them: every score a float again."""
    if not isinstance(pieces, list) or not all(isinstance(piece, dict) and "row" in piece for piece in pieces):
        raise DataError("pieces must be the list of rank_piece replies, one for every learner.", field="learners")
    for piece in pieces:
        for scored in (piece["row"], piece.get("baseline")):
            for score in (scored or {}).get("scores", {}).values():
                score["folds"] = [untag(value) for value in score["folds"]]
                score["mean"], score["std"] = untag(score["mean"]), untag(score["std"])
    return pieces
