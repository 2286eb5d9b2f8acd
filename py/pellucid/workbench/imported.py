"""What the page is told of an imported model, so it shows the file and not the page's own settings: the
learner, target, features and training rows the file records, the preprocessing the file holds (what
Apply uses), the commands that need the data it was trained on (and why they cannot run), and, when the
loaded table has the model's columns and its target, the model's score on that table, named as such.

An imported model was trained elsewhere: it has no training, validation or test rows here. The only honest
score is on rows this page holds, and only when they carry the model's columns and target; otherwise the
reply says why there is none, and never reports a score over no rows.
"""

import numpy as np

from ..core.errors import DataError
from ..preprocessing.columns import missing
from . import readouts
from .apply import model_columns, rows_it_can_read
from .summaries import summary

SCORED = ("classification", "regression")  # the tasks whose model can be scored against a target

# The commands that replay or reproduce the training, with why they cannot for a model without its data;
# the page disables their controls with these words (an imported model still exports, applies and draws
# its tree).
NEEDS_TRAINING = {
    "export_predictions": "The predictions are of the rows a model was trained and tested on; this model was "
                          "imported without them. Use Apply to new data to predict a CSV with it.",
    "export_python": "The script reproduces a training on the page; this model was imported, not trained here.",
    "export_sklearn": "The scikit-learn script trains on the rows this model was trained on, which its file "
                      "does not hold.",
    "check_twin": "scikit-learn's model is fitted on the rows this model was trained on, which its file does "
                  "not hold.",
    "timeline": "The steps are replayed on the training rows, which the model file does not hold.",
}


def file_steps(preprocessor):
    """The preprocessing steps the page shows (the shape of workbench.prepare.steps), read off the fitted
    Preprocessor of a model file: the values it fills in, its means and scales, the categories it one-hot
    encodes. How many cells were missing in training is not in the file, so "missing" is None."""
    if preprocessor is None:
        return []
    out = []
    imputer = getattr(preprocessor, "imputer_", None)
    if imputer is not None:
        out.append({"step": "impute", "strategy": preprocessor.impute, "columns": list(imputer.statistics_),
                    "missing": None, "values": dict(imputer.statistics_), "rows_dropped": 0, "from_file": True})
    scaler = getattr(preprocessor, "scaler_", None)
    if scaler is not None and scaler.mean_:
        out.append({"step": "standardize", "columns": list(scaler.mean_), "mean": list(scaler.mean_.values()),
                    "scale": list(scaler.scale_.values()), "from_file": True})
    encoder = getattr(preprocessor, "encoder_", None)
    if encoder is not None:
        out.append({"step": "one_hot", "columns": list(encoder.categories_),
                    "categories": list(encoder.categories_.values()), "from_file": True})
    return out


def about(run):
    """[(label, value)]: what the file says the model is, for the summary beside the result (the fitted
    model's own summary, its weights or its tree's size, follows it)."""
    rows = [["Learner", run.label], ["Target", run.target if run.target is not None else "none (no target)"],
            ["Features", f"{len(run.features)}: {', '.join(run.features)}"]]
    trained = run.setup.get("trained_rows")
    rows.append(["Trained on", f"{trained:,} rows" if trained is not None else "not recorded in the file"])
    return rows


def score_on(run, table, name):
    """{"metrics": {"loaded": report}, "scored_on": {table, rows, of}} for `run` on every row of the loaded
    `table` it can score, or {"not_scored": why} when there is none to score: a model without a target, a
    table without the model's columns or target, or no row with them all."""
    if run.task not in SCORED:
        return {"not_scored": f"A {run.task} model has no target to score it against."}
    if table is None:
        return {"not_scored": "No table is loaded to score it on."}
    if run.target is None or run.target not in table.columns:
        target = repr(run.target) if run.target is not None else "its target (the file does not name it)"
        return {"not_scored": f"The loaded table ({name}) has no column {target}, so the model cannot be scored "
                              "on it."}
    try:
        X, _ = model_columns(run, table)
    except DataError as exc:
        return {"not_scored": f"The loaded table ({name}) cannot be scored: {exc}"}
    y = table.column(run.target)
    usable = rows_it_can_read(run, X) & ~missing(y, table.kinds[run.target])  # (n,) bool
    rows = np.flatnonzero(usable)
    if not len(rows):
        return {"not_scored": f"No row of the loaded table ({name}) has the target and every column the model "
                              "reads."}
    predicted = np.full(table.n_rows, None, dtype=object)
    predicted[rows] = run.estimator.predict(run.prepare(X.take(rows)))
    if run.task == "classification":
        y, predicted = _as_labels(y), _as_labels(predicted)
        labels = readouts.class_labels(y[rows], predicted[rows])
        report = readouts.classifier_metrics(y, predicted, rows, labels)
    else:
        report = readouts.regressor_metrics(np.asarray(y, dtype=float), predicted.astype(float), rows)
    return {"metrics": {"loaded": report}, "scored_on": {"table": name, "rows": int(len(rows)), "of": table.n_rows}}


def _as_labels(values):
    """Class labels as text, so the table's "1" and a model's 1 are one class (the page shows them as text);
    a row without a value ("") is never among the rows scored."""
    return np.array(["" if v is None else str(v) for v in np.asarray(values, dtype=object)], dtype=str)


def reply(run, table=None, name=None):
    """The imported model's reply, before the views are decided (workbench.showing): the file's facts, its
    preprocessing, what needs the training rows, and its score on the loaded table or why there is none."""
    out = {"imported": True, "preprocessing": file_steps(run.preprocessor),
           "summary": about(run) + summary(run.estimator),
           "unavailable": dict(NEEDS_TRAINING), "trained_rows": run.setup.get("trained_rows")}
    out.update(score_on(run, table, name))
    return out
