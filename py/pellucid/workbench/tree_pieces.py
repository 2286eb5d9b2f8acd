"""A forest's or a bagging ensemble's trees as pieces of work: trees start .. stop - 1 of the final model,
grown on its training rows exactly as its fit grows them (each tree's draws come from the seed alone:
learners/ensemble/draws.py), independent of the other trees. The page's pool of workers grows the ranges
side by side (`train_trees`) and hands them to `train`, which checks that they are every tree of this very
run once and assembles the ensemble as its own fit would: the same trees, so the same model, scores and
views as one worker's.

A piece says which run it belongs to by a fingerprint of what the trees depend on: the learner, its
parameters and the training rows and targets as the model reads them (after preprocessing). Its trees cross
as the ensemble's model file writes them (learners/ensemble/model_file.py: the nodes packed, every number
read back bit for bit); the first tree of all keeps the gains its nodes weighed, as fit keeps them.
"""

import hashlib
import json
import time

import numpy as np

from ..core.errors import DataError
from ..learners.ensemble import model_file

_FIELD = "params.n_estimators"


def can_pool(run):
    """Whether the run's trees can be grown in pieces: a seeded ensemble whose trees grow apart."""
    return run.learner.can("trees_apart") and run.estimator.random_state is not None


def check_poolable(run):
    if not can_pool(run):
        seeded = run.learner.can("trees_apart")
        raise DataError(f"{run.label} cannot be trained from trees grown apart: "
                        + ("without a seed (random_state) its trees would be of different forests."
                           if seeded else "only a random forest's or a bagging ensemble's trees can."),
                        field="params.random_state" if seeded else "model")


def tree_piece(run, X, y, start, stop):
    """Trees start .. stop - 1 of the run's final model, fitted on its training rows X (prepared) and
    targets y: {"start", "stop", "run" (the fingerprint), "fit_seconds", "trees" (their file entries)}."""
    check_poolable(run)
    started = time.perf_counter()
    trees = run.estimator.grow_trees(X, y, start, stop)
    fit_seconds = time.perf_counter() - started
    return {"start": start, "stop": stop, "run": fingerprint(run, X, y), "fit_seconds": fit_seconds,
            "trees": [model_file.tree_entry(tree, candidates=start + i == 0) for i, tree in enumerate(trees)]}


def fit_from_pieces(run, X, y, pieces):
    """Fit the run's ensemble on X, y from `pieces` (`tree_piece` replies, in any order), checked to be
    this run's and to hold every tree once; the seconds the pieces took to grow their trees."""
    check_poolable(run)
    estimator = run.estimator
    ordered = in_tree_order(pieces, estimator.n_estimators)
    expected = fingerprint(run, X, y)
    for piece in ordered:
        if piece["run"] != expected:
            raise DataError(f"The piece of trees {piece['start'] + 1} to {piece['stop']} was grown for another "
                            "training (other rows, settings or seed); train again.", field=_FIELD)
    entries = [entry for piece in ordered for entry in piece["trees"]]
    trees = [model_file.read_tree(estimator, entry, i) for i, entry in enumerate(entries)]
    estimator.fit_from_trees(X, y, trees)
    return sum(piece["fit_seconds"] for piece in ordered)


def in_tree_order(pieces, n_estimators):
    """The pieces ordered by their first tree, checked to hold trees 0 .. n_estimators - 1 once each."""
    ordered = sorted(pieces, key=lambda piece: piece["start"])
    ranges = [(piece["start"], piece["stop"]) for piece in ordered]
    ends = [0] + [stop for _, stop in ranges]
    if not ranges or any(start != end for (start, _), end in zip(ranges, ends)) or ends[-1] != n_estimators:
        shown = ", ".join(f"{start}-{stop}" for start, stop in ranges)
        raise DataError(f"trees must be pieces holding each of the {n_estimators} trees once (0 to "
                        f"{n_estimators}, one after the other); got the ranges {shown or 'none'}.", field=_FIELD)
    for piece in ordered:
        if len(piece["trees"]) != piece["stop"] - piece["start"]:
            raise DataError(f"The piece of trees {piece['start'] + 1} to {piece['stop']} holds "
                            f"{len(piece['trees'])} trees.", field=_FIELD)
    return ordered


def fingerprint(run, X, y):
    """A hash of everything the trees depend on: the learner and its parameters (the trace aside: it is
    recorded after the trees grow), and the rows X and targets y its fit reads."""
    params = {name: value for name, value in run.estimator.get_params().items() if name != "trace"}
    digest = hashlib.sha256(json.dumps([run.model, params], sort_keys=True, default=str).encode())
    for name in X.columns:
        digest.update(json.dumps([name, X.kinds[name]]).encode())
        _hash_values(digest, X.column(name))
    _hash_values(digest, np.asarray(y))
    return digest.hexdigest()


def _hash_values(digest, values):
    """A column's values into `digest`: numbers by their bytes, anything else (text, None) as JSON."""
    if values.dtype.kind == "O":
        digest.update(json.dumps(values.tolist(), default=str).encode())
    else:
        digest.update(values.dtype.str.encode() + np.ascontiguousarray(values).tobytes())


# --- across the wire ----------------------------------------------------------------------------------------

def received(pieces):
    """`train_trees` replies as the wire brings them (plain data: the trees' entries are), their shape checked;
    what they hold is checked by fit_from_pieces."""
    keys = {"start", "stop", "run", "fit_seconds", "trees"}
    if not isinstance(pieces, list) or not all(isinstance(piece, dict) and keys <= set(piece)
                                               and _whole(piece["start"]) and _whole(piece["stop"])
                                               and isinstance(piece["trees"], list) for piece in pieces):
        raise DataError("trees must be the list of train_trees replies, each a range of the trees.", field=_FIELD)
    if not all(isinstance(piece["fit_seconds"], (int, float)) for piece in pieces):
        raise DataError("A piece of trees must say how long its trees took to grow (fit_seconds).", field=_FIELD)
    return pieces


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)
