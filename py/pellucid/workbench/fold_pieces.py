"""A k-fold run's folds as pieces of work: fold i's model fitted on the other folds and its predictions of the
rows it held out, one piece, independent of the other folds. One worker makes the pieces in turn
(workbench.training's cross-validation); the page's pool of workers makes them side by side (`train_fold`)
and hands them back to `train`, which assembles them the same way, so the out-of-fold predictions, the
scores and the warnings are the same either way.

A piece crossing between workers keeps what JSON would change: its predicted labels carry their numpy
type (text, whole numbers, floats, booleans come back as one worker has them), a float that is not a
number crosses as its tag ("nan", "inf", "-inf"), and every other float as JSON's shortest text of the
double, which reads back exactly.
"""

import time
import warnings

import numpy as np

from ..core.errors import DataError
from ..core.jsonable import python_scalar, tag, tagged, untag
from ..evaluation.cross_predict import _proba_in_columns
from ..evaluation.model_selection import SCORERS, _labels, clone


def proba_classes(run):
    """The classes of the run's probability columns (every class of its target, sorted), or None when
    the learner gives no probabilities or predicts a number."""
    if run.task != "classification" or not run.learner.can("probabilities"):
        return None
    y = run.table.column(run.target)
    return np.unique(_labels(y, len(y)))


def fold_piece(run, pipeline, pairs, index):
    """Fold `index` of `pairs` (the run's folds, judging.fold_pairs): a copy of `pipeline` fitted on the
    fold's training rows, as the run's cross-validation fits it. A dict: "index", "held_out" (how many rows
    the fold held out and the sum of their numbers, which tells another plan's fold apart), "predicted"
    (those rows' predictions, in the fold's order), "proba" (their probabilities in the run's class columns,
    or None), "fit_seconds", "predict_seconds" and "warnings" (the texts its fit and predictions raised,
    once each, in order)."""
    train, test = pairs[index]
    raw, y = run.table.select(run.features), run.table.column(run.target)
    classes = proba_classes(run)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = clone(pipeline)
        started = time.perf_counter()
        try:
            model.fit(raw.take(train), y[train])
        except DataError as exc:
            raise DataError(f"Fitting the model for fold {index + 1} of {len(pairs)} failed: {exc}",
                            field=exc.field) from exc
        fit_seconds = time.perf_counter() - started
        started = time.perf_counter()
        predicted = np.asarray(model.predict(raw.take(test)))
        predict_seconds = time.perf_counter() - started
        proba = None if classes is None else _proba_in_columns(model, raw.take(test), classes)
    return {"index": index, "held_out": held_out_of(test), "predicted": predicted, "proba": proba,
            "fit_seconds": fit_seconds, "predict_seconds": predict_seconds,
            "warnings": list(dict.fromkeys(str(w.message) for w in caught))}


def held_out_of(test):
    return {"rows": int(len(test)), "sum": int(np.sum(test, dtype=np.int64))}


def in_fold_order(pieces, pairs, classes):
    """`pieces` (one for each fold, in any order) ordered by fold, each checked against its planned fold:
    the rows it held out, its predictions and probabilities for them; a DataError when they do not match."""
    k = len(pairs)
    if not isinstance(pieces, list) or not all(isinstance(piece, dict) and "index" in piece for piece in pieces):
        raise DataError(f"folds must be the list of train_fold replies, one for each of the {k} folds.",
                        field="evaluation.k")
    indices = [piece["index"] for piece in pieces]
    if any(not isinstance(i, int) or isinstance(i, bool) for i in indices) or sorted(indices) != list(range(k)):
        raise DataError(f"folds must be one piece for each of the {k} folds (indices 0 to {k - 1}); got "
                        f"{len(pieces)} with indices {indices}.", field="evaluation.k")
    by_index = {piece["index"]: piece for piece in pieces}
    for i, (_, test) in enumerate(pairs):
        _check_piece(by_index[i], test, classes, k)
    return [by_index[i] for i in range(k)]


def _check_piece(piece, test, classes, k):
    where = f"The piece of fold {piece['index'] + 1} of {k}"
    if piece["held_out"] != held_out_of(test):
        raise DataError(f"{where} held out other rows than this training's fold ({piece['held_out']['rows']} "
                        f"rows, not {len(test)}): it was made with other data or settings.", field="evaluation.k")
    if len(piece["predicted"]) != len(test):
        raise DataError(f"{where} predicts {len(piece['predicted'])} rows; its fold holds out {len(test)}.",
                        field="evaluation.k")
    shape = None if classes is None else (len(test), len(classes))
    if (piece["proba"] is None) != (shape is None) or (shape is not None and piece["proba"].shape != shape):
        columns = "no" if classes is None else len(classes)
        raise DataError(f"{where} does not give probabilities in this training's {columns} class columns.",
                        field="evaluation.k")


def assembled(run, pairs, pieces):
    """(cv, out_of_fold) from the folds' pieces, in fold order, as training's cross-validation replies them
    (workbench.training); the pieces' warnings are raised again, in fold order, for the training to list."""
    y = run.table.column(run.target)
    classes = proba_classes(run)
    fold = np.empty(len(y), dtype=np.intp)
    proba = None if classes is None else np.zeros((len(y), len(classes)))
    for piece, (_, test) in zip(pieces, pairs):
        fold[test] = piece["index"]
        if proba is not None:
            proba[test] = piece["proba"]
        for text in piece["warnings"]:
            warnings.warn(text, FoldWarning, stacklevel=2)
    tested = np.concatenate([test for _, test in pairs])
    predicted = np.concatenate([piece["predicted"] for piece in pieces])[np.argsort(tested)]  # rows' order
    scoring = "accuracy" if run.task == "classification" else "r2"
    scores = [float(SCORERS[scoring][0](y[test], predicted[test])) for _, test in pairs]
    stratified = run.setup["evaluation"]["stratify"] and run.task == "classification"
    cv = {"k": len(pairs), "scoring": scoring, "splitter": "StratifiedKFold" if stratified else "KFold",
          "scores": scores, "mean": float(np.mean(scores)), "std": float(np.std(scores)),
          "fit_times": [piece["fit_seconds"] for piece in pieces],
          "predict_times": [piece["predict_seconds"] for piece in pieces],
          "folds": [(np.asarray(test) + 1).tolist() for _, test in pairs]}
    return cv, {"predicted": predicted, "proba": proba, "classes": classes, "fold": fold}


class FoldWarning(UserWarning):
    """A warning a fold's fit raised, raised again where its piece is assembled."""


# --- across the wire ----------------------------------------------------------------------------------------

def sent(piece):
    """`piece` as plain data for the wire: its predictions with their numpy type, non-finite floats tagged."""
    return {**tagged({key: value for key, value in piece.items() if key != "predicted"}),
            "predicted": _labels_sent(piece["predicted"])}


def received(pieces):
    """The pieces `sent` wrote, as `fold_piece` made them (numpy arrays, every float the very double)."""
    if not isinstance(pieces, list) or not all(isinstance(piece, dict) and {"index", "held_out", "predicted",
                                                                            "proba"} <= set(piece)
                                               for piece in pieces):
        raise DataError("folds must be the list of train_fold replies, one for each fold.", field="evaluation.k")
    return [{**piece, "predicted": _labels_received(piece["predicted"]),
             "proba": None if piece["proba"] is None else _floats(piece["proba"]),
             "fit_seconds": untag(piece["fit_seconds"]), "predict_seconds": untag(piece["predict_seconds"])}
            for piece in pieces]


def _labels_sent(values):
    """{"dtype", "values"}: an object array's cells one by one (a float that is not a number as {"float":
    its tag}, so a text label "nan" stays text), any other array's as floats are tagged."""
    if values.dtype.kind == "O":
        cells = [python_scalar(cell) for cell in values.tolist()]
        return {"dtype": "object", "values": [{"float": tag(cell)} if isinstance(cell, float) else cell
                                              for cell in cells]}
    return {"dtype": values.dtype.str, "values": tagged(values)}


def _labels_received(sent_labels):
    try:
        dtype, values = np.dtype(sent_labels["dtype"]), sent_labels["values"]
    except (TypeError, KeyError):
        raise DataError("A fold piece's predictions must be {dtype, values}.", field="evaluation.k") from None
    if dtype.kind == "O":
        out = np.empty(len(values), dtype=object)
        out[:] = [untag(cell["float"]) if isinstance(cell, dict) else cell for cell in values]
        return out
    if dtype.kind == "c":
        values = [untag(value) for value in values]
    return np.array(values, dtype=dtype).reshape(len(values))  # floats read the tags as float() does


def _floats(rows):
    array = np.array(rows, dtype=float)  # a tag ("nan", "inf", "-inf") reads back as float() reads it
    return array.reshape(len(rows), -1) if len(rows) else array.reshape(0, 0)
